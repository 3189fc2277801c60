/*
 * conversions.c -- the SQL of conversions and revenue.
 */
#include "config.h"

#include "db.h"
#include "store/conversions.h"
#include "store/store.h"
#include "util.h"

enum { ST_CONV_SEEN, ST_CONV_INSERT, ST_CONV_COUNT, ST_CONV_REVENUE,
    ST_CONV_TOTALS, ST_CONV_SERIES, ST_CONV_BY_SUFFIX, ST_CONV_BY_CURRENCY,
    ST_CONV_BY_VARIANT, ST__MAX };

/*
 * Conversions of a link in [$2, $3) per value of one column and currency,
 * for the $4 values with most conversions: each row carries its value's
 * count in all currencies (n) and the value's rank, so the limit counts
 * values, not rows.  NULL is a value of its own.
 */
#define CONV_BY(col) \
	"SELECT key, n, currency, cn, rev FROM (SELECT key, n, currency, " \
	"cn, rev, dense_rank() OVER (ORDER BY n DESC, key) AS rk FROM (" \
	"SELECT " col " AS key, currency, count(*) AS cn, sum(value) AS rev, " \
	"sum(count(*)) OVER (PARTITION BY " col ") AS n FROM conversions " \
	"WHERE link_id = $1 AND at >= $2 AND at < $3 GROUP BY " col ", " \
	"currency) AS g) AS r WHERE rk <= $4 ORDER BY rk, currency"

static const struct lz_sql sql[ST__MAX] = {
	[ST_CONV_SEEN] = { "conversion seen",
	    "SELECT 1 FROM conversions WHERE link_id = $1 AND "
	    "visitor IN ($2, $3) AND at > $4 LIMIT 1" },
	[ST_CONV_INSERT] = { "conversion insert",
	    "INSERT INTO conversions (link_id, at, visitor, suffix, currency, "
	    "value, variant, click_at) VALUES ($1, $2, $3, $4, $5, $6, $7, "
	    "$8)" },
	[ST_CONV_COUNT] = { "conversion count",
	    "UPDATE links SET conversions = conversions + 1 WHERE id = $1" },
	/* A total that would overflow stays as it is (and nothing is
	 * stored): SQLite would turn it into an inexact float. */
	[ST_CONV_REVENUE] = { "conversion revenue",
	    "INSERT INTO link_revenue (link_id, currency, micros) "
	    "VALUES ($1, $2, $3) ON CONFLICT (link_id, currency) DO UPDATE "
	    "SET micros = link_revenue.micros + $3 WHERE "
	    "link_revenue.micros <= 9223372036854775807 - $3" },
	[ST_CONV_TOTALS] = { "conversion totals",
	    "SELECT currency, count(*), sum(value) FROM conversions WHERE "
	    "link_id = $1 AND at >= $2 AND at < $3 GROUP BY currency "
	    "ORDER BY currency" },
	[ST_CONV_SERIES] = { "conversion series",
	    "SELECT at / $4 AS b, currency, count(*), sum(value) FROM "
	    "conversions WHERE link_id = $1 AND at >= $2 AND at < $3 "
	    "GROUP BY b, currency ORDER BY b, currency" },
	[ST_CONV_BY_SUFFIX] = { "conversions by suffix", CONV_BY("suffix") },
	[ST_CONV_BY_CURRENCY] = { "conversions by currency",
	    CONV_BY("currency") },
	[ST_CONV_BY_VARIANT] = { "conversions by variant",
	    CONV_BY("variant") },
};

struct lz_sqlset store_conversions_sql = LZ_SQLSET("conversions", sql);
static struct lz_sqlset *const set = &store_conversions_sql;

int
store_conv_seen(struct lz_db *db, int64_t link_id, const unsigned char *a,
    const unsigned char *b, int64_t since)
{
	const struct lz_val	 v[] = { LZ_I64(link_id),
	    LZ_BLOB(a, VISITOR_ID_LEN), LZ_BLOB(b, VISITOR_ID_LEN),
	    LZ_I64(since) };
	int64_t			 one;

	return lz_one_i64(lz_db_stmtv(db, set, ST_CONV_SEEN, v, LZ_NELEM(v)),
	    &one);
}

