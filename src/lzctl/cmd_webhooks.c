/*
 * cmd_webhooks.c -- lzctl webhook: add, list, rotate, disable, test,
 * deliveries.
 * The rules are webhook.c's; this file only reads arguments and prints.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "lzctl.h"
#include "lztime.h"
#include "req.h"
#include "resolve.h"
#include "store/admin.h"
#include "store/webhooks.h"
#include "util.h"
#include "webhook/sign.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

static int
load_key(unsigned char key[WEBHOOK_KEY_BYTES])
{
	char	 err[512];

	if (webhook_key_load(ctl_conf, key, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return -1;
	}
	return 0;
}

static void
fmt_status(int status, char *buf, size_t len)
{
	if (status)
		snprintf(buf, len, "%d", status);
	else
		snprintf(buf, len, "-");
}

static int
hook_add(struct ctl_args *a)
{
	unsigned char	 key[WEBHOOK_KEY_BYTES];
	char		 secret[WEBHOOK_SECRET_LEN + 1], err[512];
	struct lz_verr	 e;
	unsigned	 mask;
	int64_t		 account, id;

	if (webhook_events_parse(a->opt[0].set ? a->opt[0].s :
	    "click,link.created", &mask, &e) == -1) {
		ctl_err("%s", e.msg);
		return EXIT_USAGE;
	}
	ctl_links_open();
	if ((account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	if (load_key(key) == -1)
		return 1;
	if (lz_resolve_init(ctl_conf->webhook_nameservers, err,
	    sizeof(err)) == -1) {
		ctl_err("%s", err);
		sodium_memzero(key, sizeof(key));
		return 1;
	}
	id = webhook_add(&ctl_links_db, key, account, a->argv[1], mask,
	    ctl_conf->webhook_allow_loopback, lz_now_ms(), secret, &e);
	sodium_memzero(key, sizeof(key));
	if (id < 0) {
		ctl_err("%s", e.msg);
		return 1;
	}
	/* Shown once: only its encrypted form is stored. */
	printf("%lld\t%s\n", (long long)id, secret);
	sodium_memzero(secret, sizeof(secret));
	return 0;
}

static void
print_webhook(const struct webhook *w, void *arg)
{
	char	 ev[64];

	(void)arg;
	webhook_events_fmt(w->events, ev, sizeof(ev));
	printf("%lld\t%lld\t%s\t%s\t%lld\t%s\t%s%s%s\n", (long long)w->id,
	    (long long)w->account_id, w->disabled_at ? "disabled" : "active",
	    ev, w->pending, ctl_time(w->created_at, 0, NULL), w->url,
	    w->disabled_at ? "\t" : "",
	    w->disabled_at ? w->disabled_reason : "");
}

static int
hook_list(struct ctl_args *a)
{
	int64_t	 account = ACCOUNT_ANY;

	if (a->argc == 1 && (account = ctl_account_id(a->argv[0])) == 0)
		return EXIT_NOTFOUND;
	printf("ID\tACCOUNT\tSTATUS\tEVENTS\tPENDING\tCREATED\tURL\n");
	return webhook_list(&ctl_links_db, account, print_webhook, NULL) < 0;
}

/* The webhook id of the operand, then the database: an operand that is
 * no id is a usage error, which needs no database.  0, or -1 after
 * saying so. */
static int
hook_id(struct ctl_args *a, int64_t *id)
{
	if (ctl_id(a->argv[0], "webhook", id) == -1)
		return -1;
	ctl_links_open();
	return 0;
}

/* "no active webhook ID" for rc 0: the exit status of rc. */
static int
active(int rc, int64_t id)
{
	if (rc == 0)
		ctl_err("no active webhook %lld", (long long)id);
	return rc == 1 ? 0 : rc == 0 ? EXIT_NOTFOUND : 1;
}

static int
hook_rotate(struct ctl_args *a)
{
	unsigned char	 key[WEBHOOK_KEY_BYTES];
	char		 secret[WEBHOOK_SECRET_LEN + 1];
	int64_t		 id;
	int		 rc;

	if (hook_id(a, &id) == -1)
		return EXIT_USAGE;
	if (load_key(key) == -1)
		return 1;
	rc = webhook_rotate(&ctl_links_db, key, id, ACCOUNT_ANY, lz_now_ms(),
	    secret);
	sodium_memzero(key, sizeof(key));
	if (rc == 1)
		printf("%s\n", secret);
	sodium_memzero(secret, sizeof(secret));
	return active(rc, id);
}

