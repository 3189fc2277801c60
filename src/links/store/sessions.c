/*
 * sessions.c -- the SQL of dashboard sessions, sign-in failures and
 * password tries.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "db.h"
#include "store/sessions.h"
#include "store/store.h"

enum {
	ST_SESSION_ADD,
	ST_SESSION_GET,
	ST_SESSION_TOUCH,
	ST_SESSION_DELETE,
	ST_SESSION_DELETE_OTHERS,
	ST_SESSION_PURGE,
	ST_LOGIN_FAIL_ADD,
	ST_LOGIN_FAIL_COUNT,
	ST_LOGIN_FAIL_CLEAR,
	ST_LOGIN_FAIL_PURGE,
	ST_PWTRY_TAKE,
	ST_PWTRY_GET,
	ST_PWTRY_GIVE_BACK,
	ST_PWTRY_PURGE,
	ST__MAX
};

static const struct lz_sql sql[ST__MAX] = {
	[ST_SESSION_ADD] = { "session add",
	    "INSERT INTO sessions (hash, account_id, csrf, created_at, "
	    "seen_at) VALUES ($1, $2, $3, $4, $4) RETURNING id" },
	[ST_SESSION_GET] = { "session get",
	    "SELECT id, account_id, csrf, created_at, seen_at, hash "
	    "FROM sessions WHERE hash = $1" },
	[ST_SESSION_TOUCH] = { "session touch",
	    "UPDATE sessions SET seen_at = $1 WHERE id = $2 AND "
	    "seen_at < $1 - 60000" },
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
};

struct lz_sqlset store_sessions_sql = LZ_SQLSET("sessions", sql);

static struct lz_stmt *
stmt(struct lz_db *db, int i)
{
	return lz_db_stmt(db, &store_sessions_sql, (size_t)i);
}

/* Runs statement st; 0 or -1. */
static int
run(struct lz_stmt *st)
{
	return lz_run(st) < 0 ? -1 : 0;
}

/* ---- sessions -------------------------------------------------------- */

int64_t
store_session_add(struct lz_db *db, const unsigned char hash[SESSION_HASH_LEN],
    int64_t account_id, const char *csrf, int64_t now)
{
	struct lz_stmt	*st = stmt(db, ST_SESSION_ADD);
	int64_t		 id;

	lz_bind_blob(st, 1, hash, SESSION_HASH_LEN);
	lz_bind_i64(st, 2, account_id);
	lz_bind_text(st, 3, csrf);
	lz_bind_i64(st, 4, now);
	return lz_one_i64(st, &id) == 1 ? id : -1;
}

int
store_session_get(struct lz_db *db, const unsigned char hash[SESSION_HASH_LEN],
    struct session *s)
{
	struct lz_stmt	*st = stmt(db, ST_SESSION_GET);
	const void	*stored;
	size_t		 len;
	int		 rc;

	lz_bind_blob(st, 1, hash, SESSION_HASH_LEN);
	if ((rc = lz_row(st)) != 1)
		return rc;
	memset(s, 0, sizeof(*s));
	s->id = lz_col_i64(st, 0);
	s->account_id = lz_col_i64(st, 1);
	lz_col_copy(st, 2, s->csrf, sizeof(s->csrf));
	s->created_at = lz_col_i64(st, 3);
	s->seen_at = lz_col_i64(st, 4);
	/* The index found it; compare in constant time anyway. */
	stored = lz_col_blob(st, 5, &len);
	rc = len == SESSION_HASH_LEN && sodium_memcmp(stored, hash,
	    SESSION_HASH_LEN) == 0;
	lz_reset(st);
	return rc;
}

int
store_session_touch(struct lz_db *db, int64_t id, int64_t now)
{
	struct lz_stmt	*st = stmt(db, ST_SESSION_TOUCH);

	lz_bind_i64(st, 1, now);
	lz_bind_i64(st, 2, id);
	return run(st);
}

int
store_session_delete(struct lz_db *db, int64_t id)
{
	struct lz_stmt	*st = stmt(db, ST_SESSION_DELETE);

	lz_bind_i64(st, 1, id);
	return store_changed(st);
}

int
store_session_delete_others(struct lz_db *db, int64_t account_id,
    int64_t keep_id)
{
	struct lz_stmt	*st = stmt(db, ST_SESSION_DELETE_OTHERS);

	lz_bind_i64(st, 1, account_id);
	lz_bind_i64(st, 2, keep_id);
	return run(st);
}

int
store_session_purge(struct lz_db *db, int64_t idle_before,
    int64_t created_before)
{
	struct lz_stmt	*st = stmt(db, ST_SESSION_PURGE);

	lz_bind_i64(st, 1, idle_before);
	lz_bind_i64(st, 2, created_before);
	return run(st);
}

/* ---- sign-in failures ------------------------------------------------ */

int
store_login_fail_add(struct lz_db *db, const char *scope, int64_t now)
{
	struct lz_stmt	*st = stmt(db, ST_LOGIN_FAIL_ADD);

	lz_bind_text(st, 1, scope);
	lz_bind_i64(st, 2, now);
	return run(st);
}

long long
store_login_fail_count(struct lz_db *db, const char *scope, int64_t since,
    int64_t *oldest)
{
	struct lz_stmt	*st = stmt(db, ST_LOGIN_FAIL_COUNT);
	long long	 n;

	lz_bind_text(st, 1, scope);
	lz_bind_i64(st, 2, since);
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
	struct lz_stmt	*st = stmt(db, ST_LOGIN_FAIL_CLEAR);

	lz_bind_text(st, 1, scope);
	return run(st);
}

int
store_login_fail_purge(struct lz_db *db, int64_t before)
{
	struct lz_stmt	*st = stmt(db, ST_LOGIN_FAIL_PURGE);

	lz_bind_i64(st, 1, before);
	return run(st);
}

/* ---- password tries -------------------------------------------------- */

int
store_pwtry_take(struct lz_db *db, int64_t link_id, const unsigned char *net,
    size_t netlen, int64_t now, int64_t window, int max,
    int64_t *window_start)
{
	struct lz_stmt	*st = stmt(db, ST_PWTRY_TAKE);
	int64_t		 tries;
	int		 rc;

	lz_bind_i64(st, 1, link_id);
	lz_bind_blob(st, 2, net, netlen);
	lz_bind_i64(st, 3, now);
	lz_bind_i64(st, 4, window);
	lz_bind_int(st, 5, max);
	if ((rc = lz_one_i64(st, &tries)) != 0)
		return rc;
	/* Refused: when did the full window start? */
	st = stmt(db, ST_PWTRY_GET);
	lz_bind_i64(st, 1, link_id);
	lz_bind_blob(st, 2, net, netlen);
	*window_start = now;
	return lz_one_i64(st, window_start) == -1 ? -1 : 0;
}

int
store_pwtry_give_back(struct lz_db *db, int64_t link_id,
    const unsigned char *net, size_t netlen)
{
	struct lz_stmt	*st = stmt(db, ST_PWTRY_GIVE_BACK);

	lz_bind_i64(st, 1, link_id);
	lz_bind_blob(st, 2, net, netlen);
	return run(st);
}

int
store_pwtry_purge(struct lz_db *db, int64_t before)
{
	struct lz_stmt	*st = stmt(db, ST_PWTRY_PURGE);

	lz_bind_i64(st, 1, before);
	return run(st);
}
