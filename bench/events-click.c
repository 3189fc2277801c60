/*
 * events-click.c -- what events_click() costs per counted click, run by
 * bench/hooks: for an account without a click subscription (the common
 * case: one index probe, nothing written) and for one with a subscription
 * (a delivery written to the outbox), in batches of 1000 calls per
 * transaction, as a batched click ingest would call it.  Exits 1 when
 * the outbox does not hold exactly one delivery per call for the
 * subscribed account and none for the other (the correctness line).
 *
 * usage: events-click [calls]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "db.h"
#include "link/link.h"
#include "lztime.h"
#include "req.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"
#include "webhook/events.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

#define ACCOUNTS	1000
#define SUBSCRIBED	100	/* accounts 1..100 subscribe to click */
#define BATCH		1000

static struct lz_db	 db;

static const struct lz_sql sql[] = {
	{ "deliveries", "SELECT count(*) FROM webhook_deliveries", NULL },
};
static struct lz_sqlset bench_sql = LZ_SQLSET("bench", sql);

static void
die(const char *what)
{
	fprintf(stderr, "events-click: %s: %s\n", what,
	    lz_db_error(&db));
	exit(1);
}

/* ns per call of events_click for the link of account acct. */
static double
run(int64_t link_id, long calls)
{
	struct link	 l;
	struct click	 c;
	int64_t		 t0;
	long		 i;

	if (store_link_get(&db, link_id, ACCOUNT_ANY, &l) != 1)
		die("link");
	memset(&c, 0, sizeof(c));
	c.link_id = link_id;
	c.suffix = "ig";
	memcpy(c.country, "TW", 3);
	c.device = "mobile";
	c.os = "ios";
	c.browser = "safari";
	c.referrer = "https://www.instagram.com/";
	c.target = "https://example.com/landing";
	t0 = lz_mono_us();
	for (i = 0; i < calls; i++) {
		if (i % BATCH == 0 && lz_db_begin(&db) == -1)
			die("begin");
		if (events_click(&db, &l, &c, lz_now_ms(), NULL) == -1)
			die("events_click");
		if ((i + 1) % BATCH == 0 && lz_db_commit(&db) == -1)
			die("commit");
	}
	if (calls % BATCH && lz_db_commit(&db) == -1)
		die("commit");
	link_free(&l);
	return (double)(lz_mono_us() - t0) * 1000.0 / (double)calls;
}

int
main(int argc, char *argv[])
{
	unsigned char	 key[WEBHOOK_KEY_BYTES];
	char		 dir[] = "/tmp/lz-events-XXXXXX", path[64], p2[80];
	char		 err[512], email[64], slug[16];
	char		 secret[WEBHOOK_SECRET_LEN + 1];
	struct lz_verr	 e;
	struct lz_db	 m;
	struct link	 l;
	long		 calls = argc > 1 ? atol(argv[1]) : 200000;
	int64_t		 acct, first_link = 0, last_link = 0, written;
	int		 from, to, i, ok;

	if (sodium_init() < 0 || mkdtemp(dir) == NULL || calls < 1)
		return 1;
	store_admin();		/* a link of any account, as lz-hooks reads */
	randombytes_buf(key, sizeof(key));
	snprintf(path, sizeof(path), "%s/links.db", dir);
	if (lz_db_open(&m, path, LZ_DB_CREATE, err, sizeof(err)) == -1 ||
	    lz_db_migrate(&m, lz_links_migrations, lz_links_nmigrations,
	    &from, &to, err, sizeof(err)) == -1 ||
	    (lz_db_close(&m), store_open(&db, path, err, sizeof(err))) == -1) {
		fprintf(stderr, "events-click: %s\n", err);
		return 1;
	}
	if (lz_db_begin(&db) == -1)
		die("begin");
	for (i = 1; i <= ACCOUNTS; i++) {
		snprintf(email, sizeof(email), "a%d@example.com", i);
		if ((acct = store_account_add(&db, email, "pro", NULL, 1)) <= 0)
			die("account");
		memset(&l, 0, sizeof(l));
		snprintf(slug, sizeof(slug), "s%d", i);
		l.account_id = acct;
		l.slug = slug;
		l.target_url = "https://example.com/landing";
		l.redirect_type = 302;
		l.created_at = 1;
		if (store_link_insert(&db, &l) != 0)
			die("link");
		if (i == 1)
			first_link = l.id;
		last_link = l.id;
	}
	if (lz_db_commit(&db) == -1)
		die("commit");
	for (i = 1; i <= SUBSCRIBED; i++)
		if (webhook_add(&db, key, i, "https://127.0.0.1:9/hook",
		    WEBHOOK_EV_CLICK, 1, 1, secret, &e) < 0) {
			fprintf(stderr, "events-click: %s\n", e.msg);
			return 1;
		}

	printf("events_click, %d accounts (%d with a click subscription), "
	    "%d calls per transaction:\n", ACCOUNTS, SUBSCRIBED, BATCH);
	printf("  account without subscription: %8.0f ns per call (%ld "
	    "calls)\n", run(last_link, calls), calls);
	if (lz_one_i64(lz_db_stmt(&db, &bench_sql, 0), &written) != 1)
		die("count");
	ok = written == 0;
	printf("  account with a subscription:  %8.0f ns per call (%ld "
	    "calls, one delivery written each)\n", run(first_link, calls / 10),
	    calls / 10);
	if (lz_one_i64(lz_db_stmt(&db, &bench_sql, 0), &written) != 1)
		die("count");
	ok = ok && written == calls / 10;
	printf("  deliveries written: %lld of %ld  %s\n", (long long)written,
	    calls / 10, ok ? "ok" : "MISMATCH");

	lz_db_close(&db);
	unlink(path);
	snprintf(p2, sizeof(p2), "%s-wal", path);
	unlink(p2);
	snprintf(p2, sizeof(p2), "%s-shm", path);
	unlink(p2);
	rmdir(dir);
	return ok ? 0 : 1;
}
