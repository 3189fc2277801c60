/*
 * events.c -- webhook events into the outbox.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "domain/host.h"
#include "link/link.h"
#include "log.h"
#include "lztime.h"
#include "resp.h"
#include "rnd.h"
#include "store/webhooks.h"
#include "util.h"
#include "visit/click.h"
#include "webhook/events.h"
#include "webhook/webhook.h"

/*
 * A new delivery id: "dlv_" and 128 random bits in 22 base62 digits.  One
 * read of the random source (libsodium's is a system call each time), as
 * this runs for every event.
 */
static void
delivery_id(char out[WEBHOOK_DELIVERY_LEN + 1])
{
	uint64_t	 r[2];

	randombytes_buf(r, sizeof(r));
	memcpy(out, WEBHOOK_DELIVERY_PREFIX, 4);
	lz_base62_fixed(r[0], out + 4, 11);
	lz_base62_fixed(r[1], out + 15, 11);
	out[WEBHOOK_DELIVERY_LEN] = '\0';
}

/*
 * Queues one delivery of event name per subscription in ids[0..n), as
 * bulk rows of a batch with bulk.  Takes over the reference to data.
 * With uuid, the id of the (last) delivery is copied there.
 */
static int
enqueue(struct lz_db *db, const int64_t *ids, int n, const char *name,
    json_t *data, int64_t now, char *uuid_out, int bulk)
{
	char		 sent_at[32], uuid[WEBHOOK_DELIVERY_LEN + 1], *body;
	json_t		*j;
	size_t		 len;
	int		 i, rc = 0;

	lz_time_fmt_iso(now, sent_at, sizeof(sent_at), 1);
	j = json_object();
	json_object_set_new(j, "event", json_string(name));
	json_object_set_new(j, "sent_at", json_string(sent_at));
	json_object_set_new(j, "data", data);
	body = lz_json_dump(j, &len);
	json_decref(j);
	for (i = 0; i < n && rc == 0; i++) {
		delivery_id(uuid);
		rc = store_delivery_add(db, ids[i], uuid, name, body, len, now,
		    bulk);
	}
	if (uuid_out != NULL)
		memcpy(uuid_out, uuid, sizeof(uuid));
	free(body);
	return rc;
}

/* base_url's host (events_default_domain), "" unset. */
static char	default_domain[HOST_MAX + 1];

void
events_default_domain(const char *base_url)
{
	if (host_of_url(base_url, default_domain,
	    sizeof(default_domain)) == -1)
		default_domain[0] = '\0';
}

/* The host of l's domain, or null. */
static json_t *
domain_of(const struct link *l)
{
	if (l->domain != NULL)
		return json_string(l->domain);
	return default_domain[0] != '\0' ? json_string(default_domain) :
	    json_null();
}

int
events_link(struct lz_db *db, unsigned ev, const struct link *l,
    const char *base_url, int64_t now)
{
	int64_t	 ids[WEBHOOK_MAX_PER_ACCOUNT];
	json_t	*data;
	int	 n;

	n = store_webhook_targets(db, l->account_id, ev, ids,
	    (int)LZ_NELEM(ids));
	if (n <= 0)
		return n;
	if (ev == WEBHOOK_EV_LINK_DELETED)
		data = json_pack("{s:I, s:s, s:o}", "id", (json_int_t)l->id,
		    "slug", l->slug, "domain", domain_of(l));
	else
		data = link_json(l, base_url, now);
	return enqueue(db, ids, n, webhook_event_name(ev), data, now, NULL, 0);
}

/* A string field; "" for none, and for bytes that are not UTF-8 (a raw
 * Referer header can be anything), which JSON cannot carry. */
static json_t *
str_or_empty(const char *s)
{
	json_t	*j;

	if (s == NULL || (j = json_string(s)) == NULL)
		j = json_string("");
	return j;
}

int
events_click(struct lz_db *db, const struct link *l, const struct click *c,
    int64_t now, struct events_targets *cache)
{
	struct events_targets	 t;
	json_t			*data;

	if (c->bot)
		return 0;
	if (cache == NULL || cache->account_id != l->account_id) {
		if ((t.n = store_webhook_targets(db, l->account_id,
		    WEBHOOK_EV_CLICK, t.ids, (int)LZ_NELEM(t.ids))) < 0)
			return -1;
		t.account_id = l->account_id;
		if (cache != NULL)
			*cache = t;
	} else
		t = *cache;
	if (t.n == 0)
		return 0;
	data = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "slug", str_or_empty(l->slug), "domain", domain_of(l),
	    "suffix", str_or_empty(c->suffix),
	    "target", str_or_empty(c->target),
	    "country", str_or_empty(c->country),
	    "device", str_or_empty(c->device), "os", str_or_empty(c->os),
	    "referrer", str_or_empty(c->referrer));
	/* A batch's (with its cache): bulk rows, streamed at its end. */
	return enqueue(db, t.ids, t.n, webhook_event_name(WEBHOOK_EV_CLICK),
	    data, now, NULL, cache != NULL);
}

int
events_test(struct lz_db *db, int64_t webhook_id, int64_t now,
    char *uuid)
{
	json_t	*data;

	data = json_pack("{s:I, s:s}", "webhook_id", (json_int_t)webhook_id,
	    "message", "A test delivery from lz: your endpoint receives and "
	    "verifies webhooks.");
	return enqueue(db, &webhook_id, 1, EVENTS_TEST, data, now, uuid, 0);
}
