/*
 * accounts.h -- accounts and their API keys, for every caller: lzctl and
 * the dashboard create accounts and keys only through these functions.
 */
#ifndef LZ_ACCOUNTS_H
#define LZ_ACCOUNTS_H

#include <stdint.h>

#include "keys.h"

/* 1 when s looks like an e-mail address we accept (no spaces, quotes or
 * angle brackets, one '@', at most 254 bytes). */
int	account_email_ok(const char *s);

/*
 * Creates an account.  plan NULL means default_plan; password NULL means
 * none (no dashboard sign-in until one is set), else it is hashed with
 * argon2id.  Returns the id, 0 when the e-mail is taken, -1 on error
 * (logged).
 */
int64_t	account_create(const char *email, const char *plan,
	    const char *password, int64_t now);

/*
 * Creates an API key for account_id.  Writes the key (shown once, never
 * stored) to key (KEY_LEN + 1 bytes) and returns the key's id, or -1.
 */
int64_t	apikey_create(int64_t account_id, const char *name, int64_t now,
	    char key[KEY_LEN + 1]);

#endif
