/*
 * store/clicks.h -- clicks, the click journals' progress, the rollups of
 * clicks and the visitors of each day, and the statistics read from the
 * rollups (visit/click.h has the rules of a click entering storage,
 * rollup.h what it adds to the rollups, stats.h builds the statistics).
 */
#ifndef LZ_STORE_CLICKS_H
#define LZ_STORE_CLICKS_H

#include <stddef.h>
#include <stdint.h>

struct click;
struct lz_db;
struct store_range;
struct store_scope;

/* Human clicks of one link, counted in a batch (store_click_add). */
struct store_click_count {
	int64_t	 link_id;
	int64_t	 n;
};

/*
 * Counts one human click of a link: 1, or 0 when the link has reached
 * max_clicks (then nothing changed: the cap is exact), -1 on error.
 */
int	store_click_count(struct lz_db *, int64_t link_id);
/* Adds c[0..n).n human clicks to the count of each link c[].link_id
 * (each once, in order of id), cap or not: a batch's counts in one
 * statement.  0 or -1. */
int	store_click_add(struct lz_db *, const struct store_click_count *c,
	    size_t n);
/* Stores one click: at once, or with bulk as a bulk row of a batch
 * (visible once the batch is flushed or committed, db.h); 0 or -1. */
int	store_click_insert(struct lz_db *, const struct click *,
	    const char *referrer_host, int bulk);

/* Click journals: how far each has been moved into the clicks table. */
int64_t	store_journal_get(struct lz_db *, const char *name); /* 0 unknown */
int	store_journal_set(struct lz_db *, const char *name, int64_t pos);
int	store_journal_del(struct lz_db *, const char *name);
/* The journals whose names start with prefix. */
long	store_journal_list(struct lz_db *, const char *prefix,
	    void (*fn)(const char *, void *), void *arg);

/* ---- rollups (sql/links/0008-rollups.sql, rollup.h) -------------------- */

enum stats_dim {
	STATS_COUNTRY = 0,
	STATS_DEVICE,
	STATS_OS,
	STATS_BROWSER,
	STATS_REFERRER_HOST,
	STATS_SUFFIX,
	STATS_VARIANT,
	STATS_DIM__MAX
};

/* The dim of a row of click_rollups. */
#define ROLLUP_ALL	0		/* every click */
#define ROLLUP_DIM(d)	((int)(d) + 1)	/* a value of enum stats_dim */
#define ROLLUP_VISITORS	8		/* new visitor-days */

/* A row for store_rollup_addv: an hour's, added to its day's too (span
 * 0), or one of span 1 (an hour, at hour) or 24 (a day, at hour the
 * day's start) alone. */
struct rollup_row {
	int64_t		 link_id, hour, n;
	int		 dim, bot, span;
	const char	*key;
	size_t		 keylen;
};

/* Adds each row's n to its row of click_rollups of an hour and to the
 * row of its day (made when missing); no two rows of the same hour,
 * dim, key and bot.  One statement on PostgreSQL (a JSON array), one a
 * row on SQLite (rows of a span alone: SQLite only).  0 or -1. */
int	store_rollup_addv(struct lz_db *, const struct rollup_row *r,
	    size_t n);

/* A row of scope_click_rollups (0015) for store_scope_addv. */
struct scope_row {
	int64_t		 owner, hour, domain_id, n;
	int		 kind, dim, bot, span;	/* as a rollup_row's */
	const char	*key;
	size_t		 keylen;
};

/* Adds each row's n to its scope row of an hour and of its day, as
 * store_rollup_addv does links' rows: a writer that keeps the scopes'
 * sums itself, between store_scope_pause(1) and (0).  Rows of one span
 * each (none 0), no two of one key, go in one statement on PostgreSQL.
 * 0 or -1. */
int	store_scope_addv(struct lz_db *, const struct scope_row *r, size_t n);
/* Holds account_id's scope sums to this transaction's end, as the sums'
 * triggers do on PostgreSQL (nothing on SQLite, whose writers are one at
 * a time): taken after the rows that the sums follow are written, before
 * what decides which sums they add to (the links' tags) is read, as the
 * triggers take it.  0 or -1. */
int	store_scope_lock(struct lz_db *, int64_t account_id);
/* Pauses (on) or resumes the scope triggers in this transaction (0021).
 * 0 or -1. */
int	store_scope_pause(struct lz_db *, int on);

/* ---- the raw clicks, as kept (DESIGN 3.9, 3.10) ----------------------- */

/* Stored clicks of link_id in [from, to), bots too; -1 on error. */
long long store_click_range_count(struct lz_db *, int64_t link_id,
	    int64_t from, int64_t to);
