/*
 * click.c -- a click entering storage: the rules (click.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "events.h"
#include "link.h"
#include "store/clicks.h"
#include "utf8.h"
#include "visit/click.h"

void
click_referrer(const char *raw, char *out, size_t outlen)
{
	size_t	 n;

	out[0] = '\0';
	if (raw == NULL || outlen == 0)
		return;
	n = strlen(raw);
	if (n >= outlen) {
		n = outlen - 1;
		/* Back up to the start of a UTF-8 character. */
		while (n > 0 && ((unsigned char)raw[n] & 0xc0) == 0x80)
			n--;
	}
	if (lz_utf8_count(raw, n, LZ_UTF8_NOCTRL) < 0)
		return;
	memcpy(out, raw, n);
	out[n] = '\0';
}

void
click_referrer_host(const char *referrer, char *out, size_t outlen)
{
	CURLU	*u;
	char	*host = NULL;
	size_t	 i;

	out[0] = '\0';
	if (referrer == NULL || *referrer == '\0' || (u = curl_url()) == NULL)
		return;
	if (curl_url_set(u, CURLUPART_URL, referrer,
	    CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		snprintf(out, outlen, "%s", host);
		for (i = 0; out[i] != '\0'; i++)
			out[i] = (char)tolower((unsigned char)out[i]);
	}
	curl_free(host);
	curl_url_cleanup(u);
}

int
click_tally_flush(struct lz_db *db, struct click_tally *t, int64_t now)
{
	int	 rc = 0;

	if (t->n > 0)
		rc = store_click_add(db, t->link_id, t->n);
	t->link_id = 0;
	t->n = 0;
	if (rollup_write(db, &t->ru, now, 0) == -1)
		rc = -1;
	return rc;
}

void
click_tally_free(struct click_tally *t)
{
	rollup_free(&t->ru);
	memset(t, 0, sizeof(*t));
}

/* Counts c's click in the link (at once without a tally): 1, 0 capped,
 * -1. */
static int
count(struct lz_db *db, const struct link *l, const struct click *c,
    int flags, struct click_tally *tally)
{
	int	 rc;

	if (c->bot)
		return 1;
	if (tally == NULL) {
		rc = store_click_count(db, l->id);
		return rc == 0 && !(flags & CLICK_CAP) ? 1 : rc;
	}
	if (tally->link_id != l->id && tally->n > 0 &&
	    store_click_add(db, tally->link_id, tally->n) == -1)
		return -1;
	if (tally->link_id != l->id)
		tally->n = 0;
	tally->link_id = l->id;
	tally->n++;
	return 1;
}

int
click_store(struct lz_db *db, const struct link *l, const struct click *c,
    int64_t now, int flags, struct click_tally *tally)
{
	struct click_tally	 one;
	char			 host[256];
	int			 rc;

	if ((rc = count(db, l, c, flags, tally)) != 1)
		return rc;
	click_referrer_host(c->referrer, host, sizeof(host));
	if (store_click_insert(db, c, host) == -1)
		return -1;
	/* A counted click is where the click webhook event goes, in this
	 * transaction (events_click skips bots itself). */
	if (events_click(db, l, c, now) == -1)
		return -1;
	if (tally != NULL) {
		rollup_click(&tally->ru, c, host);
		return 1;
	}
	memset(&one, 0, sizeof(one));
	rollup_click(&one.ru, c, host);
	rc = rollup_write(db, &one.ru, now, 0);
	click_tally_free(&one);
	return rc == -1 ? -1 : 1;
}
