/*
 * store/members.h -- the SQL of users, memberships and invitations
 * (auth/team.h has the rules; these are only the statements).
 */
#ifndef LZ_STORE_MEMBERS_H
#define LZ_STORE_MEMBERS_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;

#define MEMBER_ROLE_LEN	8	/* "viewer" and its NUL */
#define USER_EMAIL_LEN	256

struct member {
	int64_t		 user_id;
	const char	*email;
	const char	*role;
	int64_t		 joined_at;
};

struct invitation {
	int64_t	 id, account_id;
	char	 email[USER_EMAIL_LEN];
	char	 role[MEMBER_ROLE_LEN];
	int64_t	 created_at, expires_at, accepted_at;
};

/* The user of email: 1 with its id and password hash ("" none), 0, -1. */
int	store_user_by_email(struct lz_db *, const char *email, int64_t *id,
	    char *hash, size_t hashlen);
/* The e-mail of user id into out: 1, 0, -1. */
int	store_user_email(struct lz_db *, int64_t id, char *out, size_t len);
/* A new user (hash NULL: no password yet): its id, 0 when the e-mail is
 * a user's already, -1. */
int64_t	store_user_add(struct lz_db *, const char *email, const char *hash,
	    int64_t now);
/* The user of email, made with hash (NULL: no password) when there is
 * none: its id (*made 1 when new), or -1. */
int64_t	store_user_ensure(struct lz_db *, const char *email, const char *hash,
	    int64_t now, int *made);
int	store_user_set_password(struct lz_db *, int64_t id, const char *hash);

/* The role of user_id in account_id into role: 1, 0 not a member, -1. */
int	store_member_role(struct lz_db *, int64_t user_id, int64_t account_id,
	    char role[MEMBER_ROLE_LEN]);
/* Adds user_id to account_id with role, or sets its role.  0 or -1. */
int	store_member_put(struct lz_db *, int64_t user_id, int64_t account_id,
	    const char *role, int64_t now);
/* 1 removed, 0 not a member, -1. */
int	store_member_remove(struct lz_db *, int64_t user_id,
	    int64_t account_id);
/* The owners of account_id (its row locked on PostgreSQL), or -1. */
long	store_member_owners(struct lz_db *, int64_t account_id);
/* Calls fn for each member of account_id, in the order they joined;
 * returns the count or -1. */
long	store_member_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const struct member *, void *), void *arg);
/* Calls fn(account_id, account's e-mail, role) for each account of
 * user_id not disabled, the first joined first; the count or -1. */
long	store_user_accounts(struct lz_db *, int64_t user_id,
	    void (*fn)(int64_t, const char *, const char *, void *),
	    void *arg);
/* Ends user_id's sessions in account_id (keep: 0) or all but keep. */
int	store_member_sessions_end(struct lz_db *, int64_t user_id,
	    int64_t account_id);
int	store_user_sessions_end(struct lz_db *, int64_t user_id, int64_t keep);
/* Session id now in account_id.  0 or -1. */
int	store_session_switch(struct lz_db *, int64_t session_id,
	    int64_t account_id);

int64_t	store_invite_add(struct lz_db *, int64_t account_id, const char *email,
	    const char *role, const unsigned char hash[32], const char *by,
	    int64_t now, int64_t expires_at);
/* 1 with inv, 0 none, -1. */
int	store_invite_by_hash(struct lz_db *, const unsigned char hash[32],
	    struct invitation *inv);
/* 1 accepted now, 0 it was already, -1. */
int	store_invite_accept(struct lz_db *, int64_t id, int64_t now);
/* Calls fn for account_id's invitations neither accepted nor expired. */
long	store_invite_pending(struct lz_db *, int64_t account_id, int64_t now,
	    void (*fn)(const struct invitation *, void *), void *arg);

#endif
