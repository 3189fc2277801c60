/*
 * sessions.c -- the SQL of dashboard sessions, sign-in failures and
 * password tries.
 */
#include "config.h"

#include <string.h>

#include "db.h"
#include "store/sessions.h"
#include "store/store.h"
#include "util.h"

enum { ST_SESSION_ADD, ST_SESSION_GET, ST_SESSION_TOUCH, ST_SESSION_DELETE,
    ST_SESSION_DELETE_OTHERS, ST_SESSION_PURGE, ST_LOGIN_FAIL_ADD,
    ST_LOGIN_FAIL_COUNT, ST_LOGIN_FAIL_CLEAR, ST_LOGIN_FAIL_PURGE,
    ST_LOGIN_FAIL_NTH, ST_LOGIN_FAIL_GIVE_BACK, ST_LOGIN_FAIL_LOCK,
    ST_PWTRY_TAKE, ST_PWTRY_GET, ST_PWTRY_GIVE_BACK,
    ST_PWTRY_PURGE, ST_PWTRY_LINK_TAKE, ST_PWTRY_LINK_GET,
    ST_PWTRY_LINK_GIVE_BACK, ST_PWTRY_LINK_PURGE, ST__MAX };

static const struct lz_sql sql[ST__MAX] = {
	[ST_SESSION_ADD] = { "session add",
	    "INSERT INTO sessions (hash, account_id, csrf, created_at, "
	    "seen_at) VALUES ($1, $2, $3, $4, $4) RETURNING id" },
	[ST_SESSION_GET] = { "session get",
	    "SELECT id, account_id, csrf, created_at, seen_at, hash "
	    "FROM sessions WHERE hash = $1" },
	[ST_SESSION_TOUCH] = { "session touch",
	    "UPDATE sessions SET seen_at = $1 WHERE id = $2 AND "
	    "seen_at < CAST($1 AS bigint) - 60000" },
	[ST_SESSION_DELETE] = { "session delete",
	    "DELETE FROM sessions WHERE id = $1" },
	[ST_SESSION_DELETE_OTHERS] = { "session delete others",
	    "DELETE FROM sessions WHERE account_id = $1 AND id != $2" },
	[ST_SESSION_PURGE] = { "session purge",
	    "DELETE FROM sessions WHERE seen_at < $1 OR created_at < $2" },
	[ST_LOGIN_FAIL_ADD] = { "login failure add",
	    "INSERT INTO login_failures (scope, at) VALUES ($1, $2)" },
	[ST_LOGIN_FAIL_COUNT] = { "login failure count",
	    "SELECT count(*), min(at) FROM login_failures WHERE scope = $1 "
	    "AND at > $2" },
	[ST_LOGIN_FAIL_CLEAR] = { "login failure clear",
	    "DELETE FROM login_failures WHERE scope = $1" },
	[ST_LOGIN_FAIL_PURGE] = { "login failure purge",
	    "DELETE FROM login_failures WHERE at < $1" },
	[ST_LOGIN_FAIL_NTH] = { "login failure nth",
	    "SELECT at FROM login_failures WHERE scope = $1 "
	    "ORDER BY at DESC LIMIT 1 OFFSET $2" },
	/* One row of scope $1 at $2 (they are all alike).  dialect: the
	 * row's own id is SQLite's rowid, PostgreSQL's ctid. */
	[ST_LOGIN_FAIL_GIVE_BACK] = { "login failure give back",
	    "DELETE FROM login_failures WHERE rowid IN (SELECT rowid FROM "
	    "login_failures WHERE scope = $1 AND at = $2 LIMIT 1)",
	    "DELETE FROM login_failures WHERE ctid IN (SELECT ctid FROM "
	    "login_failures WHERE scope = $1 AND at = $2 LIMIT 1)" },
	/*
	 * The tries of scope $1 to the end of the transaction, so that its
	 * add, count and give-back are one step (tries are exact under
	 * concurrency).  dialect: on SQLite, BEGIN IMMEDIATE holds the
	 * database: the lock is a statement that does nothing; PostgreSQL
	 * takes an advisory lock, in a space of its own (the first key).
	 */
	[ST_LOGIN_FAIL_LOCK] = { "login failure lock",
	    "SELECT 0 WHERE $1 IS NULL",
	    "SELECT pg_advisory_xact_lock(1819047270, hashtext($1))" },
	/* Takes one try unless max ($5) were taken in the window ($4 ms)
	 * that started at window_start; a window that ended starts anew. */
	[ST_PWTRY_TAKE] = { "password try",
	    "INSERT INTO password_tries (link_id, net, window_start, tries) "
	    "VALUES ($1, $2, $3, 1) ON CONFLICT (link_id, net) DO UPDATE SET "
	    "tries = CASE WHEN password_tries.window_start <= $3 - $4 THEN 1 "
	    "ELSE password_tries.tries + 1 END, "
	    "window_start = CASE WHEN password_tries.window_start <= $3 - $4 "
	    "THEN $3 ELSE password_tries.window_start END "
	    "WHERE password_tries.window_start <= $3 - $4 OR "
	    "password_tries.tries < $5 RETURNING tries" },
	[ST_PWTRY_GET] = { "password try window",
	    "SELECT window_start FROM password_tries WHERE link_id = $1 AND "
	    "net = $2" },
	[ST_PWTRY_GIVE_BACK] = { "password try give back",
	    "UPDATE password_tries SET tries = tries - 1 WHERE link_id = $1 "
	    "AND net = $2 AND tries > 0" },
	[ST_PWTRY_PURGE] = { "password try purge",
	    "DELETE FROM password_tries WHERE window_start <= $1" },
	/*
	 * The per-link ceiling (0007-hardening.sql): takes one try at link
	 * $1 at $2 unless $4 were taken in its window.  A window that ended
	 * starts anew at $2, twice as long (up to $5 ms) when it was full
	 * and ended less than its length ago, else $3 ms long.  SET reads
	 * the old row throughout.  (CASE rather than min(): SQLite's
	 * scalar min() is PostgreSQL's least().)
	 */
	[ST_PWTRY_LINK_TAKE] = { "link password try",
	    "INSERT INTO password_link_tries (link_id, window_start, "
	    "window_ms, tries) VALUES ($1, $2, $3, 1) "
	    "ON CONFLICT (link_id) DO UPDATE SET "
	    "window_ms = CASE WHEN password_link_tries.window_start + "
	    "password_link_tries.window_ms > $2 THEN "
	    "password_link_tries.window_ms WHEN password_link_tries.tries >= "
	    "$4 AND password_link_tries.window_start + 2 * "
	    "password_link_tries.window_ms > $2 THEN CASE WHEN 2 * "
	    "password_link_tries.window_ms < $5 THEN 2 * "
	    "password_link_tries.window_ms ELSE $5 END ELSE $3 END, "
	    "tries = CASE WHEN password_link_tries.window_start + "
	    "password_link_tries.window_ms > $2 THEN "
	    "password_link_tries.tries + 1 ELSE 1 END, "
	    "window_start = CASE WHEN password_link_tries.window_start + "
	    "password_link_tries.window_ms > $2 THEN "
	    "password_link_tries.window_start ELSE $2 END "
	    "WHERE password_link_tries.window_start + "
	    "password_link_tries.window_ms <= $2 OR "
	    "password_link_tries.tries < $4 RETURNING tries" },
	[ST_PWTRY_LINK_GET] = { "link password try window",
	    "SELECT window_start + window_ms FROM password_link_tries "
	    "WHERE link_id = $1" },
	[ST_PWTRY_LINK_GIVE_BACK] = { "link password try give back",
	    "UPDATE password_link_tries SET tries = tries - 1 WHERE "
	    "link_id = $1 AND tries > 0" },
	[ST_PWTRY_LINK_PURGE] = { "link password try purge",
	    "DELETE FROM password_link_tries WHERE "
	    "window_start + 2 * window_ms <= $1" },
};

