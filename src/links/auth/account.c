/*
 * account.c -- creating accounts and API keys.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "auth/account.h"
#include "auth/keys.h"
#include "db.h"
#include "jbody.h"
#include "log.h"
#include "pwhash.h"
#include "store/accounts.h"
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

	if (password != NULL && pw_hash(password, hash) == -1)
		return -1;
	return store_account_add(db, email, plan,
	    password ? hash : NULL, now);
}

int64_t
apikey_create(struct lz_db *db, int64_t account_id, const char *name,
    int64_t now, char key[KEY_LEN + 1])
{
	char		 prefix[KEY_SHOWN_LEN + 1], last4[5];
	unsigned char	 hash[KEY_HASH_LEN];
	int64_t		 id;

	key_generate(key);
	key_hash(key, hash);
	key_display(key, prefix, last4);
	if ((id = store_key_add(db, account_id, hash, prefix, last4,
	    name, now)) < 0)
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
	char	 hash[crypto_pwhash_STRBYTES];

	if (pw_hash(password, hash) == -1)
		return -1;
	return store_account_set_password(db, id, hash);
}

int
account_check_password(struct lz_db *db, const char *email, int64_t *id,
    const char *password, int *disabled)
{
	/* Checked when there is no account, so that the answer takes as
	 * long as for a real one and does not tell which e-mails exist. */
	static char	 dummy[crypto_pwhash_STRBYTES];
	char		 hash[crypto_pwhash_STRBYTES];
	int		 rc;

	rc = store_account_pwhash(db, email ? 0 : *id, email, id, hash,
	    sizeof(hash), disabled);
	if (rc == -1)
		return -1;
	if (rc == 0 || hash[0] == '\0') {
		if (dummy[0] == '\0' && pw_hash("lz dummy password", dummy) ==
		    -1)
			return -1;
		if (lz_pwhash_ok(dummy, password))
			lz_log(LZ_LOG_WARN, "the dummy password was guessed");
		return 0;
	}
	return lz_pwhash_ok(hash, password);
}

json_t *
apikey_json(const struct apikey *k)
{
	return json_pack("{s:I, s:s, s:s, s:s, s:o, s:o, s:o, s:s}",
	    "id", (json_int_t)k->id, "prefix", k->prefix, "last4", k->last4,
	    "name", k->name, "created_at", lz_json_time(k->created_at),
	    "last_used_at", lz_json_time(k->last_used_at),
	    "revoked_at", lz_json_time(k->revoked_at),
	    "status", k->revoked_at ? "revoked" : "active");
}
