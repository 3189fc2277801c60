/*
 * db_sqlite.c -- the SQLite engine of db.h (db_engine.h), and what only
 * SQLite does: checkpoints, backups, integrity checks, blob reads.
 */
#include "config.h"

#include <sys/stat.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "busy.h"
#include "db.h"
#include "db_engine.h"
#include "log.h"
#include "lztime.h"
#include "pool.h"
#include "util.h"
#include "wqueue.h"

/* A connection's engine part: the queue of the database's writers, or
 * NULL (read-only, scratch, or a queue that could not be opened). */
struct sq_conn {
	struct lz_wqueue	*wq;
	int			 busy_ms;	/* how long busy_wait waits */
	char			*path;	/* the file opened, and which: */
	dev_t			 dev;
	ino_t			 ino;
	/* BEGIN, BEGIN IMMEDIATE, COMMIT, ROLLBACK, prepared once: parsing
	 * them at every transaction was a tenth of a link create's CPU. */
	sqlite3_stmt		*txn[4];
	/* lz_db_data_version: PRAGMA data_version, and which opening of
	 * the process this connection is (a number never used twice). */
	sqlite3_stmt		*dv;
	uint64_t		 dv_last;	/* its last answer */
	uint64_t		 serial;
};

enum { TXN_BEGIN, TXN_IMMEDIATE, TXN_COMMIT, TXN_ROLLBACK };

static const char *const txn_sql[] = { "BEGIN", "BEGIN IMMEDIATE",
    "COMMIT", "ROLLBACK" };

/* A statement's engine part. */
struct sq_stmt {
	sqlite3_stmt	*st;
	int		 queued;	/* holds the write turn of its own (a
					   write outside a transaction) */
	/* SQLite's index of $N: named parameters are numbered in the
	 * order they first appear, so it is looked up once, at prepare. */
	unsigned char	 par[LZ_SQL_PARAMS + 1];
};

#define SQ(s)	((struct sq_stmt *)(s)->e)
#define ST(s)	(SQ(s)->st)
#define WQ(db)	(((struct sq_conn *)(db)->e)->wq)

/* How long BEGIN IMMEDIATE is tried again when SQLite answers busy
 * without waiting in its handler (WAL recovery, a checkpoint of another
 * process restarting the log). */
#define BEGIN_RETRY_MS	LZ_DB_BUSY_MS
/* The longest a checkpoint holds the writers' turn waiting for readers. */
#define CHECKPOINT_TURN_MS	50

/* "file:PATH?immutable=1", with the URI's special characters escaped. */
static char *
immutable_uri(const char *path)
{
	struct lz_buf	 b = LZ_BUF_INIT;

	lz_buf_puts(&b, "file:");
	for (; *path; path++)
		if (*path == '%' || *path == '?' || *path == '#')
			lz_buf_printf(&b, "%%%02X", (unsigned char)*path);
		else
			lz_buf_putc(&b, *path);
	lz_buf_puts(&b, "?immutable=1");
	return lz_buf_detach(&b);
}

static int	sq_exec(struct lz_db *, const char *);

/*
 * SQLite's busy handler, as sqlite3_busy_timeout's (the same pauses:
 * 1, 2, 5 ... 100 ms, busy_ms in all), but a worker about to have
 * waited LZ_POOL_STALL_MS hands its other kept connections back
 * (lz_pool_stall): a writer outside lz that holds the lock must not
 * leave the requests nginx queued on this worker waiting with it.
 */
static int
busy_wait(void *arg, int count)
{
	static const int	 pause[] = { 1, 2, 5, 10, 15, 20, 25, 25, 25,
	    50, 50, 100 };
	const int		 n = (int)LZ_NELEM(pause);
	struct sq_conn		*c = arg;
	int			 i, waited = 0, next;

	for (i = 0; i < count && i < n; i++)
		waited += pause[i];
	if (count > n)
		waited += (count - n) * pause[n - 1];
	next = count < n ? pause[count] : pause[n - 1];
	if (waited + next > c->busy_ms)
		next = c->busy_ms - waited;
	if (next <= 0)
		return 0;
	if (waited < LZ_POOL_STALL_MS && waited + next >= LZ_POOL_STALL_MS)
		lz_pool_stall();
	sqlite3_sleep(next);
	return 1;
}

