/*
 * subs.c -- webhook subscriptions (subs.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "db.h"
#include "jbody.h"
#include "store/store.h"
#include "store/webhooks.h"
#include "util.h"
#include "verr.h"
#include "webhook/events.h"
#include "webhook/guard.h"
#include "webhook/sign.h"
#include "webhook/subs.h"

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
