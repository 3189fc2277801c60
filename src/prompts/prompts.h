/*
 * prompts.h -- the state of one lz-prompts process and what the handler
 * files share (like cgit's ctx and ui-shared.h).
 */
#ifndef LZ_PROMPTS_H
#define LZ_PROMPTS_H

#include <stdint.h>

#include <jansson.h>

#include "conf.h"
#include "db.h"
#include "metrics.h"
#include "query.h"
#include "req.h"
#include "route.h"

struct lz_rl;

struct prompts_ctx {
	struct lz_conf	*conf;
	struct lz_db	 db;		/* the open database, if any */
	int		 db_open;
	struct lz_rl	*rl;		/* shared by all workers */
	struct lz_metrics *metrics;	/* what the pool counts, the same way */
	/* The answer cache (cache.h, out_cached): the key of this
	 * request's answer while it is being rendered, and the times
	 * between which the visible prompts stay the same as when the
	 * cached answers were rendered. */
	struct lz_buf	 ckey;
	int		 ckey_pending;
	int64_t		 visible_from, visible_until;
};

extern struct prompts_ctx prompts;

/*
 * Operations (api_ops.c, DESIGN 8): GET /healthz, GET /metrics, and the
 * service's own metrics by index of ops_metrics[].
 */
enum {
	OPS_CACHE_HITS, OPS_CACHE_MISSES, OPS_CACHE_BYTES, OPS_LIMITED,
	OPS__MAX
};
enum { OPS_LIMIT_LIST, OPS_LIMIT_DETAIL };
extern const struct lz_metric_def ops_metrics[OPS__MAX];
/* The worker's answer cache's counts into the metrics, after a
 * request. */
void	ops_cache_sync(void);

/* Languages of the lang parameter (the index is the value). */
enum lang {
	LANG_ZH,
	LANG_EN
};

extern const char *const lang_names[];	/* "zh", "en", NULL */

/* Route flags. */
#define RF_LIST		0x01	/* list tier: 30 requests a minute */
#define RF_DETAIL	0x02	/* detail tier: 60 requests a minute */
#define RF_DATA		0x04	/* needs the database (503 without) */

#define LIMIT_LIST	30
#define LIMIT_DETAIL	60
#define LIMIT_WINDOW_MS	60000

/*
 * The query parameters lists share (spec 2.1), as rows of their
 * lz_param tables; a page's ids fit an array of LIST_LIMIT_MAX.
 */
#define LIST_LIMIT_MAX	50
#define OFFSET_MAX	9007199254740991LL	/* 2^53 - 1: exact in JSON */
#define PARAM_Q		{ "q", LZ_PT_STR, 1, 200, 0, NULL, 0 }
#define PARAM_LANG	{ "lang", LZ_PT_ENUM, 0, 0, LANG_ZH, lang_names, 0 }
#define PARAM_LIMIT(def) \
	{ "limit", LZ_PT_INT, 1, LIST_LIMIT_MAX, (def), NULL, 0 }
#define PARAM_OFFSET	{ "offset", LZ_PT_INT, 0, OFFSET_MAX, 0, NULL, 0 }

/* data.c: the database, reopened when "lzctl prompts import" swapped it.
 * Returns 0 when a usable database is open, -1 when none is. */
int	data_ready(void);
void	data_close(void);

/* ---- out.c: what every handler writes the same way ------------------- */

/* A new response object, {"ok": true} so far. */
json_t	*out_obj(void);
/* Sends j (from out_obj) with ETag, Cache-Control, or a 304 when
 * If-None-Match matches.  Takes over the reference. */
void	out_ok(struct lz_req *, json_t *j);
/* The same for a body serialised already. */
void	out_body(struct lz_req *, const char *body, size_t len);
/*
 * The answer cache (lz-prompts(8), "Answer cache"), after the handler's
 * lz_req_params(): the key is the route's path and the validated values
 * v of params (defaults filled in), with variant for what else the
 * answer depends on.  Sends the cached answer and returns 1, or returns
 * 0 and has the handler's next out_ok/out_body store what it sends.
 */
int	out_cached(struct lz_req *, const struct lz_param *params, size_t n,
	    const struct lz_pval *v, int variant);