/* How long a statement of db waits for a lock another connection holds. */
static void
busy_ms(struct lz_db *db, int ms)
{
	((struct sq_conn *)db->e)->busy_ms = ms;
	sqlite3_busy_handler(db->h, busy_wait, db->e);
}

/* The connections opened by this process (sq_conn.serial); threads of
 * detached answers open theirs too. */
static _Atomic uint64_t	openings;
static pthread_once_t	configured = PTHREAD_ONCE_INIT;

/*
 * Before SQLite's first use: no count of the memory it holds, which
 * takes one mutex of the whole process at every allocation -- a thread
 * at a low CPU priority preempted while holding it (lz_pool_detach's)
 * kept the workers' redirects waiting.  lz never reads the count.
 */
static void
sq_config(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int
sq_open(struct lz_db *db, const char *path, int flags, char *err,
    size_t errlen)
{
	struct stat	 st;
	sqlite3		*h = NULL;
	char		*uri = NULL;
	int		 oflags, rc;

	(void)pthread_once(&configured, sq_config);
	oflags = SQLITE_OPEN_NOMUTEX;
	if (flags & LZ_DB_RO)
		oflags |= SQLITE_OPEN_READONLY;
	else
		oflags |= SQLITE_OPEN_READWRITE;
	if (flags & LZ_DB_CREATE)
		oflags |= SQLITE_OPEN_CREATE;
	if ((flags & LZ_DB_IMMUTABLE) && (flags & LZ_DB_RO)) {
		uri = immutable_uri(path);
		oflags |= SQLITE_OPEN_URI;
	}
	rc = sqlite3_open_v2(uri ? uri : path, &h, oflags, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, h ?
		    sqlite3_errmsg(h) : sqlite3_errstr(rc));
		sqlite3_close(h);
		return -1;
	}
	db->h = h;
	db->e = xcalloc(1, sizeof(struct sq_conn));
	((struct sq_conn *)db->e)->serial = atomic_fetch_add(&openings, 1) +
	    1;
	if (!(flags & LZ_DB_SCRATCH) && stat(path, &st) == 0) {
		((struct sq_conn *)db->e)->path = xstrdup(path);
		((struct sq_conn *)db->e)->dev = st.st_dev;
		((struct sq_conn *)db->e)->ino = st.st_ino;
	}
	/* Writers queue (wqueue.h); SQLite's busy handler stays for the
	 * writers outside the queue. */
	if (!(flags & (LZ_DB_RO | LZ_DB_SCRATCH)) &&
	    (WQ(db) = lz_wqueue_open(path, err, errlen)) == NULL)
		lz_log(LZ_LOG_WARN, "%s; writers wait in SQLite's busy "
		    "handler", err);
	busy_ms(db, LZ_DB_BUSY_MS);
	sqlite3_extended_result_codes(h, 1);
	/* journal_mode=WAL is persistent: lz_db_migrate sets it once. */
	if (sq_exec(db, (flags & LZ_DB_SCRATCH) ?
	    "PRAGMA page_size=16384;"
	    "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	    "PRAGMA foreign_keys=ON;"
	    "PRAGMA temp_store=MEMORY;" :
	    "PRAGMA synchronous=NORMAL;"
	    "PRAGMA foreign_keys=ON;"
	    "PRAGMA temp_store=MEMORY;") == -1) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(h));
		sqlite3_close(h);
		db->h = NULL;
		lz_wqueue_close(WQ(db));
		free(((struct sq_conn *)db->e)->path);
		free(db->e);
		db->e = NULL;
		return -1;
	}
	return 0;
}

static void
sq_close(struct lz_db *db)
{
	struct sq_conn	*c = db->e;
	size_t		 i;

	if (c != NULL)
	{
		for (i = 0; i < LZ_NELEM(c->txn); i++)
			sqlite3_finalize(c->txn[i]);
		sqlite3_finalize(c->dv);
	}
	sqlite3_close(db->h);
	if (c != NULL) {
		lz_wqueue_close(c->wq);
		free(c->path);
	}
	free(c);
	db->e = NULL;
}

