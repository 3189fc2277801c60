/*
 * store.c -- opening the links database, the registry of its statements
 * and the one place "any account" is decided (store/store.h).
 */
#include "config.h"

#include <stddef.h>

#include <sodium.h>

#include "db.h"
#include "log.h"
#include "util.h"
#include "store/admin.h"
#include "store/store.h"

/*
 * Row locks (store.h).  dialect: FOR UPDATE is PostgreSQL's; on SQLite
 * the read alone, BEGIN IMMEDIATE having taken the one write lock.
 */
#define LOCK_SQL(what, table) { "lock " what, \
	"SELECT id FROM " table " WHERE id = $1", \
	"SELECT id FROM " table " WHERE id = $1 FOR UPDATE" }

static const struct lz_sql lock_sql[STORE_LOCK__MAX] = {
	[STORE_LOCK_ACCOUNT] = LOCK_SQL("account", "accounts"),
	[STORE_LOCK_LINK] = LOCK_SQL("link", "links"),
};

static struct lz_sqlset store_lock_sql = LZ_SQLSET("locks", lock_sql);

struct lz_sqlset *const store_sqlsets[] = {
	&store_lock_sql,
	&store_accounts_sql,
	&store_links_sql,
	&store_clicks_sql,
	&store_conversions_sql,
	&store_webhooks_sql,
	&store_safety_sql,
	&store_sessions_sql,
	&store_copy_sql,
	NULL
};

static int	 admin;

void
store_admin(void)
{
	admin = 1;
}

int
store_lock(struct lz_db *db, enum store_lock what, int64_t id)
{
	const struct lz_val	 v = LZ_I64(id);
	int64_t			 got;

	if ((unsigned)what >= STORE_LOCK__MAX)
		return -1;
	return lz_one_i64(lz_db_stmtv(db, &store_lock_sql, what, &v, 1),
	    &got);
}

int
store_open(struct lz_db *db, const char *path, char *err, size_t errlen)
{
	if (lz_db_open(db, path, 0, err, errlen) == -1)
		return -1;
	if (lz_db_check_version(db, lz_links_migrations, lz_links_nmigrations,
	    err, errlen) == -1) {
		lz_db_close(db);
		return -1;
	}
	return 0;
}

struct lz_stmt *
store_stmt_of(struct lz_db *db, struct lz_sqlset *set, size_t own, size_t any,
    int64_t account_id, const struct lz_val *v, size_t n)
{
	struct lz_stmt	*st;

	if (account_id == ACCOUNT_ANY) {
		if (!admin) {
			lz_log(LZ_LOG_ERR, "%s: %s refused: this process is "
			    "no admin tool", set->name, set->sql[any].name);
			return NULL;
		}
		return lz_db_stmtv(db, set, any, v, n);
	}
	st = lz_db_stmtv(db, set, own, v, n);
	lz_bind_i64(st, (int)n + 1, account_id);
	return st;
}

struct lz_stmt *
store_stmt_range(struct lz_db *db, struct lz_sqlset *set, size_t i,
    int64_t link_id, int64_t from, int64_t to, int64_t x)
{
	const struct lz_val	 v[] = {
		LZ_I64(link_id), LZ_I64(from), LZ_I64(to), LZ_I64(x)
	};

	return lz_db_stmtv(db, set, i, v, LZ_NELEM(v));
}

char *
store_json_ids(const int64_t *v, size_t n)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	size_t		 i;

	lz_buf_putc(&b, '[');
	for (i = 0; i < n; i++)
		lz_buf_printf(&b, "%s%lld", i ? "," : "", (long long)v[i]);
	lz_buf_putc(&b, ']');
	return lz_buf_detach(&b);
}

int
store_row_by_hash(struct lz_stmt *st, int col, const unsigned char *hash,
    size_t len)
{
	const void	*stored;
	size_t		 n;
	int		 rc;

	if ((rc = lz_row(st)) != 1)
		return rc;
	stored = lz_col_blob(st, col, &n);
	if (n == len && sodium_memcmp(stored, hash, len) == 0)
		return 1;
	lz_reset(st);
	return 0;
}
