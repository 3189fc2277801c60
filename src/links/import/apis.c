/*
 * apis.c -- the pages of Shlink's, Kutt's and Bitly's APIs into import
 * items (apis.h).  Pure: no network, no database.
 *
 * What each field becomes is lzctl(8)'s list, "import shlink" and the
 * others; what lz has no place for is left out here.  Values the create
 * path checks (URLs, slugs, tags, times to come) are handed on as the
 * source has them, so an item lz refuses is refused by the same rules,
 * with the same words, as a link made through the API.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "import/apis.h"
#include "import/history.h"
#include "import/import.h"
#include "lztime.h"
#include "util.h"

#define TITLE_CHARS	500	/* lz's title, in characters */

/* Bitly's own short domains: their bitlinks land on the import's
 * domain, which an lz instance cannot be. */
static const char *const bitly_shared[] = { "bit.ly", "j.mp", "bitly.is",
    "bitly.com", NULL };

/* The page's root object, or NULL with why. */
static json_t *
load(const char *body, size_t len, char *err, size_t errlen)
{
	json_error_t	 je;
	json_t		*j;

	if ((j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je)) ==
	    NULL) {
		snprintf(err, errlen, "the answer is not JSON (%s, line %d)",
		    je.text, je.line);
		return NULL;
	}
	if (!json_is_object(j)) {
		snprintf(err, errlen, "the answer is not a JSON object");
		json_decref(j);
		return NULL;
	}
	return j;
}

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* An integer member into *v: 1, or 0 when it is not one. */
static int
num(const json_t *o, const char *key, long long *v)
{
	json_t	*j = json_object_get(o, key);

	if (!json_is_integer(j))
		return 0;
	*v = json_integer_value(j);
	return 1;
}

json_t *
import_title(const char *s)
{
	char	*t, *p, *e;
	json_t	*j;
	long	 chars = 0;

	if (s == NULL)
		return NULL;
	t = xstrdup(s);
	for (p = t; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
		if (((unsigned char)*p & 0xc0) != 0x80 && chars++ ==
		    TITLE_CHARS) {
			*p = '\0';
			break;
		}
	}
	p = t + strspn(t, " ");
	for (e = p + strlen(p); e > p && e[-1] == ' '; e--)
		e[-1] = '\0';
	j = *p != '\0' ? json_string(p) : NULL;
	free(t);
	return j;
}

/* The strings of an array, as tags (lz trims, folds and bounds them);
 * NULL when there are none. */
