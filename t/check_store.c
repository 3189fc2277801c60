/*
 * check_store.c -- the storage layer: db.h's statement API, every
 * statement of both services against a fresh database (what catches a
 * typo in a rarely used one), and "any account" (store/admin.h).
 *
 * With LZ_TEST_PG set to the URI of a PostgreSQL database it may wipe
 * (t/check_store_pg.py starts a server and sets it), the statement API
 * and the link service's statements are checked on PostgreSQL too.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sqlite3.h>

#include "db.h"
#include "link/link.h"
#include "lztime.h"
#include "pstore.h"
#include "stats/rollup.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/clicks.h"
#include "store/copy.h"
#include "store/links.h"
#include "store/store.h"
#include "store/tags.h"
#include "store/wal.h"
#include "util.h"
#include "visit/click.h"

static char	 dir[64];
static const char *pg_uri;	/* $LZ_TEST_PG */

static void
mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/lz-check-store-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
rm_tmp(void)
{
	char	 cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- the statement API ------------------------------------------------ */

enum { T_CREATE, T_PUT, T_GET, T_SWAPPED, T_ALL, T_SUM, T_BLOB, T_BAD,
    T_TWO, T__MAX };

static const struct lz_sql tsql[T__MAX] = {
	[T_CREATE] = { "create",
	    "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT, b BLOB)",
	    "CREATE TABLE t (k bigint PRIMARY KEY, v text, b bytea)" },
	[T_PUT] = { "put",
	    "INSERT INTO t (k, v, b) VALUES ($1, $2, $3) RETURNING k" },
	[T_GET] = { "get", "SELECT v, b FROM t WHERE k = $1" },
	/* $2 before $1, and $1 twice: bound by number all the same. */
	[T_SWAPPED] = { "swapped",
	    "UPDATE t SET v = $2 || '/' || $2 WHERE k >= $1 AND k < $1 + 10" },
	[T_ALL] = { "all", "SELECT k, v FROM t ORDER BY k" },
	[T_SUM] = { "sum", "SELECT sum(k) FROM t" },
	[T_BLOB] = { "blob",
	    "SELECT b IS NULL, length(b) FROM t WHERE k = $1" },
	[T_BAD] = { "bad", "SELECT nosuch FROM t" },
	[T_TWO] = { "two", "SELECT 1; SELECT 2" },
};

static struct lz_sqlset tset = LZ_SQLSET("test", tsql);

static struct lz_db	 tdb;

/* Opens db on a new SQLite file called name, or on the PostgreSQL
 * database of LZ_TEST_PG emptied. */
static void
open_empty(struct lz_db *db, const char *name, int pg)
{
	char	 path[96], err[256];

	mkdir_tmp();
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_msg(lz_db_open(db, pg ? pg_uri : path, LZ_DB_CREATE, err,
	    sizeof(err)) == 0, "%s", err);
	if (pg)
		ck_assert_int_eq(lz_db_exec(db, "DROP SCHEMA public CASCADE; "
		    "CREATE SCHEMA public"), 0);
}

static void
tdb_open(int pg)
{
	open_empty(&tdb, "t.db", pg);
	ck_assert_int_eq(lz_run(lz_db_stmt(&tdb, &tset, T_CREATE)), 0);
}

static void
tdb_setup(void)
{
	tdb_open(0);
}

static void
tdb_setup_pg(void)
{
	tdb_open(1);
}

static void
tdb_teardown(void)
{
	lz_db_close(&tdb);
	rm_tmp();
}

static void
put(int64_t k, const char *v)
{
	struct lz_stmt	*st = lz_db_stmt(&tdb, &tset, T_PUT);
	int64_t		 got = 0;

	lz_bind_i64(st, 1, k);
	lz_bind_text(st, 2, v);
	ck_assert_int_eq(lz_one_i64(st, &got), 1);
	ck_assert_int_eq(got, k);
}

static void
count_row(struct lz_stmt *st, void *arg)
{
	(void)st;
	(*(int *)arg)++;
}

START_TEST(stmt_binds_by_number)
{
	struct lz_stmt	*st;
	int		 n = 0;

	put(1, "a");
	put(5, "b");
	put(20, "c");
	st = lz_db_stmt(&tdb, &tset, T_SWAPPED);
	lz_bind_text(st, 2, "x");
	lz_bind_i64(st, 1, 1);
	ck_assert_int_eq(lz_run(st), 2);
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 1, 5);
	ck_assert_int_eq(lz_row(st), 1);
	ck_assert_str_eq(lz_col_text(st, 0), "x/x");
	lz_reset(st);
	ck_assert_int_eq(lz_each(lz_db_stmt(&tdb, &tset, T_ALL), count_row,
	    &n), 3);
	ck_assert_int_eq(n, 3);
}
END_TEST

START_TEST(stmt_rows_and_nulls)
{
	struct lz_stmt	*st;
	int64_t		 v = -1;

	/* No row: 0 and the value left alone. */
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 1, 7);
	ck_assert_int_eq(lz_row(st), 0);
	st = lz_db_stmt(&tdb, &tset, T_SUM);
	ck_assert_int_eq(lz_one_i64(st, &v), 1);
	ck_assert_int_eq(v, 0);			/* NULL reads as 0 */
	put(7, NULL);
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 1, 7);
	ck_assert_int_eq(lz_row(st), 1);
	ck_assert(lz_col_null(st, 0));
	ck_assert_str_eq(lz_col_text(st, 0), "");
	ck_assert_ptr_null(lz_col_text_or_null(st, 0));
	lz_reset(st);
	/* A statement handed out again starts over, bindings cleared. */
	st = lz_db_stmt(&tdb, &tset, T_GET);
	ck_assert_int_eq(lz_row(st), 0);
	lz_db_reset_all(&tdb);
}
END_TEST

/*
 * A statement that takes a JSON array is prepared again on PostgreSQL
 * once its plan is a second old (db_pg.c, set_replan), the old one
 * deallocated: it answers the same, and the server keeps one of it.
 */
static const struct lz_sql replansql[] = {
	{ "json count", "SELECT count(*) FROM json_each($1)",
	    "SELECT count(*) FROM json_array_elements($1::json)" },
	/* how many of it the server keeps, and the number of its name */
	{ "prepared", "SELECT 1000",
	    "SELECT count(*) * 1000 + max(substr(name, 3)::bigint) "
	    "FROM pg_prepared_statements "
	    "WHERE statement LIKE '%json_array_' || 'elements($1::json)%'" },
};

static struct lz_sqlset replanset = LZ_SQLSET("replan test", replansql);

START_TEST(stmt_replanned)
{
	int64_t	 n = -1, name[2];
	int	 i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(lz_one_i64(LZ_STMT(&tdb, &replanset, 0,
		    LZ_TEXT(i ? "[1, 2, 3]" : "[1, 2]")), &n), 1);
		ck_assert_int_eq(n, 2 + i);
		ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &replanset, 1),
		    &n), 1);
		ck_assert_int_eq(n / 1000, 1);		/* one kept */
		name[i] = n % 1000;
		if (i == 0)
			usleep(1100 * 1000);	/* REPLAN_MS */
	}
	if (!lz_db_is_sqlite(&tdb))
		ck_assert_int_ne(name[0], name[1]);	/* prepared again */
}
END_TEST

