/*
 * cmd_accounts.c -- lzctl account and key.  The rules are account.c's;
 * this file only reads arguments and prints.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "auth/account.h"
#include "auth/audit.h"
#include "auth/keys.h"
#include "auth/scope.h"
#include "lzctl.h"
#include "lztime.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/sessions.h"
#include "util.h"

/* ---- accounts -------------------------------------------------------- */

static int
account_add(struct ctl_args *a)
{
	const char	*email = a->argv[0], *plan = ctl_conf->default_plan;
	int64_t		 id;

	if (a->opt[0].set)
		plan = a->opt[0].s;
	if (!account_email_ok(email)) {
		ctl_err("'%s' is not an e-mail address", email);
		return 1;
	}
	if (lz_conf_plan(ctl_conf, plan) == NULL) {
		ctl_err("no plan '%s' (see plan.* in lz.conf)", plan);
		return 1;
	}
	ctl_links_open();
	if ((id = account_create(&ctl_links_db, email, plan, NULL,
	    lz_now_ms())) < 0)
		return 1;
	if (id == 0) {
		ctl_err("an account with e-mail %s exists", email);
		return 1;
	}
	printf("%lld\n", (long long)id);
	return 0;
}

static void
print_account(const struct account *a, void *arg)
{
	(void)arg;
	printf("%lld\t%s\t%s\t%s\t%s\n", (long long)a->id, a->email, a->plan,
	    a->disabled ? "disabled" : "active", ctl_time(a->created_at, 0,
	    NULL));
}

static int
account_list(struct ctl_args *a)
{
	(void)a;
	printf("ID\tEMAIL\tPLAN\tSTATUS\tCREATED\n");
	return store_account_list(&ctl_links_db, print_account, NULL) < 0;
}

