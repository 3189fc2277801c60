/*
 * store/accounts.h -- accounts, their API keys, dashboard passwords and
 * monthly usage (account.h has the rules; these are only the SQL).
 */
#ifndef LZ_STORE_ACCOUNTS_H
#define LZ_STORE_ACCOUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "auth/keys.h"

struct lz_db;

#define ACCOUNT_EMAIL_MAX	254	/* bytes (account_email_ok) */
#define ACCOUNT_PLAN_LEN	64	/* a plan name and its NUL */

struct account {
	int64_t	 id;
	char	 email[ACCOUNT_EMAIL_MAX + 1];
	char	 plan[ACCOUNT_PLAN_LEN];
	int	 disabled;
	int	 has_password;
	int64_t	 created_at;
};

/* Returns the new id, 0 when the e-mail is taken, -1 on error. */
int64_t	store_account_add(struct lz_db *, const char *email, const char *plan,
	    const char *password_hash, int64_t now);
/* By id (email NULL) or by e-mail (id 0).  1 found, 0 not, -1 error. */
int	store_account_get(struct lz_db *, int64_t id, const char *email,
	    struct account *);
/* Calls fn for every account in id order; returns the count or -1. */
long	store_account_list(struct lz_db *,
	    void (*fn)(const struct account *, void *), void *arg);
/* 1 changed, 0 no such account, -1 error. */
int	store_account_set_plan(struct lz_db *, int64_t id, const char *plan);
int	store_account_set_disabled(struct lz_db *, int64_t id, int disabled);

/*
 * The password hash of an account, by e-mail (when not NULL) or id.  1
 * found (hash "" when the account has no password), 0 not, -1 error.
 */
int	store_account_pwhash(struct lz_db *, int64_t id, const char *email,
	    int64_t *idp, char *hash, size_t hashlen, int *disabled);
int	store_account_set_password(struct lz_db *, int64_t id,
	    const char *hash);

/* ---- API keys -------------------------------------------------------- */

struct apikey {
	int64_t	 id;
	int64_t	 account_id;
	char	 prefix[KEY_SHOWN_LEN + 1];
	char	 last4[5];
	char	 name[KEY_NAME_MAX * 4 + 1];	/* UTF-8 */
	int64_t	 created_at;
	int64_t	 last_used_at;
	int64_t	 revoked_at;
	int64_t	 expires_at;			/* 0: never */
	int	 scopes;			/* bits of auth/scope.h */
	char	 created_by[256];		/* its maker's e-mail, "" */
	/* filled by store_key_auth: */
	char	 plan[ACCOUNT_PLAN_LEN];
	int	 account_disabled;
};

int64_t	store_key_add(struct lz_db *, int64_t account_id,
	    const unsigned char hash[KEY_HASH_LEN], const char *prefix,
	    const char *last4, const char *name, unsigned scopes,
	    int64_t expires_at, int64_t user_id, int64_t now);
/* Looks a key up by hash.  1 found (revoked or not), 0 not, -1 error. */
int	store_key_auth(struct lz_db *, const unsigned char hash[KEY_HASH_LEN],
	    struct apikey *);
long	store_key_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const struct apikey *, void *), void *arg);
/* Revokes key id of account_id (ACCOUNT_ANY: of anyone).  1, 0, -1. */
int	store_key_revoke(struct lz_db *, int64_t id, int64_t account_id,
	    int64_t now);
/* Notes the use of a key (at most once a minute per key).  0 or -1. */
int	store_key_touch(struct lz_db *, int64_t id, int64_t now);

/* ---- monthly usage --------------------------------------------------- */

/*
 * Leases calls of account's quota in month ("YYYY-MM") for a host to
 * count out (auth/quota.h): an eighth of what is left below quota, at
 * least one, at most most, none when quota calls were leased already;
 * in a transaction of its own.  Returns 0 with *granted and the month's
 * calls leased so far, this lease's included, in *calls; -1 on error.
 */
int	store_usage_lease(struct lz_db *, int64_t account_id,
	    const char *month, long long quota, long long most,
	    long long *granted, long long *calls);
/* Calls counted in month; -1 on error. */
long long store_usage_get(struct lz_db *, int64_t account_id,
	    const char *month);

#endif