START_TEST(stmt_blobs)
{
	struct lz_stmt	*st;
	const void	*p;
	size_t		 len;

	st = lz_db_stmt(&tdb, &tset, T_PUT);
	lz_bind_i64(st, 1, 1);
	lz_bind_blob(st, 3, "", 0);		/* empty, not NULL */
	ck_assert_int_eq(lz_run(st), 1);
	st = lz_db_stmt(&tdb, &tset, T_PUT);
	lz_bind_i64(st, 1, 2);
	lz_bind_blob(st, 3, "a\0b", 3);
	ck_assert_int_eq(lz_run(st), 1);
	st = lz_db_stmt(&tdb, &tset, T_BLOB);
	lz_bind_i64(st, 1, 1);
	ck_assert_int_eq(lz_row(st), 1);
	ck_assert_int_eq(lz_col_int(st, 0), 0);
	ck_assert_int_eq(lz_col_int(st, 1), 0);
	lz_reset(st);
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 1, 2);
	ck_assert_int_eq(lz_row(st), 1);
	p = lz_col_blob(st, 1, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert(memcmp(p, "a\0b", 3) == 0);
	lz_reset(st);
}
END_TEST

START_TEST(stmt_failures)
{
	struct lz_stmt	*st;
	int		 n = 0;

	/* A statement that cannot be prepared fails its steps, again and
	 * again; so does one bound to a parameter it lacks. */
	st = lz_db_stmt(&tdb, &tset, T_BAD);
	ck_assert_int_eq(lz_each(st, count_row, &n), -1);
	st = lz_db_stmt(&tdb, &tset, T_BAD);
	ck_assert_int_eq(lz_run(st), -1);
	st = lz_db_stmt(&tdb, &tset, T_TWO);
	ck_assert_int_eq(lz_row(st), -1);
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 2, 1);
	ck_assert_int_eq(lz_row(st), -1);
	/* ... and the next use of it is whole again. */
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 1, 1);
	ck_assert_int_eq(lz_row(st), 0);
	/* A constraint: -1, and the statement is reset. */
	put(3, "x");
	st = lz_db_stmt(&tdb, &tset, T_PUT);
	lz_bind_i64(st, 1, 3);
	ck_assert_int_eq(lz_run(st), -1);
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(stmt_transactions)
{
	struct lz_stmt	*st;

	ck_assert_int_eq(lz_db_in_txn(&tdb), 0);
	ck_assert_int_eq(lz_db_begin(&tdb), 0);
	put(1, "a");
	ck_assert_int_eq(lz_db_in_txn(&tdb), 1);
	/* The end of a request rolls back what it left open. */
	lz_db_reset_all(&tdb);
	ck_assert_int_eq(lz_db_in_txn(&tdb), 0);
	st = lz_db_stmt(&tdb, &tset, T_GET);
	lz_bind_i64(st, 1, 1);
	ck_assert_int_eq(lz_row(st), 0);
	ck_assert_int_eq(lz_db_begin_read(&tdb), 1);
	ck_assert_int_eq(lz_db_begin_read(&tdb), 0);
	ck_assert_int_eq(lz_db_commit(&tdb), 0);
}
END_TEST

/*
 * Plays another connection checkpointing: an open-file-description lock
 * on the checkpoint byte of the -shm file, the lock SQLite's unix VFS
 * takes (byte 120 + WAL_CKPT_LOCK, 1), on fd (ckpt_lock) or dropped.
 */
static void
ckpt_lock_set(int fd, short type)
{
	struct flock	 fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = 120 + 1;
	fl.l_len = 1;
	ck_assert_int_eq(fcntl(fd, F_OFD_SETLK, &fl), 0);
}

static int
ckpt_lock(void)
{
	char	 path[128];
	int	 fd;

	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	ck_assert_int_ne(fd = open(path, O_RDWR), -1);
	ckpt_lock_set(fd, F_WRLCK);
	return fd;
}

static void
ckpt_unlock(int fd)
{
	ckpt_lock_set(fd, F_UNLCK);
	close(fd);
}

/* A reader in the WAL: a read transaction of another connection. */
static sqlite3 *
reader_begin(void)
{
	char	 path[128];
	sqlite3	*rd;

	snprintf(path, sizeof(path), "%s/t.db", dir);
	ck_assert_int_eq(sqlite3_open(path, &rd), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(rd, "BEGIN; SELECT count(*) FROM t",
	    NULL, NULL, NULL), SQLITE_OK);
	return rd;
}

