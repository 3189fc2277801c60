/*
 * auth.h -- who a request of the link service acts for, and the API
 * key that says so (DESIGN 3.3): Bearer token, checksum, hash look-up,
 * revocation, and the monthly quota with its headers.  A dashboard
 * session says the same through session.h.
 */
#ifndef LZ_AUTH_H
#define LZ_AUTH_H

#include <stdint.h>

struct lz_conf;
struct lz_db;
struct lz_plan;
struct lz_req;
struct quota_table;

/* The caller of one request, filled by auth_api_key() or session.h. */
struct auth_caller {
	int64_t			 account_id;	/* 0: nobody */
	int64_t			 key_id;	/* the API key, or 0 */
	unsigned		 scopes;	/* the key's (scope.h) */
	char			 key_shown[24];	/* "lk_live_abcd...wxyz" */
	const struct lz_plan	*plan;		/* the account's */
	int64_t			 session_id;	/* dashboard session, or 0 */
	int64_t			 user_id;	/* its user (team.h) */
	int			 role;		/* its role: enum role */
	char			 csrf[64];	/* its CSRF token */
};

/*
 * One more call of who's account in request r, after auth_api_key's (an
 * item of a bulk call counts as a call): 1 counted, 0 the quota is used
 * up, -1 on a database error (logged).  The X-RateLimit-* headers are
 * set again.  Never inside a transaction.
 */
int	auth_meter_more(struct lz_req *, struct lz_db *,
	    struct quota_table *, const struct auth_caller *who);

/*
 * The key of who holds scope (scope.h): 0, or -1 after answering 403
 * insufficient_scope naming it (the call counted already).
 */
int	auth_scope(struct lz_req *, const struct auth_caller *who, int scope);

/*
 * Checks the request's API key against db and counts one call of its
 * account's monthly quota (the plans of conf) in the host's quota
 * table, setting the X-RateLimit-* headers, into who.  Returns 0, or -1
 * after answering 401, 429 or 500.
 */
int	auth_api_key(struct lz_req *, struct lz_db *, const struct lz_conf *,
	    struct quota_table *, struct auth_caller *who);

/*
 * Counts one call of who's account against its plan's monthly quota,
 * with the X-RateLimit-* headers: every API call (auth_api_key), and
 * the dashboard's requests that cost as much as the API's (an export).
 * 0, or -1 after answering 429 or 500.
 */
int	auth_meter(struct lz_req *, struct lz_db *, struct quota_table *,
	    const struct auth_caller *who);

#endif
