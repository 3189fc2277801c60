/*
 * webhook.c -- the events' names and a delivery's memory (webhook.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "verr.h"
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