static void
reader_end(sqlite3 *rd)
{
	ck_assert_int_eq(sqlite3_exec(rd, "COMMIT", NULL, NULL, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(sqlite3_close(rd), SQLITE_OK);
}

/*
 * lz_db_checkpoint's answers, which the click mover and lz-hooks steer
 * by: 1 done; 2 a reader still in the WAL, its frames known; 0 another
 * connection checkpointing, nothing done.
 */
START_TEST(sqlite_checkpoint_answers)
{
	sqlite3		*rd;
	int		 fd, frames, copied;

	/* As lz_db_migrate leaves every database of lz's. */
	ck_assert_int_eq(lz_db_exec(&tdb, "PRAGMA journal_mode=WAL"), 0);
	put(1, "a");
	ck_assert_int_gt(lz_db_wal_bytes(&tdb), 0);
	ck_assert_int_eq(lz_db_checkpoint(&tdb, 10, &frames, &copied), 1);
	ck_assert_int_eq(lz_db_wal_bytes(&tdb), 0);

	rd = reader_begin();
	put(2, "b");
	ck_assert_int_eq(lz_db_checkpoint(&tdb, 10, &frames, &copied), 2);
	ck_assert_int_gt(frames, 0);
	reader_end(rd);
	ck_assert_int_eq(lz_db_checkpoint(&tdb, 10, &frames, &copied), 1);

	fd = ckpt_lock();
	put(3, "c");
	ck_assert_int_eq(lz_db_checkpoint(&tdb, 10, &frames, &copied), 0);
	ck_assert_int_gt(lz_db_wal_bytes(&tdb), 0);
	ckpt_unlock(fd);
	ck_assert_int_eq(lz_db_checkpoint(&tdb, 10, &frames, &copied), 1);
	ck_assert_int_eq(lz_db_wal_bytes(&tdb), 0);
}
END_TEST

/*
 * The policy over those answers (store/wal.h).  The mover's trim leaves
 * a small WAL alone; does not count a try that found another checkpoint
 * running; after a try a reader held up, tries no more until its time;
 * then truncates.  lz-hooks' checkpoint runs once a minute.  A
 * connection can leave its checkpoints to them.
 */
START_TEST(sqlite_wal_policy)
{
	struct store_wal	 w = STORE_WAL_INIT, h = STORE_WAL_INIT;
	sqlite3_stmt		*st;
	sqlite3			*rd;
	long long		 size;
	int			 fd;

	ck_assert_int_eq(lz_db_exec(&tdb, "PRAGMA journal_mode=WAL"), 0);
	ck_assert_int_eq(store_wal_manual(&tdb), 0);
	ck_assert_int_eq(sqlite3_prepare_v2(tdb.h, "PRAGMA wal_autocheckpoint",
	    -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);

	put(1, "a");
	size = lz_db_wal_bytes(&tdb);
	store_wal_trim(&tdb, &w);
	ck_assert_int_eq(lz_db_wal_bytes(&tdb), size);
	/* Past 4 MiB: 1024 rows of a page and an overflow page each. */
	ck_assert_int_eq(lz_db_exec(&tdb, "WITH RECURSIVE n(i) AS (SELECT "
	    "100 UNION ALL SELECT i + 1 FROM n WHERE i < 1123) INSERT INTO t "
	    "(k, b) SELECT i, zeroblob(4096) FROM n"), 0);
	ck_assert_int_gt(lz_db_wal_bytes(&tdb), 4 * 1024 * 1024);

	fd = ckpt_lock();
	store_wal_trim(&tdb, &w);
	ck_assert_int_eq(w.next_ms, 0);
	ck_assert_int_eq(w.stuck, 0);
	ckpt_unlock(fd);

	rd = reader_begin();
	put(2, "b");
	store_wal_trim(&tdb, &w);
	ck_assert_int_eq(w.stuck, 1);
	ck_assert_int_ge(w.copied, 0);
	ck_assert_int_gt(w.next_ms, 0);
	/* Another try would have copied no more and counted 2. */
	store_wal_trim(&tdb, &w);
	ck_assert_int_eq(w.stuck, 1);
	reader_end(rd);
	w.next_ms = 0;		/* its time */
	store_wal_trim(&tdb, &w);
	ck_assert_int_eq(lz_db_wal_bytes(&tdb), 0);
	ck_assert_int_eq(w.stuck, 0);
	ck_assert_int_eq(w.copied, -1);

	put(3, "c");
	store_wal_checkpoint(&tdb, &h);
	ck_assert_int_eq(lz_db_wal_bytes(&tdb), 0);
	ck_assert_int_ge(h.next_ms, lz_now_ms() + 59 * 1000);
	put(4, "d");
	store_wal_checkpoint(&tdb, &h);
	ck_assert_int_gt(lz_db_wal_bytes(&tdb), 0);
}
END_TEST

/* ---- every statement of the link service ------------------------------ */

static struct lz_db	 ldb;

static void
links_open(int pg)
{
	char	 path[96], err[256];
	int	 from, to;

	open_empty(&ldb, "links.db", pg);
	ck_assert_msg(lz_db_migrate(&ldb, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(from, 0);
	ck_assert_int_eq(to, lz_links_migrations[lz_links_nmigrations -
	    1].version);
	lz_db_close(&ldb);
	snprintf(path, sizeof(path), "%s/links.db", dir);
	ck_assert_msg(store_open(&ldb, pg ? pg_uri : path, err,
	    sizeof(err)) == 0, "%s", err);
}

static void
links_setup(void)
{
	links_open(0);
}

static void
links_setup_pg(void)
{
	links_open(1);
}

static void
links_teardown(void)
{
	lz_db_close(&ldb);
	rm_tmp();
}

/*
 * PostgreSQL takes a parameter's type from where it first meets it: in
 * "$1 - 60000" or "$1 = 0" an int, which a time or an id outgrows.  Every
 * integer of the schema is a bigint, so no parameter may be an int.
 */
enum { L_INT_PARAMS, L_TABLES, L_COLUMNS, L_ROLLUP_N, L_FIRST_AT,
    L__MAX };

static const struct lz_sql lsql[L__MAX] = {
	[L_INT_PARAMS] = { "int parameters", "SELECT ''",
	    "SELECT string_agg(statement, ' / ') FROM pg_prepared_statements "
	    "WHERE 'integer'::regtype = ANY (parameter_types)" },
	/* The tables lzctl db copy copies, and their columns: all but the
	 * journals', the scopes' sums, which the rollups' triggers make
	 * again as their rows arrive, and scope_pause, empty but inside a
	 * writer's transaction (store/copy.c). */
	[L_TABLES] = { "tables",
	    "SELECT name FROM sqlite_master WHERE type = 'table' AND "
	    "name NOT IN ('click_journals', 'scope_click_rollups', "
	    "'scope_conversion_rollups', 'scope_pause')",
	    "SELECT table_name FROM information_schema.tables WHERE "
	    "table_schema = current_schema() AND table_name NOT IN "
	    "('click_journals', 'lz_schema_version', 'scope_click_rollups', "
	    "'scope_conversion_rollups', 'scope_pause')" },
	[L_COLUMNS] = { "columns", "SELECT count(*) FROM pragma_table_info($1)",
	    "SELECT count(*) FROM information_schema.columns WHERE "
	    "table_schema = current_schema() AND table_name = $1" },
	[L_ROLLUP_N] = { "rollup n", "SELECT coalesce(sum(n), 0) FROM "
	    "click_rollups WHERE dim = $1 AND span = 1 AND at = $2" },
	[L_FIRST_AT] = { "first at", "SELECT first_at FROM click_visitors "
	    "WHERE visitor = $1" },
};

static struct lz_sqlset lset = LZ_SQLSET("links test", lsql);

START_TEST(links_statements_prepare)
{
	struct lz_stmt	*st;
	char		 err[512];

	ck_assert_msg(lz_db_prepare_all(&ldb, store_sqlsets, err,
	    sizeof(err)) == 0, "%s", err);
	st = lz_db_stmt(&ldb, &lset, L_INT_PARAMS);
	ck_assert_int_eq(lz_row(st), 1);
	ck_assert_msg(*lz_col_text(st, 0) == '\0', "int parameters in: %s",
	    lz_col_text(st, 0));
	lz_reset(st);
}
END_TEST

/*
 * Each statement whose rows a reader reads yields the columns the reader
 * reads (store_reads, store.h): a column list grown or cut without its
 * reader would otherwise leave a column unread, or read NULLs, and
 * prepare all the same -- as would PostgreSQL's text of a statement
 * drifting from SQLite's.
 */
START_TEST(links_reads_columns)
{
	const struct store_read	*const *l, *r;
	struct lz_stmt		*st;
	int			 n = 0;

	for (l = store_reads; *l != NULL; l++)
		for (r = *l; r->set != NULL; r++, n++) {
			st = lz_db_stmt(&ldb, r->set, r->st);
			ck_assert_msg(lz_col_count(st) == r->ncols,
			    "%s: %d columns, its reader reads %d",
			    r->set->sql[r->st].name, lz_col_count(st),
			    r->ncols);
			lz_reset(st);
		}
	ck_assert_int_gt(n, 0);
}
END_TEST

static int64_t
add_titled(int64_t account, const char *slug, const char *title,
    const char *url)
{
	struct link	 l;
	int64_t		 id;

	memset(&l, 0, sizeof(l));
	l.account_id = account;
	l.slug = xstrdup(slug);
	l.title = title ? xstrdup(title) : NULL;
	l.target_url = xstrdup(url);
	l.redirect_type = 302;
	l.created_at = 1000;
	ck_assert_int_eq(store_link_insert(&ldb, &l), 0);
	id = l.id;
	link_free(&l);
	return id;
}

static int64_t
add_link(int64_t account, const char *slug)
{
	return add_titled(account, slug, NULL, "https://example.com/");
}

static void
count_link(struct link *l, void *arg)
{
	(void)l;
	(*(int *)arg)++;
}

static void
copied_table(struct lz_stmt *st, void *arg)
{
	const struct store_table	*t;

	for (t = store_tables; t->name != NULL; t++)
		if (strcmp(t->name, lz_col_text(st, 0)) == 0)
			break;
	ck_assert_msg(t->name != NULL, "lzctl db copy leaves out %s",
	    lz_col_text(st, 0));
	(*(int *)arg)++;
}

/* lzctl db copy copies every table but the journals', every column. */
START_TEST(links_copy_tables)
{
	struct lz_val		 name;
	int64_t			 n;
	size_t			 t;
	int			 tables = 0;

	ck_assert_int_eq(lz_each(lz_db_stmt(&ldb, &lset, L_TABLES),
	    copied_table, &tables), STORE_TABLES);
	for (t = 0; t < STORE_TABLES; t++) {
		name = (struct lz_val)LZ_TEXT(store_tables[t].name);
		ck_assert_int_eq(lz_one_i64(lz_db_stmtv(&ldb, &lset,
		    L_COLUMNS, &name, 1), &n), 1);
		ck_assert_msg(n == store_tables[t].ncols, "%s: %lld columns, "
		    "lzctl db copy copies %d", store_tables[t].name,
		    (long long)n, store_tables[t].ncols);
		ck_assert_int_eq(store_table_count(&ldb, t), 0);
	}
}
END_TEST

/* A batch of clicks at[0..n) by visitors who[0..n) through rollup.c. */
static void
rollup_batch(int64_t link, const int64_t *at, const char *who, size_t n)
{
	struct rollup	 ru;
	struct click	 c;
	size_t		 i;

	memset(&ru, 0, sizeof(ru));
	for (i = 0; i < n; i++) {
		memset(&c, 0, sizeof(c));
		c.link_id = link;
		c.at = at[i];
		c.suffix = c.referrer = c.variant = "";
		c.device = "desktop";
		c.os = "linux";
		c.browser = "firefox";
		memset(c.visitor, who[i], sizeof(c.visitor));
		rollup_click(&ru, &c, "");
	}
	ck_assert_int_eq(lz_db_begin(&ldb), 0);
	ck_assert_int_eq(rollup_write(&ldb, &ru, at[0], 0), 0);
	ck_assert_int_eq(lz_db_commit(&ldb), 0);
	rollup_free(&ru);
}

static int64_t
rollup_n(int dim, int64_t hour)
{
	const struct lz_val	 v[] = { LZ_I64(dim), LZ_I64(hour) };
	int64_t			 n;

	ck_assert_int_eq(lz_one_i64(lz_db_stmtv(&ldb, &lset, L_ROLLUP_N, v,
	    LZ_NELEM(v)), &n), 1);
	return n;
}

static int64_t
first_at(char who)
{
	unsigned char	 id[VISITOR_ID_LEN];
	struct lz_val	 v = LZ_BLOB(id, sizeof(id));
	int64_t		 at;

	memset(id, who, sizeof(id));
	ck_assert_int_eq(lz_one_i64(lz_db_stmtv(&ldb, &lset, L_FIRST_AT, &v,
	    1), &at), 1);
	return at;
}

/*
 * A visitor-day counts once, in the hour of its first click, when an
 * earlier click comes in a later batch too (one statement a row on
 * SQLite, one a batch on PostgreSQL: the same counts).
 */
START_TEST(links_rollup_late)
{
	int64_t		 link, day = lz_now_ms() / LZ_DAY_MS * LZ_DAY_MS;
	int64_t		 h9 = day + 9 * LZ_HOUR_MS, h10 = day + 10 * LZ_HOUR_MS;
	const int64_t	 b1[] = { h10 + 1800000 }, b2[] = { h9 + 900000,
	    h10 + 60000, h10 + 120000 }, b3[] = { h10 + 5000 };

	link = add_link(store_account_add(&ldb, "a@example.com", "pro", NULL,
	    1000), "late");
	rollup_batch(link, b1, "V", 1);
	ck_assert_int_eq(rollup_n(ROLLUP_VISITORS, h10), 1);
	rollup_batch(link, b2, "VWW", 3);	/* V earlier, W new */
	ck_assert_int_eq(rollup_n(ROLLUP_VISITORS, h9), 1);
	ck_assert_int_eq(rollup_n(ROLLUP_VISITORS, h10), 1);
	ck_assert_int_eq(rollup_n(ROLLUP_ALL, h10), 3);
	ck_assert_int_eq(first_at('V'), b2[0]);
	ck_assert_int_eq(first_at('W'), b2[1]);
	rollup_batch(link, b3, "W", 1);		/* W earlier, same hour */
	ck_assert_int_eq(rollup_n(ROLLUP_VISITORS, h10), 1);
	ck_assert_int_eq(first_at('W'), b3[0]);
	ck_assert_int_eq(rollup_n(ROLLUP_ALL, h10), 4);
	ck_assert_int_eq(rollup_n(ROLLUP_ALL, h9), 1);
}
END_TEST

/*
 * The scope sums (0015, 0022, and PostgreSQL's 0023) against a recount
 * from click_rollups, links and link_tags, after each way of changing
 * them: a mover's small batch and an import's big one (PostgreSQL's
 * functions look links up by key up to 1,000 rows, join beyond), the
 * same rows again (updates), a tag put on a link with history and one
 * taken off, and a new link's tags put on with the triggers paused (its
 * sums are nothing to add).  Rows in one and not the other are counted.
 */
#define SUMS_RECOUNT(num)						\
	"WITH b AS (SELECT l.account_id AS o, 0 AS k, r.dim, r.span, "	\
	"r.at, r.key, r.bot, coalesce(l.domain_id, 0) AS d, sum(r.n) AS n "\
	"FROM click_rollups r JOIN links l ON l.id = r.link_id "	\
	"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(r.n) != 0 "		\
	"UNION ALL SELECT t.tag_id, 1, r.dim, r.span, r.at, r.key, r.bot, "\
	"coalesce(l.domain_id, 0), sum(r.n) FROM click_rollups r "	\
	"JOIN link_tags t ON t.link_id = r.link_id JOIN links l "	\
	"ON l.id = r.link_id GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 "		\
	"HAVING sum(r.n) != 0), "					\
	"s AS (SELECT owner, kind, dim, span, at, key, bot, domain_id, "	\
	"n" num " FROM scope_click_rollups WHERE n != 0) "		\
	"SELECT (SELECT count(*) FROM (SELECT * FROM b EXCEPT "		\
	"SELECT * FROM s) x) + (SELECT count(*) FROM (SELECT * FROM s "	\
	"EXCEPT SELECT * FROM b) y)"

static const struct lz_sql sumsql[] = {
	/* b: the recount; s: the sums (n a numeric on PostgreSQL, as
	 * sum() of a bigint is there). */
	{ "scope recount", SUMS_RECOUNT(""), SUMS_RECOUNT("::numeric") },
	{ "paused", "SELECT count(*) FROM scope_pause", NULL },
	{ "account clicks", "SELECT coalesce(sum(n), 0) FROM "
	    "scope_click_rollups WHERE owner = $1 AND kind = 0 AND span = 1 "
	    "AND dim = 0", NULL },
};

static struct lz_sqlset sumset = LZ_SQLSET("scope sums test", sumsql);

static void
sums_add(int64_t link, int64_t from, size_t n, int64_t each)
{
	struct rollup_row	*r;
	size_t			 i;

	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < n; i++) {
		r[i].link_id = link;
		r[i].hour = from + (int64_t)i * LZ_HOUR_MS;
		r[i].n = each;
		r[i].dim = (int)(i % 3);
		r[i].bot = (int)(i % 2);
		r[i].span = 1;
		r[i].key = i % 3 ? "k" : "";
		r[i].keylen = strlen(r[i].key);
	}
	ck_assert_int_eq(lz_db_begin(&ldb), 0);
	ck_assert_int_eq(store_rollup_addv(&ldb, r, n), 0);
	ck_assert_int_eq(lz_db_commit(&ldb), 0);
	free(r);
}

static int64_t
sums_off(void)
{
	int64_t	 n = -1;

	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&ldb, &sumset, 0), &n), 1);
	return n;
}

static void
sums_tags(int64_t link, int64_t account, const char *names)
{
	json_t	*j = json_loads(names, 0, NULL);

	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(lz_db_begin(&ldb), 0);
	ck_assert_int_eq(store_link_tags_set(&ldb, link, account, j), 0);
	ck_assert_int_eq(lz_db_commit(&ldb), 0);
	json_decref(j);
}

START_TEST(links_scope_sums)
{
	struct store_tag_cache	*c;
	int64_t			 a, l1, l2, l3, l4, n = -1;
	int64_t			 h0 = 1700000000000 / LZ_DAY_MS * LZ_DAY_MS;
	json_t			*j;

	a = store_account_add(&ldb, "sums@example.com", "pro", NULL, 1000);
	ck_assert_int_gt(a, 0);
	l1 = add_link(a, "s1");
	l2 = add_link(a, "s2");
	l3 = add_link(a, "s3");
	sums_tags(l1, a, "[\"red\", \"blue\"]");
	sums_tags(l2, a, "[\"red\"]");
	sums_add(l1, h0, 8, 1);			/* a mover's batch */
	sums_add(l2, h0, 3, 2);
	ck_assert_int_eq(sums_off(), 0);
	sums_add(l1, h0 + 1000 * LZ_HOUR_MS, 1500, 1);	/* an import's */
	ck_assert_int_eq(sums_off(), 0);
	sums_add(l1, h0 + 1000 * LZ_HOUR_MS, 1500, 3);	/* updated */
	sums_add(l3, h0, 5, 1);
	ck_assert_int_eq(sums_off(), 0);
	sums_tags(l3, a, "[\"green\", \"red\"]");	/* a link with history */
	ck_assert_int_eq(sums_off(), 0);
	sums_tags(l1, a, "[\"blue\"]");		/* red taken off */
	ck_assert_int_eq(sums_off(), 0);
	/* A new link's tags, as an import puts them on. */
	ck_assert_int_eq(lz_db_begin(&ldb), 0);
	l4 = add_link(a, "s4");
	c = store_tag_cache_new();
	j = json_loads("[\"red\", \"new\"]", 0, NULL);
	ck_assert_int_eq(store_tag_cache_fill(&ldb, c, a,
	    (const json_t *const *)&j, 1), 0);
	ck_assert_int_eq(store_link_tags_new(&ldb, l4, a, j, c), 0);
	ck_assert_int_eq(store_tag_cache_flush(&ldb, c), 0);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&ldb, &sumset, 1), &n), 1);
	ck_assert_int_eq(n, 0);			/* resumed in the transaction */
	ck_assert_int_eq(lz_db_commit(&ldb), 0);
	store_tag_cache_free(c);
	json_decref(j);
	ck_assert_int_eq(sums_off(), 0);
	sums_add(l4, h0, 4, 5);			/* its first clicks */
	ck_assert_int_eq(sums_off(), 0);
	ck_assert_int_eq(lz_one_i64(LZ_STMT(&ldb, &sumset, 2, LZ_I64(a)), &n),
	    1);
	/* dim 0 is every third row of a batch: 3 of l1's 8, one of l2's
	 * 3 (2 each), 500 of the 1500 (1 then 3), 2 of l3's 5, 2 of l4's 4
	 * (5 each). */
	ck_assert_int_eq(n, 3 + 2 + 500 * 4 + 2 + 2 * 5);
}
END_TEST

