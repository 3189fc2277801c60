/*
 * subs.h -- webhook subscriptions (spec 2.3, DESIGN 3.6): the one place
 * their rules live, called by lzctl and the dashboard.  A subscription
 * has a receiving URL (guard.h), a set of events and a signing secret
 * (sign.h); at most WEBHOOK_MAX_PER_ACCOUNT are active per account.
 */
#ifndef LZ_WEBHOOK_SUBS_H
#define LZ_WEBHOOK_SUBS_H

#include <stdint.h>

#include <jansson.h>

#include "webhook/webhook.h"

struct lz_db;
struct lz_verr;

/*
 * Adds a subscription of account_id to events at url (checked with
 * webhook_url_check once the account is known to be under its cap).  On
 * success returns the new id and the secret,
 * to be shown once, in secret (WEBHOOK_SECRET_LEN + 1 bytes).  On
 * failure returns -1 with e filled: 400 bad URL or events, 403 more than
 * WEBHOOK_MAX_PER_ACCOUNT active subscriptions, 500 storage.
 */
int64_t	webhook_add(struct lz_db *, const unsigned char key[WEBHOOK_KEY_BYTES],
	    int64_t account_id, const char *url, unsigned events,
	    int allow_loopback, int64_t now, char *secret, struct lz_verr *e);

/* Subscription id of account_id (ACCOUNT_ANY: of anyone).  1, 0, -1. */
int	webhook_get(struct lz_db *, int64_t id, int64_t account_id,
	    struct webhook *);

/* Subscriptions of account_id (ACCOUNT_ANY: all), in id order, with their
 * pending counts.  Returns the count or -1. */
long	webhook_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const struct webhook *, void *), void *arg);

/*
 * Gives an active subscription a new secret, shown once, in secret.
 * Deliveries sent from then on (retries too) are signed with it.
 * Returns 1, 0 (no such active subscription) or -1.
 */
int	webhook_rotate(struct lz_db *, const unsigned char key[WEBHOOK_KEY_BYTES],
	    int64_t id, int64_t account_id, int64_t now, char *secret);

/*
 * Disables an active subscription and cancels its pending deliveries,
 * with reason for the log.  webhook_disable runs its own transaction;
 * webhook_disable_tx runs inside the caller's.  Returns 1, 0 (no such
 * active subscription) or -1.
 */
int	webhook_disable(struct lz_db *, int64_t id, int64_t account_id,
	    const char *reason, int64_t now);
int	webhook_disable_tx(struct lz_db *, int64_t id, int64_t account_id,
	    const char *reason, int64_t now);

/*
 * Queues a test event (events_test) for an active subscription, in its
 * own transaction; its X-Lz-Delivery goes to uuid (WEBHOOK_DELIVERY_LEN
 * + 1 bytes).  Returns 1, 0 (no such active subscription) or -1.
 */
int	webhook_test(struct lz_db *, int64_t id, int64_t account_id,
	    int64_t now, char *uuid);

/* A subscription: id, url, events, status (active|disabled), created_at,
 * rotated_at, disabled_at, disabled_reason, pending.  Never the secret. */
json_t	*webhook_json(const struct webhook *);
/* A delivery of the log: id (X-Lz-Delivery), event, state, attempts,
 * created_at, next_attempt_at, finished_at, last_status_code, last_error. */
json_t	*webhook_delivery_json(const struct webhook_delivery *);

#endif
