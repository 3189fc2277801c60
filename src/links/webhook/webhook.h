/*
 * webhook.h -- webhook subscriptions (spec 2.3, 5.4, 6; DESIGN 3.6): the
 * one place their rules live, called by lzctl, the dashboard and lz-hooks.
 *
 * A subscription has a receiving URL (https, resolving only to public
 * addresses: the SSRF guard), a set of events and a signing secret
 * "whsec_..." that is shown once and stored encrypted (libsodium
 * secretbox, key derived from the key file with context "webhooks").
 * Deliveries are signed with HMAC-SHA256 keyed with the whole secret
 * string, over the raw body: X-Lz-Signature: sha256=<hex>.
 */
#ifndef LZ_WEBHOOK_H
#define LZ_WEBHOOK_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <sodium.h>

#include "link/link.h"

struct lz_addr;
struct lz_conf;
struct lz_db;
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

/* ---- events ---------------------------------------------------------- */

/* "click", "link.created", ... for one WEBHOOK_EV_* bit, else NULL. */
const char *webhook_event_name(unsigned bit);
/*
 * Parses a comma-separated list of event names into a mask.  Returns 0,
 * or -1 with e filled (400 invalid_events naming param "events").
 */
int	webhook_events_parse(const char *s, unsigned *mask, struct lz_verr *e);
/* "click,link.created" and so on. */
void	webhook_events_fmt(unsigned mask, char *buf, size_t len);

/* ---- the SSRF guard -------------------------------------------------- */

/*
 * May a delivery connect to a? Public addresses always; loopback ones
 * only with allow_loopback (lz.conf webhook_allow_loopback); plain http
 * only to loopback.  Returns 1, or 0 with the reason in why.
 */
int	webhook_addr_allowed(const struct lz_addr *a, int allow_loopback,
	    int plain_http, char *why, size_t whylen);

/*
 * Checks a receiving URL: an absolute https URL (http only to loopback
 * with allow_loopback) of at most URL_MAX bytes, without user name or
 * password, whose host -- a name or a literal in any notation the
 * resolver accepts -- resolves within WEBHOOK_DNS_TIMEOUT_MS only to
 * addresses webhook_addr_allowed lets through (lz_resolve: the name
 * servers of lz_resolve_init).  Returns 0, or -1 with e filled (400
 * invalid_url for the URL's form, unsafe_url for where it leads, param
 * "url"); the message names the host and what it resolved to, for
 * admins: the dashboard answers a generic one.
 */
int	webhook_url_check(const char *url, int allow_loopback,
	    struct lz_verr *e);

/* ---- secrets and signatures ------------------------------------------ */

/* The subscription key, derived from the key file of conf; 0 or -1. */
int	webhook_key_load(const struct lz_conf *, unsigned char
	    key[WEBHOOK_KEY_BYTES], char *err, size_t errlen);
/* A new secret "whsec_..." (WEBHOOK_SECRET_LEN + 1 bytes). */
void	webhook_secret_new(char *out);
/* Encrypts a secret into box (nonce + secretbox). */
void	webhook_secret_seal(const unsigned char key[WEBHOOK_KEY_BYTES],
	    const char *secret, unsigned char box[WEBHOOK_BOX_LEN]);
/* Decrypts and checks box into out (WEBHOOK_SECRET_LEN + 1); 0 or -1. */
int	webhook_secret_open(const unsigned char key[WEBHOOK_KEY_BYTES],
	    const unsigned char box[WEBHOOK_BOX_LEN], char *out);

/* Lower-case hex of HMAC-SHA256(key, msg) (65 bytes with the NUL). */
void	webhook_hmac_hex(const unsigned char *key, size_t keylen,
	    const void *msg, size_t len, char hex[65]);
/* "sha256=<hex>" of body under secret (WEBHOOK_SIG_LEN + 1 bytes). */
void	webhook_sign(const char *secret, const void *body, size_t len,
	    char *sig);

/* ---- subscriptions --------------------------------------------------- */

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

/* ---- JSON forms ------------------------------------------------------ */

/* A subscription: id, url, events, status (active|disabled), created_at,
 * rotated_at, disabled_at, disabled_reason, pending.  Never the secret. */
json_t	*webhook_json(const struct webhook *);
/* A delivery of the log: id (X-Lz-Delivery), event, state, attempts,
 * created_at, next_attempt_at, finished_at, last_status_code, last_error. */
json_t	*webhook_delivery_json(const struct webhook_delivery *);

#endif
