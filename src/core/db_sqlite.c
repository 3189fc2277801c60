/*
 * db.c -- the database on SQLite: open, migrate, transactions, the
 * statement API of db.h, and what only SQLite does.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db.h"
#include "log.h"
#include "util.h"

struct lz_stmt {
	struct lz_db		*db;
	sqlite3_stmt		*st;
	const struct lz_sql	*sql;
	int			 bad;	/* not prepared, or a bind failed */
	int			 used;	/* on db->used */
	/* SQLite's index of $N: named parameters are numbered in the
	 * order they first appear, so it is looked up once, at prepare. */
	unsigned char		 par[LZ_SQL_PARAMS + 1];
};

/* Slots of the statement sets, handed out on first use (any thread). */
static size_t	 nslots;

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

int
lz_db_open(struct lz_db *db, const char *path, int flags, char *err,
    size_t errlen)
{
	char	*uri = NULL;
	int	 oflags, rc;

	memset(db, 0, sizeof(*db));
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
	rc = sqlite3_open_v2(uri ? uri : path, &db->h, oflags, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db->h ?
		    sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
		sqlite3_close(db->h);
		db->h = NULL;
		return -1;
	}
	db->path = xstrdup(path);
	sqlite3_busy_timeout(db->h, LZ_DB_BUSY_MS);
	sqlite3_extended_result_codes(db->h, 1);
	/* journal_mode=WAL is persistent: lz_db_migrate sets it once. */
	if (lz_db_exec(db, (flags & LZ_DB_SCRATCH) ?
	    "PRAGMA page_size=16384;"
	    "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	    "PRAGMA foreign_keys=ON;"
	    "PRAGMA temp_store=MEMORY;" :
	    "PRAGMA synchronous=NORMAL;"
	    "PRAGMA foreign_keys=ON;"
	    "PRAGMA temp_store=MEMORY;") == -1)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db->h));
	lz_db_close(db);
	return -1;
}

void
lz_db_close(struct lz_db *db)
{
	size_t	 i, k;

	for (i = 0; i < db->nslots; i++) {
		if (db->slots[i] == NULL)
			continue;
		/* The set's size is not kept here: a slot's array ends
		 * with a statement whose db is NULL. */
		for (k = 0; db->slots[i][k].db != NULL; k++)
			sqlite3_finalize(db->slots[i][k].st);
		free(db->slots[i]);
	}
	free(db->slots);
	free(db->used);
	if (db->h)
		sqlite3_close(db->h);
	free(db->path);
	memset(db, 0, sizeof(*db));
}

