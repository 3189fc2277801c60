/*
 * store.c -- opening the links database, the registry of its statements
 * and the one place "any account" is decided (store/store.h).
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "db.h"
#include "log.h"
#include "lztime.h"
#include "store/admin.h"
#include "store/store.h"
#include "util.h"

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
	&store_throttles_sql,
	&store_domains_sql,
	&store_tags_sql,
	&store_audit_sql,
	&store_members_sql,
	&store_mails_sql,
	&store_copy_sql,
	NULL
};

const struct store_read *const store_reads[] = {
	store_accounts_reads,
	store_links_reads,
	store_safety_reads,
	store_webhooks_reads,
	store_domains_reads,
	store_tags_reads,
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
store_lazy_commits(struct lz_db *db, int on)
{
	if (lz_db_is_sqlite(db))
		return 0;
	if (on)
		return lz_db_exec(db, "SET synchronous_commit = off");
	/* The server's setting again; under it, a transaction that
	 * writes a commit record (it takes an id) waits for the flush of
	 * the log up to it, and so of every commit before. */
	if (lz_db_exec(db, "RESET synchronous_commit") == -1 ||
	    lz_db_begin(db) == -1)
		return -1;
	if (lz_db_exec(db, "SELECT pg_current_xact_id()") == -1) {
		lz_db_rollback(db);
		return -1;
	}
	return lz_db_commit(db);
}

static int
open_as(struct lz_db *db, const char *path, int flags, char *err,
    size_t errlen)
{
	if (lz_db_open(db, path, flags, err, errlen) == -1)
		return -1;
	if (lz_db_check_version(db, lz_links_migrations, lz_links_nmigrations,
	    err, errlen) == -1) {
		lz_db_close(db);
		return -1;
	}
	return 0;
}

int
store_open(struct lz_db *db, const char *path, char *err, size_t errlen)
{
	return open_as(db, path, 0, err, errlen);
}

int
store_open_reader(struct lz_db *db, const char *path, char *err,
    size_t errlen)
{
	return open_as(db, path, LZ_DB_RO, err, errlen);
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

int
store_get_of(struct lz_db *db, struct lz_sqlset *set, size_t own, size_t any,
    int64_t id, int64_t account_id, void (*fn)(struct lz_stmt *, void *),
    void *rec)
{
	const struct lz_val	 v = LZ_I64(id);
	struct lz_stmt		*st;

	if ((st = store_stmt_of(db, set, own, any, account_id, &v, 1)) == NULL)
		return -1;
	return (int)lz_each(st, fn, rec);
}

void
store_range(int64_t from, int64_t to, int days, struct store_range *r)
{
	int64_t	 d0, d1;

	memset(r, 0, sizeof(*r));
	d0 = (from + LZ_DAY_MS - 1) / LZ_DAY_MS * LZ_DAY_MS;
	d1 = to / LZ_DAY_MS * LZ_DAY_MS;
	if (!days || d0 >= d1) {	/* hours alone */
		r->head[0] = from;
		r->head[1] = to;
		return;
	}
	r->day[0] = d0;
	r->day[1] = d1;
	r->head[0] = from;
	r->head[1] = d0;
	r->tail[0] = d1;
	r->tail[1] = to;
}

struct lz_stmt *
store_stmt_range(struct lz_db *db, struct lz_sqlset *set, size_t link,
    size_t scope, const struct store_scope *sc, const struct store_range *r,
    const struct lz_val *own, size_t nown)
{
	struct lz_val	 v[7 + 4 + 2];
	size_t		 n = 0, k;

	if (nown > 4)
		abort();	/* a caller's mistake: 4 at most */
	v[n++] = (struct lz_val)LZ_I64(sc->id);
	v[n++] = (struct lz_val)LZ_I64(r->day[0]);
	v[n++] = (struct lz_val)LZ_I64(r->day[1]);
	v[n++] = (struct lz_val)LZ_I64(r->head[0]);
	v[n++] = (struct lz_val)LZ_I64(r->head[1]);
	v[n++] = (struct lz_val)LZ_I64(r->tail[0]);
	v[n++] = (struct lz_val)LZ_I64(r->tail[1]);
	for (k = 0; k < nown; k++)
		v[n++] = own[k];
	if (sc->kind == STORE_SCOPE_LINK)
		return lz_db_stmtv(db, set, link, v, n);
	v[n++] = (struct lz_val)LZ_I64((int64_t)sc->kind);
	v[n++] = (struct lz_val)LZ_I64(sc->domain);
	return lz_db_stmtv(db, set, scope, v, n);
}

int
store_series(struct lz_db *db, struct lz_sqlset *set, size_t link,
    size_t scope, const struct store_scope *sc, const struct store_range *r,
    int64_t bucket_ms, void (*fn)(struct lz_stmt *, void *), void *arg)
{
	const struct lz_val	 own = LZ_I64(bucket_ms);

	return lz_each(store_stmt_range(db, set, link, scope, sc, r, &own, 1),
	    fn, arg) < 0 ? -1 : 0;
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
store_min(struct lz_stmt *st, int64_t *v)
{
	int	 rc;

	if ((rc = lz_row(st)) != 1)
		return rc;
	rc = !lz_col_null(st, 0);
	*v = lz_col_i64(st, 0);
	lz_reset(st);
	return rc;
}

long
store_purge_rows(struct lz_db *db, struct lz_sqlset *set, size_t i,
    int64_t before, long limit)
{
	return (long)lz_run(LZ_STMT(db, set, i, LZ_I64(before), LZ_I64(limit)));
}

long
store_purge(struct lz_db *db, long (*fn)(struct lz_db *, int64_t, long),
    int64_t before, long batch, long max)
{
	long	 n, total = 0;

	do {
		if (lz_db_begin(db) == -1)
			return -1;
		if ((n = fn(db, before, batch)) < 0 || lz_db_commit(db) == -1) {
			lz_db_rollback(db);
			return -1;
		}
		total += n;
	} while (n == batch && total < max);
	return total;
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
