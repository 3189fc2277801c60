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

#include "sessions.sql.h"

struct lz_sqlset store_sessions_sql = LZ_SQLSET("sessions", sql);
static struct lz_sqlset *const set = &store_sessions_sql;

/* ---- sessions -------------------------------------------------------- */

int64_t
store_session_add(struct lz_db *db, const unsigned char hash[SESSION_HASH_LEN],
    int64_t account_id, const char *csrf, int64_t now)
{
	return lz_run_id(LZ_STMT(db, set, ST_SESSION_ADD,
	    LZ_BLOB(hash, SESSION_HASH_LEN), LZ_I64(account_id), LZ_TEXT(csrf),
	    LZ_I64(now)));
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
	return lz_run_ok(LZ_STMT(db, set, ST_SESSION_TOUCH, LZ_I64(now),
	    LZ_I64(id)));
}

int
store_session_delete(struct lz_db *db, int64_t id)
{
	return lz_run_changed(LZ_STMT(db, set, ST_SESSION_DELETE, LZ_I64(id)));
}

int
store_session_delete_others(struct lz_db *db, int64_t account_id,
    int64_t keep_id)
{
	return lz_run_ok(LZ_STMT(db, set, ST_SESSION_DELETE_OTHERS,
	    LZ_I64(account_id), LZ_I64(keep_id)));
}

int
store_session_purge(struct lz_db *db, int64_t idle_before,
    int64_t created_before)
{
	return lz_run_ok(LZ_STMT(db, set, ST_SESSION_PURGE, LZ_I64(idle_before),
	    LZ_I64(created_before)));
}

/* ---- sign-in failures ------------------------------------------------ */

int
store_login_fail_add(struct lz_db *db, const char *scope, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_LOGIN_FAIL_ADD, LZ_TEXT(scope),
	    LZ_I64(now)));
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
	return lz_run_ok(LZ_STMT(db, set, ST_LOGIN_FAIL_CLEAR, LZ_TEXT(scope)));
}

int
store_login_fail_purge(struct lz_db *db, int64_t before)
{
	return lz_run_ok(LZ_STMT(db, set, ST_LOGIN_FAIL_PURGE, LZ_I64(before)));
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
	return lz_run_ok(LZ_STMT(db, set, ST_LOGIN_FAIL_GIVE_BACK,
	    LZ_TEXT(scope), LZ_I64(at)));
}

int
store_login_fail_lock(struct lz_db *db, const char *scope)
{
	return lz_run_ok(LZ_STMT(db, set, ST_LOGIN_FAIL_LOCK, LZ_TEXT(scope)));
}

/* ---- password tries -------------------------------------------------- */

/*
 * Takes a try by statement take with v[0..n): 1 taken, -1 on error; or
 * 0 refused, with *at what statement when reads with v[0..nwhen) (now
 * when it reads nothing).
 */
static int
take_try(struct lz_db *db, size_t take, size_t when, const struct lz_val *v,
    size_t n, size_t nwhen, int64_t now, int64_t *at)
{
	int64_t	 tries;
	int	 rc;

	if ((rc = lz_one_i64(lz_db_stmtv(db, set, take, v, n), &tries)) != 0)
		return rc;
	*at = now;
	return lz_one_i64(lz_db_stmtv(db, set, when, v, nwhen), at) == -1 ?
	    -1 : 0;
}

int
store_pwtry_take(struct lz_db *db, int64_t link_id, const unsigned char *net,
    size_t netlen, int64_t now, int64_t window, int max,
    int64_t *window_start)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_BLOB(net, netlen),
	    LZ_I64(now), LZ_I64(window), LZ_I64(max) };

	/* Refused: when did the full window start? */
	return take_try(db, ST_PWTRY_TAKE, ST_PWTRY_GET, v, LZ_NELEM(v), 2,
	    now, window_start);
}

int
store_pwtry_give_back(struct lz_db *db, int64_t link_id,
    const unsigned char *net, size_t netlen)
{
	return lz_run_ok(LZ_STMT(db, set, ST_PWTRY_GIVE_BACK, LZ_I64(link_id),
	    LZ_BLOB(net, netlen)));
}

int
store_pwtry_purge(struct lz_db *db, int64_t before)
{
	return lz_run_ok(LZ_STMT(db, set, ST_PWTRY_PURGE, LZ_I64(before)));
}

int
store_pwtry_link_take(struct lz_db *db, int64_t link_id, int64_t now,
    int64_t window, int max, int64_t longest, int64_t *until)
{
	const struct lz_val	 v[] = { LZ_I64(link_id), LZ_I64(now),
	    LZ_I64(window), LZ_I64(max), LZ_I64(longest) };

	/* Refused: when does the full window end? */
	return take_try(db, ST_PWTRY_LINK_TAKE, ST_PWTRY_LINK_GET, v,
	    LZ_NELEM(v), 1, now, until);
}

int
store_pwtry_link_give_back(struct lz_db *db, int64_t link_id)
{
	return lz_run_ok(LZ_STMT(db, set, ST_PWTRY_LINK_GIVE_BACK,
	    LZ_I64(link_id)));
}

int
store_pwtry_link_purge(struct lz_db *db, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_PWTRY_LINK_PURGE, LZ_I64(now)));
}
