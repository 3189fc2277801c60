/*
 * clicks.c -- the SQL of clicks, click journals, the rollups of clicks,
 * the visitors of each day and the statistics read from the rollups.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "log.h"
#include "lztime.h"
#include "store/clicks.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"

#include "clicks.sql.h"

struct lz_sqlset store_clicks_sql = LZ_SQLSET("clicks", sql);
static struct lz_sqlset *const set = &store_clicks_sql;

int
store_click_count(struct lz_db *db, int64_t link_id)
{
	return lz_run_changed(LZ_STMT(db, set, ST_CLICK_COUNT,
	    LZ_I64(link_id)));
}

int
store_click_add(struct lz_db *db, const struct store_click_count *c,
    size_t n)
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
	return lz_run_ok(LZ_STMT(db, set, ST_JOURNAL_SET, LZ_TEXT(name),
	    LZ_I64(pos)));
}

int
store_journal_del(struct lz_db *db, const char *name)
{
	return lz_run_ok(LZ_STMT(db, set, ST_JOURNAL_DEL, LZ_TEXT(name)));
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

static int
rollup_add(struct lz_db *db, int64_t link_id, int dim, int64_t hour,
    const char *key, size_t keylen, int bot, int64_t n)
{
	return lz_run_ok(LZ_STMT(db, set, ST_ROLLUP_ADD, LZ_I64(link_id),
	    LZ_I64(dim), LZ_I64(hour), LZ_I64(hour / LZ_DAY_MS * LZ_DAY_MS),
	    LZ_TEXTN(key, keylen), LZ_I64(bot), LZ_I64(n)));
}

/*
 * Rows r[0..n) as a JSON array, row(r, i) making the element of row i;
 * NULL (logged) when one cannot be made (a text not UTF-8).
 */
static char *
rows_json(const void *r, size_t n, json_t *(*row)(const void *, size_t),
    const char *what)
{
	json_t	*a = json_array(), *e;
	char	*js = NULL;
	size_t	 i;

	for (i = 0; i < n; i++)
		if ((e = row(r, i)) == NULL ||
		    json_array_append_new(a, e) == -1) {
			lz_log(LZ_LOG_ERR, "%s: a text is not UTF-8", what);
			goto out;
		}
	js = json_dumps(a, JSON_COMPACT);
out:
	json_decref(a);
	return js;
}

static json_t *
rollup_json(const void *rows, size_t i)
{
	const struct rollup_row	*r = (const struct rollup_row *)rows + i;

	return json_pack("[IIIs%II]", (json_int_t)r->link_id,
	    (json_int_t)r->dim, (json_int_t)r->hour, r->key, r->keylen,
	    (json_int_t)r->bot, (json_int_t)r->n);
}

int
store_rollup_addv(struct lz_db *db, const struct rollup_row *r, size_t n)
{
	struct lz_val	 v[] = { LZ_NULLV, LZ_I64(LZ_DAY_MS) };
	char		*js;
	size_t		 i;
	int		 rc;

	if (n == 0)
		return 0;
	if (lz_db_is_sqlite(db)) {
		for (i = 0; i < n; i++)
			if ((r[i].span == 0 ? rollup_add(db, r[i].link_id,
			    r[i].dim, r[i].hour, r[i].key, r[i].keylen, r[i].bot,
			    r[i].n) : lz_run_ok(LZ_STMT(db, set, ST_ROLLUP_PUT,
			    LZ_I64(r[i].link_id), LZ_I64(r[i].dim),
			    LZ_I64(r[i].span), LZ_I64(r[i].hour),
			    LZ_TEXTN(r[i].key, r[i].keylen), LZ_I64(r[i].bot),
			    LZ_I64(r[i].n)))) == -1)
				return -1;
		return 0;
	}
	if ((js = rows_json(r, n, rollup_json, "rollup add rows")) == NULL)
		return -1;
	v[0] = (struct lz_val)LZ_TEXT(js);
	rc = lz_run_ok(lz_db_stmtv(db, set, ST_ROLLUP_ADDV, v, LZ_NELEM(v)));
	free(js);
	return rc;
}

static json_t *
scope_json(const void *rows, size_t i)
{
	const struct scope_row	*r = (const struct scope_row *)rows + i;

	return json_pack("[IIIIIs%III]", (json_int_t)r->owner,
	    (json_int_t)r->kind, (json_int_t)r->dim, (json_int_t)r->span,
	    (json_int_t)r->hour, r->key, r->keylen, (json_int_t)r->bot,
	    (json_int_t)r->domain_id, (json_int_t)r->n);
}