static int
sq_health(struct lz_db *db, char *why, size_t len)
{
	struct sq_conn		*c = db->e;
	struct lz_wqueue_stats	 ws;
	struct stat		 st;

	if (c == NULL || c->path == NULL)
		return 0;
	if (stat(c->path, &st) == -1 || st.st_dev != c->dev ||
	    st.st_ino != c->ino) {
		snprintf(why, len, "the database file %s was removed or "
		    "replaced since the pool opened it (restart the pool)",
		    c->path);
		return -1;
	}
	if (c->wq != NULL) {
		lz_wqueue_stats(c->wq, &ws);
		if (ws.stalled_us >= LZ_DB_STALL_MS * 1000ULL) {
			snprintf(why, len, "writes are stalled: no write done for "
			    "%.1f s with %u writer%s waiting (is a process "
			    "outside lz holding the database's write lock?)",
			    (double)ws.stalled_us / 1e6, ws.queued,
			    ws.queued == 1 ? "" : "s");
			return -1;
		}
	}
	return 0;
}

/*
 * Another connection's commit moves data_version (SQLite reads it from
 * the WAL index as a read transaction begins: no page is read); this
 * connection's own changes move total_changes.
 */
static int
sq_data_version(struct lz_db *db, uint64_t v[3], int again)
{
	struct sq_conn	*c = db->e;
	int		 rc;

	if (again) {
		if (c->dv == NULL && sqlite3_prepare_v3(db->h,
		    "PRAGMA data_version", -1, SQLITE_PREPARE_PERSISTENT,
		    &c->dv, NULL) != SQLITE_OK)
			return -1;
		rc = sqlite3_step(c->dv);
		if (rc == SQLITE_ROW)
			c->dv_last = (uint64_t)sqlite3_column_int64(c->dv, 0);
		sqlite3_reset(c->dv);
		if (rc != SQLITE_ROW)
			return -1;
	}
	v[0] = c->serial;
	v[1] = c->dv_last;
	v[2] = (uint64_t)sqlite3_total_changes64(db->h);
	return 0;
}

/* Runs transaction statement t (prepared at its first use): SQLite's
 * answer. */