/* An import's commits not waited for on PostgreSQL, then flushed; a
 * no-op on SQLite (its WAL commits never wait). */
static const struct lz_sql lazysql[] = {
	/* the setting and where it comes from: "session" once set */
	{ "commit mode", "SELECT 'normal'",
	    "SELECT setting || ' ' || source FROM pg_settings "
	    "WHERE name = 'synchronous_commit'" },
};

static struct lz_sqlset lazyset = LZ_SQLSET("lazy commits test", lazysql);

/* The connection's commit mode ("normal" on SQLite), in out. */
static void
commit_mode(char *out, size_t len)
{
	struct lz_stmt	*st = lz_db_stmt(&ldb, &lazyset, 0);

	ck_assert_int_eq(lz_step(st), 1);
	snprintf(out, len, "%s", lz_col_text(st, 0));
	lz_reset(st);
}

START_TEST(links_lazy_commits)
{
	struct link	 l;
	int64_t		 a, id;
	char		 was[32], now[32];

	commit_mode(was, sizeof(was));	/* the server's (off in tests) */
	ck_assert_int_eq(store_lazy_commits(&ldb, 1), 0);
	commit_mode(now, sizeof(now));
	ck_assert_str_eq(now, lz_db_is_sqlite(&ldb) ? "normal" :
	    "off session");
	a = store_account_add(&ldb, "lazy@example.com", "pro", NULL, 1000);
	ck_assert_int_gt(a, 0);
	ck_assert_int_eq(lz_db_begin(&ldb), 0);
	id = add_link(a, "lazy");
	ck_assert_int_eq(lz_db_commit(&ldb), 0);
	ck_assert_int_eq(store_lazy_commits(&ldb, 0), 0);
	commit_mode(now, sizeof(now));
	ck_assert_str_eq(now, was);
	ck_assert_int_eq(lz_db_in_txn(&ldb), 0);
	ck_assert_int_eq(store_link_get(&ldb, id, a, &l), 1);
	link_free(&l);
}
END_TEST

