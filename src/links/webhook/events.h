/*
 * events.h -- webhook events into the outbox (spec 6, DESIGN 3.6).
 *
 * Each function runs inside the caller's write transaction, the one that
 * makes the event happen (the link insert, the click record), so an event
 * is queued exactly when its cause is committed.  For every active
 * subscription of the link's account to the event it queues one delivery
 * whose body, {"event", "sent_at", "data"}, is serialised once here and
 * stored as the exact bytes lz-hooks signs and sends on every attempt;
 * sent_at is now, the time the event is queued, in UTC with
 * milliseconds.  An account
 * without such a subscription costs one index look-up and nothing else.
 */
#ifndef LZ_EVENTS_H
#define LZ_EVENTS_H

#include <stdint.h>

#include "webhook/webhook.h"

struct click;
struct link;
struct lz_db;

/*
 * The host events name as the domain of links on the default one:
 * base_url's.  Set once per process before the first event (unset:
 * null).
 */
void	events_default_domain(const char *base_url);

/*
 * An event of link l, ev one of WEBHOOK_EV_LINK_CREATED, _UPDATED (data:
 * the link representation, link_json, with short_url built on base_url)
 * and _DELETED (data: {id, slug, domain}; only id, account_id, slug and
 * domain of l are read).  0, or -1 (logged): roll back.
 */
int	events_link(struct lz_db *, unsigned ev, const struct link *l,
	    const char *base_url, int64_t now);

/* The click subscriptions of one account, looked up once for the many
 * clicks of a batch (zero it to start). */
struct events_targets {
	int64_t	 account_id;	/* whose ids[] these are; 0: none yet */
	int	 n;
	int64_t	 ids[WEBHOOK_MAX_PER_ACCOUNT];
};

/*
 * click: data is {slug, domain, suffix, target, country, device, os,
 * referrer}.
 * Bots (c->bot) are never sent.  With cache (a batch of clicks), the
 * subscriptions of the account found there are used (else looked up and
 * kept there) and the deliveries are bulk rows of the batch (db.h).  0,
 * or -1 (logged): roll back.
 */
int	events_click(struct lz_db *, const struct link *l,
	    const struct click *c, int64_t now, struct events_targets *cache);

/*
 * A test event for one subscription, whatever its events: X-Lz-Event
 * "test", data {webhook_id, message}.  Sent from the dashboard to check a
 * receiver.  The delivery's X-Lz-Delivery goes to uuid
 * (WEBHOOK_DELIVERY_LEN + 1 bytes).  0 or -1.
 */
#define EVENTS_TEST	"test"
int	events_test(struct lz_db *, int64_t webhook_id, int64_t now,
	    char *uuid);

#endif