/* A new database, or none: every cached answer goes. */
void	out_uncache(void);
/* 500 after a database error (logged by the store). */
void	out_dberr(struct lz_req *);
/* 404 for a slug the list endpoints do not show. */
void	out_notfound(struct lz_req *, const char *what);
/* The paging fields: limit, offset, next_offset (null on the last page). */
void	out_paging(json_t *, long long limit, long long offset,
	    long long total);
/* A page of a list with total and showing (spec 2.1), the items under
 * name: sends it (out_ok), or a 500 when total < 0.  Takes arr. */
void	out_page(struct lz_req *, const char *name, json_t *arr,
	    long long total, long long limit, long long offset);
/* The same with count instead of total and showing (the lists that had
 * it first: tags, collections). */
void	out_counted(struct lz_req *, const char *name, json_t *arr,
	    long long count, long long limit, long long offset);
/* One item by slug under name after a store lookup that returned rc:
 * sends it, or 500 (rc < 0) or the 404 of out_notfound (rc == 0).
 * Takes obj (NULL unless rc > 0). */
void	out_item(struct lz_req *, int rc, const char *name, json_t *obj);
/* The text for lang: en when asked for and present, else the source. */
const char *out_text(enum lang, const char *zh, const char *en);
/* A site URL: prompts_base_url, "/en" for English, /section/slug (slugs
 * are URL-safe by format). */
json_t	*out_url(enum lang, const char *section, const char *slug);
/* An ISO 8601 UTC time. */
json_t	*out_time(int64_t ms);
/* A JSON array of strings from a stored JSON array (or []). */
json_t	*out_json_array(const char *stored);

/* ---- api_list.c: the outline the list handlers share ------------------ */

/* A filter by a closed set: the row of a list's "category" parameter. */
#define PARAM_CATEGORY(set) \
	{ "category", LZ_PT_ENUM, 0, 0, 0, (set), LZ_PF_ANY }

/* Which of the shared parameters a list takes besides limit and offset,
 * and its envelope. */
#define LIST_Q		0x01	/* PARAM_Q */
#define LIST_LANG	0x02	/* PARAM_LANG */
#define LIST_COUNT	0x04	/* count (out_counted), not total and showing */

#define LIST_LIMIT_DEF	20	/* the default of limit (PARAM_LIMIT) */

/*
 * A page of a list being answered: the values of its parameters (absent
 * ones are NULL, LANG_ZH, the defaults) and the array the row callbacks
 * add to (their arg).
 */
struct listpage {
	char		*q;		/* folded (search_fold_dup) */
	enum lang	 lang;
	struct lz_pval	 own;		/* of the list's own parameter */
	long long	 offset;
	long		 limit;
	int64_t		 now;		/* the request's time */
	json_t		*arr;
};

/*
 * The parameters of a list: q and lang as flags say, its own (NULL:
 * none), limit (limit_def by default) and offset, in that order; then
 * out_cached with variant.  1 when that answered the request (a 400, or
 * the cached answer).  Else 0 with pg filled and a new array; the
 * handler frees pg->q and sends or drops pg->arr.
 */
int	list_begin(struct lz_req *, unsigned flags, const struct lz_param *own,
	    long long limit_def, int variant, struct listpage *pg);

/*
 * A whole list answer: list_begin, then fetch (the list's store call:
 * its rows into pg->arr; their number, or -1), then the envelope flags
 * say with the rows under name.
 */
void	list_answer(struct lz_req *, const char *name, unsigned flags,
	    const struct lz_param *own, long long (*fetch)(struct listpage *));

/* ---- the route table's handlers --------------------------------------- */

/* api_prompts.c */
lz_handler	api_prompts_list, api_prompts_get, api_changelog;
/* The detail object of a prompt without "url" (the import stores it). */
struct prow;
json_t	*prompt_detail_object(const struct prow *, enum lang);
/* api_tags.c */
lz_handler	api_tags_list;
lz_handler	ops_health, ops_metrics_get;
/* api_collections.c */
lz_handler	api_collections_list, api_collections_get;
/* api_catalog.c */
lz_handler	api_models_list, api_tools_list, api_integrations_list;
/* api_docs.c */
lz_handler	api_tutorials_list, api_tutorials_get, api_keywords_list,
		api_keywords_get;
/* api_openapi.c */
lz_handler	api_openapi;

#endif
