/*
 * webhook.c -- webhook subscriptions: URL checks (the SSRF guard),
 * secrets, signatures.
 */
#include "config.h"

#include <sys/socket.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <sodium.h>

#include "addr.h"
#include "conf.h"
#include "db.h"
#include "webhook/events.h"
#include "jbody.h"
#include "keyfile.h"
#include "log.h"
#include "req.h"
#include "resolve.h"
#include "rnd.h"
#include "safety/dest.h"
#include "store/store.h"
#include "store/webhooks.h"
#include "util.h"
#include "webhook/webhook.h"

/* WEBHOOK_EV_* by name, in the order of their bits. */
static const struct lz_bitname event_bits[] = {
	{ WEBHOOK_EV_CLICK, "click" },
	{ WEBHOOK_EV_LINK_CREATED, "link.created" },
	{ WEBHOOK_EV_LINK_UPDATED, "link.updated" },
	{ WEBHOOK_EV_LINK_DELETED, "link.deleted" },
};

void
webhook_delivery_free(struct webhook_delivery *d)
{
	free(d->body);
	d->body = NULL;
	d->bodylen = 0;
}

/* ---- events ---------------------------------------------------------- */

const char *
webhook_event_name(unsigned bit)
{
	size_t	 i;

	for (i = 0; i < LZ_NELEM(event_bits); i++)
		if (bit == event_bits[i].bit)
			return event_bits[i].name;
	return NULL;
}

int
webhook_events_parse(const char *s, unsigned *mask, struct lz_verr *e)
{
	char	**v;
	size_t	  n, i, j;
	int	  rc = 0;

	*mask = 0;
	n = lz_strlist_split(s, &v);
	for (i = 0; i < n && rc == 0; i++) {
		for (j = 0; j < LZ_NELEM(event_bits); j++)
			if (strcmp(v[i], event_bits[j].name) == 0)
				break;
		if (j == LZ_NELEM(event_bits)) {
			lz_verr_set(e, 400, "invalid_events", "events",
			    "Unknown event '%.40s': events are "
			    WEBHOOK_EVENTS_LIST ".", v[i]);
			rc = -1;
		} else
			*mask |= event_bits[j].bit;
	}
	lz_strlist_free(v, n);
	if (rc == 0 && *mask == 0) {
		lz_verr_set(e, 400, "invalid_events", "events", "Choose at "
		    "least one event: " WEBHOOK_EVENTS_LIST ".");
		rc = -1;
	}
	return rc;
}

void
webhook_events_fmt(unsigned mask, char *buf, size_t len)
{
	lz_bits_str(mask, event_bits, LZ_NELEM(event_bits), ",", buf, len);
}

/* ---- the SSRF guard -------------------------------------------------- */

int
webhook_addr_allowed(const struct lz_addr *a, int allow_loopback,
    int plain_http, char *why, size_t whylen)
{
	enum lz_addr_class	 c = lz_addr_class(a);
	char			 text[64];

	if (c == LZ_ADDR_LOOPBACK && allow_loopback)
		return 1;
	lz_addr_fmt(a, text, sizeof(text));
	if (c != LZ_ADDR_PUBLIC) {
		snprintf(why, whylen, "%s is a %s address", text,
		    lz_addr_class_name(c));
		return 0;
	}
	if (plain_http) {
		snprintf(why, whylen, "%s is public and plain http is only "
		    "allowed to loopback", text);
		return 0;
	}
	return 1;
}

int
webhook_url_check(const char *url, int allow_loopback, struct lz_verr *e)
{
	struct lz_addr	*addrs = NULL;
	CURLU		*u = NULL;
	char		*scheme = NULL, *host = NULL, *user = NULL;
	char		*zone = NULL, why[160], name[256];
	size_t		 len, i, n;
	int		 rc = -1, plain_http;
	enum lz_resolve_rc res;

	if (!dest_url_ok(url)) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "must be an absolute https:// URL of at most %d bytes.",
		    URL_MAX);
		return -1;
	}
	if ((u = curl_url()) == NULL ||
	    curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, CURLU_PUNYCODE) !=
	    CURLUE_OK) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "does not parse.");
		goto done;
	}
	plain_http = strcasecmp(scheme, "http") == 0;
	if (plain_http && !allow_loopback) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "must use https.");
		goto done;
	}
	if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "must not carry a user name or password; deliveries are "
		    "authenticated by their signature.");
		goto done;
	}
	if (curl_url_get(u, CURLUPART_ZONEID, &zone, 0) == CURLUE_OK) {
		lz_verr_set(e, 400, "unsafe_url", "url", "The receiving URL "
		    "must not name a network interface.");
		goto done;
	}
	/* "[v6]" as libcurl gives it; the resolver wants it bare.  A DNS
	 * name has at most 253 characters: never check a shortened one. */
	if ((len = strlen(host)) >= sizeof(name)) {
		lz_verr_set(e, 400, "invalid_url", "url", "The host of the "
		    "receiving URL is too long.");
		goto done;
	}
	if (len >= 2 && host[0] == '[' && host[len - 1] == ']')
		snprintf(name, sizeof(name), "%.*s", (int)(len - 2), host + 1);
	else
		snprintf(name, sizeof(name), "%s", host);

	/*
	 * Resolve as the sender's resolver will: any literal notation
	 * ("127.1", "0x7f000001", ...) comes out as the address it means.
	 * Every address must pass, not just one: DNS may hand the sender
	 * any of them.  The sender checks again at every connection.  No
	 * request waits on DNS longer than WEBHOOK_DNS_TIMEOUT_MS.
	 */
	if ((res = lz_resolve(name, WEBHOOK_DNS_TIMEOUT_MS, &addrs, &n)) !=
	    LZ_RESOLVE_OK) {
		lz_verr_set(e, 400, "unsafe_url", "url", "The host '%.100s' "
		    "of the receiving URL does not resolve (%s).", name,
		    lz_resolve_strerror(res));
		goto done;
	}
	for (i = 0; i < n; i++)
		if (!webhook_addr_allowed(&addrs[i], allow_loopback,
		    plain_http, why, sizeof(why))) {
			lz_verr_set(e, 400, "unsafe_url", "url", "The host "
			    "'%.100s' of the receiving URL resolves to %s; "
			    "receiving URLs must be public.", name, why);
			goto done;
		}
	rc = 0;