int
lz_db_exec(struct lz_db *db, const char *sql)
{
	char	*msg = NULL;

	if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
		lz_log(LZ_LOG_ERR, "sqlite: %s: %.200s", msg ? msg : "?", sql);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int
lz_db_begin(struct lz_db *db)
{
	return lz_db_exec(db, "BEGIN IMMEDIATE");
}

int
lz_db_begin_read(struct lz_db *db)
{
	if (lz_db_in_txn(db))
		return 0;
	return lz_db_exec(db, "BEGIN") == 0 ? 1 : -1;
}

int
lz_db_commit(struct lz_db *db)
{
	return lz_db_exec(db, "COMMIT");
}

void
lz_db_rollback(struct lz_db *db)
{
	if (lz_db_in_txn(db))
		(void)lz_db_exec(db, "ROLLBACK");
}

int
lz_db_in_txn(struct lz_db *db)
{
	return !sqlite3_get_autocommit(db->h);
}

const char *
lz_db_error(struct lz_db *db)
{
	return db->h ? sqlite3_errmsg(db->h) : "no database";
}

int
lz_db_user_version(struct lz_db *db)
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
newest(const struct lz_migration *m, size_t n)
{
	return n ? m[n - 1].version : 0;
}

int
lz_db_check_version(struct lz_db *db, const struct lz_migration *m, size_t n,
    char *err, size_t errlen)
{
	int	 v = lz_db_user_version(db), want = newest(m, n);

	if (v == want)
		return 0;
	if (v < 0)
		snprintf(err, errlen, "%s: cannot read the schema version: %s",
		    db->path, sqlite3_errmsg(db->h));
	else if (v == 0)
		snprintf(err, errlen, "%s: database not initialised; run "
		    "'lzctl init'", db->path);
	else if (v < want)
		snprintf(err, errlen, "%s: schema version %d is older than "
		    "this program's %d; run 'lzctl migrate'", db->path, v,
		    want);
	else
		snprintf(err, errlen, "%s: schema version %d is newer than "
		    "this program's %d; upgrade lz", db->path, v, want);
	return -1;
}

int
lz_db_migrate(struct lz_db *db, const struct lz_migration *m, size_t n,
    int *from, int *to, char *err, size_t errlen)
{
	char	 pragma[64];
	int	 v;
	size_t	 i;

	if ((v = lz_db_user_version(db)) < 0) {
		snprintf(err, errlen, "%s: %s", db->path,
		    sqlite3_errmsg(db->h));
		return -1;
	}
	*from = *to = v;
	if (v > newest(m, n)) {
		snprintf(err, errlen, "%s: schema version %d is newer than "
		    "this program's %d; refusing to touch it", db->path, v,
		    newest(m, n));
		return -1;
	}
	if (v < newest(m, n) && lz_db_exec(db, "PRAGMA journal_mode=WAL") ==
	    -1) {
		snprintf(err, errlen, "%s: cannot switch to WAL: %s", db->path,
		    sqlite3_errmsg(db->h));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (m[i].version <= v)
			continue;
		if (lz_db_begin(db) == -1)
			goto fail;
		if (lz_db_exec(db, m[i].sql) == -1)
			goto fail;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%d",
		    m[i].version);
		if (lz_db_exec(db, pragma) == -1 || lz_db_commit(db) == -1)
			goto fail;
		*to = m[i].version;
	}
	return 0;
fail:
	snprintf(err, errlen, "%s: migration %s failed: %s", db->path,
	    m[i].name, sqlite3_errmsg(db->h));
	lz_db_rollback(db);
	return -1;
}

/* ---- statements ------------------------------------------------------ */

