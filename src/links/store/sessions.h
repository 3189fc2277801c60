/*
 * store/sessions.h -- dashboard sessions, sign-in failures and the
 * password tries of protected links (session.h has the rules; these are
 * only the SQL).
 */
#ifndef LZ_STORE_SESSIONS_H
#define LZ_STORE_SESSIONS_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;

#define SESSION_HASH_LEN	32	/* BLAKE2b-256 of the cookie token */
#define SESSION_CSRF_LEN	43	/* base64url of 32 bytes */

struct session {
	int64_t	 id;
	int64_t	 account_id;
	char	 csrf[SESSION_CSRF_LEN + 1];
	int64_t	 created_at;
	int64_t	 seen_at;
};

/* Returns the new session's id or -1. */
int64_t	store_session_add(struct lz_db *,
	    const unsigned char hash[SESSION_HASH_LEN], int64_t account_id,
	    const char *csrf, int64_t now);
/* By the hash of the cookie token.  1, 0, -1. */
int	store_session_get(struct lz_db *,
	    const unsigned char hash[SESSION_HASH_LEN], struct session *);
/* Notes activity (at most once a minute per session).  0 or -1. */
int	store_session_touch(struct lz_db *, int64_t id, int64_t now);
/* 1, 0 (no such session), -1. */
int	store_session_delete(struct lz_db *, int64_t id);
/* Ends every session of account_id but keep_id (0: all).  0 or -1. */
int	store_session_delete_others(struct lz_db *, int64_t account_id,
	    int64_t keep_id);
/* Drops sessions idle since idle_before or made before created_before.
 * 0 or -1. */
int	store_session_purge(struct lz_db *, int64_t idle_before,
	    int64_t created_before);

/* Sign-in failures of a scope (an address or an account).  0 or -1. */
int	store_login_fail_add(struct lz_db *, const char *scope, int64_t now);
/* Failures of scope after since (and the oldest of them); -1 on error. */
long long store_login_fail_count(struct lz_db *, const char *scope,
	    int64_t since, int64_t *oldest);
int	store_login_fail_clear(struct lz_db *, const char *scope);
int	store_login_fail_purge(struct lz_db *, int64_t before);
/* The time of the n-th newest failure of scope (n >= 1): 1, 0, -1. */
int	store_login_fail_nth(struct lz_db *, const char *scope, long long n,
	    int64_t *at);
/* Removes one failure of scope at at (a try taken, given back): 0, -1. */
int	store_login_fail_give_back(struct lz_db *, const char *scope,
	    int64_t at);
/* Holds the failures of scope to the end of the transaction (the
 * caller's, begun): 0 or -1. */
int	store_login_fail_lock(struct lz_db *, const char *scope);

/*
 * Takes one password try of a client network at a link, unless max tries
 * were taken in the window of window ms.  1 taken, 0 refused (with
 * *window_start the start of the full window), -1 on error.
 */
int	store_pwtry_take(struct lz_db *, int64_t link_id,
	    const unsigned char *net, size_t netlen, int64_t now,
	    int64_t window, int max, int64_t *window_start);
/* Gives a try back (the password was right).  0 or -1. */
int	store_pwtry_give_back(struct lz_db *, int64_t link_id,
	    const unsigned char *net, size_t netlen);
/* Forgets windows that started before before.  0 or -1. */
int	store_pwtry_purge(struct lz_db *, int64_t before);
/*
 * The per-link ceiling over every network (0007-hardening.sql): takes one
 * try at a link unless max were taken in its window, which is window ms
 * long, or twice as long as the last one (up to longest) after a full
 * one.  1 taken, 0 refused (with *until the end of the full window), -1
 * on error.
 */
int	store_pwtry_link_take(struct lz_db *, int64_t link_id, int64_t now,
	    int64_t window, int max, int64_t longest, int64_t *until);
/* Gives a try back (the password was right).  0 or -1. */
int	store_pwtry_link_give_back(struct lz_db *, int64_t link_id);
/* Forgets windows that ended a window's length before now.  0 or -1. */
int	store_pwtry_link_purge(struct lz_db *, int64_t now);

#endif