done:
	free(addrs);
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_free(zone);
	curl_url_cleanup(u);
	return rc;
}

/* ---- secrets and signatures ------------------------------------------ */

int
webhook_key_load(const struct lz_conf *c, unsigned char key[WEBHOOK_KEY_BYTES],
    char *err, size_t errlen)
{
	unsigned char	 master[LZ_KEY_BYTES];

	if (lz_keyfile_load(c->key_file, master, err, errlen) == -1)
		return -1;
	lz_key_derive(master, "webhooks", 0, key, WEBHOOK_KEY_BYTES);
	sodium_memzero(master, sizeof(master));
	return 0;
}

void
webhook_secret_new(char *out)
{
	memcpy(out, WEBHOOK_SECRET_PREFIX, 6);
	lz_rnd_base62(out + 6, WEBHOOK_SECRET_RANDOM);
}

void
webhook_secret_seal(const unsigned char key[WEBHOOK_KEY_BYTES],
    const char *secret, unsigned char box[WEBHOOK_BOX_LEN])
{
	randombytes_buf(box, crypto_secretbox_NONCEBYTES);
	crypto_secretbox_easy(box + crypto_secretbox_NONCEBYTES,
	    (const unsigned char *)secret, WEBHOOK_SECRET_LEN, box, key);
}

int
webhook_secret_open(const unsigned char key[WEBHOOK_KEY_BYTES],
    const unsigned char box[WEBHOOK_BOX_LEN], char *out)
{
	if (crypto_secretbox_open_easy((unsigned char *)out,
	    box + crypto_secretbox_NONCEBYTES,
	    WEBHOOK_BOX_LEN - crypto_secretbox_NONCEBYTES, box, key) != 0) {
		out[0] = '\0';
		return -1;
	}
	out[WEBHOOK_SECRET_LEN] = '\0';
	return 0;
}

void
webhook_hmac_hex(const unsigned char *key, size_t keylen, const void *msg,
    size_t len, char hex[65])
{
	crypto_auth_hmacsha256_state	 st;
	unsigned char			 mac[crypto_auth_hmacsha256_BYTES];

	crypto_auth_hmacsha256_init(&st, key, keylen);
	crypto_auth_hmacsha256_update(&st, msg, len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_bin2hex(hex, 65, mac, sizeof(mac));
	sodium_memzero(&st, sizeof(st));
}

void
webhook_sign(const char *secret, const void *body, size_t len, char *sig)
{
	memcpy(sig, "sha256=", 7);
	webhook_hmac_hex((const unsigned char *)secret, strlen(secret), body,
	    len, sig + 7);
}

/* ---- subscriptions --------------------------------------------------- */

int64_t
webhook_add(struct lz_db *db, const unsigned char key[WEBHOOK_KEY_BYTES],
    int64_t account_id, const char *url, unsigned events, int allow_loopback,
    int64_t now, char *secret, struct lz_verr *e)
{
	unsigned char	 box[WEBHOOK_BOX_LEN];
	long long	 n;
	int64_t		 id;

	if (events == 0 || (events & ~(unsigned)WEBHOOK_EV_ALL) != 0) {
		lz_verr_set(e, 400, "invalid_events", "events", "Choose at "
		    "least one event: " WEBHOOK_EVENTS_LIST ".");
		return -1;
	}
	/* The cap first: a resolution is the costly part. */
	if ((n = store_webhook_count(db, account_id)) < 0)
		goto dberr;
	if (n >= WEBHOOK_MAX_PER_ACCOUNT)
		goto full;
	if (webhook_url_check(url, allow_loopback, e) == -1)
		return -1;
	webhook_secret_new(secret);
	webhook_secret_seal(key, secret, box);
	/* Again with the account's row held: concurrent additions wait. */
	if (lz_db_begin(db) == -1 ||
	    store_lock(db, STORE_LOCK_ACCOUNT, account_id) != 1)
		goto dberr;
	if ((n = store_webhook_count(db, account_id)) < 0)
		goto dberr;
	if (n >= WEBHOOK_MAX_PER_ACCOUNT)
		goto full;
	if ((id = store_webhook_add(db, account_id, url, events, box, now)) <
	    0 || lz_db_commit(db) == -1)
		goto dberr;
	return id;
full:
	lz_db_rollback(db);
	lz_verr_set(e, 403, "webhook_limit_reached", NULL, "The account has "
	    "%lld active webhooks, the most allowed; disable one first.", n);
	goto fail;
dberr:
	lz_db_rollback(db);
	lz_verr_set(e, 500, "internal_error", NULL, "The webhook could not be "
	    "stored.");
fail:
	sodium_memzero(secret, WEBHOOK_SECRET_LEN + 1);
	return -1;
}

int
webhook_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct webhook *w)
{
	return store_webhook_get(db, id, account_id, w);
}

