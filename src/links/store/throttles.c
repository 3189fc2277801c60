/*
 * throttles.c -- the SQL of the password throttles.
 */
#include "config.h"

#include "db.h"
#include "store/throttles.h"
#include "util.h"

#include "throttles.sql.h"

struct lz_sqlset store_throttles_sql = LZ_SQLSET("throttles", sql);
static struct lz_sqlset *const set = &store_throttles_sql;

int
store_throttle_take(struct lz_db *db, const char *scope, int64_t now,
    int64_t window, long long limit, int64_t longest, int64_t *until)
{
	const struct lz_val	 v[] = { LZ_TEXT(scope), LZ_I64(now),
	    LZ_I64(window), LZ_I64(limit), LZ_I64(longest) };
	int64_t			 tries;
	int			 rc;

	if ((rc = lz_one_i64(lz_db_stmtv(db, set, ST_THROTTLE_TAKE, v,
	    LZ_NELEM(v)), &tries)) != 0)
		return rc;
	/* Refused: when does the full window end? */
	*until = now;
	return lz_one_i64(LZ_STMT(db, set, ST_THROTTLE_END, LZ_TEXT(scope)),
	    until) == -1 ? -1 : 0;
}

int
store_throttle_give_back(struct lz_db *db, const char *scope)
{
	return lz_run_ok(LZ_STMT(db, set, ST_THROTTLE_GIVE_BACK,
	    LZ_TEXT(scope)));
}

int
store_throttle_clear(struct lz_db *db, const char *scope)
{
	return lz_run_ok(LZ_STMT(db, set, ST_THROTTLE_CLEAR, LZ_TEXT(scope)));
}

int
store_throttle_purge(struct lz_db *db, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_THROTTLE_PURGE, LZ_I64(now)));
}
