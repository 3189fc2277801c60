/*
 * clicks.c -- the SQL of clicks, click journals and click statistics.
 * (Rollups of the statistics belong here too: DESIGN 3.10.)
 */
#include "config.h"

#include "db.h"
#include "store/clicks.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"

enum { ST_CLICK_COUNT, ST_CLICK_LOCK, ST_CLICK_ADD, ST_CLICK_INSERT,
    ST_CLICK_BULK,
    ST_JOURNAL_GET,
    ST_JOURNAL_SET, ST_JOURNAL_DEL, ST_JOURNAL_LIST, ST_STATS_TOTALS,
    ST_STATS_SERIES, ST_STATS_BY_COUNTRY, ST_STATS_BY_DEVICE, ST_STATS_BY_OS,
    ST_STATS_BY_BROWSER, ST_STATS_BY_REFERRER_HOST, ST_STATS_BY_SUFFIX,
    ST_STATS_BY_VARIANT, ST_CLICK_NTH, ST_CLICK_LAST, ST__MAX };

/* A click's row. */
#define CLICK_COLS \
	"clicks (link_id, at, suffix, country, device, os, browser, " \
	"referrer, referrer_host, variant, visitor, bot)"
#define CLICK_VALS \
	"$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12"

/* Human clicks of a link in [$2, $3), grouped by one column, at most
 * $4 values. */
#define STATS_BY(col) \
	"SELECT " col ", count(*) AS n FROM clicks WHERE link_id = $1 AND " \
	"at >= $2 AND at < $3 AND bot = 0 GROUP BY " col " ORDER BY n DESC, " \
	col " LIMIT $4"

static const struct lz_sql sql[ST__MAX] = {
	/* The cap is exact: the count only moves while under it. */
	[ST_CLICK_COUNT] = { "click count",
	    "UPDATE links SET clicks = clicks + 1 WHERE id = $1 AND "
	    "(max_clicks = 0 OR clicks < max_clicks)" },
	/*
	 * A batch's counts, $1 a JSON array of [link id, clicks]: the links'
	 * rows locked in the order of their ids first, so that the movers
	 * of several hosts never wait for each other in a circle.
	 * dialect: JSON arrays are json_each in SQLite, json_array_elements
	 * in PostgreSQL; FOR UPDATE is PostgreSQL's (on SQLite, BEGIN
	 * IMMEDIATE holds the database: the lock is a statement that does
	 * nothing).
	 */
	[ST_CLICK_LOCK] = { "click lock",
	    "SELECT 0 WHERE $1 IS NULL",
	    "SELECT id FROM links WHERE id IN (SELECT (e->>0)::bigint FROM "
	    "json_array_elements($1::json) AS e) ORDER BY id FOR UPDATE" },
	[ST_CLICK_ADD] = { "click add",
	    "UPDATE links SET clicks = links.clicks + c.n FROM (SELECT "
	    "json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') "
	    "AS n FROM json_each($1)) AS c WHERE links.id = c.id",
	    "UPDATE links SET clicks = links.clicks + c.n FROM (SELECT "
	    "(e->>0)::bigint AS id, (e->>1)::bigint AS n FROM "
	    "json_array_elements($1::json) AS e) AS c WHERE links.id = c.id" },
	[ST_CLICK_INSERT] = { "click insert", "INSERT INTO " CLICK_COLS
	    " VALUES (" CLICK_VALS ")" },
	/* A batch's (lz_bulk_row): COPY on PostgreSQL. */
	[ST_CLICK_BULK] = { "click bulk insert", "INSERT INTO " CLICK_COLS
	    " VALUES (" CLICK_VALS ")", "COPY " CLICK_COLS " FROM STDIN" },
	[ST_JOURNAL_GET] = { "journal get",
	    "SELECT pos FROM click_journals WHERE name = $1" },
	[ST_JOURNAL_SET] = { "journal set",
	    "INSERT INTO click_journals (name, pos) VALUES ($1, $2) "
	    "ON CONFLICT (name) DO UPDATE SET pos = $2" },
	[ST_JOURNAL_DEL] = { "journal delete",
	    "DELETE FROM click_journals WHERE name = $1" },
	/* Those whose name starts with $1 (one host's). */
	[ST_JOURNAL_LIST] = { "journal list",
	    "SELECT name FROM click_journals WHERE "
	    "substr(name, 1, length($1)) = $1 ORDER BY name" },

	[ST_STATS_TOTALS] = { "stats totals",
	    "SELECT count(*) FILTER (WHERE bot = 0), "
	    "count(*) FILTER (WHERE bot != 0) FROM clicks WHERE link_id = $1 "
	    "AND at >= $2 AND at < $3" },
	[ST_STATS_SERIES] = { "stats series",
	    "SELECT at / $4 AS b, count(*) FROM clicks WHERE link_id = $1 AND "
	    "at >= $2 AND at < $3 AND bot = 0 GROUP BY b ORDER BY b" },
	[ST_STATS_BY_COUNTRY] = { "stats by country", STATS_BY("country") },
	[ST_STATS_BY_DEVICE] = { "stats by device", STATS_BY("device") },
	[ST_STATS_BY_OS] = { "stats by os", STATS_BY("os") },
	[ST_STATS_BY_BROWSER] = { "stats by browser", STATS_BY("browser") },
	[ST_STATS_BY_REFERRER_HOST] = { "stats by referrer host",
	    STATS_BY("referrer_host") },
	[ST_STATS_BY_SUFFIX] = { "stats by suffix", STATS_BY("suffix") },
	[ST_STATS_BY_VARIANT] = { "stats by variant", STATS_BY("variant") },

	[ST_CLICK_NTH] = { "click nth",
	    "SELECT at FROM clicks WHERE link_id = $1 AND at >= $2 AND "
	    "at <= $3 ORDER BY at DESC LIMIT 1 OFFSET $4" },
	[ST_CLICK_LAST] = { "click last",
	    "SELECT variant, suffix, at FROM clicks WHERE link_id = $1 AND "
	    "at >= $2 AND at <= $3 AND visitor = $4 AND bot = 0 "
	    "ORDER BY at DESC LIMIT 1" },
};

