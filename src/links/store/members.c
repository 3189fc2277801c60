/*
 * store/members.c -- the SQL of users, memberships and invitations
 * (store/members.h).
 */
#include "config.h"

#include <string.h>

#include "db.h"
#include "store/members.h"
#include "store/store.h"

#include "members.sql.h"

struct lz_sqlset store_members_sql = LZ_SQLSET("members", sql);
static struct lz_sqlset *const set = &store_members_sql;

int
store_user_by_email(struct lz_db *db, const char *email, int64_t *id,
    char *hash, size_t hashlen)
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_USER_BY_EMAIL, LZ_TEXT(email));
	if ((rc = lz_row(st)) == 1) {
		*id = lz_col_i64(st, 0);
		lz_col_copy(st, 1, hash, hashlen);
		lz_reset(st);
	}
	return rc;
}

int
store_user_email(struct lz_db *db, int64_t id, char *out, size_t len)
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_USER_EMAIL, LZ_I64(id));
	if ((rc = lz_row(st)) == 1) {
		lz_col_copy(st, 0, out, len);
		lz_reset(st);
	}
	return rc;
}

int64_t
store_user_add(struct lz_db *db, const char *email, const char *hash,
    int64_t now)
{
	int64_t	 id;
	int	 rc;

	rc = lz_one_i64(LZ_STMT(db, set, ST_USER_ADD, LZ_TEXT(email),
	    LZ_TEXT(hash), LZ_I64(now)), &id);
	return rc == 1 ? id : rc == 0 ? 0 : -1;
}

int64_t
store_user_ensure(struct lz_db *db, const char *email, const char *hash,
    int64_t now, int *made)
{
	char	 old[256];
	int64_t	 id;
	int	 rc;

	*made = 0;
	if ((rc = store_user_by_email(db, email, &id, old, sizeof(old))) != 0)
		return rc == 1 ? id : -1;
	if ((id = store_user_add(db, email, hash, now)) > 0)
		*made = 1;
	return id > 0 ? id : -1;
}

int
store_user_set_password(struct lz_db *db, int64_t id, const char *hash)
{
	return lz_run_changed(LZ_STMT(db, set, ST_USER_SET_PASSWORD,
	    LZ_TEXT(hash), LZ_I64(id)));
}

int
store_member_role(struct lz_db *db, int64_t user_id, int64_t account_id,
    char role[MEMBER_ROLE_LEN])
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_MEMBER_ROLE, LZ_I64(user_id),
	    LZ_I64(account_id));
	if ((rc = lz_row(st)) == 1) {
		lz_col_copy(st, 0, role, MEMBER_ROLE_LEN);
		lz_reset(st);
	}
	return rc;
}

int
store_member_put(struct lz_db *db, int64_t user_id, int64_t account_id,
    const char *role, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_MEMBER_PUT, LZ_I64(user_id),
	    LZ_I64(account_id), LZ_TEXT(role), LZ_I64(now)));
}

int
store_member_remove(struct lz_db *db, int64_t user_id, int64_t account_id)
{
	return lz_run_changed(LZ_STMT(db, set, ST_MEMBER_REMOVE,
	    LZ_I64(user_id), LZ_I64(account_id)));
}

long
store_member_owners(struct lz_db *db, int64_t account_id)
{
	int64_t	 n;

	if (lz_one_i64(LZ_STMT(db, set, ST_MEMBER_OWNERS,
	    LZ_I64(account_id)), &n) != 1)
		return -1;
	return (long)n;
}

struct member_fn {
	void	(*fn)(const struct member *, void *);
	void	*arg;
};

static void
member_row(struct lz_stmt *st, void *arg)
{
	struct member_fn	*f = arg;
	struct member		 m;

	m.user_id = lz_col_i64(st, 0);
	m.email = lz_col_text(st, 1);
	m.role = lz_col_text(st, 2);
	m.joined_at = lz_col_i64(st, 3);
	f->fn(&m, f->arg);
}

long
store_member_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const struct member *, void *), void *arg)
{
	struct member_fn	 f = { fn, arg };

	return lz_each(LZ_STMT(db, set, ST_MEMBER_LIST, LZ_I64(account_id)),
	    member_row, &f);
}

