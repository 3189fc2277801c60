/*
 * cmd_members.c -- lzctl member: the people of an account (lzctl(8)
 * member, lz-links(8) "Teams").  The rules are auth/team.h's; lzctl acts
 * as an owner.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "auth/account.h"
#include "auth/audit.h"
#include "auth/team.h"
#include "conf.h"
#include "lzctl.h"
#include "lztime.h"
#include "mail/message.h"
#include "mail/queue.h"
#include "store/members.h"
#include "verr.h"

/* The exit status of a refusal. */
static int
refused(const struct lz_verr *e)
{
	ctl_err("%s", e->msg);
	return e->status == 404 ? EXIT_NOTFOUND : e->status == 400 ?
	    EXIT_USAGE : 1;
}

/* The role of --role: ROLE_NONE after saying so. */
static enum role
role_opt(const struct ctl_val *v)
{
	enum role	 role = role_parse(v->s);

	if (role == ROLE_NONE)
		ctl_err("--role: owner, admin, member or viewer");
	return role;
}

/* A password from standard input (one line), or NULL after saying why;
 * the caller wipes and frees it. */
static char *
password_stdin(size_t *cap)
{
	char	*line = NULL;
	ssize_t	 n;

	*cap = 0;
	if ((n = getline(&line, cap, stdin)) <= 0) {
		ctl_err("give the password on standard input");
		free(line);
		return NULL;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	if (!account_password_ok(line)) {
		ctl_err("a password has %d to %d characters", PASSWORD_MIN_LEN,
		    PASSWORD_MAX_LEN);
		sodium_memzero(line, *cap);
		free(line);
		return NULL;
	}
	return line;
}

/* The user of email: its id, 0 after saying there is none. */
static int64_t
user_id(const char *email)
{
	char	 hash[256];
	int64_t	 id;
	int	 rc;

	if ((rc = store_user_by_email(&ctl_links_db, email, &id, hash,
	    sizeof(hash))) == 1)
		return id;
	if (rc == 0)
		ctl_err("no user %s", email);
	return 0;
}

/*
 * An invitation by URL (the user sets its password by it): printed, and
 * queued for lz-hooks to mail when lz.conf sets mail_command.
 */
static int
member_invite(int64_t account, const char *email, enum role role)
{
	struct invite_mail	 im, *mail = NULL;
	struct lz_verr		 e;
	unsigned char		 key[MAIL_KEY_BYTES];
	char			 token[INVITE_TOKEN_LEN + 1], err[512];
	char			*prefix = NULL, *url;
	int			 rc;

	if (*ctl_conf->mail_command != '\0') {
		if (mail_key_load(ctl_conf, key, err, sizeof(err)) == -1) {
			ctl_err("%s", err);
			return 1;
		}
		prefix = team_invite_url(ctl_conf, "");
		im.key = key;
		im.url = prefix;
		im.inviter = NULL;
		mail = &im;
	}
	rc = team_invite(&ctl_links_db, account, ROLE_OWNER, "lzctl", email,
	    role, mail, lz_now_ms(), token, &e);
	sodium_memzero(key, sizeof(key));
	free(prefix);
	if (rc == -1)
		return refused(&e);
	audit_note(&ctl_links_db, NULL, NULL, account, "member.invited",
	    "%s as %s", email, role_names[role]);
	/* The URL is shown this once (and sealed in the mail queued): the
	 * store keeps its token hashed. */
	url = team_invite_url(ctl_conf, token);
	printf("%s\n", url);
	sodium_memzero(url, strlen(url));
	free(url);
	sodium_memzero(token, sizeof(token));
	if (mail != NULL)
		ctl_err("queued: lz-hooks mails the invitation to %s", email);
	return 0;
}

static int
member_add(struct ctl_args *a)
{
	struct lz_verr	 e;
	char		*pw = NULL;
	size_t		 cap = 0;
	int64_t		 account, uid;
	enum role	 role;
	int		 made, rc = 1;

	if ((role = role_opt(&a->opt[0])) == ROLE_NONE)
		return EXIT_USAGE;
	if (!account_email_ok(a->argv[1]) || !mail_addr_ok(a->argv[1])) {
		ctl_err("%s: not an e-mail address", a->argv[1]);
		return EXIT_USAGE;
	}
	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if (!a->opt[1].set)
		return member_invite(account, a->argv[1], role);
	if ((pw = password_stdin(&cap)) == NULL)
		return EXIT_USAGE;
	if ((uid = team_user(&ctl_links_db, a->argv[1], pw, lz_now_ms(),
	    &made)) < 0 || (!made && team_set_password(&ctl_links_db, uid,
	    pw) != 1))
		goto out;
	if (team_set_role(&ctl_links_db, account, ROLE_OWNER, uid, role, 1,
	    lz_now_ms(), &e) == -1) {
		rc = refused(&e);
		goto out;
	}
	audit_note(&ctl_links_db, NULL, NULL, account, "member.joined",
	    "%s as %s", a->argv[1], role_names[role]);
	rc = 0;
out:
	sodium_memzero(pw, cap);
	free(pw);
	return rc;
}

static void
print_member(const struct member *m, void *arg)
{
	(void)arg;
	printf("%lld\t%s\t%s\t%s\n", (long long)m->user_id, m->email, m->role,
	    ctl_time(m->joined_at, 0, NULL));
}

static void
print_invite(const struct invitation *inv, void *arg)
{
	(void)arg;
	printf("-\t%s\t%s\tinvited, until %s\n", inv->email, inv->role,
	    ctl_time(inv->expires_at, 0, NULL));
}

static int
member_list(struct ctl_args *a)
{
	int64_t	 account;

	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	printf("USER\tEMAIL\tROLE\tJOINED\n");
	return store_member_list(&ctl_links_db, account, print_member,
	    NULL) < 0 || store_invite_pending(&ctl_links_db, account,
	    lz_now_ms(), print_invite, NULL) < 0;
}

static int
member_set(struct ctl_args *a)
{
	struct lz_verr	 e;
	int64_t		 account, uid;
	enum role	 role;

	if ((role = role_opt(&a->opt[0])) == ROLE_NONE)
		return EXIT_USAGE;
	if ((account = ctl_account_id(a->argv[0])) == 0 ||
	    (uid = user_id(a->argv[1])) == 0)
		return EXIT_NOTFOUND;
	if (team_set_role(&ctl_links_db, account, ROLE_OWNER, uid, role, 0,
	    lz_now_ms(), &e) == -1)
		return refused(&e);
	audit_note(&ctl_links_db, NULL, NULL, account, "member.changed",
	    "%s to %s", a->argv[1], role_names[role]);
	return 0;
}

static int
member_remove(struct ctl_args *a)
{
	struct lz_verr	 e;
	int64_t		 account, uid;

	if ((account = ctl_account_id(a->argv[0])) == 0 ||
	    (uid = user_id(a->argv[1])) == 0)
		return EXIT_NOTFOUND;
	if (team_remove(&ctl_links_db, account, ROLE_OWNER, uid, &e) == -1)
		return refused(&e);
	audit_note(&ctl_links_db, NULL, NULL, account, "member.removed", "%s",
	    a->argv[1]);
	return 0;
}

static const struct ctl_cmd member_cmds[] = {
	{ "add", "ACCOUNT_EMAIL USER_EMAIL --role ROLE [--password-stdin]",
	  2, 2, CTL_DB, member_add,
	  { { .name = "role", .ch = 'r', .type = CTL_STR, .required = 1 },
	    { .name = "password-stdin", .ch = 'p', .type = CTL_FLAG } } },
	{ "list", "ACCOUNT_EMAIL", 1, 1, CTL_DB, member_list, { { 0 } } },
	{ "set", "ACCOUNT_EMAIL USER_EMAIL --role ROLE", 2, 2, CTL_DB,
	  member_set,
	  { { .name = "role", .ch = 'r', .type = CTL_STR, .required = 1 } } },
	{ "remove", "ACCOUNT_EMAIL USER_EMAIL", 2, 2, CTL_DB, member_remove,
	  { { 0 } } },
};

const struct ctl_group ctl_member = CTL_GROUP("member", "the people of an "
    "account and their roles", member_cmds);
