/*
 * sessions.c -- the SQL of dashboard sessions.
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
    int64_t user_id, int64_t account_id, const char *csrf, int64_t now)
{
	return lz_run_id(LZ_STMT(db, set, ST_SESSION_ADD,
	    LZ_BLOB(hash, SESSION_HASH_LEN), LZ_I64(account_id), LZ_TEXT(csrf),
	    LZ_I64(now), LZ_I64(user_id)));
}

int
store_session_get(struct lz_db *db, const unsigned char hash[SESSION_HASH_LEN],
    struct session *s)
{
	static const struct lz_col	 cols[] = {
		LZ_COL(session, I64, id), LZ_COL(session, I64, account_id),
		LZ_COL(session, COPY, csrf), LZ_COL(session, I64, created_at),
		LZ_COL(session, I64, seen_at), LZ_COL(session, I64, user_id),
		LZ_COL(session, COPY, role)
	};
	const struct lz_val		 v = LZ_BLOB(hash, SESSION_HASH_LEN);
	struct lz_stmt			*st;
	int				 rc;

	st = lz_db_stmtv(db, set, ST_SESSION_GET, &v, 1);
	if ((rc = store_row_by_hash(st, 7, hash, SESSION_HASH_LEN)) == 1) {
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