struct account_fn {
	void	(*fn)(int64_t, const char *, const char *, void *);
	void	*arg;
};

static void
account_row(struct lz_stmt *st, void *arg)
{
	struct account_fn	*f = arg;

	f->fn(lz_col_i64(st, 0), lz_col_text(st, 1), lz_col_text(st, 2),
	    f->arg);
}

long
store_user_accounts(struct lz_db *db, int64_t user_id,
    void (*fn)(int64_t, const char *, const char *, void *), void *arg)
{
	struct account_fn	 f = { fn, arg };

	return lz_each(LZ_STMT(db, set, ST_USER_ACCOUNTS, LZ_I64(user_id)),
	    account_row, &f);
}

int
store_member_sessions_end(struct lz_db *db, int64_t user_id,
    int64_t account_id)
{
	return lz_run_ok(LZ_STMT(db, set, ST_MEMBER_SESSIONS_END,
	    LZ_I64(user_id), LZ_I64(account_id)));
}

int
store_user_sessions_end(struct lz_db *db, int64_t user_id, int64_t keep)
{
	return lz_run_ok(LZ_STMT(db, set, ST_USER_SESSIONS_END,
	    LZ_I64(user_id), LZ_I64(keep)));
}

int
store_session_switch(struct lz_db *db, int64_t session_id, int64_t account_id)
{
	return lz_run_ok(LZ_STMT(db, set, ST_SESSION_SWITCH,
	    LZ_I64(session_id), LZ_I64(account_id)));
}

int64_t
store_invite_add(struct lz_db *db, int64_t account_id, const char *email,
    const char *role, const unsigned char hash[32], const char *by,
    int64_t now, int64_t expires_at)
{
	return lz_run_id(LZ_STMT(db, set, ST_INVITE_ADD, LZ_I64(account_id),
	    LZ_TEXT(email), LZ_TEXT(role), LZ_BLOB(hash, 32), LZ_TEXT(by),
	    LZ_I64(now), LZ_I64(expires_at)));
}

static void
invite_cols(struct lz_stmt *st, struct invitation *inv, int full)
{
	memset(inv, 0, sizeof(*inv));
	inv->id = lz_col_i64(st, 0);
	if (full) {
		inv->account_id = lz_col_i64(st, 1);
		lz_col_copy(st, 2, inv->email, sizeof(inv->email));
		lz_col_copy(st, 3, inv->role, sizeof(inv->role));
		inv->expires_at = lz_col_i64(st, 4);
		inv->accepted_at = lz_col_i64(st, 5);
	} else {
		lz_col_copy(st, 1, inv->email, sizeof(inv->email));
		lz_col_copy(st, 2, inv->role, sizeof(inv->role));
		inv->created_at = lz_col_i64(st, 3);
		inv->expires_at = lz_col_i64(st, 4);
	}
}

int
store_invite_by_hash(struct lz_db *db, const unsigned char hash[32],
    struct invitation *inv)
{
	const struct lz_val	 v = LZ_BLOB(hash, 32);
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(db, set, ST_INVITE_BY_HASH, &v, 1);
	if ((rc = lz_row(st)) == 1) {
		invite_cols(st, inv, 1);
		lz_reset(st);
	}
	return rc;
}

int
store_invite_accept(struct lz_db *db, int64_t id, int64_t now)
{
	return lz_run_changed(LZ_STMT(db, set, ST_INVITE_ACCEPT, LZ_I64(id),
	    LZ_I64(now)));
}

struct invite_fn {
	void	(*fn)(const struct invitation *, void *);
	void	*arg;
};

static void
invite_row(struct lz_stmt *st, void *arg)
{
	struct invite_fn	*f = arg;
	struct invitation	 inv;

	invite_cols(st, &inv, 0);
	f->fn(&inv, f->arg);
}

long
store_invite_pending(struct lz_db *db, int64_t account_id, int64_t now,
    void (*fn)(const struct invitation *, void *), void *arg)
{
	struct invite_fn	 f = { fn, arg };

	return lz_each(LZ_STMT(db, set, ST_INVITE_PENDING, LZ_I64(account_id),
	    LZ_I64(now)), invite_row, &f);
}
