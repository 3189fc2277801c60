/*
 * team.c -- users, roles and invitations (team.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "auth/account.h"
#include "auth/team.h"
#include "conf.h"
#include "db.h"
#include "log.h"
#include "lztime.h"
#include "mail/message.h"
#include "mail/queue.h"
#include "pwhash.h"
#include "store/accounts.h"
#include "store/members.h"
#include "util.h"
#include "verr.h"

const char *const role_names[] = {
	[ROLE_NONE] = "",
	[ROLE_VIEWER] = "viewer",
	[ROLE_MEMBER] = "member",
	[ROLE_ADMIN] = "admin",
	[ROLE_OWNER] = "owner",
};

enum role
role_parse(const char *s)
{
	int	 i;

	for (i = ROLE_VIEWER; i <= ROLE_OWNER; i++)
		if (s != NULL && strcmp(s, role_names[i]) == 0)
			return (enum role)i;
	return ROLE_NONE;
}

static int
hashed(const char *pw, char out[crypto_pwhash_STRBYTES])
{
	if (lz_pwhash(pw, out) == -1) {
		lz_log(LZ_LOG_ERR, "argon2id: out of memory");
		return -1;
	}
	return 0;
}

int64_t
team_user(struct lz_db *db, const char *email, const char *password,
    int64_t now, int *made)
{
	char	 hash[crypto_pwhash_STRBYTES];

	if (password != NULL && hashed(password, hash) == -1)
		return -1;
	return store_user_ensure(db, email, password ? hash : NULL, now, made);
}

/* The password of a user whose hash is hash ("" none, NULL no user):
 * checked against a dummy when there is none, so that the answer takes
 * as long and does not tell which e-mails exist.  1, 0, -1. */
static int
check(const char *hash, const char *password)
{
	static char	 dummy[crypto_pwhash_STRBYTES];

	if (hash == NULL || hash[0] == '\0') {
		if (dummy[0] == '\0' && hashed("lz dummy password", dummy) ==
		    -1)
			return -1;
		if (lz_pwhash_ok(dummy, password))
			lz_log(LZ_LOG_WARN, "the dummy password was guessed");
		return 0;
	}
	return lz_pwhash_ok(hash, password);
}

int
team_check_password(struct lz_db *db, const char *email, int64_t *id,
    const char *password)
{
	char	 hash[crypto_pwhash_STRBYTES];
	int	 rc;

	if ((rc = store_user_by_email(db, email, id, hash,
	    sizeof(hash))) == -1)
		return -1;
	return check(rc == 1 ? hash : NULL, password);
}

int
team_check_user_password(struct lz_db *db, int64_t id, const char *password)
{
	char	 email[USER_EMAIL_LEN];
	int64_t	 same;
	int	 rc;

	if ((rc = store_user_email(db, id, email, sizeof(email))) != 1)
		return rc == 0 ? check(NULL, password) : -1;
	return team_check_password(db, email, &same, password);
}

int
team_set_password(struct lz_db *db, int64_t id, const char *password)
{
	char	 hash[crypto_pwhash_STRBYTES];

	if (hashed(password, hash) == -1)
		return -1;
	return store_user_set_password(db, id, hash);
}

/*
 * May actor make user_id (now of role was, ROLE_NONE not a member) of
 * role want (ROLE_NONE: removed)?  Checked in the caller's transaction,
 * the last owner counted.  0, or -1 with e.
 */
static int
allowed(struct lz_db *db, int64_t account_id, enum role actor,
    enum role was, enum role want, struct lz_verr *e)
{
	long	 owners;

	if (actor < ROLE_ADMIN) {
		lz_verr_set(e, 403, "forbidden", NULL, "Only owners and admins "
		    "manage members.");
		return -1;
	}
	if (actor < ROLE_OWNER && (was == ROLE_OWNER || want == ROLE_OWNER)) {
		lz_verr_set(e, 403, "forbidden", "role", "Only an owner makes, "
		    "changes or removes an owner.");
		return -1;
	}
	if (was == ROLE_OWNER && want != ROLE_OWNER) {
		if ((owners = store_member_owners(db, account_id)) < 0) {
			lz_verr_set(e, 500, "internal_error", NULL, "The "
			    "owners could not be counted.");
			return -1;
		}
		if (owners <= 1) {
			lz_verr_set(e, 409, "last_owner", NULL, "The account "
			    "keeps at least one owner: make another one "
			    "first.");
			return -1;
		}
	}
	return 0;
}

