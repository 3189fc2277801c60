/*
 * accounts.c -- the SQL of accounts, API keys, passwords and usage.
 */
#include "config.h"

#include <string.h>

#include "db.h"
#include "store/accounts.h"
#include "store/store.h"
#include "util.h"

/* The columns row_account reads. */
#define ACCOUNT_COLS \
	"id, email, plan, disabled, " \
	"CASE WHEN password_hash IS NULL THEN 0 ELSE 1 END, created_at"
#define ACCOUNT_NCOLS	6

/* The columns row_key reads (key auth reads three more after them). */
#define KEY_COLS \
	"k.id, k.account_id, k.prefix, k.last4, k.name, k.created_at, " \
	"k.last_used_at, k.revoked_at, k.expires_at, k.scopes, " \
	"coalesce((SELECT u.email FROM users u WHERE u.id = k.created_by), '')"
#define KEY_NCOLS	11

#include "accounts.sql.h"

struct lz_sqlset store_accounts_sql = LZ_SQLSET("accounts", sql);
static struct lz_sqlset *const set = &store_accounts_sql;

const struct store_read store_accounts_reads[] = {
	{ &store_accounts_sql, ST_ACCOUNT_BY_ID, ACCOUNT_NCOLS },
	{ &store_accounts_sql, ST_ACCOUNT_BY_EMAIL, ACCOUNT_NCOLS },
	{ &store_accounts_sql, ST_ACCOUNT_LIST, ACCOUNT_NCOLS },
	{ &store_accounts_sql, ST_KEY_AUTH, KEY_NCOLS + 3 },
	{ &store_accounts_sql, ST_KEY_LIST, KEY_NCOLS },
	{ NULL, 0, 0 }
};

/* ---- accounts -------------------------------------------------------- */

static void
row_account(struct lz_stmt *st, void *arg)
{
	static const struct lz_col	 cols[] = {
		LZ_COL(account, I64, id), LZ_COL(account, COPY, email),
		LZ_COL(account, COPY, plan), LZ_COL(account, INT, disabled),
		LZ_COL(account, INT, has_password),
		LZ_COL(account, I64, created_at)
	};
	_Static_assert(LZ_NELEM(cols) == ACCOUNT_NCOLS, "ACCOUNT_COLS");

	memset(arg, 0, sizeof(struct account));
	lz_cols(st, cols, LZ_NELEM(cols), arg);
}

int64_t
store_account_add(struct lz_db *db, const char *email, const char *plan,
    const char *password_hash, int64_t now)
{
	const struct lz_val	 v[] = { LZ_TEXT(email), LZ_TEXT(plan),
	    LZ_TEXT(password_hash), LZ_I64(now) };
	int64_t			 id = 0;

	return lz_one_i64(lz_db_stmtv(db, set, ST_ACCOUNT_ADD, v,
	    LZ_NELEM(v)), &id) == -1 ? -1 : id;
}

int
store_account_get(struct lz_db *db, int64_t id, const char *email,
    struct account *a)
{
	const struct lz_val	 byid = LZ_I64(id), bymail = LZ_TEXT(email);
	struct lz_stmt		*st;

	st = email != NULL ? lz_db_stmtv(db, set, ST_ACCOUNT_BY_EMAIL,
	    &bymail, 1) : lz_db_stmtv(db, set, ST_ACCOUNT_BY_ID, &byid, 1);
	return (int)lz_each(st, row_account, a);
}

LZ_EACH_ROW(each_account, const, struct account, row_account, LZ_KEEP);

long
store_account_list(struct lz_db *db,
    void (*fn)(const struct account *, void *), void *arg)
{
	return each_account(lz_db_stmt(db, set, ST_ACCOUNT_LIST), fn, arg);
}

int
store_account_set_plan(struct lz_db *db, int64_t id, const char *plan)
{
	return lz_run_changed(LZ_STMT(db, set, ST_ACCOUNT_SET_PLAN,
	    LZ_TEXT(plan), LZ_I64(id)));
}

int
store_account_set_disabled(struct lz_db *db, int64_t id, int disabled)
{
	return lz_run_changed(LZ_STMT(db, set, ST_ACCOUNT_SET_DISABLED,
	    LZ_I64(disabled), LZ_I64(id)));
}

int
store_account_pwhash(struct lz_db *db, int64_t id, const char *email,
    int64_t *idp, char *hash, size_t hashlen, int *disabled)
{
	const struct lz_val	 v[] = { LZ_TEXT(email), LZ_I64(id) };
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(db, set, ST_ACCOUNT_PWHASH, v, LZ_NELEM(v));
	if ((rc = lz_row(st)) == 1) {
		*idp = lz_col_i64(st, 0);
		lz_col_copy(st, 1, hash, hashlen);
		*disabled = lz_col_int(st, 2);
		lz_reset(st);
	}
	return rc;
}

int
store_account_set_password(struct lz_db *db, int64_t id, const char *hash)
{
	return lz_run_changed(LZ_STMT(db, set, ST_ACCOUNT_SET_PASSWORD,
	    LZ_TEXT(hash), LZ_I64(id)));
}

