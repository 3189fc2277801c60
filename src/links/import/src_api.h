/*
 * src_api.h -- what the importers of HTTP APIs share (src_shlink.c,
 * src_kutt.c, src_bitly.c): their client and its key, their GETs with
 * the import stopped on failure, the items of their pages into the
 * engine, and the links whose history is pending.
 */
#ifndef LZ_IMPORT_SRC_API_H
#define LZ_IMPORT_SRC_API_H

#include <stddef.h>

struct api_source;
struct import_item;
struct import_opts;
struct import_run;
struct import_stats;
struct lz_conf;
struct lz_db;
struct store_import_pending;

struct api_run {
	struct lz_db			*db;
	const struct lz_conf		*conf;
	const char			*source;	/* "shlink", ... */
	const char			*name;		/* "Shlink", ... */
	const char			*keyname;	/* "API key", ... */
	struct http			*http;
	const char			*hdrs[2];	/* the key's, NULL */
	char				*keyhdr;
	char				*base;		/* https://HOST */
	struct import_run		*run;
	const struct import_opts	*o;
	struct import_stats		*st;
};

/* Starts the import of source from src->base (def when it has none)
 * with the key's header keyfmt ("X-Api-Key: %s").  0, or -1 when it
 * cannot start (then api_end() says why). */
int	api_begin(struct api_run *, struct lz_db *, const struct lz_conf *,
	    const char *source, const char *name, const char *keyname,
	    const struct api_source *src, const char *def,
	    const char *keyfmt, const struct import_opts *,
	    struct import_stats *);

/* The body of GET base + path (NUL-terminated, the caller frees) and
 * its length; NULL when it failed: the import is stopped, what naming
 * what was asked in why. */
char	*api_get(struct api_run *, const char *path, const char *what,
	    size_t *len);

/* An api_item_fn (apis.h) of arg an api_run: the item added, or
 * refused as the parser said. */
void	 api_item(struct import_item *, const char *code, const char *msg,
	    void *arg);

/* The links of the run's account whose history from its source is
 * pending, copied. */
struct api_pending {
	struct store_import_pending	*v;
	size_t				 n, cap;
};
int	 api_pending(struct api_run *, struct api_pending *);
void	 api_pending_free(struct api_pending *);

/* A source whose links have a count and no clicks: each pending link's
 * history ended at once, which sets its count (history.h).  0 or -1. */
int	 api_counts(struct api_run *);

/* The import's end: import_end()'s answer. */
int	 api_end(struct api_run *);

#endif
