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
 * default_plan when nobody chose), with the user of its e-mail (made,
 * with password when there is none yet; password NULL: no dashboard
 * sign-in until one is set) as its owner.  Returns the id, 0 when the
 * e-mail is an account's already, -1 on error (logged).
 */
int64_t	account_create(struct lz_db *, const char *email, const char *plan,
	    const char *password, int64_t now);

/*
 * Creates an API key for account_id, made by user_id (0: lzctl), with
 * scopes (bits of scope.h) that
 * stops working at expires_at (0: never).  Writes the key (shown once,
 * never stored) to key (KEY_LEN + 1 bytes) and returns the key's id, or
 * -1.
 */
int64_t	apikey_create(struct lz_db *, int64_t account_id, int64_t user_id,
	    const char *name, unsigned scopes, int64_t expires_at, int64_t now,
	    char key[KEY_LEN + 1]);

struct apikey;

#define PASSWORD_MIN_LEN	8	/* dashboard passwords, characters */
#define PASSWORD_MAX_LEN	128

/* 1 when pw is an acceptable account password: PASSWORD_MIN_LEN to
 * PASSWORD_MAX_LEN characters of UTF-8 without control characters. */
int	account_password_ok(const char *pw);

/* Sets (argon2id) the dashboard password of the user of account id's
 * own e-mail (its owner as made: lzctl account password).  1, 0 (no
 * such account or user), -1 on error. */
int	account_set_password(struct lz_db *, int64_t id,
	    const char *password);

/* The JSON form of an API key in lists (never its secret or hash). */
json_t	*apikey_json(const struct apikey *, int64_t now);

#endif