struct lz_sqlset store_sessions_sql = LZ_SQLSET("sessions", sql);
static struct lz_sqlset *const set = &store_sessions_sql;

/* ---- sessions -------------------------------------------------------- */

int64_t
store_session_add(struct lz_db *db, const unsigned char hash[SESSION_HASH_LEN],
    int64_t account_id, const char *csrf, int64_t now)
{
	const struct lz_val	 v[] = { LZ_BLOB(hash, SESSION_HASH_LEN),
	    LZ_I64(account_id), LZ_TEXT(csrf), LZ_I64(now) };

	return lz_run_id(lz_db_stmtv(db, set, ST_SESSION_ADD, v,
	    LZ_NELEM(v)));
}

int
store_session_get(struct lz_db *db, const unsigned char hash[SESSION_HASH_LEN],
    struct session *s)
{
	static const struct lz_col	 cols[] = {
		LZ_COL(session, I64, id), LZ_COL(session, I64, account_id),
		LZ_COL(session, COPY, csrf), LZ_COL(session, I64, created_at),
		LZ_COL(session, I64, seen_at)
	};
	const struct lz_val		 v = LZ_BLOB(hash, SESSION_HASH_LEN);
	struct lz_stmt			*st;
	int				 rc;

	st = lz_db_stmtv(db, set, ST_SESSION_GET, &v, 1);
	if ((rc = store_row_by_hash(st, 5, hash, SESSION_HASH_LEN)) == 1) {
		memset(s, 0, sizeof(*s));
		lz_cols(st, cols, LZ_NELEM(cols), s);
		lz_reset(st);
	}
	return rc;
}

