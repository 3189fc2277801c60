/*
 * db.c -- SQLite open, migrate and prepared statements.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "util.h"

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
	if (lz_db_exec(db, "PRAGMA synchronous=NORMAL;"
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
	size_t	 i;

	for (i = 0; i < db->nst; i++)
		sqlite3_finalize(db->st[i]);
	free(db->st);
	free(db->used);
	free(db->inuse);
	if (db->h)
		sqlite3_close(db->h);
	free(db->path);
	memset(db, 0, sizeof(*db));
}

int
lz_db_wal_trim(struct lz_db *db, long long max_bytes, int wait_ms,
    int *copied)
{
	struct stat	 st;
	char		*wal;
	int		 rc, nlog = 0, nckpt = 0;

	wal = xasprintf("%s-wal", db->path);
	rc = stat(wal, &st);
	free(wal);
	if (rc == -1 || (long long)st.st_size <= max_bytes)
		return 0;
	sqlite3_busy_timeout(db->h, wait_ms);
	rc = sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_TRUNCATE,
	    &nlog, &nckpt);
	sqlite3_busy_timeout(db->h, LZ_DB_BUSY_MS);
	if (rc == SQLITE_OK) {
		lz_log(LZ_LOG_DEBUG, "%s: WAL of %lld bytes checkpointed and "
		    "truncated", db->path, (long long)st.st_size);
		return 1;
	}
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
		*copied = nckpt;
		return 2;
	}
	lz_log(LZ_LOG_WARN, "%s: WAL checkpoint: %s", db->path,
	    sqlite3_errmsg(db->h));
	return -1;
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
lz_db_commit(struct lz_db *db)
{
	return lz_db_exec(db, "COMMIT");
}

void
lz_db_rollback(struct lz_db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		(void)lz_db_exec(db, "ROLLBACK");
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

int
lz_db_prepare(struct lz_db *db, const char *const *sql, size_t n, char *err,
    size_t errlen)
{
	size_t	 i;

	db->st = xcalloc(n, sizeof(*db->st));
	db->used = xcalloc(n, sizeof(*db->used));
	db->inuse = xcalloc(n, sizeof(*db->inuse));
	db->nused = 0;
	db->sql = sql;
	db->nst = n;
	for (i = 0; i < n; i++)
		if (sqlite3_prepare_v3(db->h, sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &db->st[i], NULL) != SQLITE_OK) {
			snprintf(err, errlen, "preparing statement %zu: %s "
			    "(%.120s)", i, sqlite3_errmsg(db->h), sql[i]);
			return -1;
		}
	return 0;
}

sqlite3_stmt *
lz_db_stmt(struct lz_db *db, size_t i)
{
	sqlite3_stmt	*st = db->st[i];

	if (!db->inuse[i]) {
		db->inuse[i] = 1;
		db->used[db->nused++] = i;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return st;
}

int
lz_db_bind_text(sqlite3_stmt *st, int idx, const char *s)
{
	if (s == NULL)
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
}

const char *
lz_db_text(sqlite3_stmt *st, int col)
{
	const unsigned char	*s = sqlite3_column_text(st, col);

	return s ? (const char *)s : "";
}

void
lz_db_reset_all(struct lz_db *db)
{
	size_t	 i, k;

	/* Only a statement stepped but not run to its end holds anything,
	 * and only those used since the last call can be. */
	for (k = 0; k < db->nused; k++) {
		i = db->used[k];
		db->inuse[i] = 0;
		if (sqlite3_stmt_busy(db->st[i]))
			sqlite3_reset(db->st[i]);
	}
	db->nused = 0;
	lz_db_rollback(db);
}
