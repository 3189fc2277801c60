/*
 * conversions.c -- the SQL of conversions and revenue.
 */
#include "config.h"

#include "db.h"
#include "store/conversions.h"
#include "store/store.h"

enum {
	ST_CONV_SEEN,
	ST_CONV_INSERT,
	ST_CONV_COUNT,
	ST_CONV_REVENUE,
	ST_CONV_TOTALS,
	ST_CONV_SERIES,
	ST_CONV_BY_SUFFIX,
	ST_CONV_BY_CURRENCY,
	ST_CONV_BY_VARIANT,
	ST__MAX
};

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

static struct lz_stmt *
stmt(struct lz_db *db, int i)
{
	return lz_db_stmt(db, &store_conversions_sql, (size_t)i);
}

/* Statement i with a link and a time range as $1, $2, $3. */
static struct lz_stmt *
stmt_range(struct lz_db *db, int i, int64_t link_id, int64_t from,
    int64_t to)
{
	struct lz_stmt	*st = stmt(db, i);

	lz_bind_i64(st, 1, link_id);
	lz_bind_i64(st, 2, from);
	lz_bind_i64(st, 3, to);
	return st;
}

int
store_conv_seen(struct lz_db *db, int64_t link_id, const unsigned char *a,
    const unsigned char *b, int64_t since)
{
	struct lz_stmt	*st = stmt(db, ST_CONV_SEEN);
	int64_t		 one;

	lz_bind_i64(st, 1, link_id);
	lz_bind_blob(st, 2, a, VISITOR_ID_LEN);
	lz_bind_blob(st, 3, b, VISITOR_ID_LEN);
	lz_bind_i64(st, 4, since);
	return lz_one_i64(st, &one);
}

int
store_conv_insert(struct lz_db *db, const struct conversion *c)
{
	struct lz_stmt	*st = stmt(db, ST_CONV_INSERT);

	lz_bind_i64(st, 1, c->link_id);
	lz_bind_i64(st, 2, c->at);
	lz_bind_blob(st, 3, c->visitor, VISITOR_ID_LEN);
	lz_bind_text(st, 4, c->suffix ? c->suffix : "");
	lz_bind_text(st, 5, c->currency);
	if (c->has_value)
		lz_bind_i64(st, 6, c->value);
	lz_bind_text(st, 7, c->variant);
	if (c->click_at != 0)
		lz_bind_i64(st, 8, c->click_at);
	if (store_changed(st) != 1)
		return -1;
	st = stmt(db, ST_CONV_COUNT);
	lz_bind_i64(st, 1, c->link_id);
	if (store_changed(st) != 1)
		return -1;
	if (!c->has_value)
		return 1;
	st = stmt(db, ST_CONV_REVENUE);
	lz_bind_i64(st, 1, c->link_id);
	lz_bind_text(st, 2, c->currency);
	lz_bind_i64(st, 3, c->value);
	return store_changed(st);
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
	struct totals_fn	 f = { fn, arg };

	return lz_each(stmt_range(db, ST_CONV_TOTALS, link_id, from, to),
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
	struct lz_stmt		*st;

	st = stmt_range(db, ST_CONV_SERIES, link_id, from, to);
	lz_bind_i64(st, 4, bucket_ms);
	return lz_each(st, each_bucket, &f) < 0 ? -1 : 0;
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
	struct lz_stmt		*st;

	if ((unsigned)dim >= CONV_DIM__MAX)
		return -1;
	st = stmt_range(db, by[dim], link_id, from, to);
	lz_bind_i64(st, 4, limit);
	return lz_each(st, each_key, &f) < 0 ? -1 : 0;
}