int
store_session_touch(struct lz_db *db, int64_t id, int64_t now)
{
	const struct lz_val	 v[] = { LZ_I64(now), LZ_I64(id) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_SESSION_TOUCH, v,
	    LZ_NELEM(v)));
}

int
store_session_delete(struct lz_db *db, int64_t id)
{
	const struct lz_val	 v = LZ_I64(id);

	return lz_run_changed(lz_db_stmtv(db, set, ST_SESSION_DELETE, &v, 1));
}

int
store_session_delete_others(struct lz_db *db, int64_t account_id,
    int64_t keep_id)
{
	const struct lz_val	 v[] = { LZ_I64(account_id), LZ_I64(keep_id) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_SESSION_DELETE_OTHERS, v,
	    LZ_NELEM(v)));
}

int
store_session_purge(struct lz_db *db, int64_t idle_before,
    int64_t created_before)
{
	const struct lz_val	 v[] = { LZ_I64(idle_before),
	    LZ_I64(created_before) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_SESSION_PURGE, v,
	    LZ_NELEM(v)));
}

/* ---- sign-in failures ------------------------------------------------ */

int
store_login_fail_add(struct lz_db *db, const char *scope, int64_t now)
{
	const struct lz_val	 v[] = { LZ_TEXT(scope), LZ_I64(now) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_LOGIN_FAIL_ADD, v,
	    LZ_NELEM(v)));
}

long long
store_login_fail_count(struct lz_db *db, const char *scope, int64_t since,
    int64_t *oldest)
{
	const struct lz_val	 v[] = { LZ_TEXT(scope), LZ_I64(since) };
	struct lz_stmt		*st;
	long long		 n;

	st = lz_db_stmtv(db, set, ST_LOGIN_FAIL_COUNT, v, LZ_NELEM(v));
	if (lz_row(st) != 1)
		return -1;
	n = lz_col_i64(st, 0);
	*oldest = lz_col_i64(st, 1);
	lz_reset(st);
	return n;
}

int
store_login_fail_clear(struct lz_db *db, const char *scope)
{
	const struct lz_val	 v = LZ_TEXT(scope);

	return lz_run_ok(lz_db_stmtv(db, set, ST_LOGIN_FAIL_CLEAR, &v, 1));
}