int
store_scope_addv(struct lz_db *db, const struct scope_row *r, size_t n)
{
	char	*js;
	size_t	 i;
	int	 rc;

	/* PostgreSQL: rows of one span each in one statement. */
	for (i = 0; i < n && !lz_db_is_sqlite(db) && r[i].span != 0; i++)
		;
	if (n > 0 && i == n &&
	    (js = rows_json(r, n, scope_json, "scope rows")) != NULL) {
		rc = lz_run_ok(LZ_STMT(db, set, ST_SCOPE_PUTV, LZ_TEXT(js)));
		free(js);
		return rc;
	}
	/* (A key JSON cannot carry goes a row at a time.) */
	for (i = 0; i < n; i++)
		if ((r[i].span == 0 ? lz_run_ok(LZ_STMT(db, set, ST_SCOPE_ADD,
		    LZ_I64(r[i].owner), LZ_I64(r[i].kind), LZ_I64(r[i].dim),
		    LZ_I64(r[i].hour), LZ_I64(r[i].hour / LZ_DAY_MS * LZ_DAY_MS),
		    LZ_TEXTN(r[i].key, r[i].keylen), LZ_I64(r[i].bot),
		    LZ_I64(r[i].domain_id), LZ_I64(r[i].n))) :
		    lz_run_ok(LZ_STMT(db, set, ST_SCOPE_PUT, LZ_I64(r[i].owner),
		    LZ_I64(r[i].kind), LZ_I64(r[i].dim), LZ_I64(r[i].span),
		    LZ_I64(r[i].hour), LZ_TEXTN(r[i].key, r[i].keylen),
		    LZ_I64(r[i].bot), LZ_I64(r[i].domain_id),
		    LZ_I64(r[i].n)))) == -1)
			return -1;
	return 0;
}

int
store_scope_lock(struct lz_db *db, int64_t account_id)
{
	if (lz_db_is_sqlite(db))
		return 0;
	return lz_run_ok(LZ_STMT(db, set, ST_SCOPE_LOCK, LZ_I64(account_id)));
}

int
store_scope_pause(struct lz_db *db, int on)
{
	return lz_run_ok(lz_db_stmtv(db, set, on ? ST_SCOPE_PAUSE :
	    ST_SCOPE_RESUME, NULL, 0));
}

/* One row of visitor add rows: its first click before and its clicks
 * after, to fn.  0 or -1. */
static int
visitor_add(struct lz_db *db, const struct visitor_row *r,
    void (*fn)(int64_t, int64_t, const unsigned char *, int64_t, int64_t,
    void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(r->day), LZ_I64(r->link_id),
	    LZ_BLOB(r->visitor, VISITOR_ID_LEN), LZ_I64(r->first_at),
	    LZ_I64(r->last_at), LZ_TEXT(str(r->variant)),
	    LZ_TEXT(str(r->suffix)), LZ_I64(r->clicks) };
	struct lz_stmt		*st;

	st = lz_db_stmtv(db, set, ST_VISITOR_ADD, v, LZ_NELEM(v));
	if (lz_row(st) != 1)
		return -1;
	fn(r->day, r->link_id, r->visitor, lz_col_i64(st, 0),
	    lz_col_i64(st, 1), arg);
	lz_reset(st);
	return 0;
}

struct visitor_fn {
	void	(*fn)(int64_t, int64_t, const unsigned char *, int64_t,
		    int64_t, void *);
	void	 *arg;
	int	  bad;
};

static void
each_visitor(struct lz_stmt *st, void *arg)
{
	struct visitor_fn	*f = arg;
	const unsigned char	*v;
	size_t			 len;

	v = lz_col_blob(st, 2, &len);
	if (v == NULL || len != VISITOR_ID_LEN) {
		f->bad = 1;
		return;
	}
	f->fn(lz_col_i64(st, 0), lz_col_i64(st, 1), v, lz_col_i64(st, 3),
	    lz_col_i64(st, 4), f->arg);
}

static json_t *
visitor_json(const void *rows, size_t i)
{
	const struct visitor_row *r = (const struct visitor_row *)rows + i;

	return json_pack("[IIIIssI]", (json_int_t)r->day,
	    (json_int_t)r->link_id, (json_int_t)r->first_at,
	    (json_int_t)r->last_at, str(r->variant), str(r->suffix),
	    (json_int_t)r->clicks);
}