static int
hook_disable(struct ctl_args *a)
{
	int64_t	 id;

	if (hook_id(a, &id) == -1)
		return EXIT_USAGE;
	return active(webhook_disable(&ctl_links_db, id, ACCOUNT_ANY, "disabled by "
	    "an administrator", lz_now_ms()), id);
}

static int
hook_test(struct ctl_args *a)
{
	char	 uuid[WEBHOOK_DELIVERY_LEN + 1];
	int64_t	 id;
	int	 rc;

	if (hook_id(a, &id) == -1)
		return EXIT_USAGE;
	if ((rc = webhook_test(&ctl_links_db, id, ACCOUNT_ANY, lz_now_ms(),
	    uuid)) == 1)
		printf("%s\n", uuid);
	return active(rc, id);
}

static void
print_delivery(const struct webhook_delivery *d, void *arg)
{
	char	 status[16];

	(void)arg;
	fmt_status(d->last_status, status, sizeof(status));
	printf("%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", d->uuid, d->event,
	    d->state, d->attempts, status, ctl_time(d->created_at, 0, NULL),
	    ctl_time(d->next_at ? d->next_at : d->finished_at, 0, "-"),
	    d->last_error[0] ? d->last_error : "-");
}

static void
print_attempt(const struct webhook_attempt *a, void *arg)
{
	char	 status[16];

	(void)arg;
	fmt_status(a->status, status, sizeof(status));
	printf("%s\t%s\t%lld\t%s\n", ctl_time(a->at, 1, NULL), status,
	    (long long)a->duration_ms, a->error[0] ? a->error : "-");
}

/* One delivery with its attempts and body. */
static int
show_delivery(const char *uuid)
{
	struct webhook_delivery	 d;
	int			 rc;

	if ((rc = store_delivery_by_uuid(&ctl_links_db, uuid, &d)) != 1) {
		if (rc == 0)
			ctl_err("no delivery '%s'", uuid);
		return rc == 0 ? EXIT_NOTFOUND : 1;
	}
	printf("delivery: %s\nwebhook:  %lld\nevent:    %s\nstate:    %s\n"
	    "attempts: %d\nnext:     %s\n", d.uuid, (long long)d.webhook_id,
	    d.event, d.state, d.attempts, ctl_time(d.next_at, 0, "-"));
	printf("body:     %.*s\n\nAT\tSTATUS\tMS\tERROR\n", (int)d.bodylen,
	    d.body);
	rc = store_attempt_list(&ctl_links_db, d.id, print_attempt, NULL) < 0;
	webhook_delivery_free(&d);
	return rc;
}

static int
hook_deliveries(struct ctl_args *a)
{
	struct webhook	 w;
	int64_t		 id;
	int		 rc;

	if (strncmp(a->argv[0], WEBHOOK_DELIVERY_PREFIX,
	    strlen(WEBHOOK_DELIVERY_PREFIX)) == 0)
		return show_delivery(a->argv[0]);
	if (ctl_id(a->argv[0], "webhook", &id) == -1)
		return EXIT_USAGE;
	if ((rc = webhook_get(&ctl_links_db, id, ACCOUNT_ANY, &w)) != 1) {
		if (rc == 0)
			ctl_err("no webhook %lld", (long long)id);
		return rc == 0 ? EXIT_NOTFOUND : 1;
	}
	printf("DELIVERY\tEVENT\tSTATE\tATTEMPTS\tSTATUS\tCREATED\t"
	    "NEXT/FINISHED\tLAST ERROR\n");
	return store_delivery_list(&ctl_links_db, id, 0, (long)a->opt[0].i,
	    print_delivery, NULL) < 0;
}

static const struct ctl_cmd webhook_cmds[] = {
	{ "add", "ACCOUNT URL [--events EVENT,...]", 2, 2, 0,
	  hook_add, { { .name = "events", .ch = 'e', .type = CTL_STR } } },
	{ "list", "[ACCOUNT]", 0, 1, CTL_DB, hook_list, { { 0 } } },
	{ "rotate", "WEBHOOK-ID", 1, 1, 0, hook_rotate, { { 0 } } },
	{ "disable", "WEBHOOK-ID", 1, 1, 0, hook_disable, { { 0 } } },
	{ "test", "WEBHOOK-ID", 1, 1, 0, hook_test, { { 0 } } },
	{ "deliveries", "WEBHOOK-ID [--limit N] | DELIVERY-ID", 1, 1, CTL_DB,
	  hook_deliveries, { { .name = "limit", .ch = 'n', .type = CTL_INT,
	      .min = 1, .max = 1000000, .def = 50 } } },
};

const struct ctl_group ctl_webhook = CTL_GROUP("webhook", NULL,
    webhook_cmds);
