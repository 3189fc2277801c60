/*
 * check_hooks.c -- the outbox state machine of lz-hooks (outbox.c): the
 * retry schedule, leases and recording, on a real SQLite database with a
 * fake clock.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sqlite3.h>
#include <sodium.h>

#include "db.h"
#include "outbox.h"
#include "store/admin.h"
#include "store/webhooks.h"
#include "tdb.h"
#include "util.h"
#include "webhook/guard.h"
#include "webhook/sign.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

#define MIN	(60 * 1000LL)
#define HOUR	(60 * MIN)
#define T0	1700000000000LL		/* the fake clock starts here */
#define LEASE	(20 * 1000LL)

static struct tdb	 t;

static void
setup(void)
{
	tdb_open(&t);
}

static void
teardown(void)
{
	tdb_close(&t);
}

static long long
count(const char *sql)
{
	sqlite3_stmt	*st;
	long long	 n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(t.db.h, sql, -1, &st, NULL),
	    SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int64_t
hook(int64_t account)
{
	unsigned char	 box[WEBHOOK_BOX_LEN];
	int64_t		 id;

	memset(box, 0, sizeof(box));
	id = store_webhook_add(&t.db, account, "https://127.0.0.1:9/",
	    WEBHOOK_EV_ALL, box, T0);
	ck_assert_int_gt(id, 0);
	return id;
}

static void
queue(int64_t webhook, const char *uuid, int64_t now)
{
	ck_assert_int_eq(store_delivery_add(&t.db, webhook, uuid, "click",
	    "{}", 2, now, 0), 0);
}

/* A claim that collects what it gets. */
struct got {
	struct outbox_item	*it[64];
	int			 n;
	int			 inflight_of_first;	/* for room() */
	int64_t			 first_hook;
	int			 per_hook;
};

static int
room(int64_t webhook_id, void *arg)
{
	struct got	*g = arg;

	return g->per_hook - (webhook_id == g->first_hook ?
	    g->inflight_of_first : 0);
}

static void
take(struct outbox_item *it, void *arg)
{
	struct got	*g = arg;

	ck_assert_int_lt(g->n, 64);
	g->it[g->n++] = it;
}

static void
got_free(struct got *g)
{
	int	 i;

	for (i = 0; i < g->n; i++)
		outbox_item_free(g->it[i]);
	g->n = 0;
}

static void
claim_args(struct outbox_claim *cl, const char *lease, int64_t now,
    int per_hook, int max, struct got *g)
{
	memset(cl, 0, sizeof(*cl));
	cl->lease = lease;
	cl->until = now + LEASE;
	cl->per_hook = per_hook;
	cl->max = max;
	cl->room = room;
	cl->take = take;
	cl->arg = g;
	g->per_hook = per_hook;
}

static long
claim(const char *lease, int64_t now, int per_hook, int max, struct got *g)
{
	struct outbox_claim	 cl;

	claim_args(&cl, lease, now, per_hook, max, g);
	return outbox_claim(&t.db, &cl, now);
}

static struct outbox_result
result(const struct outbox_item *it, int status, const char *error,
    int64_t at)
{
	struct outbox_result	 r;

	memset(&r, 0, sizeof(r));
	r.delivery_id = it->d.id;
	r.webhook_id = it->d.webhook_id;
	r.attempts = it->d.attempts;
	r.status = status;
	r.error = error;
	r.at = at;
	r.duration_ms = 3;
	return r;
}

START_TEST(test_schedule)
{
	static const int64_t	 want[] = { 1 * MIN, 5 * MIN, 30 * MIN,
	    2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 24 * HOUR };
	int			 i;

	for (i = 1; i <= 8; i++)
		ck_assert_int_eq(outbox_retry_at(i, T0), T0 + want[i - 1]);
	ck_assert_int_eq(outbox_retry_at(9, T0), 0);
	ck_assert_int_eq(outbox_retry_at(0, T0), 0);
	ck_assert_int_eq(OUTBOX_ATTEMPTS, 9);
}
END_TEST

/* Fails every time: tried at exactly the scheduled times, then failed. */
START_TEST(test_retry_until_failed)
{
	static const int64_t	 gaps[] = { 1 * MIN, 5 * MIN, 30 * MIN,
	    2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 24 * HOUR };
	struct outbox_stats	 st;
	struct outbox_result	 r;
	struct got		 g;
	int64_t			 now = T0, a;
	int			 i;

	memset(&g, 0, sizeof(g));
	memset(&st, 0, sizeof(st));
	a = tdb_account(&t, "r@example.com");
	queue(hook(a), "dlv_retry", T0);
	for (i = 0; i < OUTBOX_ATTEMPTS; i++) {
		if (i > 0) {
			/* Not a moment early. */
			ck_assert_int_eq(claim("run", now - 1, 4, 8, &g), 0);
		}
		ck_assert_int_eq(claim("run", now, 4, 8, &g), 1);
		ck_assert_int_eq(g.it[0]->d.attempts, i);
		ck_assert_str_eq(g.it[0]->d.uuid, "dlv_retry");
		r = result(g.it[0], 500, "HTTP 500", now);
		ck_assert_int_eq(outbox_record(&t.db, "run", &r, 1, now + 250,
		    &st), 0);
		got_free(&g);
		if (i < OUTBOX_ATTEMPTS - 1)
			now += 250 + gaps[i];
	}
	ck_assert_int_eq(st.retrying, 8);
	ck_assert_int_eq(st.failed, 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "state = 'failed' AND attempts = 9 AND next_at IS NULL AND "
	    "last_status = 500 AND last_error = 'HTTP 500'"), 1);
	ck_assert_int_eq(count("SELECT finished_at FROM webhook_deliveries"),
	    now + 250);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_attempts WHERE "
	    "status = 500 AND duration_ms = 3"), 9);
	/* Never again. */
	ck_assert_int_eq(claim("run", now + 1000 * HOUR, 4, 8, &g), 0);
}
END_TEST

