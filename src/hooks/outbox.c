/*
 * outbox.c -- claiming, retrying and finishing deliveries.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "outbox.h"
#include "store/admin.h"
#include "store/store.h"
#include "store/webhooks.h"
#include "util.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

#define MINUTE	(60 * 1000LL)
#define HOUR	(60 * MINUTE)

#define PURGE_BATCH	500
#define PURGE_MAX	100000	/* per run; the next run goes on */

/* DESIGN 3.6: the wait after the first, second, ... failure. */
static const int64_t retry_delays[OUTBOX_ATTEMPTS - 1] = {
	1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR,
	10 * HOUR, 24 * HOUR
};

int64_t
outbox_retry_at(int attempts, int64_t now)
{
	if (attempts < 1 || attempts >= OUTBOX_ATTEMPTS)
		return 0;
	return now + retry_delays[attempts - 1];
}

void
outbox_item_free(struct outbox_item *it)
{
	webhook_delivery_free(&it->d);
	sodium_memzero(it->w.box, sizeof(it->w.box));
	free(it);
}

struct candidates {
	int64_t	*id;
	int64_t	*hook;
	size_t	 n;
};

static void
collect(int64_t id, int64_t hook, void *arg)
{
	struct candidates	*c = arg;

	c->id = xreallocarray(c->id, c->n + 1, sizeof(*c->id));
	c->hook = xreallocarray(c->hook, c->n + 1, sizeof(*c->hook));
	c->id[c->n] = id;
	c->hook[c->n] = hook;
	c->n++;
}

static void
ignore_row(int64_t id, int64_t hook, void *arg)
{
	(void)id;
	(void)hook;
	(void)arg;
}

/* A claim made inside a transaction: the leased items, handed out only
 * after the commit. */
struct claimed {
	struct outbox_item	**it;
	long			  n;
};

static void
claimed_free(struct claimed *got)
{
	long	 i;

	for (i = 0; i < got->n; i++)
		outbox_item_free(got->it[i]);
	free(got->it);
	got->it = NULL;
	got->n = 0;
}

/* Hands the committed leases out. */
static long
claimed_give(struct claimed *got, const struct outbox_claim *cl)
{
	long	 i, n = got->n;

	for (i = 0; i < n; i++)
		cl->take(got->it[i], cl->arg);
	free(got->it);
	got->it = NULL;
	got->n = 0;
	return n;
}

/* The claim, inside the caller's transaction.  0 or -1. */
static int
claim_tx(struct lz_db *db, const struct outbox_claim *cl, int64_t now,
    struct claimed *got)
{
	struct candidates	 c = { NULL, NULL, 0 };
	struct outbox_item	*it;
	size_t			 i, j;
	int			 same, rc = -1, r;

	/* A subscription with k deliveries in flight wastes at most k of
	 * its per_hook candidates: look at max + busy. */
	if (store_delivery_due(db, now, cl->per_hook, 1,
	    (long)cl->max + cl->busy, collect, &c) < 0)
		goto done;
	for (i = 0; i < c.n && got->n < cl->max; i++) {
		for (same = 0, j = 0; j < i; j++)
			if (c.hook[j] == c.hook[i])
				same++;
		if (same >= cl->room(c.hook[i], cl->arg))
			continue;
		it = xcalloc(1, sizeof(*it));
		if ((r = store_delivery_lease(db, c.id[i], cl->lease,
		    cl->until, now, &it->d)) != 1) {
			free(it);
			if (r == -1)
				goto done;
			continue;
		}
		if (store_webhook_get(db, it->d.webhook_id, ACCOUNT_ANY,
		    &it->w) != 1) {
			outbox_item_free(it);
			goto done;
		}
		got->it = xreallocarray(got->it, (size_t)got->n + 1,
		    sizeof(*got->it));
		got->it[got->n++] = it;
	}
	rc = 0;
done:
	free(c.id);
	free(c.hook);
	return rc;
}