struct lz_sqlset store_clicks_sql = LZ_SQLSET("clicks", sql);
static struct lz_sqlset *const set = &store_clicks_sql;

int
store_click_count(struct lz_db *db, int64_t link_id)
{
	const struct lz_val	 v = LZ_I64(link_id);

	return lz_run_changed(lz_db_stmtv(db, set, ST_CLICK_COUNT, &v, 1));
}

int
store_click_add(struct lz_db *db, const struct click_count *c, size_t n)
{
	struct lz_buf		 b = LZ_BUF_INIT;
	struct lz_val		 v;
	size_t			 i;
	int			 rc;

	lz_buf_putc(&b, '[');
	for (i = 0; i < n; i++)
		lz_buf_printf(&b, "%s[%lld,%lld]", i ? "," : "",
		    (long long)c[i].link_id, (long long)c[i].n);
	lz_buf_putc(&b, ']');
	v = (struct lz_val)LZ_TEXT(lz_buf_str(&b));
	rc = lz_run_ok(lz_db_stmtv(db, set, ST_CLICK_LOCK, &v, 1)) == -1 ||
	    lz_run_ok(lz_db_stmtv(db, set, ST_CLICK_ADD, &v, 1)) == -1 ?
	    -1 : 0;
	lz_buf_free(&b);
	return rc;
}

static const char *
str(const char *s)
{
	return s ? s : "";
}

int
store_click_insert(struct lz_db *db, const struct click *c,
    const char *referrer_host, int bulk)
{
	const struct lz_val	 v[] = { LZ_I64(c->link_id), LZ_I64(c->at),
	    LZ_TEXT(str(c->suffix)), LZ_TEXT(c->country),
	    LZ_TEXT(str(c->device)), LZ_TEXT(str(c->os)),
	    LZ_TEXT(str(c->browser)), LZ_TEXT(str(c->referrer)),
	    LZ_TEXT(str(referrer_host)), LZ_TEXT(str(c->variant)),
	    LZ_BLOB(c->visitor, VISITOR_ID_LEN), LZ_I64(c->bot != 0) };

	if (bulk)
		return lz_bulk_row(db, set, ST_CLICK_BULK, v, LZ_NELEM(v));
	return lz_run_ok(lz_db_stmtv(db, set, ST_CLICK_INSERT, v,
	    LZ_NELEM(v)));
}

int64_t
store_journal_get(struct lz_db *db, const char *name)
{
	const struct lz_val	 v = LZ_TEXT(name);
	int64_t			 pos = 0;

	return lz_one_i64(lz_db_stmtv(db, set, ST_JOURNAL_GET, &v, 1),
	    &pos) == -1 ? -1 : pos;
}

int
store_journal_set(struct lz_db *db, const char *name, int64_t pos)
{
	const struct lz_val	 v[] = { LZ_TEXT(name), LZ_I64(pos) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_JOURNAL_SET, v,
	    LZ_NELEM(v)));
}