static enum role
role_of(struct lz_db *db, int64_t user_id, int64_t account_id, int *rc)
{
	char	 role[MEMBER_ROLE_LEN];

	if ((*rc = store_member_role(db, user_id, account_id, role)) != 1)
		return ROLE_NONE;
	return role_parse(role);
}

int
team_set_role(struct lz_db *db, int64_t account_id, enum role actor,
    int64_t user_id, enum role role, int add, int64_t now, struct lz_verr *e)
{
	enum role	 was;
	int		 rc;

	if (lz_db_begin(db) == -1)
		goto dberr;
	was = role_of(db, user_id, account_id, &rc);
	if (rc == -1)
		goto dberr;
	if (rc == 0 && !add) {
		lz_db_rollback(db);
		lz_verr_set(e, 404, "not_found", NULL, "There is no such member "
		    "of the account.");
		return -1;
	}
	if (allowed(db, account_id, actor, was, role, e) == -1) {
		lz_db_rollback(db);
		return -1;
	}
	if (store_member_put(db, user_id, account_id, role_names[role],
	    now) == -1 || lz_db_commit(db) == -1)
		goto dberr;
	return 0;
dberr:
	lz_db_rollback(db);
	lz_verr_set(e, 500, "internal_error", NULL, "The member could not be "
	    "changed.");
	return -1;
}

int
team_remove(struct lz_db *db, int64_t account_id, enum role actor,
    int64_t user_id, struct lz_verr *e)
{
	enum role	 was;
	int		 rc;

	if (lz_db_begin(db) == -1)
		goto dberr;
	was = role_of(db, user_id, account_id, &rc);
	if (rc == -1)
		goto dberr;
	if (rc == 0) {
		lz_db_rollback(db);
		lz_verr_set(e, 404, "not_found", NULL, "There is no such member "
		    "of the account.");
		return -1;
	}
	if (allowed(db, account_id, actor, was, ROLE_NONE, e) == -1) {
		lz_db_rollback(db);
		return -1;
	}
	if (store_member_remove(db, user_id, account_id) == -1 ||
	    store_member_sessions_end(db, user_id, account_id) == -1 ||
	    lz_db_commit(db) == -1)
		goto dberr;
	return 0;
dberr:
	lz_db_rollback(db);
	lz_verr_set(e, 500, "internal_error", NULL, "The member could not be "
	    "removed.");
	return -1;
}

static void
token_hash(const char *token, unsigned char out[32])
{
	crypto_generichash(out, 32, (const unsigned char *)token,
	    strlen(token), NULL, 0);
}

char *
team_invite_url(const struct lz_conf *c, const char *token)
{
	if (*c->dashboard_host != '\0')
		return xasprintf("%s://%s/dashboard/#invite/%s",
		    strncmp(c->base_url, "https:", 6) == 0 ? "https" : "http",
		    c->dashboard_host, token);
	return xasprintf("%s/dashboard/#invite/%s", c->base_url, token);
}

/* Queues invitation id's mail, inside the caller's transaction.  0 or
 * -1. */
static int
queue_mail(struct lz_db *db, const struct invite_mail *mail,
    int64_t account_id, int64_t id, const char *email, enum role role,
    const char *token, int64_t expires_at, int64_t now)
{
	struct mail_invite	 m;
	struct account		 a;
	char			*url;
	int			 rc;

	if (store_account_get(db, account_id, NULL, &a) != 1)
		return -1;
	url = xasprintf("%s%s", mail->url, token);
	m.to = email;
	m.account = a.email;
	m.role = role_names[role];
	m.inviter = mail->inviter;
	m.url = url;
	m.expires_at = expires_at;
	rc = mail_queue_invite(db, mail->key, account_id, id, &m, now);
	sodium_memzero(url, strlen(url));
	free(url);
	return rc;
}

int
team_invite(struct lz_db *db, int64_t account_id, enum role actor,
    const char *by, const char *email, enum role role,
    const struct invite_mail *mail, int64_t now, char *token,
    struct lz_verr *e)
{
	unsigned char	 b[32], hash[32];
	char		 hashpw[crypto_pwhash_STRBYTES];
	int64_t		 uid, id, expires_at;
	int		 rc;

