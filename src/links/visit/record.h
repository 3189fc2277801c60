/*
 * record.h -- a click entering storage: the rules, once (DESIGN 3.4,
 * 3.10).
 *
 * Redirects of capped links store their click at once (the cap check and
 * the count are one transaction); all others write it to the click
 * journal (journal.h), whose mover calls here when it moves clicks into
 * the database.  Either way record_click() runs inside the caller's
 * write transaction, so what else a click causes -- the link's count,
 * its rollups, the click webhook event -- is committed or rolled back
 * with the click.
 */
#ifndef LZ_RECORD_H
#define LZ_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "stats/rollup.h"
#include "store/clicks.h"
#include "webhook/events.h"

struct click;
struct link;
struct lz_db;

#define RECORD_CAP	0x01	/* refuse a human click past max_clicks */
#define RECORD_PAST	0x02	/* an imported click of the past: no
				   webhook event */
#define RECORD_NO_ROW	0x04	/* in the rollups only, not as a raw row
				   (older than clicks_retention_days) */

/*
 * What a batch of clicks (the click mover's transaction) keeps for its
 * end, written in the same transaction (record_flush()): the human
 * clicks of each link, counted with one UPDATE per link instead of one
 * per click, every link of the batch in the order of their ids (so that
 * the movers of several hosts, conversions and rebuilds take the links'
 * rows in one order before their rollups and never deadlock);
 * the click subscriptions of the account of the last click; and the
 * batch's rollups (rollup.h), one upsert per link, hour or day,
 * breakdown and value instead of several per click.  The clicks
 * themselves go in as bulk rows (lz_bulk_row: one COPY on PostgreSQL).
 * Zero it to start; free it with record_tally_free().
 */
struct record_tally {
	struct store_click_count *v;
	size_t			 n, cap;
	struct events_targets	 targets;
	struct rollup		 ru;
	int			 whole;	/* the batch holds every click of
					   its link-days (rollup_write) */
};

/*
 * Stores click c of link l, in the caller's transaction.  A human click
 * (not c->bot) counts in the link's clicks: at once, or in tally when
 * one is given; its rollups go to tally too, or are written at once.
 * With RECORD_CAP (and no tally), a human click of a link that reached
 * max_clicks is refused and nothing changes.  now: the clock of the
 * visitors' horizon (rollup.h).  Returns 1 stored, 0 refused (capped),
 * -1 on error.
 */
int	record_click(struct lz_db *, const struct link *l,
	    const struct click *c, int64_t now, int flags,
	    struct record_tally *tally);

/* Writes what tally holds (now as for record_click) and empties it, also
 * on failure.  0 or -1. */
int	record_flush(struct lz_db *, struct record_tally *, int64_t now);
void	record_tally_free(struct record_tally *);

#endif