int
store_journal_del(struct lz_db *db, const char *name)
{
	const struct lz_val	 v = LZ_TEXT(name);

	return lz_run_ok(lz_db_stmtv(db, set, ST_JOURNAL_DEL, &v, 1));
}

struct name_fn {
	void	(*fn)(const char *, void *);
	void	*arg;
};

static void
each_name(struct lz_stmt *st, void *arg)
{
	struct name_fn	*f = arg;

	f->fn(lz_col_text(st, 0), f->arg);
}

long
store_journal_list(struct lz_db *db, const char *prefix,
    void (*fn)(const char *, void *), void *arg)
{
	const struct lz_val	 v = LZ_TEXT(prefix);
	struct name_fn		 f = { fn, arg };

	return lz_each(lz_db_stmtv(db, set, ST_JOURNAL_LIST, &v, 1),
	    each_name, &f);
}

int
store_stats_totals(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, int64_t *clicks, int64_t *bots)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(from),
	    LZ_I64(to) };
	struct lz_stmt		*st;

	st = lz_db_stmtv(db, set, ST_STATS_TOTALS, v, LZ_NELEM(v));
	if (lz_row(st) != 1)
		return -1;
	*clicks = lz_col_i64(st, 0);
	*bots = lz_col_i64(st, 1);
	lz_reset(st);
	return 0;
}

struct series_fn {
	void	(*fn)(int64_t, int64_t, void *);
	void	*arg;
};

static void
each_bucket(struct lz_stmt *st, void *arg)
{
	struct series_fn	*f = arg;

	f->fn(lz_col_i64(st, 0), lz_col_i64(st, 1), f->arg);
}

int
store_stats_series(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, int64_t bucket_ms,
    void (*fn)(int64_t bucket, int64_t clicks, void *), void *arg)
{
	struct series_fn	 f = { fn, arg };

	return lz_each(store_stmt_range(db, set, ST_STATS_SERIES, link_id, from,
	    to, bucket_ms), each_bucket, &f) < 0 ? -1 : 0;
}

struct key_fn {
	void	(*fn)(const char *, int64_t, void *);
	void	*arg;
};

static void
each_key(struct lz_stmt *st, void *arg)
{
	struct key_fn	*f = arg;

	f->fn(lz_col_text(st, 0), lz_col_i64(st, 1), f->arg);
}

int
store_stats_breakdown(struct lz_db *db, enum stats_dim dim, int64_t link_id,
    int64_t from, int64_t to, long limit,
    void (*fn)(const char *key, int64_t clicks, void *), void *arg)
{
	static const int	 by[STATS_DIM__MAX] = {
		[STATS_COUNTRY] = ST_STATS_BY_COUNTRY,
		[STATS_DEVICE] = ST_STATS_BY_DEVICE,
		[STATS_OS] = ST_STATS_BY_OS,
		[STATS_BROWSER] = ST_STATS_BY_BROWSER,
		[STATS_REFERRER_HOST] = ST_STATS_BY_REFERRER_HOST,
		[STATS_SUFFIX] = ST_STATS_BY_SUFFIX,
		[STATS_VARIANT] = ST_STATS_BY_VARIANT,
	};
	struct key_fn	 f = { fn, arg };

	if ((unsigned)dim >= STATS_DIM__MAX)
		return -1;
	return lz_each(store_stmt_range(db, set, by[dim], link_id, from, to,
	    limit), each_key, &f) < 0 ? -1 : 0;
}

int
store_click_nth(struct lz_db *db, int64_t link_id, int64_t since,
    int64_t until, long n, int64_t *at)
{
	if (n < 1)
		return 0;
	return lz_one_i64(store_stmt_range(db, set, ST_CLICK_NTH, link_id,
	    since, until, n - 1), at);
}

int
store_click_last(struct lz_db *db, int64_t link_id,
    const unsigned char *visitor, int64_t since, int64_t until,
    char *variant, size_t varlen, char *suffix, size_t suflen, int64_t *at)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(since),
	    LZ_I64(until), LZ_BLOB(visitor, VISITOR_ID_LEN) };
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(db, set, ST_CLICK_LAST, v, LZ_NELEM(v));
	if ((rc = lz_row(st)) == 1) {
		lz_col_copy(st, 0, variant, varlen);
		lz_col_copy(st, 1, suffix, suflen);
		*at = lz_col_i64(st, 2);
		lz_reset(st);
	}
	return rc;
}