static int
txn(struct lz_db *db, int t)
{
	struct sq_conn	*c = db->e;
	int		 rc;

	if (c->txn[t] == NULL && (rc = sqlite3_prepare_v3(db->h, txn_sql[t],
	    -1, SQLITE_PREPARE_PERSISTENT, &c->txn[t], NULL)) != SQLITE_OK)
		return rc;
	rc = sqlite3_step(c->txn[t]);
	sqlite3_reset(c->txn[t]);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* txn, logged when it fails: 0 or -1. */
static int
txn_ok(struct lz_db *db, int t)
{
	if (txn(db, t) == SQLITE_OK)
		return 0;
	lz_log(LZ_LOG_ERR, "sqlite: %s: %s", txn_sql[t],
	    sqlite3_errmsg(db->h));
	return -1;
}

/*
 * Takes the write turn of db's queue (none: nothing to take).  0, or -1
 * with the contention noted (busy.h) when the wait was given up.
 */
static int
turn(struct lz_db *db)
{
	if (WQ(db) == NULL || lz_wqueue_held(WQ(db)))
		return 0;
	if (lz_wqueue_lock(WQ(db), LZ_DB_BUSY_MS) == 0)
		return 0;
	lz_busy_note();
	return -1;
}

static void
turn_end(struct lz_db *db)
{
	if (WQ(db) != NULL)
		lz_wqueue_unlock(WQ(db));
}

static int
sq_exec(struct lz_db *db, const char *sql)
{
	char	*msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		lz_log(LZ_LOG_ERR, "sqlite: %s: %.200s", msg ? msg : "?", sql);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/*
 * A write transaction waits for its turn in the queue, then for SQLite's
 * write lock, which a writer outside the queue may hold (its busy
 * handler waits for that).  Some busy answers come back without the
 * handler (WAL recovery, another process restarting the log): tried
 * again for a while, a millisecond apart.
 */
static int
sq_begin(struct lz_db *db, int write)
{
	int64_t	 until;
	int	 rc;

	if (!write)
		return txn_ok(db, TXN_BEGIN);
	if (turn(db) == -1)
		return -1;
	until = lz_mono_us() + BEGIN_RETRY_MS * 1000LL;
	while ((rc = txn(db, TXN_IMMEDIATE)) != SQLITE_OK &&
	    ((rc & 0xff) == SQLITE_BUSY ||
	    (rc & 0xff) == SQLITE_LOCKED) && lz_mono_us() < until)
		sqlite3_sleep(1);
	if (rc == SQLITE_OK)
		return 0;
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		lz_busy_note();
	lz_log(LZ_LOG_ERR, "sqlite: BEGIN IMMEDIATE: %s",
	    sqlite3_errmsg(db->h));
	turn_end(db);
	return -1;
}

static int
sq_commit(struct lz_db *db)
{
	if (txn_ok(db, TXN_COMMIT) == -1)
		return -1;	/* the caller rolls back */
	if (lz_wqueue_held(WQ(db)))
		lz_wqueue_progress(WQ(db));	/* a write was done */
	turn_end(db);
	return 0;
}

static void
sq_rollback(struct lz_db *db)
{
	(void)txn_ok(db, TXN_ROLLBACK);
	turn_end(db);
}

static int
sq_in_txn(struct lz_db *db)
{
	return !sqlite3_get_autocommit(db->h);
}

static const char *
sq_error(struct lz_db *db)
{
	return sqlite3_errmsg(db->h);
}

static int
sq_version(struct lz_db *db)
{
	sqlite3_stmt	*st;
	int		 v = -1;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st,
	    NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int
sq_set_version(struct lz_db *db, int v)
{
	char	 pragma[64];

	snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%d", v);
	return sq_exec(db, pragma);
}

/*
 * Each migration runs in a transaction of its own with foreign keys off
 * and checked whole before it commits (sq_migrated): SQLite's way to
 * change a table it cannot ALTER (make the new one, copy, drop the old,
 * rename), which a table others refer to could not go through with them
 * on.
 */
static int
sq_premigrate(struct lz_db *db, int v, char *err, size_t errlen)
{
	(void)v;
	if (sq_exec(db, "PRAGMA journal_mode=WAL") == -1) {
		snprintf(err, errlen, "%s: cannot switch to WAL: %s", db->path,
		    sqlite3_errmsg(db->h));
		return -1;
	}
	if (sq_exec(db, "PRAGMA foreign_keys=OFF") == -1) {
		snprintf(err, errlen, "%s: %s", db->path,
		    sqlite3_errmsg(db->h));
		return -1;
	}
	return 0;
}

/* 1 when PRAGMA foreign_key_check finds no row that breaks a foreign
 * key, 0 when it does, -1. */
static int
sq_migrated(struct lz_db *db)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (sqlite3_prepare_v2(db->h, "PRAGMA foreign_key_check", -1, &st,
	    NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 1 : rc == SQLITE_ROW ? 0 : -1;
}

static void
sq_postmigrate(struct lz_db *db)
{
	(void)sq_exec(db, "PRAGMA foreign_keys=ON");
}

/* BEGIN IMMEDIATE holds the one write lock already. */
static int
sq_lock_schema(struct lz_db *db)
{
	(void)db;
	return 0;
}

/* ---- statements ------------------------------------------------------ */

static void
sq_finalize(struct lz_stmt *s)
{
	if (SQ(s)->queued) {
		SQ(s)->queued = 0;
		turn_end(s->db);
	}
	sqlite3_finalize(ST(s));
	free(s->e);
	s->e = NULL;
}

static int
sq_prepare(struct lz_stmt *s, char *err, size_t errlen)
{
	const struct lz_sql	*q = s->sql;
	const char		*tail, *name;
	char			*end;
	long			 n;
	int			 i, np;

	s->e = xcalloc(1, sizeof(struct sq_stmt));
	if (sqlite3_prepare_v3(s->db->h, q->sql, -1,
	    SQLITE_PREPARE_PERSISTENT, &SQ(s)->st, &tail) != SQLITE_OK) {
		snprintf(err, errlen, "preparing %s: %s (%.120s)", q->name,
		    sqlite3_errmsg(s->db->h), q->sql);
		goto fail;
	}
	if (ST(s) == NULL || tail[strspn(tail, " \t\n;")] != '\0') {
		snprintf(err, errlen, "preparing %s: not one statement",
		    q->name);
		goto fail;
	}
	np = sqlite3_bind_parameter_count(ST(s));
	for (i = 1; i <= np; i++) {
		name = sqlite3_bind_parameter_name(ST(s), i);
		n = name && name[0] == '$' ? strtol(name + 1, &end, 10) : 0;
		if (n < 1 || n > LZ_SQL_PARAMS || *end != '\0') {
			snprintf(err, errlen, "preparing %s: parameter %d is "
			    "not one of $1 to $%d", q->name, i, LZ_SQL_PARAMS);
			goto fail;
		}
		SQ(s)->par[n] = (unsigned char)i;
	}
	return 0;
fail:
	sq_finalize(s);
	return -1;
}

/* A write outside a transaction holds its turn from its first step to
 * its end or reset. */
static void
own_turn_end(struct lz_stmt *s)
{
	if (SQ(s)->queued) {
		SQ(s)->queued = 0;
		turn_end(s->db);
	}
}

static void
sq_reset(struct lz_stmt *s, int clear)
{
	sqlite3_reset(ST(s));
	own_turn_end(s);
	if (clear)
		sqlite3_clear_bindings(ST(s));
}

static int
sq_busy(struct lz_stmt *s)
{
	return sqlite3_stmt_busy(ST(s));
}

static void
stmt_err(struct lz_stmt *s, const char *what)
{
	lz_log(LZ_LOG_ERR, "sqlite: %s: %s%s", s->sql->name, what ? what : "",
	    sqlite3_errmsg(s->db->h));
}

static int
sq_bind(struct lz_stmt *s, int n, const struct lz_val *v)
{
	sqlite3_stmt	*st = ST(s);
	int		 i = SQ(s)->par[n], rc = SQLITE_OK;

	if (i == 0) {
		lz_log(LZ_LOG_ERR, "sqlite: %s: no parameter $%d", s->sql->name,
		    n);
		return -1;
	}
	switch (v->type) {
	case LZ_V_NULL:
		rc = sqlite3_bind_null(st, i);
		break;
	case LZ_V_I64:
		rc = sqlite3_bind_int64(st, i, v->i);
		break;
	case LZ_V_DOUBLE:
		rc = sqlite3_bind_double(st, i, v->d);
		break;
	case LZ_V_TEXT:
		if (v->p == NULL)
			rc = sqlite3_bind_null(st, i);
		else if (v->len == SIZE_MAX)
			rc = sqlite3_bind_text(st, i, v->p, -1, SQLITE_STATIC);
		else
			rc = sqlite3_bind_text64(st, i, v->p, v->len,
			    SQLITE_STATIC, SQLITE_UTF8);
		break;
	case LZ_V_BLOB:
		rc = v->len == 0 ? sqlite3_bind_zeroblob(st, i, 0) :
		    sqlite3_bind_blob64(st, i, v->p, v->len, SQLITE_STATIC);
		break;
	}
	if (rc != SQLITE_OK) {
		stmt_err(s, "binding: ");
		return -1;
	}
	return 0;
}

static int
sq_step(struct lz_stmt *s)
{
	int	 rc;

	/* A write on its own (autocommit) queues like a transaction. */
	if (!SQ(s)->queued && WQ(s->db) != NULL &&
	    !lz_wqueue_held(WQ(s->db)) && !sqlite3_stmt_busy(ST(s)) &&
	    !sqlite3_stmt_readonly(ST(s)) &&
	    sqlite3_get_autocommit(s->db->h)) {
		if (turn(s->db) == -1) {
			lz_log(LZ_LOG_ERR, "sqlite: %s: no write turn",
			    s->sql->name);
			return -1;
		}
		SQ(s)->queued = 1;
	}
	if ((rc = sqlite3_step(ST(s))) == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE) {
		sqlite3_reset(ST(s));
		if (SQ(s)->queued)
			lz_wqueue_progress(WQ(s->db));
		own_turn_end(s);
		return 0;
	}
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		lz_busy_note();
	stmt_err(s, NULL);
	sqlite3_reset(ST(s));
	own_turn_end(s);
	return -1;
}

static long long
sq_changes(struct lz_stmt *s)
{
	return (long long)sqlite3_changes64(s->db->h);
}

static int
sq_col_null(struct lz_stmt *s, int col)
{
	return sqlite3_column_type(ST(s), col) == SQLITE_NULL;
}

static int64_t
sq_col_i64(struct lz_stmt *s, int col)
{
	return sqlite3_column_int64(ST(s), col);
}

static double
sq_col_double(struct lz_stmt *s, int col)
{
	return sqlite3_column_double(ST(s), col);
}

static const char *
sq_col_text(struct lz_stmt *s, int col, size_t *len)
{
	const unsigned char	*t = sqlite3_column_text(ST(s), col);

	/* After the text, as SQLite wants: its length in that form. */
	*len = t ? (size_t)sqlite3_column_bytes(ST(s), col) : 0;
	return (const char *)t;
}

static const void *
sq_col_blob(struct lz_stmt *s, int col, size_t *len)
{
	const void	*p = sqlite3_column_blob(ST(s), col);

	*len = p ? (size_t)sqlite3_column_bytes(ST(s), col) : 0;
	return p;
}

static int
sq_col_count(struct lz_stmt *s)
{
	return sqlite3_column_count(ST(s));
}

static int
sq_col_type(struct lz_stmt *s, int col)
{
	switch (sqlite3_column_type(ST(s), col)) {
	case SQLITE_INTEGER:	return LZ_V_I64;
	case SQLITE_FLOAT:	return LZ_V_DOUBLE;
	case SQLITE_TEXT:	return LZ_V_TEXT;
	case SQLITE_BLOB:	return LZ_V_BLOB;
	default:		return LZ_V_NULL;
	}
}

/* Bulk statements run row by row: nothing is kept back. */
static int
sq_bulk_flush(struct lz_db *db)
{
	(void)db;
	return 0;
}

const struct lz_dbops lz_db_sqlite = {
	.name = "sqlite",
	.open = sq_open,
	.close = sq_close,
	.exec = sq_exec,
	.health = sq_health,
	.data_version = sq_data_version,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.in_txn = sq_in_txn,
	.error = sq_error,
	.version = sq_version,
	.set_version = sq_set_version,
	.premigrate = sq_premigrate,
	.lock_schema = sq_lock_schema,
	.migrated = sq_migrated,
	.postmigrate = sq_postmigrate,
	.prepare = sq_prepare,
	.finalize = sq_finalize,
	.reset = sq_reset,
	.busy = sq_busy,
	.bind = sq_bind,
	.step = sq_step,
	.changes = sq_changes,
	.col_null = sq_col_null,
	.col_i64 = sq_col_i64,
	.col_double = sq_col_double,
	.col_text = sq_col_text,
	.col_blob = sq_col_blob,
	.col_count = sq_col_count,
	.col_type = sq_col_type,
	.bulk_row = NULL,
	.bulk_flush = sq_bulk_flush,
};

/* ---- SQLite only ----------------------------------------------------- */

int
lz_db_checkpoint(struct lz_db *db, int wait_ms, int *frames, int *copied)
{
	int	 rc;

	*frames = *copied = 0;
	if (!lz_db_is_sqlite(db))
		return 1;	/* no WAL of ours to fold */
	/*
	 * First what can be copied back beside the writers, then the rest
	 * and the log started over as a writer would: in the queue's turn
	 * (wqueue.h), so that the writers meanwhile wait there rather than
	 * in SQLite's busy handler.  Not its turn in time: as if another
	 * connection held the checkpoint.
	 */
	(void)sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL);
	if (turn(db) == -1) {
		(void)lz_busy_take();	/* nobody's request */
		*frames = *copied = -1;
		return 0;
	}
	busy_ms(db, wait_ms < CHECKPOINT_TURN_MS ? wait_ms :
	    CHECKPOINT_TURN_MS);
	rc = sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_TRUNCATE,
	    frames, copied);
	busy_ms(db, LZ_DB_BUSY_MS);
	turn_end(db);
	if (rc == SQLITE_OK)
		return 1;
	/* Both counts -1: the checkpoint lock was another connection's. */
	if ((rc & 0xff) == SQLITE_BUSY && *frames == -1)
		return 0;
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return 2;
	lz_log(LZ_LOG_WARN, "%s: WAL checkpoint: %s", db->path,
	    sqlite3_errmsg(db->h));
	return -1;
}

long long
lz_db_wal_bytes(struct lz_db *db)
{
	struct stat	 st;
	char		*wal;
	int		 rc;

	if (!lz_db_is_sqlite(db))
		return 0;
	wal = xasprintf("%s-wal", db->path);
	rc = stat(wal, &st);
	free(wal);
	return rc == -1 ? 0 : (long long)st.st_size;
}

int
lz_db_copy(const char *src, const char *dst, int create, char *err,
    size_t errlen)
{
	sqlite3		*from = NULL, *to = NULL;
	sqlite3_backup	*b;
	int		 rc;

	if ((rc = sqlite3_open_v2(src, &from, SQLITE_OPEN_READONLY, NULL)) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", src, from ?
		    sqlite3_errmsg(from) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(from, 10000);
	if ((rc = sqlite3_open_v2(dst, &to, SQLITE_OPEN_READWRITE |
	    (create ? SQLITE_OPEN_CREATE : 0), NULL)) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", dst, to ? sqlite3_errmsg(to) :
		    sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(to, 10000);
	if ((b = sqlite3_backup_init(to, "main", from, "main")) == NULL) {
		snprintf(err, errlen, "backup: %s", sqlite3_errmsg(to));
		goto fail;
	}
	do {
		rc = sqlite3_backup_step(b, -1);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(20);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "backup %s -> %s: %s", src, dst,
		    sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_close(from);
	sqlite3_close(to);
	return 0;
fail:
	sqlite3_close(from);
	sqlite3_close(to);
	return -1;
}

int
lz_db_integrity(const char *path, int *version, FILE *problems, char *err,
    size_t errlen)
{
	sqlite3		*h = NULL;
	sqlite3_stmt	*st;
	const char	*m;
	int		 ok = 0;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, h ? sqlite3_errmsg(h) :
		    "cannot open");
		sqlite3_close(h);
		return -1;
	}
	*err = '\0';
	sqlite3_busy_timeout(h, 10000);
	if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL) ==
	    SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			m = (const char *)sqlite3_column_text(st, 0);
			if (m && strcmp(m, "ok") == 0)
				ok = 1;
			else
				fprintf(problems, "  %s\n", m ? m : "?");
		}
		sqlite3_finalize(st);
	}
	if (version && sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st,
	    NULL) == SQLITE_OK) {
		*version = sqlite3_step(st) == SQLITE_ROW ?
		    sqlite3_column_int(st, 0) : -1;
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return ok ? 0 : -1;
}