int
store_conv_insert(struct lz_db *db, const struct conversion *c)
{
	const struct lz_val	 v[] = { LZ_I64(c->link_id), LZ_I64(c->at),
	    LZ_BLOB(c->visitor, VISITOR_ID_LEN),
	    LZ_TEXT(c->suffix ? c->suffix : ""), LZ_TEXT(c->currency),
	    LZ_I64_IF(c->has_value, c->value), LZ_TEXT(c->variant),
	    LZ_I64_IF(c->click_at != 0, c->click_at) };
	const struct lz_val	 rev[] = { LZ_I64(c->link_id),
	    LZ_TEXT(c->currency), LZ_I64(c->value) };

	if (lz_run_changed(lz_db_stmtv(db, set, ST_CONV_INSERT, v,
	    LZ_NELEM(v))) != 1 || lz_run_changed(lz_db_stmtv(db, set,
	    ST_CONV_COUNT, v, 1)) != 1)
		return -1;
	if (!c->has_value)
		return 1;
	return lz_run_changed(lz_db_stmtv(db, set, ST_CONV_REVENUE, rev,
	    LZ_NELEM(rev)));
}

struct totals_fn {
	conv_row_fn	*fn;
	void		*arg;
};

static void
each_total(struct lz_stmt *st, void *arg)
{
	struct totals_fn	*f = arg;

	f->fn(lz_col_text(st, 0), lz_col_i64(st, 1), !lz_col_null(st, 2),
	    lz_col_i64(st, 2), f->arg);
}

int
store_conv_totals(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, conv_row_fn *fn, void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(from),
	    LZ_I64(to) };
	struct totals_fn	 f = { fn, arg };

	return lz_each(lz_db_stmtv(db, set, ST_CONV_TOTALS, v, LZ_NELEM(v)),
	    each_total, &f) < 0 ? -1 : 0;
}

struct series_fn {
	void	(*fn)(int64_t, const char *, int64_t, int, int64_t, void *);
	void	*arg;
};

static void
each_bucket(struct lz_stmt *st, void *arg)
{
	struct series_fn	*f = arg;

	f->fn(lz_col_i64(st, 0), lz_col_text(st, 1), lz_col_i64(st, 2),
	    !lz_col_null(st, 3), lz_col_i64(st, 3), f->arg);
}

int
store_conv_series(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, int64_t bucket_ms,
    void (*fn)(int64_t bucket, const char *currency, int64_t n, int has_rev,
    int64_t micros, void *), void *arg)
{
	struct series_fn	 f = { fn, arg };

	return lz_each(store_stmt_range(db, set, ST_CONV_SERIES, link_id, from,
	    to, bucket_ms), each_bucket, &f) < 0 ? -1 : 0;
}

struct breakdown_fn {
	void	(*fn)(const char *, int64_t, const char *, int64_t, int,
		    int64_t, void *);
	void	*arg;
};

static void
each_key(struct lz_stmt *st, void *arg)
{
	struct breakdown_fn	*f = arg;

	f->fn(lz_col_text_or_null(st, 0), lz_col_i64(st, 1),
	    lz_col_text(st, 2), lz_col_i64(st, 3), !lz_col_null(st, 4),
	    lz_col_i64(st, 4), f->arg);
}

int
store_conv_breakdown(struct lz_db *db, enum conv_dim dim, int64_t link_id,
    int64_t from, int64_t to, long limit,
    void (*fn)(const char *key, int64_t key_n, const char *currency,
    int64_t n, int has_rev, int64_t micros, void *), void *arg)
{
	static const int	 by[CONV_DIM__MAX] = {
		[CONV_BY_SUFFIX] = ST_CONV_BY_SUFFIX,
		[CONV_BY_CURRENCY] = ST_CONV_BY_CURRENCY,
		[CONV_BY_VARIANT] = ST_CONV_BY_VARIANT,
	};
	struct breakdown_fn	 f = { fn, arg };

	if ((unsigned)dim >= CONV_DIM__MAX)
		return -1;
	return lz_each(store_stmt_range(db, set, by[dim], link_id, from, to,
	    limit), each_key, &f) < 0 ? -1 : 0;
}