static json_t *
tags_of(const json_t *arr)
{
	json_t	*out, *v;
	size_t	 i;

	if (!json_is_array(arr) || json_array_size(arr) == 0)
		return NULL;
	out = json_array();
	json_array_foreach(arr, i, v)
		if (json_is_string(v) && json_string_length(v) > 0)
			json_array_append(out, v);
	if (json_array_size(out) == 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* ISO 8601 in ms; 0 when absent or not one (an unknown time). */
static int64_t
time_of(const char *s)
{
	int64_t	 ms;

	return s != NULL && lz_time_parse_iso(s, &ms) == 0 ? ms : 0;
}

static void
refuse(api_item_fn *fn, void *arg, const char *id, const char *code,
    const char *msg)
{
	struct import_item	 it;

	memset(&it, 0, sizeof(it));
	it.id = id;
	it.total_clicks = -1;
	fn(&it, code, msg, arg);
}

/* A page's paging object into pg (the keys of Shlink's). */
static int
shlink_paging(const json_t *p, struct api_page *pg, char *err,
    size_t errlen)
{
	long long	 cur, pages, per = -1, total = -1;

	if (!json_is_object(p) || !num(p, "currentPage", &cur) ||
	    !num(p, "pagesCount", &pages) || cur < 1 || pages < 0 ||
	    pages > 100000000 || cur > 100000000) {
		snprintf(err, errlen, "the page has no pagination "
		    "(currentPage, pagesCount)");
		return -1;
	}
	(void)num(p, "itemsPerPage", &per);
	(void)num(p, "totalItems", &total);
	pg->page = (long)cur;
	pg->pages = (long)pages;
	pg->per_page = per >= -1 && per <= 100000000 ? (long)per : -1;
	pg->total = total >= -1 && total <= 1000000000000LL ? (long)total :
	    -1;
	return 0;
}

static void
shlink_item(const json_t *o, size_t i, const char *domain, api_item_fn *fn,
    void *arg)
{
	struct import_item	 it;
	const json_t		*meta, *sum;
	const char		*code, *url, *dom, *s;
	char			*id, where[48];
	long long		 n, total = -1;
	json_t			*b, *v;

	snprintf(where, sizeof(where), "item %zu of the page", i + 1);
	if (!json_is_object(o) || (code = str(o, "shortCode")) == NULL) {
		refuse(fn, arg, where, "invalid_field", "The item has no "
		    "shortCode.");
		return;
	}
	dom = str(o, "domain");
	id = xasprintf("%s/%s", dom ? dom : "", code);
	if ((url = str(o, "longUrl")) == NULL) {
		refuse(fn, arg, id, "invalid_field", "The item has no "
		    "longUrl.");
		free(id);
		return;
	}
	b = json_pack("{s:s}", "target_url", url);
	if ((v = import_title(str(o, "title"))) != NULL)
		json_object_set_new(b, "title", v);
	if ((v = tags_of(json_object_get(o, "tags"))) != NULL)
		json_object_set_new(b, "tags", v);
	if (dom != NULL || domain != NULL)
		json_object_set_new(b, "domain", json_string(dom ? dom :
		    domain));
	meta = json_object_get(o, "meta");
	if ((s = str(meta, "validUntil")) != NULL)
		json_object_set_new(b, "expires_at", json_string(s));
	if (num(meta, "maxVisits", &n) && n > 0)
		json_object_set_new(b, "max_clicks", json_integer(n));
	/* lz counts people: Shlink's count of them when it has one. */
	sum = json_object_get(o, "visitsSummary");
	if (!num(sum, "nonBots", &total) && !num(sum, "total", &total) &&
	    !num(o, "visitsCount", &total))
		total = -1;
	if (total < -1 || total > INT64_MAX / 4)
		total = -1;
	it = (struct import_item){ .body = b, .id = id, .slug = code,
	    .created_at = time_of(str(o, "dateCreated")),
	    .total_clicks = total, .history = 1 };
	fn(&it, NULL, NULL, arg);
	json_decref(it.body);	/* NULL when taken */
	free(id);
}

int
shlink_links(const char *body, size_t len, const char *domain,
    api_item_fn *fn, void *arg, struct api_page *pg, char *err,
    size_t errlen)
{
	json_t		*j, *urls, *data, *o;
	size_t		 i;
	int		 rc = -1;

	memset(pg, 0, sizeof(*pg));
	if ((j = load(body, len, err, errlen)) == NULL)
		return -1;
	urls = json_object_get(j, "shortUrls");
	data = json_object_get(urls, "data");
	if (!json_is_array(data)) {
		snprintf(err, errlen, "the answer has no shortUrls.data: not "
		    "Shlink's REST API v3?");
		goto out;
	}
	if (shlink_paging(json_object_get(urls, "pagination"), pg, err,
	    errlen) == -1)
		goto out;
	pg->count = (long)json_array_size(data);
	json_array_foreach(data, i, o)
		shlink_item(o, i, domain, fn, arg);
	rc = 0;
out:
	json_decref(j);
	return rc;
}

int
shlink_visits(const char *body, size_t len, struct shlink_visits *sv,
    char *err, size_t errlen)
{
	json_t			*visits, *data, *o;
	struct import_click	*c;
	size_t			 i;

	memset(sv, 0, sizeof(*sv));
	if ((sv->root = load(body, len, err, errlen)) == NULL)
		return -1;
	visits = json_object_get(sv->root, "visits");
	data = json_object_get(visits, "data");
	if (!json_is_array(data)) {
		snprintf(err, errlen, "the answer has no visits.data");
		return -1;
	}
	if (shlink_paging(json_object_get(visits, "pagination"), &sv->pg,
	    err, errlen) == -1)
		return -1;
	sv->n = json_array_size(data);
	sv->pg.count = (long)sv->n;
	sv->v = xcalloc(sv->n ? sv->n : 1, sizeof(*sv->v));
	json_array_foreach(data, i, o) {
		c = &sv->v[i];
		c->at = time_of(str(o, "date"));
		c->referrer = str(o, "referer");
		c->user_agent = str(o, "userAgent");
		c->country = str(json_object_get(o, "visitLocation"),
		    "countryCode");
		c->addr = NULL;		/* Shlink keeps none to give */
		c->bot = json_is_true(json_object_get(o, "potentialBot"));
	}
	return 0;
}

void
shlink_visits_free(struct shlink_visits *sv)
{
	json_decref(sv->root);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

static void
kutt_item(const json_t *o, size_t i, const char *domain, api_item_fn *fn,
    void *arg)
{
	struct import_item	 it;
	const char		*addr, *url, *dom, *s;
	char			*id, where[48];
	long long		 total = -1;
	json_t			*b, *v;

	snprintf(where, sizeof(where), "item %zu of the page", i + 1);
	if (!json_is_object(o) || (addr = str(o, "address")) == NULL) {
		refuse(fn, arg, where, "invalid_field", "The item has no "
		    "address.");
		return;
	}
	dom = str(o, "domain");
	/* Kutt's id stays when its address is edited there. */
	if ((s = str(o, "id")) != NULL && *s != '\0')
		id = xstrdup(s);
	else
		id = xasprintf("%s/%s", dom ? dom : "", addr);
	if (json_is_true(json_object_get(o, "password"))) {
		refuse(fn, arg, id, "password_not_portable", "Kutt keeps only "
		    "a hash of its password: make it again in lz with a "
		    "password of your choosing.");
		goto out;
	}
	if (json_is_true(json_object_get(o, "banned"))) {
		refuse(fn, arg, id, "banned_at_source", "Kutt banned it.");
		goto out;
	}
	if ((url = str(o, "target")) == NULL) {
		refuse(fn, arg, id, "invalid_field", "The item has no "
		    "target.");
		goto out;
	}
	b = json_pack("{s:s}", "target_url", url);
	if ((v = import_title(str(o, "description"))) != NULL)
		json_object_set_new(b, "title", v);
	if (dom != NULL || domain != NULL)
		json_object_set_new(b, "domain", json_string(dom ? dom :
		    domain));
	if ((s = str(o, "expire_in")) != NULL)
		json_object_set_new(b, "expires_at", json_string(s));
	if (!num(o, "visit_count", &total) || total < 0 ||
	    total > INT64_MAX / 4)
		total = -1;
	/* Kutt has no visits to give, only their count: a history of
	 * none, whose end sets it (history.h). */
	it = (struct import_item){ .body = b, .id = id, .slug = addr,
	    .created_at = time_of(str(o, "created_at")),
	    .total_clicks = total, .history = total > 0 };
	fn(&it, NULL, NULL, arg);
	json_decref(it.body);
out:
	free(id);
}

int
kutt_links(const char *body, size_t len, const char *domain,
    api_item_fn *fn, void *arg, struct api_page *pg, char *err,
    size_t errlen)
{
	json_t		*j, *data, *o;
	long long	 total, limit = -1;
	size_t		 i;
	int		 rc = -1;

	memset(pg, 0, sizeof(*pg));
	if ((j = load(body, len, err, errlen)) == NULL)
		return -1;
	data = json_object_get(j, "data");
	if (!json_is_array(data) || !num(j, "total", &total) || total < 0 ||
	    total > 1000000000000LL) {
		snprintf(err, errlen, "the answer has no data and total: not "
		    "Kutt's API v2?");
		goto out;
	}
	(void)num(j, "limit", &limit);
	pg->total = (long)total;
	pg->per_page = limit >= 0 && limit <= 100000000 ? (long)limit : -1;
	pg->count = (long)json_array_size(data);
	json_array_foreach(data, i, o)
		kutt_item(o, i, domain, fn, arg);
	rc = 0;
out:
	json_decref(j);
	return rc;
}

int
bitly_groups(const char *body, size_t len, void (*fn)(const char *, void *),
    void *arg, char *err, size_t errlen)
{
	json_t		*j, *groups, *g;
	const char	*guid;
	size_t		 i;
	int		 rc = -1;

	if ((j = load(body, len, err, errlen)) == NULL)
		return -1;
	if (!json_is_array(groups = json_object_get(j, "groups"))) {
		snprintf(err, errlen, "the answer has no groups");
		goto out;
	}
	json_array_foreach(groups, i, g)
		if ((guid = str(g, "guid")) != NULL && *guid != '\0')
			fn(guid, arg);
	rc = 0;
out:
	json_decref(j);
	return rc;
}

/* A short URL's "host/key" (scheme taken off) into its host and key;
 * 0, or -1 when it has no key. */
static int
split_short(const char *s, char **host, char **key)
{
	const char	*p, *slash;

	if ((p = strstr(s, "://")) != NULL)
		s = p + 3;
	if ((slash = strchr(s, '/')) == NULL || slash == s ||
	    slash[1] == '\0')
		return -1;
	*host = xstrndup(s, (size_t)(slash - s));
	*key = xstrdup(slash + 1);
	return 0;
}

static int
shared(const char *host)
{
	size_t	 i;

	for (i = 0; bitly_shared[i] != NULL; i++)
		if (strcasecmp(host, bitly_shared[i]) == 0)
			return 1;
	return 0;
}

/* One short URL of a bitlink (its own or a custom one) as an item of
 * body b (copied). */
static void
bitly_one(const char *shorturl, const json_t *b, const char *domain,
    int64_t created, int primary, api_item_fn *fn, void *arg)
{
	struct import_item	 it;
	const char		*id;
	char			*host, *key;
	json_t			*mine;

	id = strstr(shorturl, "://") ? strstr(shorturl, "://") + 3 : shorturl;
	if (split_short(shorturl, &host, &key) == -1) {
		refuse(fn, arg, shorturl, "invalid_field", "It is not a "
		    "short URL of a domain and a key.");
		return;
	}
	mine = json_deep_copy(b);
	if (!shared(host))
		json_object_set_new(mine, "domain", json_string(host));
	else if (domain != NULL)
		json_object_set_new(mine, "domain", json_string(domain));
	it = (struct import_item){ .body = mine, .id = id, .slug = key,
	    .created_at = created, .total_clicks = -1, .history = primary };
	fn(&it, NULL, NULL, arg);
	json_decref(it.body);
	free(host);
	free(key);
}

static void
bitly_item(const json_t *o, size_t i, const char *domain, api_item_fn *fn,
    void *arg)
{
	const char	*id, *url, *s;
	char		 where[48];
	int64_t		 created;
	json_t		*b, *v, *custom;
	size_t		 k;

	snprintf(where, sizeof(where), "item %zu of the page", i + 1);
	if (!json_is_object(o) || (id = str(o, "id")) == NULL) {
		refuse(fn, arg, where, "invalid_field", "The bitlink has no "
		    "id.");
		return;
	}
	if ((url = str(o, "long_url")) == NULL) {
		refuse(fn, arg, id, "invalid_field", "The bitlink has no "
		    "long_url.");
		return;
	}
	b = json_pack("{s:s}", "target_url", url);
	if ((v = import_title(str(o, "title"))) != NULL)
		json_object_set_new(b, "title", v);
	if ((v = tags_of(json_object_get(o, "tags"))) != NULL)
		json_object_set_new(b, "tags", v);
	if (json_is_true(json_object_get(o, "archived")))
		json_object_set_new(b, "archived", json_true());
	created = time_of(str(o, "created_at"));
	bitly_one(id, b, domain, created, 1, fn, arg);
	/* Each custom bitlink is one more short URL of it, on its own
	 * domain: a link of its own in lz. */
	custom = json_object_get(o, "custom_bitlinks");
	json_array_foreach(custom, k, v)
		if ((s = json_string_value(v)) != NULL)
			bitly_one(s, b, domain, created, 0, fn, arg);
	json_decref(b);
}

int
bitly_links(const char *body, size_t len, const char *domain,
    api_item_fn *fn, void *arg, struct api_page *pg, char *err,
    size_t errlen)
{
	json_t		*j, *links, *o;
	const char	*next;
	size_t		 i;
	int		 rc = -1;

	memset(pg, 0, sizeof(*pg));
	if ((j = load(body, len, err, errlen)) == NULL)
		return -1;
	if (!json_is_array(links = json_object_get(j, "links"))) {
		snprintf(err, errlen, "the answer has no links: not Bitly's "
		    "API v4?");
		goto out;
	}
	next = str(json_object_get(j, "pagination"), "search_after");
	if (next != NULL && strlen(next) >= sizeof(pg->next)) {
		snprintf(err, errlen, "its search_after is too long");
		goto out;
	}
	snprintf(pg->next, sizeof(pg->next), "%s", next ? next : "");
	pg->count = (long)json_array_size(links);
	json_array_foreach(links, i, o)
		bitly_item(o, i, domain, fn, arg);
	rc = 0;
out:
	json_decref(j);
	return rc;
}

int
bitly_clicks(const char *body, size_t len, int64_t *total, char *err,
    size_t errlen)
{
	json_t		*j;
	long long	 n;
	int		 rc = -1;

	if ((j = load(body, len, err, errlen)) == NULL)
		return -1;
	if (!num(j, "total_clicks", &n) || n < 0 || n > INT64_MAX / 4)
		snprintf(err, errlen, "the answer has no total_clicks");
	else {
		*total = n;
		rc = 0;
	}
	json_decref(j);
	return rc;
}