	/* Mailed or not, an invitation names an address a mail could
	 * carry in its To: header, nothing that would add a header. */
	if (!account_email_ok(email) || !mail_addr_ok(email)) {
		lz_verr_set(e, 400, "invalid_field", "email", "Not an e-mail "
		    "address.");
		return -1;
	}
	if (role == ROLE_NONE) {
		lz_verr_set(e, 400, "invalid_field", "role", "The role is "
		    "owner, admin, member or viewer.");
		return -1;
	}
	if (allowed(db, account_id, actor, ROLE_NONE, role, e) == -1)
		return -1;
	if ((rc = store_user_by_email(db, email, &uid, hashpw,
	    sizeof(hashpw))) == 1) {
		(void)role_of(db, uid, account_id, &rc);
		if (rc == 1) {
			lz_verr_set(e, 400, "invalid_field", "email", "%s is a "
			    "member already.", email);
			return -1;
		}
	}
	if (rc == -1)
		goto dberr;
	randombytes_buf(b, sizeof(b));
	sodium_bin2base64(token, INVITE_TOKEN_LEN + 1, b, sizeof(b),
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(b, sizeof(b));
	token_hash(token, hash);
	expires_at = now + (int64_t)INVITE_DAYS * LZ_DAY_MS;
	/* The invitation and its mail, both or neither. */
	if (lz_db_begin(db) == -1)
		goto tokenerr;
	if ((id = store_invite_add(db, account_id, email, role_names[role],
	    hash, by, now, expires_at)) < 0 || (mail != NULL &&
	    queue_mail(db, mail, account_id, id, email, role, token,
	    expires_at, now) == -1) || lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		goto tokenerr;
	}
	return 0;
tokenerr:
	sodium_memzero(token, INVITE_TOKEN_LEN + 1);
dberr:
	lz_verr_set(e, 500, "internal_error", NULL, "The invitation could not "
	    "be made.");
	return -1;
}

int
team_accept(struct lz_db *db, const char *token, int64_t user_id,
    const char *password, int64_t now, int64_t *uid, int64_t *aid,
    char *email, struct lz_verr *e)
{
	struct invitation	 inv;
	unsigned char		 hash[32];
	char			 hashpw[crypto_pwhash_STRBYTES], mine[256];
	int64_t			 existing;
	int			 rc, made;

	if (strlen(token) != INVITE_TOKEN_LEN) {
		lz_verr_set(e, 404, "not_found", "token", "There is no such "
		    "invitation.");
		return -1;
	}
	token_hash(token, hash);
	if ((rc = store_invite_by_hash(db, hash, &inv)) == -1)
		goto dberr;
	if (rc == 0) {
		lz_verr_set(e, 404, "not_found", "token", "There is no such "
		    "invitation.");
		return -1;
	}
	if (inv.accepted_at != 0 || now >= inv.expires_at) {
		lz_verr_set(e, 410, "invitation_used", "token", "This "
		    "invitation was %s; ask for a new one.", inv.accepted_at ?
		    "used already" : "not used in time");
		return -1;
	}
	if (user_id != 0) {
		/* Signed in: only as the e-mail invited. */
		if ((rc = store_user_email(db, user_id, mine,
		    sizeof(mine))) == -1)
			goto dberr;
		if (rc == 0 || strcasecmp(mine, inv.email) != 0) {
			lz_verr_set(e, 403, "wrong_user", NULL, "This invitation "
			    "is for another e-mail address: sign in as %s.",
			    inv.email);
			return -1;
		}
		*uid = user_id;
	} else {
		if ((rc = store_user_by_email(db, inv.email, &existing, hashpw,
		    sizeof(hashpw))) == -1)
			goto dberr;
		if (rc == 1) {
			lz_verr_set(e, 409, "sign_in_first", NULL, "%s has a "
			    "sign-in already: sign in, then open the "
			    "invitation again.", inv.email);
			return -1;
		}
		if (password == NULL || !account_password_ok(password)) {
			lz_verr_set(e, 400, "invalid_field", "password", "Choose "
			    "a password of %d to %d characters.",
			    PASSWORD_MIN_LEN, PASSWORD_MAX_LEN);
			return -1;
		}
		if ((*uid = team_user(db, inv.email, password, now,
		    &made)) < 0)
			goto dberr;
	}
	if (lz_db_begin(db) == -1)
		goto dberr;
	if ((rc = store_invite_accept(db, inv.id, now)) != 1) {
		lz_db_rollback(db);
		if (rc == 0) {
			lz_verr_set(e, 410, "invitation_used", "token", "This "
			    "invitation was used already.");
			return -1;
		}
		goto dberr;
	}
	if (store_member_put(db, *uid, inv.account_id, inv.role, now) == -1 ||
	    lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		goto dberr;
	}
	*aid = inv.account_id;
	snprintf(email, USER_EMAIL_LEN, "%s", inv.email);
	return 0;
dberr:
	lz_verr_set(e, 500, "internal_error", NULL, "The invitation could not "
	    "be taken.");
	return -1;
}
