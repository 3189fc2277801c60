/*
 * store/sessions.h -- dashboard sessions (session.h has the rules;
 * these are only the SQL).
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
	int64_t	 user_id;
	char	 role[8];		/* "" no member any more */
};

/* Returns the new session's id or -1. */
int64_t	store_session_add(struct lz_db *,
	    const unsigned char hash[SESSION_HASH_LEN], int64_t user_id,
	    int64_t account_id,
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

#endif
