/*
 * apis.h -- the importers that read another shortener's HTTP API
 * (lzctl(8) import shlink, kutt, bitly): where each one reads from, and
 * the parsers of each API's pages.
 *
 * The parsers (apis.c) are pure: a page's bytes in, the import items
 * and the paging out, so they are unit-fuzzed (t/fuzz/fuzz_shlink.c,
 * fuzz_kutt.c, fuzz_bitly.c) apart from the network (src_shlink.c,
 * src_kutt.c, src_bitly.c through http.h).  A page that is not the
 * API's shape fails whole; an item of it that cannot be mapped is
 * handed on refused, with why.
 */
#ifndef LZ_IMPORT_APIS_H
#define LZ_IMPORT_APIS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct import_click;
struct import_item;
struct import_opts;
struct import_stats;
struct lz_conf;
struct lz_db;

/* Where an API is (lzctl import shlink|kutt|bitly). */
struct api_source {
	const char	*base;		/* https://HOST: Shlink's, Kutt's;
					   Bitly's, NULL its own */
	const char	*key;		/* API key, Bitly's token */
	const char	*cacert;	/* a private CA (PEM); NULL system's */
	const char	*group;		/* Bitly: one group's GUID; NULL all */
	int		 clicks;	/* Bitly: each link's total asked */
};

/* Each moves the links of an API in, with what it has of their clicks
 * (history.h).  0; -1 when lz's database failed, -2 the API. */
int	import_shlink(struct lz_db *, const struct lz_conf *,
	    const struct api_source *, const struct import_opts *,
	    struct import_stats *);
int	import_kutt(struct lz_db *, const struct lz_conf *,
	    const struct api_source *, const struct import_opts *,
	    struct import_stats *);
int	import_bitly(struct lz_db *, const struct lz_conf *,
	    const struct api_source *, const struct import_opts *,
	    struct import_stats *);

/*
 * An item of a page: it->body its create body (the parser frees it
 * after the call unless it was taken, it->body set to NULL, as
 * import_add() does), or NULL when the item cannot be one, code and msg
 * then saying why; it->id is never NULL (what the source calls it, or
 * its place on the page).  Strings are the parser's, for the call
 * only.
 */
typedef void	api_item_fn(struct import_item *it, const char *code,
		    const char *msg, void *arg);

/* A page's place. */
struct api_page {
	long	 page, pages;	/* Shlink: currentPage, pagesCount */
	long	 per_page;	/* Shlink: itemsPerPage; Kutt: limit */
	long	 total;		/* Shlink: totalItems; Kutt: total */
	long	 count;		/* items on this page */
	char	 next[256];	/* Bitly: search_after; "" the last page */
};

/*
 * Shlink REST v3 /short-urls: {"shortUrls": {"data": [...],
 * "pagination": {...}}}.  Items have no domain where Shlink's is
 * Shlink's default: those get domain (NULL: lz's).  0, or -1 with why.
 */
int	shlink_links(const char *body, size_t len, const char *domain,
	    api_item_fn *, void *arg, struct api_page *, char *err,
	    size_t errlen);

/* A page of a short URL's visits as Shlink gives them, newest first;
 * a click of v[i] whose time is 0 could not be read (it keeps its
 * place). */
struct shlink_visits {
	json_t			*root;		/* the strings' owner */
	struct import_click	*v;
	size_t			 n;
	struct api_page		 pg;
};

/* Shlink REST v3 /short-urls/{code}/visits: {"visits": {"data": [...],
 * "pagination": {...}}}.  0, or -1 with why; free with
 * shlink_visits_free() either way. */
int	shlink_visits(const char *body, size_t len, struct shlink_visits *,
	    char *err, size_t errlen);
void	shlink_visits_free(struct shlink_visits *);

/* Kutt API v2 /links: {"data": [...], "total", "skip", "limit"}.
 * Password-protected links are refused (password_not_portable: Kutt
 * keeps only their hash), as are links Kutt banned.  0, or -1. */
int	kutt_links(const char *body, size_t len, const char *domain,
	    api_item_fn *, void *arg, struct api_page *, char *err,
	    size_t errlen);

/* Bitly API v4 /groups: fn with each group's GUID.  0, or -1. */
int	bitly_groups(const char *body, size_t len,
	    void (*fn)(const char *guid, void *), void *arg, char *err,
	    size_t errlen);

/*
 * Bitly API v4 /groups/{guid}/bitlinks: {"links": [...], "pagination":
 * {"search_after", ...}}.  Each bitlink is an item with history set
 * (its clicks may be asked), then each of its custom bitlinks one more
 * without (the same destination, on its own domain).  Bitlinks on
 * Bitly's own domains (bit.ly, j.mp, ...) go on domain (NULL: lz's).
 * 0, or -1.
 */
int	bitly_links(const char *body, size_t len, const char *domain,
	    api_item_fn *, void *arg, struct api_page *, char *err,
	    size_t errlen);

/* Bitly API v4 /bitlinks/{bitlink}/clicks/summary: {"total_clicks"}.
 * 0, or -1. */
int	bitly_clicks(const char *body, size_t len, int64_t *total, char *err,
	    size_t errlen);

/* A title lz takes of a source's: control characters as spaces, cut to
 * lz's 500 characters, spaces around it trimmed; NULL when nothing is
 * left (or not UTF-8).  Every source's (src_yourls.c too). */
json_t	*import_title(const char *s);

#endif
