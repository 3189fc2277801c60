/*
 * cmd_webhooks.c -- lzctl webhook: add, list, rotate, disable, test,
 * deliveries.
 * The rules are webhook.c's; this file only reads arguments and prints.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "links.h"
#include "lzctl.h"
#include "lztime.h"
#include "req.h"
#include "resolve.h"
#include "store.h"
#include "util.h"
#include "webhook.h"

static void
webhook_usage(void)
{
	fprintf(stderr, "usage: lzctl webhook add ACCOUNT URL "
	    "[--events click,link.created]\n"
	    "       lzctl webhook list [ACCOUNT]\n"
	    "       lzctl webhook rotate WEBHOOK-ID\n"
	    "       lzctl webhook disable WEBHOOK-ID\n"
	    "       lzctl webhook test WEBHOOK-ID\n"
	    "       lzctl webhook deliveries WEBHOOK-ID [--limit N]\n"
	    "       lzctl webhook deliveries DELIVERY-ID\n");
}

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

static int
parse_id(const char *s, long long *id)
{
	if (lz_parse_ll(s, 1, INT64_MAX, id) == -1) {
		ctl_err("'%s' is not a webhook id (see lzctl webhook list)", s);
		return -1;
	}
	return 0;
}

static void
fmt_time(int64_t ms, char *buf, size_t len)
{
	if (ms == 0)
		snprintf(buf, len, "-");
	else
		lz_time_fmt_iso(ms, buf, len, 0);
}

static int
webhook_add_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned char	 key[WEBHOOK_KEY_BYTES];
	char		 secret[WEBHOOK_SECRET_LEN + 1], err[512];
	const char	*events = "click,link.created";
	struct lz_verr	 e;
	unsigned	 mask;
	int64_t		 account, id;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "e:", opts, NULL)) != -1)
		switch (ch) {
		case 'e':
			events = optarg;
			break;
		default:
			webhook_usage();
			return EXIT_USAGE;
		}
	if (argc - optind != 2) {
		webhook_usage();
		return EXIT_USAGE;
	}
	if (webhook_events_parse(events, &mask, &e) == -1) {
		ctl_err("%s", e.msg);
		return EXIT_USAGE;
	}
	ctl_links_open();
	if ((account = ctl_account_id(argv[optind])) == 0)
		return EXIT_NOTFOUND;
	if (load_key(key) == -1)
		return 1;
	if (lz_resolve_init(ctl_conf->webhook_nameservers, err,
	    sizeof(err)) == -1) {
		ctl_err("%s", err);
		sodium_memzero(key, sizeof(key));
		return 1;
	}
	id = webhook_add(&links.db, key, account, argv[optind + 1], mask,
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
	char	 ts[32], ev[64];

	(void)arg;
	lz_time_fmt_iso(w->created_at, ts, sizeof(ts), 0);
	webhook_events_fmt(w->events, ev, sizeof(ev));
	printf("%lld\t%lld\t%s\t%s\t%lld\t%s\t%s%s%s\n", (long long)w->id,
	    (long long)w->account_id, w->disabled_at ? "disabled" : "active",
	    ev, w->pending, ts, w->url, w->disabled_at ? "\t" : "",
	    w->disabled_at ? w->disabled_reason : "");
}

static void
print_delivery(const struct webhook_delivery *d, void *arg)
{
	char	 created[32], when[32], status[16];

	(void)arg;
	lz_time_fmt_iso(d->created_at, created, sizeof(created), 0);
	fmt_time(d->next_at ? d->next_at : d->finished_at, when, sizeof(when));
	if (d->last_status)
		snprintf(status, sizeof(status), "%d", d->last_status);
	else
		snprintf(status, sizeof(status), "-");
	printf("%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", d->uuid, d->event,
	    d->state, d->attempts, status, created, when,
	    d->last_error[0] ? d->last_error : "-");
}

static void
print_attempt(const struct webhook_attempt *a, void *arg)
{
	char	 at[32], status[16];

	(void)arg;
	lz_time_fmt_iso(a->at, at, sizeof(at), 1);
	if (a->status)
		snprintf(status, sizeof(status), "%d", a->status);
	else
		snprintf(status, sizeof(status), "-");
	printf("%s\t%s\t%lld\t%s\n", at, status, (long long)a->duration_ms,
	    a->error[0] ? a->error : "-");
}

/* One delivery with its attempts and body. */
static int
show_delivery(const char *uuid)
{
	struct webhook_delivery	 d;
	char			 when[32];
	int			 rc;

	if ((rc = store_delivery_by_uuid(&links.db, uuid, &d)) != 1) {
		if (rc == 0)
			ctl_err("no delivery '%s'", uuid);
		return rc == 0 ? EXIT_NOTFOUND : 1;
	}
	fmt_time(d.next_at, when, sizeof(when));
	printf("delivery: %s\nwebhook:  %lld\nevent:    %s\nstate:    %s\n"
	    "attempts: %d\nnext:     %s\n", d.uuid, (long long)d.webhook_id,
	    d.event, d.state, d.attempts, when);
	printf("body:     %.*s\n\nAT\tSTATUS\tMS\tERROR\n", (int)d.bodylen,
	    d.body);
	rc = store_attempt_list(&links.db, d.id, print_attempt, NULL) < 0;
	webhook_delivery_free(&d);
	return rc;
}