START_TEST(test_retry_then_delivered)
{
	struct outbox_stats	 st;
	struct outbox_result	 r;
	struct got		 g;
	int64_t			 a;

	memset(&g, 0, sizeof(g));
	memset(&st, 0, sizeof(st));
	a = tdb_account(&t, "s@example.com");
	queue(hook(a), "dlv_a", T0);
	ck_assert_int_eq(claim("run1", T0, 4, 8, &g), 1);
	r = result(g.it[0], 0, "timed out after 10 s", T0);
	ck_assert_int_eq(outbox_record(&t.db, "run1", &r, 1, T0 + 10000, &st),
	    0);
	got_free(&g);
	ck_assert_int_eq(count("SELECT next_at FROM webhook_deliveries"),
	    T0 + 10000 + MIN);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "last_status IS NULL AND last_error LIKE 'timed out%'"), 1);
	ck_assert_int_eq(claim("run2", T0 + 10000 + MIN, 4, 8, &g), 1);
	r = result(g.it[0], 204, NULL, T0 + 10000 + MIN);
	ck_assert_int_eq(outbox_record(&t.db, "run2", &r, 1, T0 + 80000, &st),
	    0);
	got_free(&g);
	ck_assert_int_eq(st.retrying, 1);
	ck_assert_int_eq(st.delivered, 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "state = 'delivered' AND attempts = 2 AND last_status = 204 AND "
	    "last_error IS NULL AND lease IS NULL AND finished_at = "
	    "1700000080000"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_attempts"), 2);
}
END_TEST

/* A run that dies keeps its deliveries only until its lease ends. */
START_TEST(test_lease)
{
	struct outbox_stats	 st;
	struct outbox_result	 r;
	struct got		 a, b;
	int64_t			 acct, h;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&st, 0, sizeof(st));
	acct = tdb_account(&t, "l@example.com");
	h = hook(acct);
	queue(h, "dlv_1", T0);
	queue(h, "dlv_2", T0);
	ck_assert_int_eq(claim("A", T0, 4, 8, &a), 2);
	/* Run B, at once and until just before the lease ends: nothing. */
	ck_assert_int_eq(claim("B", T0, 4, 8, &b), 0);
	ck_assert_int_eq(claim("B", T0 + LEASE - 1, 4, 8, &b), 0);
	/* A died: B takes both when the lease ends, same delivery ids. */
	ck_assert_int_eq(claim("B", T0 + LEASE, 4, 8, &b), 2);
	ck_assert_str_eq(b.it[0]->d.uuid, a.it[0]->d.uuid);
	ck_assert_str_eq(b.it[1]->d.uuid, a.it[1]->d.uuid);

	/* A was only slow: its failure comes too late to count ... */
	r = result(a.it[0], 503, "HTTP 503", T0);
	ck_assert_int_eq(outbox_record(&t.db, "A", &r, 1, T0 + LEASE + 5,
	    &st), 0);
	ck_assert_int_eq(st.lost, 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "uuid = 'dlv_1' AND lease = 'B' AND state = 'pending' AND "
	    "attempts = 0"), 1);
	/* ... but a success is a success, whoever holds the lease. */
	r = result(a.it[1], 200, NULL, T0);
	ck_assert_int_eq(outbox_record(&t.db, "A", &r, 1, T0 + LEASE + 6,
	    &st), 0);
	ck_assert_int_eq(st.delivered, 1);
	/* B's late success of the same one changes nothing more. */
	r = result(b.it[1], 200, NULL, T0 + LEASE);
	ck_assert_int_eq(outbox_record(&t.db, "B", &r, 1, T0 + LEASE + 9,
	    &st), 0);
	ck_assert_int_eq(st.delivered, 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "uuid = 'dlv_2' AND state = 'delivered' AND attempts = 1 AND "
	    "finished_at = 1700000020006"), 1);
	/* Both attempts of each are in the log. */
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_attempts"), 3);
	got_free(&a);
	got_free(&b);
}
END_TEST