static size_t
set_slot(struct lz_sqlset *set)
{
	size_t	 slot, none = 0;

	if ((slot = __atomic_load_n(&set->slot, __ATOMIC_ACQUIRE)) != 0)
		return slot - 1;
	slot = __atomic_add_fetch(&nslots, 1, __ATOMIC_ACQ_REL);
	if (!__atomic_compare_exchange_n(&set->slot, &none, slot, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		slot = none;	/* another thread was first */
	return slot - 1;
}

/* Prepares q into s; 0, or -1 with err. */
static int
prepare(struct lz_db *db, const struct lz_sql *q, struct lz_stmt *s,
    char *err, size_t errlen)
{
	const char	*tail, *name;
	char		*end;
	long		 n;
	int		 i, np;

	if (sqlite3_prepare_v3(db->h, q->sql, -1, SQLITE_PREPARE_PERSISTENT,
	    &s->st, &tail) != SQLITE_OK) {
		snprintf(err, errlen, "preparing %s: %s (%.120s)", q->name,
		    sqlite3_errmsg(db->h), q->sql);
		return -1;
	}
	if (s->st == NULL || tail[strspn(tail, " \t\n;")] != '\0') {
		snprintf(err, errlen, "preparing %s: not one statement",
		    q->name);
		return -1;
	}
	np = sqlite3_bind_parameter_count(s->st);
	for (i = 1; i <= np; i++) {
		name = sqlite3_bind_parameter_name(s->st, i);
		n = name && name[0] == '$' ? strtol(name + 1, &end, 10) : 0;
		if (n < 1 || n > LZ_SQL_PARAMS || *end != '\0') {
			snprintf(err, errlen, "preparing %s: parameter %d is "
			    "not one of $1 to $%d", q->name, i, LZ_SQL_PARAMS);
			return -1;
		}
		s->par[n] = (unsigned char)i;
	}
	return 0;
}

/* The statements of set on db, allocated on first use. */
static struct lz_stmt *
set_stmts(struct lz_db *db, struct lz_sqlset *set)
{
	size_t	 slot = set_slot(set), k;

	if (slot >= db->nslots) {
		db->slots = xreallocarray(db->slots, slot + 1,
		    sizeof(*db->slots));
		memset(db->slots + db->nslots, 0, (slot + 1 - db->nslots) *
		    sizeof(*db->slots));
		db->nslots = slot + 1;
	}
	if (db->slots[slot] == NULL) {
		/* One more, whose db stays NULL, ends the array. */
		db->slots[slot] = xcalloc(set->n + 1, sizeof(struct lz_stmt));
		for (k = 0; k < set->n; k++) {
			db->slots[slot][k].db = db;
			db->slots[slot][k].sql = &set->sql[k];
		}
	}
	return db->slots[slot];
}

/* Prepares s unless it is; 0, or -1 with err (tried again next time). */
static int
stmt_ready(struct lz_stmt *s, char *err, size_t errlen)
{
	if (s->st != NULL)
		return 0;
	if (prepare(s->db, s->sql, s, err, errlen) == -1) {
		sqlite3_finalize(s->st);
		s->st = NULL;
		memset(s->par, 0, sizeof(s->par));
		return -1;
	}
	return 0;
}

struct lz_stmt *
lz_db_stmt(struct lz_db *db, struct lz_sqlset *set, size_t i)
{
	struct lz_stmt	*s = &set_stmts(db, set)[i];
	char		 err[512];

	if (!s->used) {
		if (db->nused == db->usedcap) {
			db->usedcap = db->usedcap ? db->usedcap * 2 : 16;
			db->used = xreallocarray(db->used, db->usedcap,
			    sizeof(*db->used));
		}
		db->used[db->nused++] = s;
		s->used = 1;
	}
	if (stmt_ready(s, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "sqlite: %s", err);
		s->bad = 1;	/* its steps fail */
		return s;
	}
	sqlite3_reset(s->st);
	sqlite3_clear_bindings(s->st);
	s->bad = 0;
	return s;
}

int
lz_db_prepare_all(struct lz_db *db, struct lz_sqlset *const *sets, char *err,
    size_t errlen)
{
	struct lz_stmt	*v;
	size_t		 k, i;

	for (k = 0; sets[k] != NULL; k++) {
		v = set_stmts(db, sets[k]);
		for (i = 0; i < sets[k]->n; i++)
			if (stmt_ready(&v[i], err, errlen) == -1)
				return -1;
	}
	return 0;
}

void
lz_db_reset_all(struct lz_db *db)
{
	struct lz_stmt	*s;
	size_t		 k;

	/* Only a statement stepped but not run to its end holds anything,
	 * and only those used since the last call can be. */
	for (k = 0; k < db->nused; k++) {
		s = db->used[k];
		s->used = 0;
		if (s->st != NULL && sqlite3_stmt_busy(s->st))
			sqlite3_reset(s->st);
	}
	db->nused = 0;
	lz_db_rollback(db);
}

static void
stmt_err(struct lz_stmt *s, const char *what)
{
	lz_log(LZ_LOG_ERR, "sqlite: %s: %s%s", s->sql->name, what ? what : "",
	    sqlite3_errmsg(s->db->h));
}

/* SQLite's index of $n, or 0 after logging a bad bind. */
static int
par(struct lz_stmt *s, int n)
{
	if (s->bad)
		return 0;
	if (n < 1 || n > LZ_SQL_PARAMS || s->par[n] == 0) {
		lz_log(LZ_LOG_ERR, "sqlite: %s: no parameter $%d", s->sql->name,
		    n);
		s->bad = 1;
		return 0;
	}
	return s->par[n];
}

static void
bound(struct lz_stmt *s, int rc)
{
	if (rc != SQLITE_OK) {
		stmt_err(s, "binding: ");
		s->bad = 1;
	}
}

void
lz_bind_i64(struct lz_stmt *s, int n, int64_t v)
{
	int	 i;

	if ((i = par(s, n)) != 0)
		bound(s, sqlite3_bind_int64(s->st, i, v));
}

void
lz_bind_int(struct lz_stmt *s, int n, int v)
{
	int	 i;

	if ((i = par(s, n)) != 0)
		bound(s, sqlite3_bind_int(s->st, i, v));
}

void
lz_bind_double(struct lz_stmt *s, int n, double v)
{
	int	 i;

	if ((i = par(s, n)) != 0)
		bound(s, sqlite3_bind_double(s->st, i, v));
}

void
lz_bind_text(struct lz_stmt *s, int n, const char *v)
{
	int	 i;

	if ((i = par(s, n)) != 0)
		bound(s, v == NULL ? sqlite3_bind_null(s->st, i) :
		    sqlite3_bind_text(s->st, i, v, -1, SQLITE_STATIC));
}

void
lz_bind_textn(struct lz_stmt *s, int n, const char *v, size_t len)
{
	int	 i;

	if ((i = par(s, n)) != 0)
		bound(s, sqlite3_bind_text64(s->st, i, v, len, SQLITE_STATIC,
		    SQLITE_UTF8));
}

void
lz_bind_blob(struct lz_stmt *s, int n, const void *v, size_t len)
{
	int	 i;

	/* A NULL pointer would bind NULL, not an empty blob. */
	if ((i = par(s, n)) != 0)
		bound(s, v == NULL || len == 0 ?
		    sqlite3_bind_zeroblob(s->st, i, 0) :
		    sqlite3_bind_blob64(s->st, i, v, len, SQLITE_STATIC));
}

void
lz_bind_null(struct lz_stmt *s, int n)
{
	int	 i;

	if ((i = par(s, n)) != 0)
		bound(s, sqlite3_bind_null(s->st, i));
}

void
lz_bind_vals(struct lz_stmt *s, const struct lz_val *v, size_t n)
{
	size_t	 k;

	for (k = 0; k < n; k++)
		switch (v[k].type) {
		case LZ_V_NULL:
			lz_bind_null(s, (int)k + 1);
			break;
		case LZ_V_I64:
			lz_bind_i64(s, (int)k + 1, v[k].i);
			break;
		case LZ_V_DOUBLE:
			lz_bind_double(s, (int)k + 1, v[k].d);
			break;
		case LZ_V_TEXT:
			if (v[k].len == SIZE_MAX || v[k].p == NULL)
				lz_bind_text(s, (int)k + 1, v[k].p);
			else
				lz_bind_textn(s, (int)k + 1, v[k].p,
				    v[k].len);
			break;
		case LZ_V_BLOB:
			lz_bind_blob(s, (int)k + 1, v[k].p, v[k].len);
			break;
		}
}

struct lz_stmt *
lz_db_stmtv(struct lz_db *db, struct lz_sqlset *set, size_t i,
    const struct lz_val *v, size_t n)
{
	struct lz_stmt	*s = lz_db_stmt(db, set, i);

	lz_bind_vals(s, v, n);
	return s;
}

int
lz_step(struct lz_stmt *s)
{
	int	 rc;

	if (s->bad) {
		if (s->st != NULL)
			sqlite3_reset(s->st);
		return -1;	/* logged where it went bad */
	}
	if ((rc = sqlite3_step(s->st)) == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE) {
		sqlite3_reset(s->st);
		return 0;
	}
	stmt_err(s, NULL);
	sqlite3_reset(s->st);
	return -1;
}

long long
lz_run(struct lz_stmt *s)
{
	int	 rc;

	while ((rc = lz_step(s)) == 1)
		;
	return rc == -1 ? -1 : (long long)sqlite3_changes64(s->db->h);
}

int
lz_run_ok(struct lz_stmt *s)
{
	return s != NULL && lz_run(s) >= 0 ? 0 : -1;
}

int
lz_run_changed(struct lz_stmt *s)
{
	long long	 n = s != NULL ? lz_run(s) : -1;

	return n < 0 ? -1 : n > 0;
}

int64_t
lz_run_id(struct lz_stmt *s)
{
	int64_t	 id;

	return s != NULL && lz_one_i64(s, &id) == 1 ? id : -1;
}

int
lz_row(struct lz_stmt *s)
{
	return lz_step(s);
}

void
lz_reset(struct lz_stmt *s)
{
	if (s->st != NULL)
		sqlite3_reset(s->st);
}

long
lz_each(struct lz_stmt *s, void (*fn)(struct lz_stmt *, void *), void *arg)
{
	long	 n = 0;
	int	 rc;

	while ((rc = lz_step(s)) == 1) {
		fn(s, arg);
		n++;
	}
	return rc == -1 ? -1 : n;
}

int
lz_one_i64(struct lz_stmt *s, int64_t *v)
{
	int	 rc;

	if ((rc = lz_step(s)) == 1) {
		*v = sqlite3_column_int64(s->st, 0);
		sqlite3_reset(s->st);
	}
	return rc;
}

int64_t
lz_col_i64(struct lz_stmt *s, int col)
{
	return sqlite3_column_int64(s->st, col);
}

int
lz_col_int(struct lz_stmt *s, int col)
{
	return sqlite3_column_int(s->st, col);
}

double
lz_col_double(struct lz_stmt *s, int col)
{
	return sqlite3_column_double(s->st, col);
}

int
lz_col_null(struct lz_stmt *s, int col)
{
	return sqlite3_column_type(s->st, col) == SQLITE_NULL;
}

const char *
lz_col_text(struct lz_stmt *s, int col)
{
	const unsigned char	*t = sqlite3_column_text(s->st, col);

	return t ? (const char *)t : "";
}

const char *
lz_col_text_or_null(struct lz_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(s->st, col);
}

const char *
lz_col_textn(struct lz_stmt *s, int col, size_t *len)
{
	const char	*t = lz_col_text(s, col);

	/* After the text, as SQLite wants: its length in that form. */
	*len = (size_t)sqlite3_column_bytes(s->st, col);
	return t;
}

const void *
lz_col_blob(struct lz_stmt *s, int col, size_t *len)
{
	const void	*p = sqlite3_column_blob(s->st, col);

	*len = p ? (size_t)sqlite3_column_bytes(s->st, col) : 0;
	return p;
}

void
lz_col_copy(struct lz_stmt *s, int col, char *buf, size_t len)
{
	snprintf(buf, len, "%s", lz_col_text(s, col));
}

/* ---- SQLite only ----------------------------------------------------- */

int
lz_db_checkpoint(struct lz_db *db, int wait_ms, int *frames, int *copied)
{
	int	 rc;

	*frames = *copied = 0;
	sqlite3_busy_timeout(db->h, wait_ms);
	rc = sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_TRUNCATE,
	    frames, copied);
	sqlite3_busy_timeout(db->h, LZ_DB_BUSY_MS);
	if (rc == SQLITE_OK)
		return 1;
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

	wal = xasprintf("%s-wal", db->path);
	rc = stat(wal, &st);
	free(wal);
	return rc == -1 ? 0 : (long long)st.st_size;
}

int
lz_db_wal_trim(struct lz_db *db, long long max_bytes, int wait_ms,
    int *copied)
{
	long long	 size = lz_db_wal_bytes(db);
	int		 frames, done, rc;

	if (size <= max_bytes)
		return 0;
	if ((rc = lz_db_checkpoint(db, wait_ms, &frames, &done)) == 1)
		lz_log(LZ_LOG_DEBUG, "%s: WAL of %lld bytes checkpointed and "
		    "truncated", db->path, size);
	else if (rc == 2)
		*copied = done;
	return rc;
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

	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%d", kib);
	return lz_db_exec(db, sql);
}

void
lz_db_release_memory(struct lz_db *db)
{
	sqlite3_db_release_memory(db->h);
}

int
lz_db_seal(struct lz_db *db, char *err, size_t errlen)
{
	sqlite3_stmt	*st;
	int		 ok = 0;

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