/* ---- API keys -------------------------------------------------------- */

static void
row_key(struct lz_stmt *st, struct apikey *k)
{
	static const struct lz_col	 cols[] = {
		LZ_COL(apikey, I64, id), LZ_COL(apikey, I64, account_id),
		LZ_COL(apikey, COPY, prefix), LZ_COL(apikey, COPY, last4),
		LZ_COL(apikey, COPY, name), LZ_COL(apikey, I64, created_at),
		LZ_COL(apikey, I64, last_used_at),
		LZ_COL(apikey, I64, revoked_at),
		LZ_COL(apikey, I64, expires_at), LZ_COL(apikey, INT, scopes),
		LZ_COL(apikey, COPY, created_by)
	};
	_Static_assert(LZ_NELEM(cols) == KEY_NCOLS, "KEY_COLS");

	memset(k, 0, sizeof(*k));
	lz_cols(st, cols, LZ_NELEM(cols), k);
}

int64_t
store_key_add(struct lz_db *db, int64_t account_id,
    const unsigned char hash[KEY_HASH_LEN], const char *prefix,
    const char *last4, const char *name, unsigned scopes, int64_t expires_at,
    int64_t user_id, int64_t now)
{
	return lz_run_id(LZ_STMT(db, set, ST_KEY_ADD, LZ_I64(account_id),
	    LZ_BLOB(hash, KEY_HASH_LEN), LZ_TEXT(prefix), LZ_TEXT(last4),
	    LZ_TEXT(name ? name : ""), LZ_I64(now), LZ_I64((int64_t)scopes),
	    LZ_I64_IF(expires_at != 0, expires_at),
	    LZ_I64_IF(user_id != 0, user_id)));
}

int
store_key_auth(struct lz_db *db, const unsigned char hash[KEY_HASH_LEN],
    struct apikey *k)
{
	const struct lz_val	 v = LZ_BLOB(hash, KEY_HASH_LEN);
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(db, set, ST_KEY_AUTH, &v, 1);
	if ((rc = store_row_by_hash(st, KEY_NCOLS + 2, hash,
	    KEY_HASH_LEN)) == 1) {
		row_key(st, k);
		lz_col_copy(st, KEY_NCOLS, k->plan, sizeof(k->plan));
		k->account_disabled = lz_col_int(st, KEY_NCOLS + 1);
		lz_reset(st);
	}
	return rc;
}

LZ_EACH_ROW(each_key, const, struct apikey, row_key, LZ_KEEP);

long
store_key_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const struct apikey *, void *), void *arg)
{
	return each_key(LZ_STMT(db, set, ST_KEY_LIST, LZ_I64(account_id)), fn,
	    arg);
}

int
store_key_revoke(struct lz_db *db, int64_t id, int64_t account_id,
    int64_t now)
{
	const struct lz_val	 v[] = { LZ_I64(now), LZ_I64(id) };

	return lz_run_changed(store_stmt_of(db, set, ST_KEY_REVOKE,
	    ST_KEY_REVOKE_ANY, account_id, v, LZ_NELEM(v)));
}

int
store_key_touch(struct lz_db *db, int64_t id, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_KEY_TOUCH, LZ_I64(now),
	    LZ_I64(id)));
}

/* ---- usage ----------------------------------------------------------- */

int
store_usage_lease(struct lz_db *db, int64_t account_id, const char *month,
    long long quota, long long most, long long *granted, long long *calls)
{
	const struct lz_val	 v[] = { LZ_I64(account_id), LZ_TEXT(month) };
	struct lz_val		 add[3];
	int64_t			 n = 0;
	long long		 g;

	*granted = 0;
	if (lz_db_begin(db) == -1)
		return -1;
	if (lz_run_ok(lz_db_stmtv(db, set, ST_USAGE_ROW, v, LZ_NELEM(v))) ==
	    -1 || lz_one_i64(lz_db_stmtv(db, set, ST_USAGE_HOLD, v,
	    LZ_NELEM(v)), &n) != 1)
		goto fail;
	/* An eighth of what is left, so that the hosts share its end; at
	 * least one, at most most. */
	g = n >= quota ? 0 : (quota - n) / 8;
	if (g > most)
		g = most;
	if (g < 1 && n < quota)
		g = 1;
	if (g > 0) {
		add[0] = v[0];
		add[1] = v[1];
		add[2] = (struct lz_val)LZ_I64(g);
		if (lz_run_ok(lz_db_stmtv(db, set, ST_USAGE_ADD, add, 3)) == -1)
			goto fail;
	}
	if (lz_db_commit(db) == -1)
		goto fail;
	*granted = g;
	*calls = n + g;
	return 0;
fail:
	lz_db_rollback(db);
	return -1;
}

long long
store_usage_get(struct lz_db *db, int64_t account_id, const char *month)
{
	const struct lz_val	 v[] = { LZ_I64(account_id), LZ_TEXT(month) };
	int64_t			 n = 0;

	return lz_one_i64(lz_db_stmtv(db, set, ST_USAGE_GET, v, LZ_NELEM(v)),
	    &n) == -1 ? -1 : n;
}
