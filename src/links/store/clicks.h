/*
 * store/clicks.h -- clicks, the click journals' progress and the
 * statistics read from clicks (visit/click.h has the rules of a click
 * entering storage; stats.h builds the statistics).
 */
#ifndef LZ_STORE_CLICKS_H
#define LZ_STORE_CLICKS_H

#include <stddef.h>
#include <stdint.h>

struct click;
struct click_count;
struct lz_db;

/*
 * Counts one human click of a link: 1, or 0 when the link has reached
 * max_clicks (then nothing changed: the cap is exact), -1 on error.
 */
int	store_click_count(struct lz_db *, int64_t link_id);
/* Adds c[0..n).n human clicks to the count of each link c[].link_id
 * (each once, in order of id), cap or not: a batch's counts in one
 * statement.  0 or -1. */
int	store_click_add(struct lz_db *, const struct click_count *c,
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

/* ---- statistics of a link's clicks in [from, to) ---------------------- */

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

/* Human clicks and bot visits.  0 or -1. */
int	store_stats_totals(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, int64_t *clicks, int64_t *bots);
/* Human clicks per bucket (at / bucket_ms), in bucket order; empty
 * buckets are not reported.  0 or -1. */
int	store_stats_series(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, int64_t bucket_ms,
	    void (*fn)(int64_t bucket, int64_t clicks, void *), void *arg);
/* Human clicks per value of dim, most first, at most limit values.
 * 0 or -1. */
int	store_stats_breakdown(struct lz_db *, enum stats_dim, int64_t link_id,
	    int64_t from, int64_t to, long limit,
	    void (*fn)(const char *key, int64_t clicks, void *), void *arg);

/* ---- the clicks a conversion is attributed to (conversion.h) ---------- */

/*
 * The time of the n-th newest click (bots too) of link_id in [since,
 * until], read from the index alone: 1 with *at, 0 when there are fewer,
 * -1 on error.
 */
int	store_click_nth(struct lz_db *, int64_t link_id, int64_t since,
	    int64_t until, long n, int64_t *at);
/*
 * The newest human click of link_id by visitor in [since, until]: 1 with
 * its variant, suffix (cut to fit) and time, 0 when none, -1 on error.
 * The index of (link_id, at, visitor) holds the visitor, so only the
 * visitor's own clicks are read from the table.
 */
int	store_click_last(struct lz_db *, int64_t link_id,
	    const unsigned char *visitor, int64_t since, int64_t until,
	    char *variant, size_t varlen, char *suffix, size_t suflen,
	    int64_t *at);

#endif