int
store_login_fail_purge(struct lz_db *db, int64_t before)
{
	const struct lz_val	 v = LZ_I64(before);

	return lz_run_ok(lz_db_stmtv(db, set, ST_LOGIN_FAIL_PURGE, &v, 1));
}

int
store_login_fail_nth(struct lz_db *db, const char *scope, long long n,
    int64_t *at)
{
	const struct lz_val	 v[] = { LZ_TEXT(scope), LZ_I64(n - 1) };

	*at = 0;
	return lz_one_i64(lz_db_stmtv(db, set, ST_LOGIN_FAIL_NTH, v,
	    LZ_NELEM(v)), at);
}

int
store_login_fail_give_back(struct lz_db *db, const char *scope, int64_t at)
{
	const struct lz_val	 v[] = { LZ_TEXT(scope), LZ_I64(at) };

	return lz_run_ok(lz_db_stmtv(db, set, ST_LOGIN_FAIL_GIVE_BACK, v,
	    LZ_NELEM(v)));
}

int
store_login_fail_lock(struct lz_db *db, const char *scope)
{
	const struct lz_val	 v = LZ_TEXT(scope);

	return lz_run_ok(lz_db_stmtv(db, set, ST_LOGIN_FAIL_LOCK, &v, 1));
}

/* ---- password tries -------------------------------------------------- */

int
store_pwtry_take(struct lz_db *db, int64_t link_id, const unsigned char *net,
    size_t netlen, int64_t now, int64_t window, int max,
    int64_t *window_start)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_BLOB(net, netlen),
	    LZ_I64(now), LZ_I64(window), LZ_I64(max) };
	int64_t			 tries;
	int			 rc;

	if ((rc = lz_one_i64(lz_db_stmtv(db, set, ST_PWTRY_TAKE, v,
	    LZ_NELEM(v)), &tries)) != 0)
		return rc;
	/* Refused: when did the full window start? */
	*window_start = now;
	return lz_one_i64(lz_db_stmtv(db, set, ST_PWTRY_GET, v, 2),
	    window_start) == -1 ? -1 : 0;
}

int
store_pwtry_give_back(struct lz_db *db, int64_t link_id,
    const unsigned char *net, size_t netlen)
{
	const struct lz_val	 v[] = {
		LZ_I64(link_id), LZ_BLOB(net, netlen)
	};

	return lz_run_ok(lz_db_stmtv(db, set, ST_PWTRY_GIVE_BACK, v,
	    LZ_NELEM(v)));
}

int
store_pwtry_purge(struct lz_db *db, int64_t before)
{
	const struct lz_val	 v = LZ_I64(before);

	return lz_run_ok(lz_db_stmtv(db, set, ST_PWTRY_PURGE, &v, 1));
}

int
store_pwtry_link_take(struct lz_db *db, int64_t link_id, int64_t now,
    int64_t window, int max, int64_t longest, int64_t *until)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(now),
	    LZ_I64(window), LZ_I64(max), LZ_I64(longest) };
	int64_t			 tries;
	int			 rc;

	if ((rc = lz_one_i64(lz_db_stmtv(db, set, ST_PWTRY_LINK_TAKE, v,
	    LZ_NELEM(v)), &tries)) != 0)
		return rc;
	/* Refused: when does the full window end? */
	*until = now;
	return lz_one_i64(lz_db_stmtv(db, set, ST_PWTRY_LINK_GET, v, 1),
	    until) == -1 ? -1 : 0;
}

int
store_pwtry_link_give_back(struct lz_db *db, int64_t link_id)
{
	const struct lz_val	 v = LZ_I64(link_id);

	return lz_run_ok(lz_db_stmtv(db, set, ST_PWTRY_LINK_GIVE_BACK, &v, 1));
}

int
store_pwtry_link_purge(struct lz_db *db, int64_t now)
{
	const struct lz_val	 v = LZ_I64(now);

	return lz_run_ok(lz_db_stmtv(db, set, ST_PWTRY_LINK_PURGE, &v, 1));
}
