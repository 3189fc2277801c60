/*
 * conversions.c -- the SQL of conversions, revenue and the rollups of
 * conversions.
 */
#include "config.h"

#include <string.h>

#include "db.h"
#include "lztime.h"
#include "store/conversions.h"
#include "store/store.h"
#include "util.h"

#include "conversions.sql.h"

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
	int			 rc;

	if (lz_run_changed(lz_db_stmtv(db, set, ST_CONV_INSERT, v,
	    LZ_NELEM(v))) != 1 || lz_run_changed(lz_db_stmtv(db, set,
	    ST_CONV_COUNT, v, 1)) != 1)
		return -1;
	if (c->has_value && (rc = lz_run_changed(lz_db_stmtv(db, set,
	    ST_CONV_REVENUE, rev, LZ_NELEM(rev)))) != 1)
		return rc;
	return store_conv_rollup(db, c) == 0 ? 1 : -1;
}

int
store_conv_rollup(struct lz_db *db, const struct conversion *c)
{
	static const int64_t	 spans[] = { 1, 24 };
	const char		*keys[] = { "", c->suffix ? c->suffix : "",
	    c->variant ? c->variant : "" };
	const int		 dims[] = { 0, 1, c->variant ? 2 : 3 };
	size_t			 i, k;
	int64_t			 ms;

	for (i = 0; i < LZ_NELEM(spans); i++) {
		ms = spans[i] * LZ_HOUR_MS;
		for (k = 0; k < LZ_NELEM(dims); k++) {
			const struct lz_val	 v[] = { LZ_I64(c->link_id),
			    LZ_I64(dims[k]), LZ_I64(spans[i]),
			    LZ_I64(c->at / ms * ms),
			    LZ_TEXT(dims[k] == 3 ? "" : keys[k]),
			    LZ_TEXT(c->currency), LZ_I64(c->has_value != 0),
			    LZ_I64(c->has_value ? c->value : 0) };

			if (lz_run_ok(lz_db_stmtv(db, set, ST_CONV_ROLLUP, v,
			    LZ_NELEM(v))) == -1)
				return -1;
		}
	}
	return 0;
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
store_conv_totals(struct lz_db *db, const struct store_scope *sc,
    const struct store_range *r, conv_row_fn *fn, void *arg)
{
	struct totals_fn	 f = { fn, arg };

	return lz_each(store_stmt_range(db, set, ST_CONV_TOTALS,
	    ST_SCOPE_CONV_TOTALS, sc, r, NULL, 0), each_total, &f) < 0 ? -1 : 0;
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
store_conv_series(struct lz_db *db, const struct store_scope *sc,
    const struct store_range *r, int64_t bucket_ms,
    void (*fn)(int64_t bucket, const char *currency, int64_t n, int has_rev,
    int64_t micros, void *), void *arg)
{
	struct series_fn	 f = { fn, arg };

	return store_series(db, set, ST_CONV_SERIES, ST_SCOPE_CONV_SERIES, sc,
	    r, bucket_ms, each_bucket, &f);
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
store_conv_breakdown(struct lz_db *db, enum conv_dim dim,
    const struct store_scope *sc, const struct store_range *r, long limit,
    void (*fn)(const char *key, int64_t key_n, const char *currency,
    int64_t n, int has_rev, int64_t micros, void *), void *arg)
{
	/* The rollups' dimensions of each (stats/rollup.h). */
	static const int	 dims[CONV_DIM__MAX][2] = {
		[CONV_BY_SUFFIX] = { 1, 1 },
		[CONV_BY_CURRENCY] = { 0, 0 },
		[CONV_BY_VARIANT] = { 2, 3 },
	};
	struct breakdown_fn	 f = { fn, arg };
	struct lz_val		 own[3];

	if ((unsigned)dim >= CONV_DIM__MAX)
		return -1;
	own[0] = (struct lz_val)LZ_I64(limit);
	own[1] = (struct lz_val)LZ_I64(dims[dim][0]);
	own[2] = (struct lz_val)LZ_I64(dims[dim][1]);
	return lz_each(store_stmt_range(db, set, ST_CONV_BY_DIM,
	    ST_SCOPE_CONV_BY_DIM, sc, r, own, LZ_NELEM(own)), each_key, &f) < 0 ?
	    -1 : 0;
}

int
store_conv_rollup_clear(struct lz_db *db, int64_t link_id, int64_t day_ms)
{
	return lz_run_ok(LZ_STMT(db, set, ST_CONV_ROLLUP_CLEAR, LZ_I64(link_id),
	    LZ_I64(day_ms)));
}

struct conv_fn {
	void	(*fn)(const struct conversion *, void *);
	void	*arg;
	int64_t	 link_id;
};

static void
each_conv(struct lz_stmt *st, void *arg)
{
	struct conv_fn		*f = arg;
	struct conversion	 c;

	memset(&c, 0, sizeof(c));
	c.link_id = f->link_id;
	c.at = lz_col_i64(st, 0);
	c.suffix = lz_col_text(st, 1);
	c.currency = lz_col_text(st, 2);
	c.has_value = !lz_col_null(st, 3);
	c.value = lz_col_i64(st, 3);
	c.variant = lz_col_text_or_null(st, 4);
	f->fn(&c, f->arg);
}

long
store_conv_each(struct lz_db *db, int64_t link_id, int64_t from, int64_t to,
    void (*fn)(const struct conversion *, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(from),
	    LZ_I64(to) };
	struct conv_fn		 f = { fn, arg, link_id };

	return lz_each(lz_db_stmtv(db, set, ST_CONV_EACH, v, LZ_NELEM(v)),
	    each_conv, &f);
}
