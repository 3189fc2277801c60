/*
 * accounts.c -- creating accounts and API keys.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "accounts.h"
#include "keys.h"
#include "links.h"
#include "log.h"
#include "store.h"
#include "util.h"

int
account_email_ok(const char *s)
{
	const char	*at = strchr(s, '@');

	return at != NULL && at != s && at[1] != '\0' &&
	    strchr(at + 1, '@') == NULL && strlen(s) <= 254 &&
	    strpbrk(s, " \t\r\n<>\"'(),;:\\[]") == NULL;
}

int64_t
account_create(const char *email, const char *plan, const char *password,
    int64_t now)
{
	char	 hash[crypto_pwhash_STRBYTES];

	if (plan == NULL)
		plan = links.conf->default_plan;
	if (password != NULL && crypto_pwhash_str(hash, password,
	    strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
	    crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
		lz_log(LZ_LOG_ERR, "argon2id: out of memory");
		return -1;
	}
	return store_account_add(&links.db, email, plan,
	    password ? hash : NULL, now);
}

int64_t
apikey_create(int64_t account_id, const char *name, int64_t now,
    char key[KEY_LEN + 1])
{
	char		 prefix[KEY_SHOWN_LEN + 1], last4[5];
	unsigned char	 hash[KEY_HASH_LEN];
	int64_t		 id;

	key_generate(key);
	key_hash(key, hash);
	key_display(key, prefix, last4);
	if ((id = store_key_add(&links.db, account_id, hash, prefix, last4,
	    name, now)) < 0)
		sodium_memzero(key, KEY_LEN + 1);
	return id;
}
