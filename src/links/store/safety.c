/*
 * safety.c -- the SQL of blocklist entries and flagged links.
 */
#include "config.h"

#include "db.h"
#include "resp.h"
#include "store/links.h"
#include "store/safety.h"
#include "store/store.h"
#include "util.h"

#include "safety.sql.h"

struct lz_sqlset store_safety_sql = LZ_SQLSET("safety", sql);
static struct lz_sqlset *const set = &store_safety_sql;

const struct store_read store_safety_reads[] = {
	{ &store_safety_sql, ST_LINK_SCAN, STORE_LINK_NCOLS },
	{ &store_safety_sql, ST_LINK_FLAGGED, STORE_LINK_NCOLS },
	{ NULL, 0, 0 }
};

int
store_bl_find(struct lz_db *db, const char *kind, const char *value,
    char *source, size_t srclen, char *reason, size_t reasonlen)
{
	const struct lz_val	 v[] = { LZ_TEXT(kind), LZ_TEXT(value) };
	struct lz_stmt		*st;
	int			 rc;

	/* Called ~35 times per destination: the binds copy nothing. */
	st = lz_db_stmtv(db, set, ST_BL_FIND, v, LZ_NELEM(v));
	if ((rc = lz_row(st)) == 1) {
		lz_col_copy(st, 0, source, srclen);
		lz_col_copy(st, 1, reason, reasonlen);
		lz_reset(st);
	}
	return rc;
}

int
store_bl_find_many(struct lz_db *db, const char *const *kind,
    const char *const *value, size_t n,
    void (*fn)(size_t, const char *, const char *, void *), void *arg)
{
	struct lz_stmt	*st;
	json_t		*arr, *p;
	char		*js, source[64], reason[256];
	size_t		 i;
	int		 rc = 0, txn;

	if (n == 0)
		return 0;
	if (lz_db_is_sqlite(db)) {
		/* In one read transaction: on its own, each statement would
		 * begin and end one (a WAL lock each). */
		txn = lz_db_begin_read(db) == 1;
		for (i = 0; i < n && rc != -1; i++)
			if ((rc = store_bl_find(db, kind[i], value[i], source,
			    sizeof(source), reason, sizeof(reason))) == 1)
				fn(i, source, reason, arg);
		if (txn && lz_db_commit(db) == -1) {	/* read-only */
			lz_db_rollback(db);
			rc = -1;
		}
		return rc == -1 ? -1 : 0;
	}
	arr = json_array();
	for (i = 0; i < n; i++) {
		/* Not UTF-8 (it never is: hosts are punycode, expressions
		 * %-escaped): a null in its place keeps the indexes. */
		if ((p = json_pack("[s, s]", kind[i], value[i])) == NULL)
			p = json_null();
		json_array_append_new(arr, p);
	}
	js = lz_json_dump(arr, NULL);
	json_decref(arr);
	st = LZ_STMT(db, set, ST_BL_FIND_MANY, LZ_TEXT(js));
	while ((rc = lz_step(st)) == 1) {
		i = (size_t)lz_col_i64(st, 0);
		if (i < n)
			fn(i, lz_col_text_or_null(st, 1), lz_col_text_or_null(st,
			    2), arg);
	}
	free(js);
	return rc == -1 ? -1 : 0;
}

int
store_bl_upsert(struct lz_db *db, const char *kind, const char *value,
    const char *source, const char *reason, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_BL_UPSERT, LZ_TEXT(kind),
	    LZ_TEXT(value), LZ_TEXT(source), LZ_TEXT(reason ? reason : ""),
	    LZ_I64(now)));
}

long
store_bl_prune(struct lz_db *db, const char *source, int64_t before)
{
	return (long)lz_run(LZ_STMT(db, set, ST_BL_PRUNE, LZ_TEXT(source),
	    LZ_I64(before)));
}

long
store_bl_remove(struct lz_db *db, const char *kind, const char *value,
    const char *source)
{
	return (long)lz_run(LZ_STMT(db, set, ST_BL_REMOVE, LZ_TEXT(kind),
	    LZ_TEXT(value), LZ_TEXT(source)));
}

static void
row_entry(struct lz_stmt *st, struct bl_row *r)
{
	static const struct lz_col	 cols[] = {
		LZ_COL(bl_row, TEXT, kind), LZ_COL(bl_row, TEXT, value),
		LZ_COL(bl_row, TEXT, source), LZ_COL(bl_row, TEXT, reason),
		LZ_COL(bl_row, I64, added_at)
	};

	lz_cols(st, cols, LZ_NELEM(cols), r);
}

LZ_EACH_ROW(each_entry, const, struct bl_row, row_entry, LZ_KEEP);

long
store_bl_list(struct lz_db *db, const char *source, long limit,
    void (*fn)(const struct bl_row *, void *), void *arg)
{
	return each_entry(LZ_STMT(db, set, ST_BL_LIST, LZ_TEXT(source),
	    LZ_I64(limit)), fn, arg);
}

struct count_fn {
	void	(*fn)(const char *, long long, int64_t, void *);
	void	*arg;
};

static void
each_source(struct lz_stmt *st, void *arg)
{
	struct count_fn	*f = arg;

	f->fn(lz_col_text(st, 0), lz_col_i64(st, 1), lz_col_i64(st, 2),
	    f->arg);
}

long
store_bl_count(struct lz_db *db, void (*fn)(const char *source,
    long long entries, int64_t seen_at, void *), void *arg)
{
	struct count_fn	 f = { fn, arg };

	return lz_each(lz_db_stmt(db, set, ST_BL_COUNT), each_source, &f);
}

long
store_link_scan(struct lz_db *db, int64_t after, long limit,
    void (*fn)(struct link *, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(after), LZ_I64(limit) };

	return store_link_each(lz_db_stmtv(db, set, ST_LINK_SCAN, v,
	    LZ_NELEM(v)), fn, arg);
}

int
store_link_flag(struct lz_db *db, int64_t id, int64_t now,
    const char *reason)
{
	return lz_run_changed(LZ_STMT(db, set, ST_LINK_FLAG, LZ_I64(now),
	    LZ_TEXT(reason), LZ_I64(id)));
}

int
store_link_unflag(struct lz_db *db, int64_t id)
{
	return lz_run_changed(LZ_STMT(db, set, ST_LINK_UNFLAG, LZ_I64(id)));
}

long
store_link_flagged(struct lz_db *db, long limit,
    void (*fn)(struct link *, void *), void *arg)
{
	const struct lz_val	 v = LZ_I64(limit);

	return store_link_each(lz_db_stmtv(db, set, ST_LINK_FLAGGED, &v, 1),
	    fn, arg);
}
