/*
 * store/conversions.h -- conversions, the running totals of links and
 * the rollups of conversions (conversion.h has the rules; these are only
 * the SQL).
 */
#ifndef LZ_STORE_CONVERSIONS_H
#define LZ_STORE_CONVERSIONS_H

#include <stdint.h>

#include "visit/click.h"

struct lz_db;
struct store_range;
struct store_scope;

/* One conversion as stored.  Strings live as long as the caller's. */
struct conversion {
	int64_t		 link_id;
	int64_t		 at;
	unsigned char	 visitor[VISITOR_ID_LEN];
	const char	*suffix;	/* "" none */
	const char	*currency;	/* ISO 4217 */
	int		 has_value;
	int64_t		 value;		/* micro-units */
	const char	*variant;	/* of the attributed click; NULL none */
	int64_t		 click_at;	/* its time; 0 none */
};

/* 1 when link_id has a conversion by visitor a or b after since, 0 when
 * not, -1 on error. */
int	store_conv_seen(struct lz_db *, int64_t link_id, const unsigned char *a,
	    const unsigned char *b, int64_t since);
/*
 * Stores c and adds it to the link's running totals and the rollups, in
 * the caller's transaction.  1 stored, 0 refused (the link's revenue in
 * c's currency would pass INT64_MAX micro-units; roll back), -1 on error.
 */
int	store_conv_insert(struct lz_db *, const struct conversion *c);
/* Adds c to the rollups of its hour and day.  0 or -1. */
int	store_conv_rollup(struct lz_db *, const struct conversion *c);

/*
 * Conversion statistics of a link in a range (store.h), read from the
 * rollups.  A row is a group of
 * conversions in one currency: its count and, when any of them had a
 * value, has_rev and the sum of their values in micro-units.
 */
typedef void conv_row_fn(const char *currency, int64_t n, int has_rev,
	    int64_t micros, void *arg);

/* Per currency, in currency order.  0 or -1. */
int	store_conv_totals(struct lz_db *, const struct store_scope *,
	    const struct store_range *, conv_row_fn *, void *arg);
/* Per bucket (at / bucket_ms) and currency, in bucket order; empty
 * buckets are not reported.  0 or -1. */
int	store_conv_series(struct lz_db *, const struct store_scope *,
	    const struct store_range *, int64_t bucket_ms,
	    void (*fn)(int64_t bucket, const char *currency, int64_t n,
	    int has_rev, int64_t micros, void *), void *arg);

enum conv_dim {
	CONV_BY_SUFFIX = 0,
	CONV_BY_CURRENCY,
	CONV_BY_VARIANT,
	CONV_DIM__MAX
};

/*
 * Per value of dim and currency, for the limit values with most
 * conversions: fn(key, key_n, currency, n, has_rev, micros) with key
 * NULL for conversions without one (not attributed, for CONV_BY_VARIANT)
 * and key_n the key's conversions in all currencies; rows of a key come
 * together, keys with most conversions first.  0 or -1.
 */
int	store_conv_breakdown(struct lz_db *, enum conv_dim,
	    const struct store_scope *, const struct store_range *, long limit,
	    void (*fn)(const char *key, int64_t key_n, const char *currency,
	    int64_t n, int has_rev, int64_t micros, void *), void *arg);

/* ---- rebuilding the rollups (rollup.h; clicks.h finds what to do) ----- */

/* Deletes the conversion rollups of link_id on the UTC day starting at
 * day_ms.  0 or -1. */
int	store_conv_rollup_clear(struct lz_db *, int64_t link_id,
	    int64_t day_ms);
/* Calls fn for each conversion of link_id in [from, to) (its strings
 * live until fn returns; no visitor).  The count, or -1. */
long	store_conv_each(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, void (*fn)(const struct conversion *, void *),
	    void *arg);

#endif