static int
deliveries_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "limit", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	struct webhook	 w;
	long long	 id, limit = 50;
	int		 ch, rc;

	while ((ch = getopt_long(argc, argv, "n:", opts, NULL)) != -1)
		switch (ch) {
		case 'n':
			if (lz_parse_ll(optarg, 1, 1000000, &limit) == -1) {
				ctl_err("--limit: expected 1-1000000");
				return EXIT_USAGE;
			}
			break;
		default:
			webhook_usage();
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		webhook_usage();
		return EXIT_USAGE;
	}
	ctl_links_open();
	if (strncmp(argv[optind], WEBHOOK_DELIVERY_PREFIX, 4) == 0)
		return show_delivery(argv[optind]);
	if (parse_id(argv[optind], &id) == -1)
		return EXIT_USAGE;
	if ((rc = webhook_get(&links.db, id, 0, &w)) != 1) {
		if (rc == 0)
			ctl_err("no webhook %lld", id);
		return rc == 0 ? EXIT_NOTFOUND : 1;
	}
	printf("DELIVERY\tEVENT\tSTATE\tATTEMPTS\tSTATUS\tCREATED\t"
	    "NEXT/FINISHED\tLAST ERROR\n");
	return store_delivery_list(&links.db, id, 0, (long)limit,
	    print_delivery, NULL) < 0;
}

int
cmd_webhook(int argc, char **argv)
{
	unsigned char	 key[WEBHOOK_KEY_BYTES];
	char		 secret[WEBHOOK_SECRET_LEN + 1];
	const char	*sub = argc > 1 ? argv[1] : "";
	long long	 id;
	int64_t		 account = 0;
	int		 rc;

	if (strcmp(sub, "add") == 0)
		return webhook_add_cmd(argc - 1, argv + 1);
	if (strcmp(sub, "deliveries") == 0)
		return deliveries_cmd(argc - 1, argv + 1);
	if (strcmp(sub, "list") == 0 && (argc == 2 || argc == 3)) {
		ctl_links_open();
		if (argc == 3 && (account = ctl_account_id(argv[2])) == 0)
			return EXIT_NOTFOUND;
		printf("ID\tACCOUNT\tSTATUS\tEVENTS\tPENDING\tCREATED\tURL\n");
		return webhook_list(&links.db, account, print_webhook, NULL) <
		    0;
	}
	if (strcmp(sub, "rotate") == 0 && argc == 3) {
		if (parse_id(argv[2], &id) == -1)
			return EXIT_USAGE;
		ctl_links_open();
		if (load_key(key) == -1)
			return 1;
		rc = webhook_rotate(&links.db, key, id, 0, lz_now_ms(), secret);
		sodium_memzero(key, sizeof(key));
		if (rc != 1) {
			if (rc == 0)
				ctl_err("no active webhook %lld", id);
			return rc == 0 ? EXIT_NOTFOUND : 1;
		}
		printf("%s\n", secret);
		sodium_memzero(secret, sizeof(secret));
		return 0;
	}
	if (strcmp(sub, "disable") == 0 && argc == 3) {
		if (parse_id(argv[2], &id) == -1)
			return EXIT_USAGE;
		ctl_links_open();
		rc = webhook_disable(&links.db, id, 0, "disabled by an "
		    "administrator", lz_now_ms());
		if (rc == 0)
			ctl_err("no active webhook %lld", id);
		return rc == 1 ? 0 : rc == 0 ? EXIT_NOTFOUND : 1;
	}
	if (strcmp(sub, "test") == 0 && argc == 3) {
		char	 uuid[WEBHOOK_DELIVERY_LEN + 1];

		if (parse_id(argv[2], &id) == -1)
			return EXIT_USAGE;
		ctl_links_open();
		rc = webhook_test(&links.db, id, 0, lz_now_ms(), uuid);
		if (rc == 0)
			ctl_err("no active webhook %lld", id);
		if (rc != 1)
			return rc == 0 ? EXIT_NOTFOUND : 1;
		printf("%s\n", uuid);
		return 0;
	}
	webhook_usage();
	return EXIT_USAGE;
}
