/*
 * src_shlink.c -- the Shlink source of an import (apis.h, lzctl(8)
 * import shlink): its REST API v3, the short URLs page by page, then
 * each new link's visits (history.h).
 *
 * Shlink gives a short URL's visits newest first, and a position in
 * that order moves with every new visit.  So the visits are asked up to
 * the time the import started (endDate: later ones are not seen, their
 * count stays fixed) and read from the last page back to the first,
 * each page backwards: oldest first, as history_add() wants them, each
 * at its place counted from the oldest, which stays put.  Only a page
 * is held at a time, and an import run again asks only the pages of
 * visits it has not moved yet.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/apis.h"
#include "import/history.h"
#include "import/http.h"
#include "import/import.h"
#include "import/src_api.h"
#include "lztime.h"
#include "store/links.h"
#include "util.h"

#define LINKS_PAGE	200	/* short URLs asked a page */
#define VISITS_PAGE	1000	/* visits asked a page */
#define PAGES_MAX	10000000

/* A page of visits of short URL code (on domain, "" Shlink's default)
 * up to end.  0, or -1 (the import stopped). */
static int
visits_page(struct api_run *x, const char *code, const char *domain,
    const char *end, long page, struct shlink_visits *sv)
{
	char	*path, *ecode, *edom, *eend, *body, err[300], what[120];
	size_t	 len;
	int	 rc;

	memset(sv, 0, sizeof(*sv));
	ecode = http_escape(x->http, code);
	edom = http_escape(x->http, domain);
	eend = http_escape(x->http, end);
	path = xasprintf("/rest/v3/short-urls/%s/visits?page=%ld&"
	    "itemsPerPage=%d&endDate=%s%s%s", ecode, page, VISITS_PAGE, eend,
	    *domain ? "&domain=" : "", edom);
	snprintf(what, sizeof(what), "the visits of %s/%s, page %ld", domain,
	    code, page);
	body = api_get(x, path, what, &len);
	free(path);
	free(ecode);
	free(edom);
	free(eend);
	if (body == NULL)
		return -1;
	rc = shlink_visits(body, len, sv, err, sizeof(err));
	free(body);
	if (rc == -1) {
		import_fail(x->run, -2, "Shlink, %s: %s", what, err);
		shlink_visits_free(sv);
	}
	return rc;
}

/* The visits of pending link p, from where it got to.  0, or -1 (the
 * import stopped). */