/* Account 0 matches nothing; any account is for admin tools only.  (The
 * refusal comes first: with CK_FORK=no the suite is one process.) */
START_TEST(links_account_any)
{
	struct link	 l;
	int64_t		 a, id, owner, domain = -1;
	char		 slug[SLUG_MAX + 1];
	int		 n = 0;

	a = store_account_add(&ldb, "a@example.com", "free", NULL, 1000);
	ck_assert_int_gt(a, 0);
	id = add_link(a, "mine");
	ck_assert_int_eq(store_link_get(&ldb, id, 0, &l), 0);
	ck_assert_int_eq(store_link_delete(&ldb, id, 0, 2000, slug, &owner,
	    &domain),
	    0);
	ck_assert_int_eq(store_link_list(&ldb, 0, 0, 10, NULL, count_link,
	    &n), 0);
	ck_assert_int_eq(store_link_get(&ldb, id, ACCOUNT_ANY, &l), -1);
	ck_assert_int_eq(store_link_delete(&ldb, id, ACCOUNT_ANY, 2000, slug,
	    &owner, &domain), -1);
	ck_assert_int_eq(store_link_get(&ldb, id, a, &l), 1);
	link_free(&l);

	store_admin();
	ck_assert_int_eq(store_link_list(&ldb, ACCOUNT_ANY, 0, 10, NULL,
	    count_link, &n), 1);
	ck_assert_int_eq(store_link_get(&ldb, id, ACCOUNT_ANY, &l), 1);
	link_free(&l);
	ck_assert_int_eq(store_link_delete(&ldb, id, ACCOUNT_ANY, 2000, slug,
	    &owner, &domain), 1);
	ck_assert_str_eq(slug, "mine");
	ck_assert_int_eq(owner, a);
	ck_assert_int_eq(domain, 0);	/* the default one */
	ck_assert_int_eq(store_link_get(&ldb, id, a, &l), 0);
}
END_TEST

