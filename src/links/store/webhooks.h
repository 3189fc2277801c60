/*
 * store/webhooks.h -- webhook subscriptions, the outbox of deliveries and
 * their attempts (webhook.h has the rules, hooks/outbox.h the sending;
 * these are only the SQL).
 */
#ifndef LZ_STORE_WEBHOOKS_H
#define LZ_STORE_WEBHOOKS_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;
struct webhook;
struct webhook_attempt;
struct webhook_delivery;

/* Returns the new id, or -1. */
int64_t	store_webhook_add(struct lz_db *, int64_t account_id, const char *url,
	    unsigned events, const unsigned char *box, int64_t now);
/* A subscription by id of account_id (ACCOUNT_ANY: of anyone).  1, 0,
 * -1. */
int	store_webhook_get(struct lz_db *, int64_t id, int64_t account_id,
	    struct webhook *);
/* Subscriptions of account_id (ACCOUNT_ANY: all) in id order; the count
 * or -1. */
long	store_webhook_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const struct webhook *, void *), void *arg);
/* Active subscriptions of an account; -1 on error. */
long long store_webhook_count(struct lz_db *, int64_t account_id);
/* New secret box of an active subscription of account_id (ACCOUNT_ANY:
 * of anyone).  1, 0, -1. */
int	store_webhook_set_secret(struct lz_db *, int64_t id, int64_t account_id,
	    const unsigned char *box, int64_t now);
/* Marks an active subscription of account_id (ACCOUNT_ANY: of anyone)
 * disabled.  1, 0, -1. */
int	store_webhook_disable(struct lz_db *, int64_t id, int64_t account_id,
	    const char *reason, int64_t now);
/*
 * Ids of the active subscriptions of account_id to an event (a
 * WEBHOOK_EV_* bit), at most max of them, into ids.  Returns the count or
 * -1.  One look-up in the index of active subscriptions by account.
 */
int	store_webhook_targets(struct lz_db *, int64_t account_id, unsigned bit,
	    int64_t *ids, int max);

/* ---- the outbox ------------------------------------------------------ */

/* Queues a delivery, due at once; with bulk as a bulk row of a batch
 * (db.h).  0 or -1. */
int	store_delivery_add(struct lz_db *, int64_t webhook_id, const char *uuid,
	    const char *event, const char *body, size_t len, int64_t now,
	    int bulk);
/* Cancels the unfinished deliveries of a subscription.  Count or -1. */
long	store_delivery_cancel(struct lz_db *, int64_t webhook_id,
	    const char *why, int64_t now);
/*
 * Due deliveries of active subscriptions: for each subscription its
 * per_hook oldest ones due at now, oldest first, at most limit in all.
 * With claim (inside the claiming transaction), on PostgreSQL they are
 * locked, and those another run (on another host) has locked are
 * skipped: runs claim side by side, never the same one.  Calls
 * fn(delivery id, webhook id, arg); returns the count or -1.
 */
long	store_delivery_due(struct lz_db *, int64_t now, int per_hook,
	    int claim, long limit, void (*fn)(int64_t, int64_t, void *),
	    void *arg);
/*
 * Leases delivery id to the run lease until `until`, when it is still due
 * at now.  Returns 1 with the delivery (body allocated: free with
 * webhook_delivery_free), 0 when someone else took it, -1.
 */
int	store_delivery_lease(struct lz_db *, int64_t id, const char *lease,
	    int64_t until, int64_t now, struct webhook_delivery *);
/* Logs one attempt.  0 or -1. */
int	store_attempt_add(struct lz_db *, int64_t delivery_id,
	    const struct webhook_attempt *);
/* Marks a pending delivery delivered (whoever holds its lease).  1, 0, -1. */
int	store_delivery_delivered(struct lz_db *, int64_t id, int status,
	    int64_t now);
/*
 * Records a failed attempt of a delivery leased to lease: due again at
 * next_at, or failed for good when next_at is 0.  1, 0 (the lease was
 * lost: the delivery moved on without this run), -1.
 */
int	store_delivery_failed(struct lz_db *, int64_t id, const char *lease,
	    int status, const char *error, int64_t next_at, int64_t now);
/* Deliveries of a subscription, newest first, with id below before (0:
 * from the newest), at most limit.  Count or -1. */
long	store_delivery_list(struct lz_db *, int64_t webhook_id, int64_t before,
	    long limit, void (*fn)(const struct webhook_delivery *, void *),
	    void *arg);
/* A delivery by its X-Lz-Delivery id.  1, 0, -1. */
int	store_delivery_by_uuid(struct lz_db *, const char *uuid,
	    struct webhook_delivery *);
/* The attempts of a delivery, oldest first.  Count or -1. */
long	store_attempt_list(struct lz_db *, int64_t delivery_id,
	    void (*fn)(const struct webhook_attempt *, void *), void *arg);
/* Deletes up to limit deliveries (and their attempts) finished before
 * before.  Count or -1. */
long	store_delivery_purge(struct lz_db *, int64_t before, long limit);

/* The outbox at a glance: deliveries waiting to be sent (now or later)
 * and the earliest due time among them (0: none); deliveries that
 * failed for good since since.  0 or -1. */
int	store_outbox(struct lz_db *, int64_t since, long long *pending,
	    int64_t *due, long long *failed);

#endif
