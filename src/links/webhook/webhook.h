/*
 * webhook.h -- webhooks (spec 2.3, 5.4, 6; DESIGN 3.6): the types of a
 * subscription and of a delivery, the sizes of their secrets and ids,
 * and the events' names.  The type of the stores and of lz-hooks: it
 * includes nothing of theirs.  The rest of webhook/ is one concern a
 * file, each called by lzctl, the dashboard and lz-hooks alike:
 *
 *   guard.h   the SSRF guard: where a receiving URL may lead;
 *   sign.h    the signing secret "whsec_...", shown once and stored
 *             encrypted (libsodium secretbox, key derived from the key
 *             file with context "webhooks"), and the signature:
 *             HMAC-SHA256 keyed with the whole secret string, over the
 *             raw body, X-Lz-Signature: sha256=<hex>;
 *   subs.h    subscriptions: add, list, rotate, disable, test;
 *   events.h  the events, queued into the outbox in the transaction of
 *             their cause.
 */
#ifndef LZ_WEBHOOK_H
#define LZ_WEBHOOK_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

#include "sizes.h"

struct lz_verr;

#define WEBHOOK_EV_CLICK	0x01
#define WEBHOOK_EV_LINK_CREATED	0x02
#define WEBHOOK_EV_LINK_UPDATED	0x04
#define WEBHOOK_EV_LINK_DELETED	0x08
#define WEBHOOK_EV_ALL		0x0f
/* Their names, as messages list them. */
#define WEBHOOK_EVENTS_LIST	"click, link.created, link.updated, " \
				"link.deleted"

#define WEBHOOK_SECRET_PREFIX	"whsec_"
#define WEBHOOK_SECRET_RANDOM	32	/* base62: 190 bits */
#define WEBHOOK_SECRET_LEN	(6 + WEBHOOK_SECRET_RANDOM)
#define WEBHOOK_KEY_BYTES	crypto_secretbox_KEYBYTES
#define WEBHOOK_BOX_LEN		(crypto_secretbox_NONCEBYTES + \
				 crypto_secretbox_MACBYTES + WEBHOOK_SECRET_LEN)
#define WEBHOOK_SIG_LEN		(7 + 64)	/* "sha256=" + hex */
#define WEBHOOK_DELIVERY_PREFIX	"dlv_"
#define WEBHOOK_DELIVERY_LEN	(4 + 22)
#define WEBHOOK_MAX_PER_ACCOUNT	10	/* active subscriptions */
#define WEBHOOK_DNS_TIMEOUT_MS	2000	/* the URL check's resolution */

struct webhook {
	int64_t		 id;
	int64_t		 account_id;
	char		 url[URL_MAX + 1];
	unsigned	 events;	/* WEBHOOK_EV_* */
	unsigned char	 box[WEBHOOK_BOX_LEN];	/* the encrypted secret */
	int64_t		 created_at;
	int64_t		 rotated_at;	/* 0: never */
	int64_t		 disabled_at;	/* 0: active */
	char		 disabled_reason[128];
	long long	 pending;	/* lists only: deliveries not finished */
};

/* One delivery of the outbox and its state (the delivery log). */
struct webhook_delivery {
	int64_t		 id;
	char		 uuid[WEBHOOK_DELIVERY_LEN + 1]; /* X-Lz-Delivery */
	int64_t		 webhook_id;
	char		 event[16];
	char		*body;		/* exact bytes; owned, see below */
	size_t		 bodylen;
	char		 state[12];	/* pending, delivered, failed,
					   cancelled */
	int		 attempts;
	int64_t		 created_at;
	int64_t		 next_at;	/* 0 when finished */
	int64_t		 finished_at;	/* 0 while pending */
	int		 last_status;	/* 0: no HTTP answer */
	char		 last_error[256];
};

struct webhook_attempt {
	int64_t		 at;
	int		 status;	/* 0: no HTTP answer */
	char		 error[256];
	int64_t		 duration_ms;
};

/* Frees the body of a delivery. */
void	webhook_delivery_free(struct webhook_delivery *);

/* "click", "link.created", ... for one WEBHOOK_EV_* bit, else NULL. */
const char *webhook_event_name(unsigned bit);
/*
 * Parses a comma-separated list of event names into a mask.  Returns 0,
 * or -1 with e filled (400 invalid_events naming param "events").
 */
int	webhook_events_parse(const char *s, unsigned *mask, struct lz_verr *e);
/* "click,link.created" and so on. */
void	webhook_events_fmt(unsigned mask, char *buf, size_t len);

#endif
