/*
 * team.h -- several people on one account (lz-links(8) "Teams"): users,
 * their roles in accounts, invitations.  The rules live here once, for
 * the dashboard and lzctl:
 *
 *	owner	everything
 *	admin	everything but changing owners (making one, changing or
 *		removing one)
 *	member	links, tags, the use of domains, statistics, imports
 *	viewer	reading
 *
 * Every account keeps at least one owner.  A removed member's sessions
 * in the account end at once (and any other: a session whose user is
 * no member any more is refused).  An invitation is a one-time URL whose
 * token is stored hashed, valid INVITE_DAYS days; accepting it makes the
 * user (with the password given) or joins an existing user (signed in
 * as the invited e-mail).
 */
#ifndef LZ_TEAM_H
#define LZ_TEAM_H

#include <stddef.h>
#include <stdint.h>

struct lz_conf;
struct lz_db;
struct lz_verr;

enum role { ROLE_NONE, ROLE_VIEWER, ROLE_MEMBER, ROLE_ADMIN, ROLE_OWNER };

#define INVITE_DAYS	7
#define INVITE_TOKEN_LEN 43	/* base64url of 32 random bytes */

extern const char *const role_names[];

/* The role named s, or ROLE_NONE. */
enum role role_parse(const char *s);

/*
 * The user of email, made (with password, NULL none) when there is
 * none: its id (*made 1 when new), or -1.
 */
int64_t	team_user(struct lz_db *, const char *email, const char *password,
	    int64_t now, int *made);

/* 1 when email's user has password (its id into *id), 0 not (the check
 * takes as long when there is no such user), -1. */
int	team_check_password(struct lz_db *, const char *email, int64_t *id,
	    const char *password);
/* 1 when user id has password, 0 not, -1. */
int	team_check_user_password(struct lz_db *, int64_t id,
	    const char *password);
/* Sets user id's dashboard password (argon2id).  1, 0 no such user, -1. */
int	team_set_password(struct lz_db *, int64_t id, const char *password);

/*
 * Puts user_id in account_id with role, or changes its role, as actor
 * (ROLE_OWNER for lzctl) may: 0, or -1 with e (403 forbidden for an
 * admin touching owners, 409 last_owner, 404 not_found for a change of
 * no member, 500).
 */
int	team_set_role(struct lz_db *, int64_t account_id, enum role actor,
	    int64_t user_id, enum role role, int add, int64_t now,
	    struct lz_verr *e);
/* Takes user_id out of account_id as actor may (as team_set_role), its
 * sessions there ended.  0 or -1 with e. */
int	team_remove(struct lz_db *, int64_t account_id, enum role actor,
	    int64_t user_id, struct lz_verr *e);

/*
 * An invitation's mail, when lz.conf sets mail_command: queued with the
 * invitation, in its transaction, and sent by lz-hooks (mail/queue.h).
 */
struct invite_mail {
	const unsigned char	*key;		/* MAIL_KEY_BYTES: seals it */
	const char		*url;		/* team_invite_url(c, "") */
	const char		*inviter;	/* named in it, NULL: "an
						   administrator" */
};

/* The invitation URL of token, on the dashboard's host (lz.conf's
 * dashboard_host, else base_url's); the caller frees it. */
char	*team_invite_url(const struct lz_conf *, const char *token);

/*
 * An invitation of email to account_id with role, made by actor (named
 * by, for the log), and its mail queued when mail is not NULL: the
 * token (INVITE_TOKEN_LEN + 1 bytes, shown once) into token.  0, or -1
 * with e (400 for an e-mail that is not one or a member already, 403 for
 * an owner invited by an admin).
 */
int	team_invite(struct lz_db *, int64_t account_id, enum role actor,
	    const char *by, const char *email, enum role role,
	    const struct invite_mail *mail, int64_t now, char *token,
	    struct lz_verr *e);

/*
 * Accepts invitation token: as the signed-in user user_id (0 none), or
 * as a new user with password.  The user's and account's ids into *uid
 * and *aid, and its e-mail into email (USER_EMAIL_LEN).  0, or -1 with
 * e: 404 no such invitation, 410 used or expired, 403 signed in as
 * another e-mail, 409 the e-mail is a user's (sign in first), 400 no
 * password.
 */
int	team_accept(struct lz_db *, const char *token, int64_t user_id,
	    const char *password, int64_t now, int64_t *uid, int64_t *aid,
	    char *email, struct lz_verr *e);

#endif
