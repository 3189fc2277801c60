/*
 * record.c -- a click entering storage: the rules (record.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "link/link.h"
#include "stats/rollup.h"
#include "store/clicks.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"
#include "visit/record.h"
#include "webhook/events.h"

/*
 * One more click of link_id in t, n of them human (0 or 1).  A bot's
 * link is listed too, with 0: the flush takes every link's row of the
 * batch, in order, before it writes their rollups.
 */
static void
tally_add(struct record_tally *t, int64_t link_id, int n)
{
	/* Clicks come in runs of a link: the last count is the likely one. */
	if (t->n > 0 && t->v[t->n - 1].link_id == link_id) {
		t->v[t->n - 1].n += n;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xreallocarray(t->v, t->cap, sizeof(*t->v));
	}
	t->v[t->n].link_id = link_id;
	t->v[t->n++].n = n;
}

static int
by_link(const void *a, const void *b)
{
	const struct store_click_count	*x = a, *y = b;

	return (x->link_id > y->link_id) - (x->link_id < y->link_id);
}

int
record_flush(struct lz_db *db, struct record_tally *t, int64_t now)
{
	size_t	 i, k;
	int	 rc = 0;

	/* One count per link, in the order of their ids. */
	if (t->n > 0)
		qsort(t->v, t->n, sizeof(*t->v), by_link);
	for (i = k = 0; i < t->n; i++)
		if (k > 0 && t->v[k - 1].link_id == t->v[i].link_id)
			t->v[k - 1].n += t->v[i].n;
		else
			t->v[k++] = t->v[i];
	if (k > 0)
		rc = store_click_add(db, t->v, k);
	t->n = 0;
	memset(&t->targets, 0, sizeof(t->targets));
	/* After a failure the transaction is lost (PostgreSQL refuses
	 * every statement after one that failed): only emptied. */
	if (rc == 0)
		rc = rollup_write(db, &t->ru, now, t->whole);
	else
		rollup_free(&t->ru);
	return rc;
}

void
record_tally_free(struct record_tally *t)
{
	free(t->v);
	rollup_free(&t->ru);
	memset(t, 0, sizeof(*t));
}

/*
 * The rollups of a click stored on its own (a capped link's), kept from
 * one to the next: rollup_write empties the table but keeps its room
 * and key, where a new one would allocate ~90 KiB and ask the kernel
 * for a key each time.  The worker's thread only: the mover always
 * passes a tally.
 */
static struct rollup	 direct;

int
record_click(struct lz_db *db, const struct link *l, const struct click *c,
    int64_t now, int flags, struct record_tally *tally)
{
	char			 host[256];
	int			 rc;

	if (tally != NULL)
		tally_add(tally, l->id, !c->bot);
	else if (!c->bot) {
		if ((rc = store_click_count(db, l->id)) == -1)
			return -1;
		if (rc == 0 && (flags & RECORD_CAP))
			return 0;
	} else if (store_lock(db, STORE_LOCK_LINK, l->id) == -1)
		return -1;	/* the row a human click's update takes */
	click_referrer_host(c->referrer, host, sizeof(host));
	if (!(flags & RECORD_NO_ROW) && store_click_insert(db, c, host,
	    tally != NULL) == -1)
		return -1;
	/* A counted click is where the click webhook event goes, in this
	 * transaction (events_click skips bots itself); not one of the
	 * past an import brings. */
	if (!(flags & RECORD_PAST) && events_click(db, l, c, now, tally ?
	    &tally->targets : NULL) == -1)
		return -1;
	if (tally != NULL) {
		rollup_click(&tally->ru, c, host);
		return 1;
	}
	rollup_click(&direct, c, host);
	return rollup_write(db, &direct, now, 0) == -1 ? -1 : 1;
}