long
webhook_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const struct webhook *, void *), void *arg)
{
	return store_webhook_list(db, account_id, fn, arg);
}

int
webhook_rotate(struct lz_db *db, const unsigned char key[WEBHOOK_KEY_BYTES],
    int64_t id, int64_t account_id, int64_t now, char *secret)
{
	unsigned char	 box[WEBHOOK_BOX_LEN];
	int		 rc;

	webhook_secret_new(secret);
	webhook_secret_seal(key, secret, box);
	if ((rc = store_webhook_set_secret(db, id, account_id, box, now)) !=
	    1)
		sodium_memzero(secret, WEBHOOK_SECRET_LEN + 1);
	return rc;
}

int
webhook_disable_tx(struct lz_db *db, int64_t id, int64_t account_id,
    const char *reason, int64_t now)
{
	int	 rc;

	if ((rc = store_webhook_disable(db, id, account_id, reason, now)) !=
	    1)
		return rc;
	if (store_delivery_cancel(db, id, "webhook disabled", now) == -1)
		return -1;
	return 1;
}

int
webhook_disable(struct lz_db *db, int64_t id, int64_t account_id,
    const char *reason, int64_t now)
{
	int	 rc;

	if (lz_db_begin(db) == -1)
		return -1;
	if ((rc = webhook_disable_tx(db, id, account_id, reason, now)) != 1) {
		lz_db_rollback(db);
		return rc;
	}
	if (lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		return -1;
	}
	return 1;
}

int
webhook_test(struct lz_db *db, int64_t id, int64_t account_id, int64_t now,
    char *uuid)
{
	struct webhook	 w;
	int		 rc;

	if ((rc = webhook_get(db, id, account_id, &w)) != 1)
		return rc;
	if (w.disabled_at != 0)
		return 0;
	if (lz_db_begin(db) == -1)
		return -1;
	if (events_test(db, id, now, uuid) == -1 || lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		return -1;
	}
	return 1;
}

/* ---- JSON forms (the dashboard; lzctl could print them too) ---------- */

json_t *
webhook_json(const struct webhook *w)
{
	json_t	*j, *ev;
	size_t	 i;

	ev = json_array();
	for (i = 0; i < 32; i++)
		if ((w->events & (1u << i)) && webhook_event_name(1u << i))
			json_array_append_new(ev,
			    json_string(webhook_event_name(1u << i)));
	j = json_object();
	json_object_set_new(j, "id", json_integer(w->id));
	json_object_set_new(j, "url", json_string(w->url));
	json_object_set_new(j, "events", ev);
	json_object_set_new(j, "status", json_string(w->disabled_at ?
	    "disabled" : "active"));
	json_object_set_new(j, "created_at", lz_json_time(w->created_at));
	json_object_set_new(j, "rotated_at", lz_json_time(w->rotated_at));
	json_object_set_new(j, "disabled_at", lz_json_time(w->disabled_at));
	json_object_set_new(j, "disabled_reason", w->disabled_at ?
	    json_string(w->disabled_reason) : json_null());
	json_object_set_new(j, "pending", json_integer(w->pending));
	return j;
}

json_t *
webhook_delivery_json(const struct webhook_delivery *d)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o?}",
	    "id", d->uuid, "event", d->event, "state", d->state,
	    "attempts", d->attempts, "created_at", lz_json_time(d->created_at),
	    "next_attempt_at", lz_json_time(d->next_at),
	    "finished_at", lz_json_time(d->finished_at),
	    "last_status_code", d->last_status ?
	    json_integer(d->last_status) : json_null(),
	    "last_error", d->last_error[0] ? json_string(d->last_error) :
	    json_null());
}
