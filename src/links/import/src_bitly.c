/*
 * src_bitly.c -- the Bitly source of an import (apis.h, lzctl(8) import
 * bitly): its API v4, the bitlinks of each group (or of the one asked),
 * followed by search_after.  Bitly answers too many requests with 429:
 * http.c waits as told.  With clicks, each new bitlink's total is asked
 * from its clicks summary (a request a link, so only when asked) and set
 * once the links are in (api_counts()); Bitly gives no click itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "import/apis.h"
#include "import/http.h"
#include "import/import.h"
#include "import/src_api.h"
#include "store/links.h"
#include "util.h"

#define BITLY_API	"https://api-ssl.bitly.com"
#define LINKS_PAGE	100	/* bitlinks asked a page: Bitly's most */
#define PAGES_MAX	10000000

struct brun {
	struct api_run	 x;
	int		 clicks;
	char		**groups;
	size_t		 ngroups;
};

/* A bitlink's total clicks: 0, or -1 (the import stopped). */
static int
total_of(struct brun *b, const char *id, int64_t *total)
{
	const char	*slash = strchr(id, '/');
	char		*host, *key, *path, *body, err[300], what[300];
	size_t		 len;
	int		 rc;

	if (slash == NULL) {
		import_fail(b->x.run, -2, "Bitly: %s is not DOMAIN/KEY", id);
		return -1;
	}
	key = xstrndup(id, (size_t)(slash - id));
	host = http_escape(b->x.http, key);
	free(key);
	key = http_escape(b->x.http, slash + 1);
	path = xasprintf("/v4/bitlinks/%s/%s/clicks/summary?unit=day&"
	    "units=-1", host, key);
	snprintf(what, sizeof(what), "the clicks of %.200s", id);
	body = api_get(&b->x, path, what, &len);
	free(path);
	free(host);
	free(key);
	if (body == NULL)
		return -1;
	rc = bitly_clicks(body, len, total, err, sizeof(err));
	free(body);
	if (rc == -1)
		import_fail(b->x.run, -2, "Bitly, %s: %s", what, err);
	return rc;
}

/* An item of a page; with clicks, a new bitlink's total asked first. */
static void
item(struct import_item *it, const char *code, const char *msg, void *arg)
{
	struct brun	*b = arg;
	int64_t		 total;
	int		 seen;

	if (it->body != NULL && it->history) {
		it->history = 0;
		/* Imported before: it is left alone, its count too. */
		if (b->clicks && (seen = store_import_seen(b->x.db,
		    b->x.o->account_id, b->x.source, it->id)) != 1) {
			if (seen == -1) {
				import_fail(b->x.run, -1, "the imported links "
				    "could not be read");
				return;
			}
			if (total_of(b, it->id, &total) == -1)
				return;
			it->total_clicks = total;
			it->history = total > 0;
		}
	}
	api_item(it, code, msg, &b->x);
}

static void
add_group(const char *guid, void *arg)
{
	struct brun	*b = arg;

	b->groups = xreallocarray(b->groups, b->ngroups + 1,
	    sizeof(*b->groups));
	b->groups[b->ngroups++] = xstrdup(guid);
}

/* The groups the token sees.  0, or -1. */
static int
groups(struct brun *b)
{
	char	*body, err[300];
	size_t	 len;
	int	 rc;

	if ((body = api_get(&b->x, "/v4/groups", "the groups", &len)) ==
	    NULL)
		return -1;
	rc = bitly_groups(body, len, add_group, b, err, sizeof(err));
	free(body);
	if (rc == -1)
		import_fail(b->x.run, -2, "Bitly, the groups: %s", err);
	return rc;
}

/* The bitlinks of group guid, page by page.  0, or -1. */
static int
links(struct brun *b, const char *guid)
{
	struct api_page	 pg;
	char		*path, *body, *eguid, *after, err[300], what[200];
	char		 prev[sizeof(pg.next)] = "";
	size_t		 len;
	long		 page;
	int		 rc;

	eguid = http_escape(b->x.http, guid);
	for (page = 1; page <= PAGES_MAX; page++) {
		after = http_escape(b->x.http, prev);
		path = xasprintf("/v4/groups/%s/bitlinks?size=%d%s%s", eguid,
		    LINKS_PAGE, *prev ? "&search_after=" : "", after);
		free(after);
		snprintf(what, sizeof(what), "the bitlinks of group %.100s, "
		    "page %ld", guid, page);
		body = api_get(&b->x, path, what, &len);
		free(path);
		if (body == NULL)
			break;
		rc = bitly_links(body, len, b->x.o->domain, item, b, &pg, err,
		    sizeof(err));
		free(body);
		if (rc == -1) {
			import_fail(b->x.run, -2, "Bitly, %s: %s", what, err);
			break;
		}
		if (import_failed(b->x.run) || pg.count == 0 ||
		    pg.next[0] == '\0')
			break;
		/* The same place again would never end. */
		if (strcmp(pg.next, prev) == 0) {
			import_fail(b->x.run, -2, "Bitly, %s: search_after did "
			    "not move", what);
			break;
		}
		memcpy(prev, pg.next, sizeof(prev));
	}
	free(eguid);
	return import_failed(b->x.run) ? -1 : 0;
}

int
import_bitly(struct lz_db *db, const struct lz_conf *conf,
    const struct api_source *src, const struct import_opts *o,
    struct import_stats *st)
{
	struct brun	 b;
	size_t		 i;

	memset(&b, 0, sizeof(b));
	b.clicks = src->clicks;
	if (api_begin(&b.x, db, conf, "bitly", "Bitly", "token", src,
	    BITLY_API, "Authorization: Bearer %s", o, st) == 0) {
		if (src->group != NULL)
			add_group(src->group, &b);
		else
			(void)groups(&b);
		for (i = 0; i < b.ngroups && !import_failed(b.x.run); i++)
			(void)links(&b, b.groups[i]);
		import_drain(b.x.run);
		if (!import_failed(b.x.run) && !o->dry && b.clicks)
			api_counts(&b.x);
	}
	for (i = 0; i < b.ngroups; i++)
		free(b.groups[i]);
	free(b.groups);
	return api_end(&b.x);
}