int
lz_db_cache_kib(struct lz_db *db, int kib)
{
	char	 sql[64];

	if (!lz_db_is_sqlite(db))
		return 0;
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%d", kib);
	return lz_db_exec(db, sql);
}

void
lz_db_release_memory(struct lz_db *db)
{
	if (lz_db_is_sqlite(db))
		sqlite3_db_release_memory(db->h);
}

int
lz_db_seal(struct lz_db *db, char *err, size_t errlen)
{
	sqlite3_stmt	*st;
	int		 ok = 0;

	if (!lz_db_is_sqlite(db)) {
		snprintf(err, errlen, "not an SQLite database");
		return -1;
	}
	if (lz_db_exec(db, "PRAGMA journal_mode=DELETE") == -1) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db->h));
		return -1;
	}
	if (sqlite3_prepare_v2(db->h, "PRAGMA quick_check", -1, &st, NULL) ==
	    SQLITE_OK) {
		ok = sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)
		    sqlite3_column_text(st, 0), "ok") == 0;
		sqlite3_finalize(st);
	}
	if (!ok) {
		snprintf(err, errlen, "the new database failed its check");
		return -1;
	}
	return 0;
}

/* struct lz_blob is SQLite's sqlite3_blob. */
struct lz_blob *
lz_blob_open(struct lz_db *db, const char *table, const char *column,
    int64_t rowid)
{
	sqlite3_blob	*b = NULL;

	if (!lz_db_is_sqlite(db))
		return NULL;
	if (sqlite3_blob_open(db->h, "main", table, column, rowid, 0, &b) !=
	    SQLITE_OK) {
		lz_log(LZ_LOG_ERR, "sqlite: %s.%s: %s", table, column,
		    sqlite3_errmsg(db->h));
		sqlite3_blob_close(b);
		return NULL;
	}
	return (struct lz_blob *)b;
}

size_t
lz_blob_size(struct lz_blob *blob)
{
	return (size_t)sqlite3_blob_bytes((sqlite3_blob *)blob);
}

int
lz_blob_read(struct lz_blob *blob, void *buf, size_t len, size_t off)
{
	int	 rc;

	if ((rc = sqlite3_blob_read((sqlite3_blob *)blob, buf, (int)len,
	    (int)off)) != SQLITE_OK) {
		lz_log(LZ_LOG_ERR, "sqlite: blob read: %s", sqlite3_errstr(rc));
		return -1;
	}
	return 0;
}

void
lz_blob_close(struct lz_blob *blob)
{
	sqlite3_blob_close((sqlite3_blob *)blob);
}
