/*
 * account.h -- accounts and their API keys, for every caller: lzctl and
 * the dashboard create accounts and keys only through these functions.
 */
#ifndef LZ_ACCOUNT_H
#define LZ_ACCOUNT_H

#include <stdint.h>

#include <jansson.h>

#include "auth/keys.h"

struct lz_db;

/* 1 when s looks like an e-mail address we accept (no spaces, quotes or
 * angle brackets, one '@', at most 254 bytes). */
int	account_email_ok(const char *s);

/*
 * Creates an account on plan (the caller's choice, lz.conf's
 * default_plan when nobody chose); password NULL means none (no dashboard sign-in until one is set), else it is hashed with
 * argon2id.  Returns the id, 0 when the e-mail is taken, -1 on error
 * (logged).
 */
int64_t	account_create(struct lz_db *, const char *email, const char *plan,
	    const char *password, int64_t now);

/*
 * Creates an API key for account_id.  Writes the key (shown once, never
 * stored) to key (KEY_LEN + 1 bytes) and returns the key's id, or -1.
 */
int64_t	apikey_create(struct lz_db *, int64_t account_id, const char *name,
	    int64_t now, char key[KEY_LEN + 1]);

struct apikey;

#define PASSWORD_MIN_LEN	8	/* dashboard passwords, characters */
#define PASSWORD_MAX_LEN	128

/* 1 when pw is an acceptable account password: PASSWORD_MIN_LEN to
 * PASSWORD_MAX_LEN characters of UTF-8 without control characters. */
int	account_password_ok(const char *pw);

/* Sets (argon2id) the dashboard password of an account.  1, 0 (no such
 * account), -1 on error. */
int	account_set_password(struct lz_db *, int64_t id,
	    const char *password);

/*
 * Checks a password of the account with e-mail email (NULL: by id).
 * Takes the time of one argon2id check whether or not the account exists.
 * Returns 1 right (with *id and *disabled), 0 wrong or no such account or
 * no password, -1 on error.
 */
int	account_check_password(struct lz_db *, const char *email,
	    int64_t *id, const char *password, int *disabled);

/* The JSON form of an API key in lists (never its secret or hash). */
json_t	*apikey_json(const struct apikey *);

#endif