static int
one_history(struct api_run *x, const struct store_import_pending *p,
    const char *end, uint64_t *done)
{
	struct shlink_visits	 first, sv, *cur;
	struct history		*h;
	const char		*slash = strchr(p->id, '/');
	char			*domain, *code;
	int64_t			 total, per, next = p->pos + 1, pos;
	long			 page;
	size_t			 i;
	int			 rc = -1;

	if (slash == NULL) {
		import_fail(x->run, -2, "Shlink: %s is not DOMAIN/CODE", p->id);
		return -1;
	}
	domain = xstrndup(p->id, (size_t)(slash - p->id));
	code = xstrdup(slash + 1);
	if (visits_page(x, code, domain, end, 1, &first) == -1)
		goto out;
	total = first.pg.total;
	per = first.pg.per_page > 0 ? first.pg.per_page : (int64_t)first.n;
	if (total < 0 || (first.pg.pages > 1 && per <= 0) ||
	    first.pg.pages > PAGES_MAX) {
		import_fail(x->run, -2, "Shlink, the visits of %s: no "
		    "totalItems or itemsPerPage in their pagination", p->id);
		goto free1;
	}
	if ((h = history_begin(x->db, x->conf, p, x->st)) == NULL) {
		import_fail(x->run, -1, "the link of %s could not be read",
		    p->id);
		goto free1;
	}
	for (page = first.pg.pages; page >= 1; page--) {
		/* Its newest visit moved already: nothing of it is new. */
		if (total - (page - 1) * per <= p->pos)
			continue;
		if (page == 1)
			cur = &first;
		else if (visits_page(x, code, domain, end, page, &sv) == -1)
			break;
		else
			cur = &sv;
		if (cur->pg.total != total) {
			import_fail(x->run, -2, "Shlink, the visits of %s: "
			    "their number changed while they were read (%ld, "
			    "then %ld): run the import again", p->id,
			    (long)total, cur->pg.total);
			if (cur != &first)
				shlink_visits_free(cur);
			break;
		}
		for (i = cur->n; i-- > 0;) {
			pos = total - ((page - 1) * per + (int64_t)i);
			if (pos <= p->pos)
				continue;
			if (pos != next)
				break;
			next++;
			/* A visit without a time keeps its place. */
			if (cur->v[i].at <= 0)
				continue;
			if (history_add(h, pos, &cur->v[i]) == -1) {
				import_fail(x->run, -1, "the clicks of %s "
				    "could not be written: run the import "
				    "again to go on", p->id);
				break;
			}
			if (x->o->progress != NULL && ++*done % 1000 == 0)
				x->o->progress("clicks", *done, 0);
		}
		if (cur != &first)
			shlink_visits_free(cur);
		if (import_failed(x->run))
			break;
		if (next != total - (page - 1) * per + 1) {
			import_fail(x->run, -2, "Shlink, the visits of %s, "
			    "page %ld: not the %ld visits its pagination "
			    "promised", p->id, page, (long)per);
			break;
		}
	}
	if (!import_failed(x->run) && next != total + 1 && total > p->pos)
		import_fail(x->run, -2, "Shlink, the visits of %s: %ld of %ld "
		    "read", p->id, (long)(next - 1), (long)total);
	rc = import_failed(x->run) ? -1 : 0;
	if (history_end(h, rc == 0) == -1 && rc == 0) {
		import_fail(x->run, -1, "the clicks of %s could not be "
		    "written: run the import again to go on", p->id);
		rc = -1;
	}
	/* links_history: counted by history.c with the link's last
	 * transaction. */
free1:
	shlink_visits_free(&first);
out:
	free(domain);
	free(code);
	return rc;
}

/* The history of every pending link. */
static void
histories(struct api_run *x)
{
	struct api_pending	 pl;
	char			 end[32];
	uint64_t		 done = 0;
	size_t			 i;

	if (api_pending(x, &pl) == -1)
		return;
	lz_time_fmt_iso(lz_now_ms(), end, sizeof(end), 0);
	for (i = 0; i < pl.n; i++)
		if (one_history(x, &pl.v[i], end, &done) == -1)
			break;
	if (x->o->progress != NULL)
		x->o->progress("clicks", done, 0);
	api_pending_free(&pl);
}

/* The short URLs, page by page.  0, or -1. */
static int
links(struct api_run *x)
{
	struct api_page	 pg;
	char		*path, *body, err[300], what[48];
	size_t		 len;
	long		 page;
	int		 rc;

	for (page = 1; page <= PAGES_MAX; page++) {
		path = xasprintf("/rest/v3/short-urls?page=%ld&itemsPerPage=%d",
		    page, LINKS_PAGE);
		snprintf(what, sizeof(what), "the short URLs, page %ld", page);
		body = api_get(x, path, what, &len);
		free(path);
		if (body == NULL)
			return -1;
		rc = shlink_links(body, len, x->o->domain, api_item, x, &pg,
		    err, sizeof(err));
		free(body);
		if (rc == -1) {
			import_fail(x->run, -2, "Shlink, %s: %s", what, err);
			return -1;
		}
		if (import_failed(x->run))
			return -1;
		/* A server that ignores page would never end. */
		if (pg.page != page) {
			import_fail(x->run, -2, "Shlink, %s: page %ld came",
			    what, pg.page);
			return -1;
		}
		if (page >= pg.pages || pg.count == 0)
			break;
	}
	return 0;
}

int
import_shlink(struct lz_db *db, const struct lz_conf *conf,
    const struct api_source *src, const struct import_opts *o,
    struct import_stats *st)
{
	struct api_run	 x;

	if (api_begin(&x, db, conf, "shlink", "Shlink", "API key", src, NULL,
	    "X-Api-Key: %s", o, st) == 0 && links(&x) == 0) {
		/* The links all written, then their visits. */
		import_drain(x.run);
		if (!import_failed(x.run) && !o->dry)
			histories(&x);
	}
	return api_end(&x);
}