/* The slugs a filtered list shows, newest first, joined by spaces. */
static void
slug_join(struct link *l, void *arg)
{
	char	*buf = arg;

	if (*buf)
		strcat(buf, " ");
	strcat(buf, l->slug);
}

static const char *
found(int64_t account, const char *q, int status)
{
	static char		 buf[256];
	struct link_filter	 f = { q, status, 5000, 0, 0, NULL, 0 };

	buf[0] = '\0';
	ck_assert_int_ge(store_link_list(&ldb, account, 0, 100, &f, slug_join,
	    buf), 0);
	return buf;
}

/* Search: a literal substring of slug, title or target_url, A-Z in any
 * case (and only A-Z: other letters as written), % _ and \ plain; the
 * status as link_status() says. */
START_TEST(links_search)
{
	int64_t	 a, b;

	a = store_account_add(&ldb, "a@example.com", "pro", NULL, 1000);
	b = store_account_add(&ldb, "b@example.com", "pro", NULL, 1000);
	add_titled(a, "Spring", "Sale 50% off", "https://shop.example/a_b");
	add_titled(a, "summer", NULL, "https://shop.example/aXb?q=\\x");
	add_titled(a, "cafe", "Caf\xc3\xa9 \xc3\x89t\xc3\xa9",
	    "https://caf\xc3\xa9.example/");
	add_titled(b, "spring2", "Sale", "https://shop.example/");

	ck_assert_str_eq(found(a, NULL, -1), "cafe summer Spring");
	ck_assert_str_eq(found(a, "SPRING", -1), "Spring");
	ck_assert_str_eq(found(a, "sale", -1), "Spring");
	ck_assert_str_eq(found(a, "50%", -1), "Spring");
	ck_assert_str_eq(found(a, "0% o", -1), "Spring");
	ck_assert_str_eq(found(a, "%", -1), "Spring");
	ck_assert_str_eq(found(a, "a_b", -1), "Spring");
	ck_assert_str_eq(found(a, "_", -1), "Spring");
	ck_assert_str_eq(found(a, "\\", -1), "summer");
	ck_assert_str_eq(found(a, "SHOP.EXAMPLE", -1), "summer Spring");
	ck_assert_str_eq(found(a, "caf\xc3\xa9", -1), "cafe");
	ck_assert_str_eq(found(a, "\xc3\x89T\xc3\xa9", -1), "cafe");
	ck_assert_str_eq(found(a, "\xc3\xa9t\xc3\xa9", -1), "");
	ck_assert_str_eq(found(a, "nothing", -1), "");
	ck_assert_str_eq(found(b, "spring", -1), "spring2");

	/* Status: disabled over expired over capped over active. */
	ck_assert_int_eq(lz_db_exec(&ldb, "UPDATE links SET expires_at = 4000 "
	    "WHERE slug = 'Spring'; UPDATE links SET max_clicks = 1, clicks = "
	    "1 WHERE slug IN ('summer', 'cafe'); UPDATE links SET flagged_at = "
	    "1 WHERE slug = 'cafe'"), 0);
	ck_assert_str_eq(found(a, NULL, STATUS_EXPIRED), "Spring");
	ck_assert_str_eq(found(a, NULL, STATUS_CAPPED), "summer");
	ck_assert_str_eq(found(a, NULL, STATUS_DISABLED), "cafe");
	ck_assert_str_eq(found(a, NULL, STATUS_ACTIVE), "");
	ck_assert_str_eq(found(b, NULL, STATUS_ACTIVE), "spring2");
	ck_assert_str_eq(found(a, "s", STATUS_CAPPED), "summer");
}
END_TEST

/* An edit writes only over the revision it read, and counts itself. */
START_TEST(links_update_revision)
{
	struct link	 l;
	int64_t		 a, b, id;

	a = store_account_add(&ldb, "a@example.com", "pro", NULL, 1000);
	b = store_account_add(&ldb, "b@example.com", "pro", NULL, 1000);
	id = add_link(a, "edit-me");
	ck_assert_int_eq(store_link_get(&ldb, id, a, &l), 1);
	ck_assert_int_eq(l.revision, 0);
	free(l.target_url);
	l.target_url = xstrdup("https://example.com/new");
	ck_assert_int_eq(store_link_update(&ldb, &l, b), 0);
	ck_assert_int_eq(store_link_update(&ldb, &l, a), 1);
	/* Read before that edit: refused. */
	ck_assert_int_eq(store_link_update(&ldb, &l, a), 0);
	link_free(&l);
	ck_assert_int_eq(store_link_get(&ldb, id, a, &l), 1);
	ck_assert_int_eq(l.revision, 1);
	ck_assert_str_eq(l.target_url, "https://example.com/new");
	ck_assert_str_eq(l.slug, "edit-me");
	link_free(&l);
}
END_TEST

enum { M_COUNT, M_EVENTS, M__MAX };

static const struct lz_sql msql[M__MAX] = {
	[M_COUNT] = { "count", "SELECT count(*) FROM webhook_deliveries d "
	    "JOIN webhooks w ON w.id = d.webhook_id" },
	[M_EVENTS] = { "events", "SELECT sum(events) FROM webhooks" },
};

static struct lz_sqlset mset = LZ_SQLSET("migration test", msql);

/* 0009 makes the subscriptions anew: each keeps its events, the
 * deliveries stay theirs, and the new events fit. */
START_TEST(links_migration_keeps_webhooks)
{
	char	 path[96], err[256];
	int64_t	 n;
	int	 from, to;

	snprintf(path, sizeof(path), "%s/old.db", dir);
	ck_assert_msg(lz_db_open(&tdb, path, LZ_DB_CREATE, err,
	    sizeof(err)) == 0, "%s", err);
	/* Up to 0008, the schema before 0009. */
	ck_assert_uint_ge(lz_links_nmigrations, 9);
	ck_assert_int_eq(lz_links_migrations[8].version, 9);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations, 8, &from, &to,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO accounts (id, email, "
	    "plan, created_at) VALUES (1, 'a@example.com', 'pro', 1); "
	    "INSERT INTO webhooks (id, account_id, url, events, secret_box, "
	    "created_at) VALUES (1, 1, 'https://h.example/', 1, x'00', 1), "
	    "(2, 1, 'https://h.example/', 3, x'00', 1); "
	    "INSERT INTO webhook_deliveries (uuid, webhook_id, event, body, "
	    "created_at, next_at) VALUES ('d1', 1, 'click', '{}', 1, 1), "
	    "('d2', 2, 'click', '{}', 1, 1)"), 0);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO webhooks (account_id, "
	    "url, events, secret_box, created_at) VALUES (1, 'x', 4, x'00', "
	    "1)"), -1);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(to, lz_links_migrations[lz_links_nmigrations -
	    1].version);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &mset, M_EVENTS), &n), 1);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &mset, M_COUNT), &n), 1);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO webhooks (account_id, "
	    "url, events, secret_box, created_at) VALUES (1, 'x', 15, x'00', "
	    "1)"), 0);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO webhooks (account_id, "
	    "url, events, secret_box, created_at) VALUES (1, 'x', 16, x'00', "
	    "1)"), -1);
	/* Foreign keys are on again, and hold. */
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO webhook_deliveries "
	    "(uuid, webhook_id, event, body, created_at, next_at) VALUES "
	    "('d3', 99, 'click', '{}', 1, 1)"), -1);
	lz_db_close(&tdb);
}
END_TEST