long
outbox_claim(struct lz_db *db, const struct outbox_claim *cl, int64_t now)
{
	struct claimed	 got = { NULL, 0 };
	long		 n;

	if (cl->max <= 0)
		return 0;
	/* Most calls find nothing: look before taking the write lock. */
	if ((n = store_delivery_due(db, now, cl->per_hook, 0,
	    (long)cl->max + cl->busy, ignore_row, NULL)) <= 0)
		return n;
	if (lz_db_begin(db) == -1)
		return -1;
	if (claim_tx(db, cl, now, &got) == -1 || lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		claimed_free(&got);
		return -1;
	}
	return claimed_give(&got, cl);
}

static int
record_one(struct lz_db *db, const char *lease, const struct outbox_result *r,
    int64_t now, struct outbox_stats *st)
{
	struct webhook_attempt	 a;
	int64_t			 next;
	int			 rc;

	memset(&a, 0, sizeof(a));
	a.at = r->at;
	a.status = r->status;
	snprintf(a.error, sizeof(a.error), "%s", r->error ? r->error : "");
	a.duration_ms = r->duration_ms;
	if (store_attempt_add(db, r->delivery_id, &a) == -1)
		return -1;
	if (r->error == NULL) {
		/* Delivered is delivered, whoever holds the lease now. */
		if ((rc = store_delivery_delivered(db, r->delivery_id,
		    r->status, now)) == 1)
			st->delivered++;
		return rc < 0 ? -1 : 0;
	}
	next = r->status == 410 ? 0 : outbox_retry_at(r->attempts + 1, now);
	rc = store_delivery_failed(db, r->delivery_id, lease, r->status,
	    r->error, next, now);
	if (rc == -1)
		return -1;
	if (rc == 0)
		st->lost++;
	else if (next)
		st->retrying++;
	else
		st->failed++;
	if (r->status == 410) {
		/* The receiver says the endpoint is gone for good. */
		if ((rc = webhook_disable_tx(db, r->webhook_id, ACCOUNT_ANY,
		    "the receiver answered 410 Gone", now)) == -1)
			return -1;
		if (rc == 1) {
			st->disabled++;
			lz_log(LZ_LOG_WARN, "webhook %lld disabled: its "
			    "receiver answered 410 Gone",
			    (long long)r->webhook_id);
		}
	}
	return 0;
}

/* Records results inside the caller's transaction.  0 or -1. */
static int
record_tx(struct lz_db *db, const char *lease, const struct outbox_result *r,
    size_t n, int64_t now, struct outbox_stats *add)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (record_one(db, lease, &r[i], now, add) == -1)
			return -1;
	return 0;
}

static void
stats_add(struct outbox_stats *st, const struct outbox_stats *add)
{
	st->delivered += add->delivered;
	st->retrying += add->retrying;
	st->failed += add->failed;
	st->lost += add->lost;
	st->disabled += add->disabled;
}

int
outbox_record(struct lz_db *db, const char *lease,
    const struct outbox_result *r, size_t n, int64_t now,
    struct outbox_stats *st)
{
	struct outbox_stats	 add;

	if (n == 0)
		return 0;
	memset(&add, 0, sizeof(add));
	if (lz_db_begin(db) == -1)
		return -1;
	if (record_tx(db, lease, r, n, now, &add) == -1 ||
	    lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		return -1;
	}
	stats_add(st, &add);
	return 0;
}

long
outbox_record_claim(struct lz_db *db, const struct outbox_result *r, size_t n,
    struct outbox_stats *st, const struct outbox_claim *cl, int64_t now)
{
	struct outbox_stats	 add;
	struct claimed		 got = { NULL, 0 };

	if (n == 0)
		return outbox_claim(db, cl, now);
	memset(&add, 0, sizeof(add));
	if (lz_db_begin(db) == -1)
		return -1;
	if (record_tx(db, cl->lease, r, n, now, &add) == -1 ||
	    (cl->max > 0 && claim_tx(db, cl, now, &got) == -1) ||
	    lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		claimed_free(&got);
		return -1;
	}
	stats_add(st, &add);
	return claimed_give(&got, cl);
}

long
outbox_purge(struct lz_db *db, int days, int64_t now)
{
	return store_purge(db, store_delivery_purge, now - (int64_t)days *
	    24 * HOUR, PURGE_BATCH, PURGE_MAX);
}