/* A slow subscription with a backlog does not crowd out the others. */
START_TEST(test_per_hook)
{
	struct got	 g;
	char		 uuid[32];
	int64_t		 acct, h1, h2;
	int		 i, n1 = 0, n2 = 0;

	memset(&g, 0, sizeof(g));
	acct = tdb_account(&t, "p@example.com");
	h1 = hook(acct);
	h2 = hook(acct);
	/* h1's backlog is older than all of h2's. */
	for (i = 0; i < 20; i++) {
		snprintf(uuid, sizeof(uuid), "dlv_a%d", i);
		queue(h1, uuid, T0 + i);
	}
	for (i = 0; i < 20; i++) {
		snprintf(uuid, sizeof(uuid), "dlv_b%d", i);
		queue(h2, uuid, T0 + 100 + i);
	}
	ck_assert_int_eq(claim("run", T0 + 1000, 2, 8, &g), 4);
	for (i = 0; i < g.n; i++) {
		n1 += g.it[i]->d.webhook_id == h1;
		n2 += g.it[i]->d.webhook_id == h2;
	}
	ck_assert_int_eq(n1, 2);
	ck_assert_int_eq(n2, 2);
	/* Oldest first within a subscription. */
	ck_assert_str_eq(g.it[0]->d.uuid, "dlv_a0");
	got_free(&g);

	/* The run has two of h1 in flight: only h2 gets room. */
	g.first_hook = h1;
	g.inflight_of_first = 2;
	ck_assert_int_eq(claim("run", T0 + 1000, 2, 8, &g), 2);
	ck_assert_int_eq(g.it[0]->d.webhook_id, h2);
	ck_assert_int_eq(g.it[1]->d.webhook_id, h2);
	got_free(&g);

	/* max bounds the claim. */
	g.inflight_of_first = 0;
	ck_assert_int_eq(claim("run", T0 + 1000, 2, 1, &g), 1);
	got_free(&g);
}
END_TEST

/* 410: this delivery fails, the subscription is disabled, the rest of
 * its queue is cancelled. */
START_TEST(test_gone)
{
	struct outbox_stats	 st;
	struct outbox_result	 r;
	struct webhook		 w;
	struct got		 g;
	int64_t			 acct, h;

	memset(&g, 0, sizeof(g));
	memset(&st, 0, sizeof(st));
	acct = tdb_account(&t, "g@example.com");
	h = hook(acct);
	queue(h, "dlv_1", T0);
	queue(h, "dlv_2", T0 + 1);
	queue(h, "dlv_3", T0 + 2);
	ck_assert_int_eq(claim("run", T0 + 5, 1, 8, &g), 1);
	r = result(g.it[0], 410, "HTTP 410", T0 + 5);
	ck_assert_int_eq(outbox_record(&t.db, "run", &r, 1, T0 + 9, &st), 0);
	got_free(&g);
	ck_assert_int_eq(st.failed, 1);
	ck_assert_int_eq(st.disabled, 1);
	ck_assert_int_eq(store_webhook_get(&t.db, h, ACCOUNT_ANY, &w), 1);
	ck_assert_int_eq(w.disabled_at, T0 + 9);
	ck_assert_str_eq(w.disabled_reason, "the receiver answered 410 Gone");
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "uuid = 'dlv_1' AND state = 'failed' AND last_status = 410"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "state = 'cancelled'"), 2);
	ck_assert_int_eq(claim("run", T0 + 1000 * HOUR, 4, 8, &g), 0);
}
END_TEST