long
store_visitor_addv(struct lz_db *db, const struct visitor_row *r, size_t n,
    void (*fn)(int64_t, int64_t, const unsigned char *, int64_t, int64_t,
    void *), void *arg)
{
	struct visitor_fn	 f = { fn, arg, 0 };
	struct lz_buf		 ids = LZ_BUF_INIT;
	struct lz_val		 v[] = { LZ_NULLV, LZ_NULLV,
	    LZ_I64(VISITOR_ID_LEN) };
	char			*js;
	size_t			 i;
	long			 rc;

	if (n == 0)
		return 0;
	if (lz_db_is_sqlite(db)) {
		for (i = 0; i < n; i++)
			if (visitor_add(db, &r[i], fn, arg) == -1)
				return -1;
		return (long)n;
	}
	if ((js = rows_json(r, n, visitor_json, "visitor add rows")) == NULL)
		return -1;
	/* The visitors, bytes, apart: JSON holds text. */
	for (i = 0; i < n; i++)
		lz_buf_add(&ids, r[i].visitor, VISITOR_ID_LEN);
	v[0] = (struct lz_val)LZ_TEXT(js);
	v[1] = (struct lz_val)LZ_BLOB(ids.p, ids.len);
	rc = lz_each(lz_db_stmtv(db, set, ST_VISITOR_ADDV, v, LZ_NELEM(v)),
	    each_visitor, &f);
	free(js);
	lz_buf_free(&ids);
	return f.bad ? -1 : rc;
}

int
store_visitor_first(struct lz_db *db, int64_t day, int64_t link_id,
    const unsigned char *visitor, int64_t first_at)
{
	return lz_run_ok(LZ_STMT(db, set, ST_VISITOR_FIRST, LZ_I64(day),
	    LZ_I64(link_id), LZ_BLOB(visitor, VISITOR_ID_LEN),
	    LZ_I64(first_at)));
}

int
store_visitor_last(struct lz_db *db, int64_t day, int64_t link_id,
    const unsigned char *visitor, int64_t since, int64_t until,
    char *variant, size_t varlen, char *suffix, size_t suflen, int64_t *at)
{
	const struct lz_val	 v[] = { LZ_I64(day), LZ_I64(link_id),
	    LZ_BLOB(visitor, VISITOR_ID_LEN), LZ_I64(since), LZ_I64(until) };
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(db, set, ST_VISITOR_LAST, v, LZ_NELEM(v));
	if ((rc = lz_row(st)) == 1) {
		lz_col_copy(st, 0, variant, varlen);
		lz_col_copy(st, 1, suffix, suflen);
		*at = lz_col_i64(st, 2);
		lz_reset(st);
	}
	return rc;
}

int
store_stats_totals(struct lz_db *db, const struct store_scope *sc,
    const struct store_range *r, int64_t *clicks, int64_t *bots,
    int64_t *visitors)
{
	struct lz_stmt	*st;

	st = store_stmt_range(db, set, ST_STATS_TOTALS, ST_SCOPE_TOTALS, sc, r,
	    NULL, 0);
	if (lz_row(st) != 1)
		return -1;
	*clicks = lz_col_i64(st, 0);
	*bots = lz_col_i64(st, 1);
	*visitors = lz_col_i64(st, 2);
	lz_reset(st);
	return 0;
}

struct series_fn {
	void	(*fn)(int64_t, int64_t, int64_t, void *);
	void	*arg;
};

static void
each_bucket(struct lz_stmt *st, void *arg)
{
	struct series_fn	*f = arg;

	f->fn(lz_col_i64(st, 0), lz_col_i64(st, 1), lz_col_i64(st, 2),
	    f->arg);
}

int
store_stats_series(struct lz_db *db, const struct store_scope *sc,
    const struct store_range *r, int64_t bucket_ms,
    void (*fn)(int64_t bucket, int64_t clicks, int64_t visitors, void *),
    void *arg)
{
	struct series_fn	 f = { fn, arg };

	return store_series(db, set, ST_STATS_SERIES, ST_SCOPE_SERIES, sc, r,
	    bucket_ms, each_bucket, &f);
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
store_stats_breakdown(struct lz_db *db, enum stats_dim dim,
    const struct store_scope *sc, const struct store_range *r, long limit,
    void (*fn)(const char *key, int64_t clicks, void *), void *arg)
{
	struct key_fn		 f = { fn, arg };
	const struct lz_val	 own[] = { LZ_I64(limit),
	    LZ_I64(ROLLUP_DIM(dim)) };

	if ((unsigned)dim >= STATS_DIM__MAX)
		return -1;
	return lz_each(store_stmt_range(db, set, ST_STATS_BREAKDOWN,
	    ST_SCOPE_BREAKDOWN, sc, r, own, LZ_NELEM(own)), each_key, &f) < 0 ?
	    -1 : 0;
}

int
store_rollup_next_link(struct lz_db *db, int64_t link_id, int64_t *next)
{
	const struct lz_val	 v = LZ_I64(link_id);

	return store_min(lz_db_stmtv(db, set, ST_ROLLUP_NEXT_LINK, &v, 1), next);
}

int
store_rollup_next(struct lz_db *db, int64_t link_id, int64_t at,
    int64_t *next)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(at) };

	return store_min(lz_db_stmtv(db, set, ST_ROLLUP_NEXT, v, LZ_NELEM(v)),
	    next);
}

