/*
 * store/audit.c -- the SQL of the audit log (store/audit.h).
 */
#include "config.h"

#include "db.h"
#include "store/audit.h"
#include "store/store.h"

#include "audit.sql.h"

struct lz_sqlset store_audit_sql = LZ_SQLSET("audit", sql);
static struct lz_sqlset *const set = &store_audit_sql;

int
store_audit_add(struct lz_db *db, int64_t account_id, int64_t at,
    const char *actor, const char *action, const char *target,
    const char *network)
{
	return lz_run_ok(LZ_STMT(db, set, ST_AUDIT_ADD, LZ_I64(account_id),
	    LZ_I64(at), LZ_TEXT(actor), LZ_TEXT(action), LZ_TEXT(target),
	    LZ_TEXT(network)));
}

struct page_fn {
	void	(*fn)(const struct audit_entry *, void *);
	void	*arg;
};

static void
page_row(struct lz_stmt *st, void *arg)
{
	struct page_fn		*f = arg;
	struct audit_entry	 e;

	e.id = lz_col_i64(st, 0);
	e.at = lz_col_i64(st, 1);
	e.actor = lz_col_text(st, 2);
	e.action = lz_col_text(st, 3);
	e.target = lz_col_text(st, 4);
	e.network = lz_col_text(st, 5);
	f->fn(&e, f->arg);
}

long
store_audit_page(struct lz_db *db, int64_t account_id, int64_t before,
    long limit, void (*fn)(const struct audit_entry *, void *), void *arg)
{
	struct page_fn	 f = { fn, arg };

	return lz_each(LZ_STMT(db, set, ST_AUDIT_PAGE, LZ_I64(account_id),
	    LZ_I64(before), LZ_I64(limit)), page_row, &f);
}

int
store_audit_seen(struct lz_db *db, int64_t account_id, const char *network)
{
	int64_t	 n;

	if (lz_one_i64(LZ_STMT(db, set, ST_AUDIT_SEEN, LZ_I64(account_id),
	    LZ_TEXT(network)), &n) != 1)
		return -1;
	return n > 0;
}

long
store_audit_prune(struct lz_db *db, int64_t before, long limit)
{
	return store_purge_rows(db, set, ST_AUDIT_PRUNE, before, limit);
}