/*
 * Up to limit stored clicks of link_id (bots too) at from or later that
 * come before (before_at, before_id) in the order newest first -- at
 * descending, then id descending -- so that a page goes on where the one
 * before ended (a first page: before_at = to, before_id = 0): the
 * statement, ready to step with store_click_next().  One statement, so a
 * short read of its own.
 */
struct lz_stmt *store_click_page(struct lz_db *, int64_t link_id,
	    int64_t from, int64_t before_at, int64_t before_id, long limit);
/*
 * The next click of a page into *id and c (c->link_id, c->target and
 * c->visitor are not read back: no visitor hash leaves the store this
 * way; its strings are valid until the next step): 1, 0 at the end, -1
 * on an error.
 */
int	store_click_next(struct lz_stmt *, int64_t *id, struct click *c);

/* ---- the clicks a conversion is attributed to (conversion.h) ---------- */

/*
 * The visitors of a link on a UTC day (click_visitors).  addv: makes
 * each row's row of clicks clicks from first_at to last_at, or adds them
 * to it and moves its last click on -- never its first (move it back
 * with store_visitor_first()).
 */
/* A row for store_visitor_addv. */
struct visitor_row {
	int64_t			 day, link_id, first_at, last_at, clicks;
	const unsigned char	*visitor;
	const char		*variant, *suffix;
};

/* Rows r[0..n) (no two of the same visitor-day), in one statement on
 * PostgreSQL, one a row on SQLite: fn is given each row's key, its first
 * click before and its clicks after (the row's alone: it is new).  Rows,
 * or -1. */
long	store_visitor_addv(struct lz_db *, const struct visitor_row *r,
	    size_t n, void (*fn)(int64_t day, int64_t link_id,
	    const unsigned char *visitor, int64_t old_first, int64_t clicks,
	    void *), void *arg);
int	store_visitor_first(struct lz_db *, int64_t day, int64_t link_id,
	    const unsigned char *visitor, int64_t first_at);
/*
 * The last click of the visitor's day if it is in [since, until]: 1
 * with its variant, suffix (cut to fit) and time, 0 when none, -1.
 */
int	store_visitor_last(struct lz_db *, int64_t day, int64_t link_id,
	    const unsigned char *visitor, int64_t since, int64_t until,
	    char *variant, size_t varlen, char *suffix, size_t suflen,
	    int64_t *at);

/* ---- statistics of a scope's clicks in a range (store.h) -------------- */

/* Human clicks, bot visits and visitor-days.  0 or -1. */
int	store_stats_totals(struct lz_db *, const struct store_scope *,
	    const struct store_range *, int64_t *clicks, int64_t *bots,
	    int64_t *visitors);
/* Human clicks and visitor-days per bucket (at / bucket_ms), in bucket
 * order; empty buckets are not reported.  0 or -1. */
int	store_stats_series(struct lz_db *, const struct store_scope *,
	    const struct store_range *, int64_t bucket_ms,
	    void (*fn)(int64_t bucket, int64_t clicks, int64_t visitors,
	    void *), void *arg);
/* Human clicks per value of dim, most first, at most limit values.
 * 0 or -1. */
int	store_stats_breakdown(struct lz_db *, enum stats_dim,
	    const struct store_scope *, const struct store_range *, long limit,
	    void (*fn)(const char *key, int64_t clicks, void *), void *arg);

/* ---- rebuilding the rollups (rollup.h) and retention ------------------ */

/* The next link after link_id with clicks or conversions, raw or rolled
 * up: 1 with *next, 0 none, -1. */
int	store_rollup_next_link(struct lz_db *, int64_t link_id, int64_t *next);
/* The time of the first click or conversion, raw or rolled up, of
 * link_id at or after at: 1 with *next, 0 none, -1. */
int	store_rollup_next(struct lz_db *, int64_t link_id, int64_t at,
	    int64_t *next);
/* Deletes the click rollups and visitors of link_id on the UTC day
 * starting at day_ms.  0 or -1. */
int	store_rollup_clear(struct lz_db *, int64_t link_id, int64_t day_ms);
/*
 * Calls fn for each click of link_id in [from, to), with its referrer's
 * host; the click's strings live until fn returns.  The count, or -1.
 */
long	store_click_each(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, void (*fn)(const struct click *, const char *rhost,
	    void *), void *arg);

/* Deletes up to limit clicks stored before any newer than before (in
 * the order they were stored).  The count, or -1. */
long	store_click_prune(struct lz_db *, int64_t before, long limit);
/* Deletes up to limit visitor rows of days before before_day.  Count or
 * -1. */
long	store_visitor_prune(struct lz_db *, int64_t before_day, long limit);

#endif