START_TEST(test_purge)
{
	struct outbox_stats	 st;
	struct outbox_result	 r;
	struct got		 g;
	int64_t			 acct, h, day = 24 * HOUR;
	int			 i;
	char			 uuid[32];

	memset(&g, 0, sizeof(g));
	memset(&st, 0, sizeof(st));
	acct = tdb_account(&t, "u@example.com");
	h = hook(acct);
	/* 600 old ones delivered (more than one purge batch) ... */
	for (i = 0; i < 600; i++) {
		snprintf(uuid, sizeof(uuid), "dlv_old%d", i);
		queue(h, uuid, T0);
	}
	while (claim("run", T0, 64, 64, &g) > 0) {
		for (i = 0; i < g.n; i++) {
			r = result(g.it[i], 200, NULL, T0);
			ck_assert_int_eq(outbox_record(&t.db, "run", &r, 1,
			    T0 + 1, &st), 0);
		}
		got_free(&g);
	}
	ck_assert_int_eq(st.delivered, 600);
	/* ... one recent, one still pending from long ago. */
	queue(h, "dlv_new", T0 + 30 * day);
	ck_assert_int_eq(claim("run", T0 + 30 * day, 1, 1, &g), 1);
	r = result(g.it[0], 200, NULL, T0 + 30 * day);
	ck_assert_int_eq(outbox_record(&t.db, "run", &r, 1, T0 + 30 * day,
	    &st), 0);
	got_free(&g);
	ck_assert_int_eq(store_delivery_add(&t.db, h, "dlv_pending", "click",
	    "{}", 2, T0 + 40 * day, 0), 0);

	ck_assert_int_eq(outbox_purge(&t.db, 30, T0 + 31 * day), 600);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 2);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_attempts"), 1);
	ck_assert_int_eq(outbox_purge(&t.db, 30, T0 + 31 * day), 0);
}
END_TEST

/* What a run does as transfers finish: record and claim at once. */
START_TEST(test_record_claim)
{
	struct outbox_claim	 cl;
	struct outbox_stats	 st;
	struct outbox_result	 r[2];
	struct got		 g, g2;
	int64_t			 acct, h;

	memset(&g, 0, sizeof(g));
	memset(&g2, 0, sizeof(g2));
	memset(&st, 0, sizeof(st));
	acct = tdb_account(&t, "rc@example.com");
	h = hook(acct);
	queue(h, "dlv_1", T0);
	queue(h, "dlv_2", T0 + 1);
	queue(h, "dlv_3", T0 + 2);
	ck_assert_int_eq(claim("run", T0 + 10, 2, 2, &g), 2);
	r[0] = result(g.it[0], 200, NULL, T0 + 10);
	r[1] = result(g.it[1], 500, "HTTP 500", T0 + 10);
	claim_args(&cl, "run", T0 + 20, 2, 2, &g2);
	ck_assert_int_eq(outbox_record_claim(&t.db, r, 2, &st, &cl, T0 + 20),
	    1);
	ck_assert_str_eq(g2.it[0]->d.uuid, "dlv_3");
	ck_assert_int_eq(st.delivered, 1);
	ck_assert_int_eq(st.retrying, 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "uuid = 'dlv_2' AND next_at = 1700000060020"), 1);
	got_free(&g);
	got_free(&g2);

	/* Nothing to record, nothing due: nothing happens. */
	claim_args(&cl, "run", T0 + 30, 2, 2, &g2);
	ck_assert_int_eq(outbox_record_claim(&t.db, r, 0, &st, &cl, T0 + 30),
	    0);
	/* The retry of dlv_2 is due, and dlv_3 again (its lease ran out,
	 * as if the run had died); recording with a claim of none. */
	ck_assert_int_eq(claim("run2", T0 + 60020, 2, 2, &g), 2);
	r[0] = result(g.it[0], 204, NULL, T0 + 60020);
	r[1] = result(g.it[1], 204, NULL, T0 + 60020);
	claim_args(&cl, "run2", T0 + 60030, 2, 0, &g2);
	ck_assert_int_eq(outbox_record_claim(&t.db, r, 2, &st, &cl,
	    T0 + 60030), 0);
	ck_assert_int_eq(st.delivered, 3);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "state = 'delivered'"), 3);
	got_free(&g);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("hooks");
	TCase	*tc;
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	tc = tcase_create("outbox");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_schedule);
	tcase_add_test(tc, test_retry_until_failed);
	tcase_add_test(tc, test_retry_then_delivered);
	tcase_add_test(tc, test_lease);
	tcase_add_test(tc, test_per_hook);
	tcase_add_test(tc, test_gone);
	tcase_add_test(tc, test_purge);
	tcase_add_test(tc, test_record_claim);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