int
store_rollup_clear(struct lz_db *db, int64_t link_id, int64_t day_ms)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(day_ms) };
	const struct lz_val	 w[] = { LZ_I64(day_ms / LZ_DAY_MS),
	    LZ_I64(link_id) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_ROLLUP_CLEAR, v,
	    LZ_NELEM(v))) == -1 || lz_run_ok(lz_db_stmtv(db, set,
	    ST_VISITOR_CLEAR, w, LZ_NELEM(w))) == -1 ? -1 : 0;
}

struct click_fn {
	void	(*fn)(const struct click *, const char *, void *);
	void	*arg;
	int64_t	 link_id;
};

static void
each_click(struct lz_stmt *st, void *arg)
{
	struct click_fn	*f = arg;
	struct click	 c;
	const void	*visitor;
	size_t		 len;

	memset(&c, 0, sizeof(c));
	c.link_id = f->link_id;
	c.at = lz_col_i64(st, 0);
	c.suffix = lz_col_text(st, 1);
	lz_col_copy(st, 2, c.country, sizeof(c.country));
	c.device = lz_col_text(st, 3);
	c.os = lz_col_text(st, 4);
	c.browser = lz_col_text(st, 5);
	c.variant = lz_col_text(st, 7);
	if ((visitor = lz_col_blob(st, 8, &len)) != NULL)
		memcpy(c.visitor, visitor, len < VISITOR_ID_LEN ? len :
		    VISITOR_ID_LEN);
	c.bot = lz_col_int(st, 9) != 0;
	f->fn(&c, lz_col_text(st, 6), f->arg);
}

long
store_click_each(struct lz_db *db, int64_t link_id, int64_t from, int64_t to,
    void (*fn)(const struct click *, const char *rhost, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(from),
	    LZ_I64(to) };
	struct click_fn		 f = { fn, arg, link_id };

	return lz_each(lz_db_stmtv(db, set, ST_CLICK_EACH, v, LZ_NELEM(v)),
	    each_click, &f);
}

long
store_click_prune(struct lz_db *db, int64_t before, long limit)
{
	return store_purge_rows(db, set, ST_CLICK_PRUNE, before, limit);
}

long
store_visitor_prune(struct lz_db *db, int64_t before_day, long limit)
{
	return store_purge_rows(db, set, ST_VISITOR_PRUNE, before_day, limit);
}

long long
store_click_range_count(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(from),
	    LZ_I64(to) };
	int64_t			 n;

	return lz_one_i64(lz_db_stmtv(db, set, ST_CLICK_RANGE_COUNT, v,
	    LZ_NELEM(v)), &n) == 1 ? n : -1;
}

struct lz_stmt *
store_click_page(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t before_at, int64_t before_id, long limit)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(from),
	    LZ_I64(before_at), LZ_I64(before_id), LZ_I64(limit) };

	return lz_db_stmtv(db, set, ST_CLICK_PAGE, v, LZ_NELEM(v));
}

int
store_click_next(struct lz_stmt *st, int64_t *id, struct click *c)
{
	int	 rc;

	if ((rc = lz_step(st)) != 1)
		return rc;
	memset(c, 0, sizeof(*c));
	*id = lz_col_i64(st, 0);
	c->at = lz_col_i64(st, 1);
	c->suffix = lz_col_text(st, 2);
	lz_col_copy(st, 3, c->country, sizeof(c->country));
	c->device = lz_col_text(st, 4);
	c->os = lz_col_text(st, 5);
	c->browser = lz_col_text(st, 6);
	c->referrer = lz_col_text(st, 7);
	c->variant = lz_col_text(st, 8);
	c->bot = lz_col_int(st, 9);
	return 1;
}