enum { D_LINKS, D_SAME, D_CLICKS, D__MAX };

static const struct lz_sql dsql[D__MAX] = {
	[D_LINKS] = { "links", "SELECT count(*) FROM links WHERE slug IN "
	    "('keep', 'gone') AND title = 'T' AND clicks = 7 AND revision = 2 "
	    "AND domain_id IS NULL AND expired_url IS NULL" },
	[D_SAME] = { "same", "SELECT count(*) FROM links WHERE slug = 'keep'" },
	[D_CLICKS] = { "clicks", "SELECT count(*) FROM clicks c JOIN links l "
	    "ON l.id = c.link_id WHERE l.slug = 'keep'" },
};

static struct lz_sqlset dset = LZ_SQLSET("domains migration test", dsql);

/* 0013 makes the links table anew (slugs unique per domain): every link
 * stays, with its id, fields and clicks, on the default domain. */
START_TEST(links_migration_domains)
{
	char	 path[96], err[256];
	int64_t	 n;
	int	 from, to;

	snprintf(path, sizeof(path), "%s/old12.db", dir);
	ck_assert_msg(lz_db_open(&tdb, path, LZ_DB_CREATE, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(lz_links_migrations[11].version, 12);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations, 12, &from, &to,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO accounts (id, email, "
	    "plan, created_at) VALUES (1, 'a@example.com', 'pro', 1); "
	    "INSERT INTO links (id, account_id, slug, target_url, title, "
	    "clicks, created_at, revision) VALUES (5, 1, 'keep', "
	    "'https://k.example/', 'T', 7, 1, 2); "
	    "INSERT INTO links (id, account_id, slug, target_url, title, "
	    "clicks, created_at, deleted_at, revision) VALUES (9, 1, 'gone', "
	    "'https://g.example/', 'T', 7, 1, 2, 2); "
	    "INSERT INTO clicks (link_id, at, visitor, bot) VALUES "
	    "(5, 1, x'00', 0), (5, 2, x'00', 0)"), 0);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_ge(to, 13);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &dset, D_LINKS), &n), 1);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &dset, D_CLICKS), &n), 1);
	ck_assert_int_eq(n, 2);
	/* A slug once per domain: the default one, then another. */
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO links (account_id, "
	    "slug, target_url, created_at) VALUES (1, 'keep', 'x', 1)"), -1);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO domains (id, host, "
	    "verify_token, created_at) VALUES (3, 'b.test', 't', 1); "
	    "INSERT INTO links (account_id, slug, target_url, created_at, "
	    "domain_id) VALUES (1, 'keep', 'x', 1, 3)"), 0);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO links (account_id, "
	    "slug, target_url, created_at, domain_id) VALUES (1, 'keep', 'x', "
	    "1, 3)"), -1);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &dset, D_SAME), &n), 1);
	ck_assert_int_eq(n, 2);
	/* Foreign keys are on again, and hold. */
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO links (account_id, "
	    "slug, target_url, created_at, domain_id) VALUES (1, 'k2', 'x', "
	    "1, 99)"), -1);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO clicks (link_id, at, "
	    "visitor, bot) VALUES (77, 1, x'00', 0)"), -1);
	lz_db_close(&tdb);
}
END_TEST

/* 0015's sums of the account's and the tags' links: what is there is
 * summed (per domain, a deleted link's too), then the triggers follow
 * every change of a link's rollups and of its tags. */
static const struct lz_sql ssql[] = {
	{ "scope sum", "SELECT coalesce(sum(n), 0) FROM scope_click_rollups "
	    "WHERE owner = $1 AND kind = $2 AND domain_id = $3 AND dim = 0 "
	    "AND span = 24", NULL },
};

static struct lz_sqlset sset = LZ_SQLSET("scopes migration test", ssql);

/* Users made of accounts, owners of them, with their sessions. */
enum { T_USERS, T_NEXT };
static const struct lz_sql teamsql[] = {
	[T_USERS] = { "teams", "SELECT count(*) FROM users u JOIN memberships "
	    "m ON m.user_id = u.id AND m.account_id = u.id AND m.role = "
	    "'owner' JOIN accounts a ON a.id = u.id AND a.email = u.email AND "
	    "coalesce(a.password_hash, '') = coalesce(u.password_hash, '') "
	    "WHERE (u.id = 4 OR (u.id = 9 AND (SELECT user_id FROM sessions) = "
	    "9))", NULL },
	/* the id a user made after the migration took: past the accounts' */
	[T_NEXT] = { "teams next", "SELECT id FROM users WHERE email = "
	    "'c@example.com'", NULL },
};

static struct lz_sqlset teamset = LZ_SQLSET("teams migration test", teamsql);

static int64_t
scope_sum(int64_t owner, int64_t kind, int64_t domain)
{
	int64_t	 n = -1;

	ck_assert_int_eq(lz_one_i64(LZ_STMT(&tdb, &sset, 0, LZ_I64(owner),
	    LZ_I64(kind), LZ_I64(domain)), &n), 1);
	return n;
}