static int
account_show(struct ctl_args *a)
{
	struct account	 acct;
	char		 date[16], month[8];
	int64_t		 id;

	if ((id = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if (store_account_get(&ctl_links_db, id, NULL, &acct) != 1)
		return 1;
	lz_time_fmt_date(lz_now_ms(), date, sizeof(date));
	snprintf(month, sizeof(month), "%.7s", date);
	printf("id:       %lld\nemail:    %s\nplan:     %s\n"
	    "status:   %s\nlinks:    %lld\ncalls:    %lld this month "
	    "(%s)\n", (long long)acct.id, acct.email, acct.plan,
	    acct.disabled ? "disabled" : "active",
	    store_link_count(&ctl_links_db, acct.id),
	    store_usage_get(&ctl_links_db, acct.id, month), month);
	return 0;
}

static int
account_plan(struct ctl_args *a)
{
	int64_t	 id;

	if (lz_conf_plan(ctl_conf, a->argv[1]) == NULL) {
		ctl_err("no plan '%s' (see plan.* in lz.conf)", a->argv[1]);
		return 1;
	}
	if ((id = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	return store_account_set_plan(&ctl_links_db, id, a->argv[1]) == 1 ? 0 : 1;
}

/*
 * Sets the dashboard password of an account from the first line of
 * standard input (so it never shows in ps or the shell history) and ends
 * the account's dashboard sessions.
 */
static int
account_password(struct ctl_args *a)
{
	char	*line = NULL;
	size_t	 cap = 0;
	ssize_t	 n;
	int64_t	 id;
	int	 rc = 1;

	if ((id = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if ((n = getline(&line, &cap, stdin)) <= 0) {
		ctl_err("give the new password on standard input");
		goto out;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	if (!account_password_ok(line)) {
		ctl_err("a password has %d to %d characters", PASSWORD_MIN_LEN,
		    PASSWORD_MAX_LEN);
		goto out;
	}
	/* The user of the account's e-mail, and its sessions end. */
	if (account_set_password(&ctl_links_db, id, line) == 1 &&
	    store_session_delete_others(&ctl_links_db, id, 0) == 0)
		rc = 0;
out:
	if (line != NULL) {
		sodium_memzero(line, cap);
		free(line);
	}
	return rc;
}

/* account disable and account enable. */
static int
account_disable(struct ctl_args *a)
{
	int64_t	 id;

	if ((id = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	return store_account_set_disabled(&ctl_links_db, id,
	    strcmp(a->cmd->name, "disable") == 0) == 1 ? 0 : 1;
}

static const struct ctl_cmd account_cmds[] = {
	{ "add", "EMAIL [--plan PLAN]", 1, 1, 0, account_add,
	  { { .name = "plan", .ch = 'p', .type = CTL_STR } } },
	{ "list", "", 0, 0, CTL_DB, account_list, { { 0 } } },
	{ "show", "ACCOUNT", 1, 1, CTL_DB, account_show, { { 0 } } },
	{ "plan", "ACCOUNT PLAN", 2, 2, CTL_DB, account_plan, { { 0 } } },
	{ "password", "ACCOUNT < password", 1, 1, CTL_DB, account_password,
	  { { 0 } } },
	{ "disable", "ACCOUNT", 1, 1, CTL_DB, account_disable, { { 0 } } },
	{ "enable", "ACCOUNT", 1, 1, CTL_DB, account_disable, { { 0 } } },
};

const struct ctl_group ctl_account = CTL_GROUP("account", NULL,
    account_cmds);

/* ---- API keys -------------------------------------------------------- */

static int
key_create(struct ctl_args *a)
{
	char		 key[KEY_LEN + 1], bad[SCOPE_NAME_MAX + 8];
	char		 shown[KEY_SHOWN_LEN + 1], last4[5];
	unsigned	 scopes = SCOPES_DEFAULT;
	int64_t		 account, now = lz_now_ms();

	if (a->opt[1].set && scope_parse_list(a->opt[1].s, &scopes, bad,
	    sizeof(bad)) == -1) {
		ctl_err("--scope: '%s' is not a scope (or is given twice); "
		    "scopes: links:read, links:write, stats:read, "
		    "conversions:read, domains:read, domains:write, tags:write, "
		    "audit:read", bad);
		return EXIT_USAGE;
	}
	if (a->opt[2].set && a->opt[2].i <= now) {
		ctl_err("--expires: the time is past");
		return EXIT_USAGE;
	}
	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if (apikey_create(&ctl_links_db, account, 0, a->opt[0].set ?
	    a->opt[0].s : "", scopes, a->opt[2].set ? a->opt[2].i : 0, now,
	    key) < 0)
		return 1;
	key_display(key, shown, last4);
	audit_note(&ctl_links_db, NULL, NULL, account, "key.created",
	    "key %s...%s%s%s", shown, last4, a->opt[0].set ? ": " : "",
	    a->opt[0].set ? a->opt[0].s : "");
	/* Shown once: only the hash is stored. */
	printf("%s\n", key);
	sodium_memzero(key, sizeof(key));
	return 0;
}

static void
print_key(const struct apikey *k, void *arg)
{
	char	 scopes[SC__MAX * SCOPE_NAME_MAX];

	(void)arg;
	scope_list((unsigned)k->scopes, scopes, sizeof(scopes));
	printf("%lld\t%s...%s\t%s\t%s\t%s\t%s\t%s\t%s\n", (long long)k->id,
	    k->prefix, k->last4, k->revoked_at ? "revoked" :
	    k->expires_at != 0 && lz_now_ms() >= k->expires_at ? "expired" :
	    "active", ctl_time(k->created_at, 0, NULL),
	    ctl_time(k->last_used_at, 0, "never"),
	    ctl_time(k->expires_at, 0, "never"), scopes, k->name);
}

static int
key_list(struct ctl_args *a)
{
	int64_t	 account;

	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	printf("ID\tKEY\tSTATUS\tCREATED\tLAST USED\tEXPIRES\tSCOPES\t"
	    "NAME\n");
	return store_key_list(&ctl_links_db, account, print_key, NULL) < 0;
}

static int
key_revoke(struct ctl_args *a)
{
	int64_t	 id;
	int	 rc;

	if (ctl_id(a->argv[0], "key", &id) == -1)
		return EXIT_USAGE;
	ctl_links_open();
	if ((rc = store_key_revoke(&ctl_links_db, id, ACCOUNT_ANY,
	    lz_now_ms())) == 0) {
		ctl_err("no active key %lld", (long long)id);
		return EXIT_NOTFOUND;
	}
	return rc == 1 ? 0 : 1;
}

static const struct ctl_cmd key_cmds[] = {
	{ "create", "ACCOUNT [--name NAME] [--scope SCOPE]... "
	  "[--expires ISO-8601-TIME]", 1, 1, CTL_DB, key_create,
	  { { .name = "name", .ch = 'n', .type = CTL_STR },
	    { .name = "scope", .ch = 's', .type = CTL_LIST },
	    { .name = "expires", .ch = 'e', .type = CTL_TIME } } },
	{ "list", "ACCOUNT", 1, 1, CTL_DB, key_list, { { 0 } } },
	{ "revoke", "KEY-ID", 1, 1, 0, key_revoke, { { 0 } } },
};

const struct ctl_group ctl_key = CTL_GROUP("key", "API keys", key_cmds);
