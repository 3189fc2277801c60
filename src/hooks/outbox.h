/*
 * outbox.h -- the life of a delivery in the outbox (DESIGN 3.6): claimed
 * under a lease by one lz-hooks run, then delivered, or retried on the
 * schedule below, or failed for good.  Time is always passed in (now), so
 * the schedule and the leases can be tested with a fake clock.
 */
#ifndef LZ_OUTBOX_H
#define LZ_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

#include "webhook/webhook.h"

struct lz_db;

/* Attempts in all: the first and 8 retries. */
#define OUTBOX_ATTEMPTS	9

/*
 * When the attempts-th attempt (1 for the first) has failed at now: the
 * time of the next one -- 1 m, 5 m, 30 m, 2 h, 5 h, 10 h, 10 h and 24 h
 * after the first to eighth failure -- or 0 when the delivery has failed
 * for good.
 */
int64_t	outbox_retry_at(int attempts, int64_t now);

/* A claimed delivery with its subscription. */
struct outbox_item {
	struct webhook_delivery	 d;	/* body owned: outbox_item_free */
	struct webhook		 w;
};

void	outbox_item_free(struct outbox_item *);

/*
 * How a run claims deliveries: for the run named lease, until `until`, at
 * most max, at most per_hook of each subscription and fewer when
 * room(webhook id, arg) says the run already has some of that
 * subscription in flight (room returns how many more fit; busy is how
 * many the run has in flight in all).  take(item, arg) gets each claimed
 * delivery, after the commit, and owns it.
 */
struct outbox_claim {
	const char	 *lease;
	int64_t		  until;
	int		  per_hook;
	int		  max;
	int		  busy;
	int		(*room)(int64_t webhook_id, void *arg);
	void		(*take)(struct outbox_item *, void *arg);
	void		 *arg;
};

/* Claims due deliveries in one transaction.  Returns the count, or -1. */
long	outbox_claim(struct lz_db *, const struct outbox_claim *, int64_t now);

/* What one attempt came to. */
struct outbox_result {
	int64_t		 delivery_id;
	int64_t		 webhook_id;
	int		 attempts;	/* made before this one */
	int		 status;	/* HTTP status, 0: no answer */
	const char	*error;		/* NULL for a 2xx */
	int64_t		 at;		/* start, ms */
	int64_t		 duration_ms;
};

struct outbox_stats {
	long	 delivered;
	long	 retrying;
	long	 failed;		/* for good */
	long	 lost;			/* leases lost: the result was late */
	long	 disabled;		/* subscriptions disabled by a 410 */
};

/*
 * Records results of the run lease in one transaction: every attempt in
 * the delivery log; a 2xx delivers; anything else schedules the next
 * attempt (outbox_retry_at) or fails the delivery for good; a 410 fails
 * it and disables the subscription, cancelling its other deliveries.
 * Adds to stats.  Returns 0 or -1 (nothing recorded: the leases run out
 * and the deliveries are sent again).
 */
int	outbox_record(struct lz_db *, const char *lease,
	    const struct outbox_result *, size_t n, int64_t now,
	    struct outbox_stats *);

/*
 * outbox_record and then outbox_claim, in one transaction: what a run
 * does each time transfers finish.  Returns the count claimed, or -1
 * (nothing recorded, nothing claimed).
 */
long	outbox_record_claim(struct lz_db *, const struct outbox_result *,
	    size_t n, struct outbox_stats *, const struct outbox_claim *,
	    int64_t now);

/*
 * Housekeeping: deletes finished deliveries (and their attempts) older
 * than days, in short transactions.  Returns the count or -1.
 */
long	outbox_purge(struct lz_db *, int days, int64_t now);

#endif