START_TEST(links_migration_scopes)
{
	char	 path[96], err[256];
	int	 from, to;

	snprintf(path, sizeof(path), "%s/old14.db", dir);
	ck_assert_msg(lz_db_open(&tdb, path, LZ_DB_CREATE, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(lz_links_migrations[13].version, 14);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations, 14, &from, &to,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO accounts (id, email, "
	    "plan, created_at) VALUES (1, 'a@example.com', 'pro', 1); "
	    "INSERT INTO domains (id, host, verify_token, created_at) VALUES "
	    "(3, 'b.test', 't', 1); "
	    "INSERT INTO links (id, account_id, slug, target_url, created_at, "
	    "domain_id) VALUES (5, 1, 'a', 'x', 1, NULL), (6, 1, 'b', 'x', 1, "
	    "3); "
	    "INSERT INTO links (id, account_id, slug, target_url, created_at, "
	    "deleted_at) VALUES (7, 1, 'c', 'x', 1, 2); "
	    "INSERT INTO tags (id, account_id, name, fold) VALUES "
	    "(8, 1, 'T', 't'); "
	    "INSERT INTO link_tags VALUES (5, 8), (6, 8); "
	    "INSERT INTO click_rollups VALUES (5, 0, 24, 0, '', 0, 10), "
	    "(6, 0, 24, 0, '', 0, 20), (7, 0, 24, 0, '', 0, 40), "
	    "(6, 0, 24, 86400000, '', 0, 1)"), 0);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_ge(to, 15);
	ck_assert_int_eq(scope_sum(1, 0, 0), 50);
	ck_assert_int_eq(scope_sum(1, 0, 3), 21);
	ck_assert_int_eq(scope_sum(8, 1, 0), 10);
	ck_assert_int_eq(scope_sum(8, 1, 3), 21);
	/* An upsert's new row and its added n, a delete. */
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO click_rollups VALUES "
	    "(5, 0, 24, 0, '', 0, 5) ON CONFLICT (link_id, dim, span, at, key, "
	    "bot) DO UPDATE SET n = click_rollups.n + excluded.n; "
	    "INSERT INTO click_rollups VALUES (5, 0, 24, 3600000, '', 0, 2); "
	    "DELETE FROM click_rollups WHERE link_id = 6 AND at = 86400000"),
	    0);
	ck_assert_int_eq(scope_sum(1, 0, 0), 57);
	ck_assert_int_eq(scope_sum(8, 1, 0), 17);
	ck_assert_int_eq(scope_sum(8, 1, 3), 20);
	/* A tag taken off gives the link's history back; put on, takes it. */
	ck_assert_int_eq(lz_db_exec(&tdb, "DELETE FROM link_tags WHERE "
	    "link_id = 6"), 0);
	ck_assert_int_eq(scope_sum(8, 1, 3), 0);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO link_tags VALUES "
	    "(7, 8)"), 0);
	ck_assert_int_eq(scope_sum(8, 1, 0), 57);
	ck_assert_int_eq(scope_sum(1, 0, 0), 57);
	lz_db_close(&tdb);
}
END_TEST

/* 0018: each account there becomes one user of its e-mail and password,
 * its owner; its sessions are that user's.  On both engines: on
 * PostgreSQL in a schema of its own beside the links database's. */
START_TEST(links_migration_teams)
{
	char	 path[96], err[256];
	int64_t	 n;
	int	 from, to, pg = !lz_db_is_sqlite(&ldb);

	snprintf(path, sizeof(path), "%s/old17.db", dir);
	ck_assert_msg(lz_db_open(&tdb, pg ? pg_uri : path, LZ_DB_CREATE, err,
	    sizeof(err)) == 0, "%s", err);
	if (pg)
		ck_assert_int_eq(lz_db_exec(&tdb, "DROP SCHEMA IF EXISTS old17 "
		    "CASCADE; CREATE SCHEMA old17; SET search_path = old17"),
		    0);
	ck_assert_int_eq(lz_links_migrations[16].version, 17);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations, 17, &from, &to,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO accounts (id, email, "
	    "plan, password_hash, created_at) VALUES (4, 'A@example.com', "
	    "'pro', '$argon2id$x', 1), (9, 'b@example.com', 'free', NULL, 2)"),
	    0);
	ck_assert_int_eq(lz_db_exec(&tdb, pg ? "INSERT INTO sessions (hash, "
	    "account_id, csrf, created_at, seen_at) VALUES ('\\x01', 9, 'c', "
	    "1, 1)" : "INSERT INTO sessions (hash, account_id, csrf, "
	    "created_at, seen_at) VALUES (x'01', 9, 'c', 1, 1)"), 0);
	ck_assert_msg(lz_db_migrate(&tdb, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_ge(to, 18);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &teamset, T_USERS), &n), 1);
	ck_assert_int_eq(n, 2);
	/* A new user takes the next id; an e-mail is one user whatever its
	 * case. */
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO users (email, "
	    "created_at) VALUES ('c@example.com', 3)"), 0);
	ck_assert_int_eq(lz_one_i64(lz_db_stmt(&tdb, &teamset, T_NEXT), &n),
	    1);
	ck_assert_int_eq(n, 10);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO users (email, "
	    "created_at) VALUES ('a@EXAMPLE.com', 3)"), -1);
	ck_assert_int_eq(lz_db_exec(&tdb, "INSERT INTO memberships VALUES "
	    "(10, 4, 'boss', 3)"), -1);
	if (pg)
		ck_assert_int_eq(lz_db_exec(&tdb, "DROP SCHEMA old17 CASCADE"),
		    0);
	lz_db_close(&tdb);
}
END_TEST

/* ---- every statement of the prompt library ---------------------------- */

START_TEST(prompts_statements_prepare)
{
	struct lz_sqlset *const	 build[] = { &pstore_build_sql, NULL };
	struct lz_db		 db;
	char			 path[96], err[512];

	mkdir_tmp();
	snprintf(path, sizeof(path), "%s/prompts.db", dir);
	ck_assert_msg(pstore_create(&db, path, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_msg(lz_db_prepare_all(&db, build, err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_int_eq(pstore_build_begin(&db), 0);
	ck_assert_msg(pstore_build_end(&db, err, sizeof(err)) == 0, "%s", err);
	lz_db_close(&db);
	ck_assert_msg(pstore_open(&db, path, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_msg(lz_db_prepare_all(&db, pstore_sqlsets, err,
	    sizeof(err)) == 0, "%s", err);
	lz_db_close(&db);
	rm_tmp();
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("store");
	TCase	*t;
	SRunner	*sr;
	int	 failed, pg;

	pg_uri = getenv("LZ_TEST_PG");
	if (pg_uri != NULL && *pg_uri == '\0')
		pg_uri = NULL;
	for (pg = 0; pg <= (pg_uri != NULL); pg++) {
		t = tcase_create(pg ? "statements (postgresql)" :
		    "statements");
		tcase_add_checked_fixture(t, pg ? tdb_setup_pg : tdb_setup,
		    tdb_teardown);
		tcase_add_test(t, stmt_binds_by_number);
		tcase_add_test(t, stmt_rows_and_nulls);
		tcase_add_test(t, stmt_blobs);
		tcase_add_test(t, stmt_failures);
		tcase_add_test(t, stmt_transactions);
		tcase_add_test(t, stmt_replanned);
		if (!pg) {	/* PostgreSQL has no WAL of ours */
			tcase_add_test(t, sqlite_checkpoint_answers);
			tcase_add_test(t, sqlite_wal_policy);
		}
		suite_add_tcase(s, t);
		t = tcase_create(pg ? "links (postgresql)" : "links");
		tcase_add_checked_fixture(t, pg ? links_setup_pg :
		    links_setup, links_teardown);
		tcase_add_test(t, links_statements_prepare);
		tcase_add_test(t, links_reads_columns);
		tcase_add_test(t, links_copy_tables);
		tcase_add_test(t, links_account_any);
		tcase_add_test(t, links_search);
		tcase_add_test(t, links_update_revision);
		tcase_add_test(t, links_rollup_late);
		tcase_add_test(t, links_scope_sums);
		tcase_add_test(t, links_lazy_commits);
		if (!pg) {	/* SQLite's way of changing a table */
			tcase_add_test(t, links_migration_keeps_webhooks);
			tcase_add_test(t, links_migration_domains);
			tcase_add_test(t, links_migration_scopes);
		}
		tcase_add_test(t, links_migration_teams);
		suite_add_tcase(s, t);
	}
	t = tcase_create("prompts");
	tcase_add_test(t, prompts_statements_prepare);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
