/*
 * account.c -- creating accounts and API keys.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "auth/account.h"
#include "auth/keys.h"
#include "auth/scope.h"
#include "db.h"
#include "jbody.h"
#include "log.h"
#include "pwhash.h"
#include "store/accounts.h"
#include "store/members.h"
#include "utf8.h"
#include "util.h"

int
account_email_ok(const char *s)
{
	const char	*at = strchr(s, '@');

	return at != NULL && at != s && at[1] != '\0' &&
	    strchr(at + 1, '@') == NULL && strlen(s) <= 254 &&
	    strpbrk(s, " \t\r\n<>\"'(),;:\\[]") == NULL;
}

static int
pw_hash(const char *pw, char out[crypto_pwhash_STRBYTES])
{
	if (lz_pwhash(pw, out) == -1) {
		lz_log(LZ_LOG_ERR, "argon2id: out of memory");
		return -1;
	}
	return 0;
}

int64_t
account_create(struct lz_db *db, const char *email, const char *plan,
    const char *password, int64_t now)
{
	char	 hash[crypto_pwhash_STRBYTES];
	int64_t	 id, uid;
	int	 made;

	if (password != NULL && pw_hash(password, hash) == -1)
		return -1;
	/* The account, its user (made, or the one of the e-mail already)
	 * and that user its owner, at once. */
	if (lz_db_begin(db) == -1)
		return -1;
	if ((id = store_account_add(db, email, plan, password ? hash : NULL,
	    now)) <= 0) {
		lz_db_rollback(db);
		return id;
	}
	if ((uid = store_user_ensure(db, email, password ? hash : NULL, now,
	    &made)) < 0 ||
	    store_member_put(db, uid, id, "owner", now) == -1 ||
	    lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		return -1;
	}
	return id;
}

int64_t
apikey_create(struct lz_db *db, int64_t account_id, int64_t user_id,
    const char *name, unsigned scopes, int64_t expires_at, int64_t now,
    char key[KEY_LEN + 1])
{
	char		 prefix[KEY_SHOWN_LEN + 1], last4[5];
	unsigned char	 hash[KEY_HASH_LEN];
	int64_t		 id;

	key_generate(key);
	key_hash(key, hash);
	key_display(key, prefix, last4);
	if ((id = store_key_add(db, account_id, hash, prefix, last4,
	    name, scopes, expires_at, user_id, now)) < 0)
		sodium_memzero(key, KEY_LEN + 1);
	return id;
}

int
account_password_ok(const char *pw)
{
	long	 n = lz_utf8_count(pw, strlen(pw), LZ_UTF8_NOCTRL);

	return n >= PASSWORD_MIN_LEN && n <= PASSWORD_MAX_LEN;
}

int
account_set_password(struct lz_db *db, int64_t id, const char *password)
{
	struct account	 a;
	char		 hash[crypto_pwhash_STRBYTES];
	int64_t		 uid;
	int		 rc;

	/* The user of the account's own e-mail: its owner as made. */
	if ((rc = store_account_get(db, id, NULL, &a)) != 1 ||
	    (rc = store_user_by_email(db, a.email, &uid, hash,
	    sizeof(hash))) != 1)
		return rc;
	if (pw_hash(password, hash) == -1)
		return -1;
	return store_user_set_password(db, uid, hash);
}

json_t *
apikey_json(const struct apikey *k, int64_t now)
{
	json_t	*scopes = json_array();
	int	 i;

	for (i = 0; i < SC__MAX; i++)
		if ((unsigned)k->scopes & SCOPE_BIT(i))
			json_array_append_new(scopes,
			    json_string(scope_names[i]));
	return json_pack("{s:I, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, "
	    "s:s}", "id", (json_int_t)k->id, "prefix", k->prefix, "last4",
	    k->last4, "name", k->name, "scopes", scopes, "created_by",
	    k->created_by[0] ? json_string(k->created_by) : json_null(),
	    "created_at", lz_json_time(k->created_at),
	    "last_used_at", lz_json_time(k->last_used_at),
	    "expires_at", lz_json_time(k->expires_at),
	    "revoked_at", lz_json_time(k->revoked_at),
	    "status", k->revoked_at ? "revoked" : k->expires_at != 0 &&
	    now >= k->expires_at ? "expired" : "active");
}
