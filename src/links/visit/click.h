/*
 * click.h -- one visit of a short link, as recorded (DESIGN 3.4) and as
 * handed to the statistics and to the click webhook event, and the rules
 * of a click entering storage, in one place.
 *
 * Strings of a struct click point into storage owned by whoever fills it
 * (the redirect handler, or the code that reads clicks back) and live as
 * long as it.
 *
 * Redirects of capped links store their click at once (the cap check and
 * the count are one transaction); all others write it to the click
 * journal (journal.h), whose mover (mover.h) calls here when it moves
 * clicks into the database.  Either way click_store() runs inside the caller's write
 * transaction, so what else a click causes (the click webhook event) is
 * one more call here, committed or rolled back with the click.
 */
#ifndef LZ_CLICK_H
#define LZ_CLICK_H

#include <stddef.h>
#include <stdint.h>

#include "webhook/events.h"
#include "stats/rollup.h"

struct link;
struct lz_db;

#define VISITOR_ID_LEN	16	/* bytes of the keyed visitor hash */

struct click {
	int64_t		 link_id;
	int64_t		 at;		/* ms since the epoch */
	const char	*suffix;	/* channel label of /slug/suffix, "" */
	char		 country[3];	/* ISO 3166-1 alpha-2, "" unknown */
	const char	*device;	/* "mobile", "tablet" or "desktop" */
	const char	*os;		/* e.g. "ios", "android", "windows" */
	const char	*browser;	/* e.g. "chrome", "safari" */
	const char	*referrer;	/* Referer header, "" none */
	const char	*variant;	/* A/B index ("0".."9"), device or
					   country key chosen, "" fallback */
	const char	*target;	/* the URL the visitor was sent to */
	unsigned char	 visitor[VISITOR_ID_LEN]; /* keyed hash, daily salt;
					   never the raw address */
	int		 bot;		/* bots are recorded but never
					   counted, capped or sent */
};

/* Bytes of a Referer kept, with the NUL (fits a journal record). */
#define CLICK_REFERRER_MAX	860

/*
 * Copies a Referer header to out (outlen bytes): cut at a character
 * boundary to fit; "" when it is not UTF-8 without control characters.
 */
void	click_referrer(const char *raw, char *out, size_t outlen);

/* The lower-case host of a referrer URL into out; "" when none. */
void	click_referrer_host(const char *referrer, char *out, size_t outlen);

#define CLICK_CAP	0x01	/* refuse a human click past max_clicks */

/*
 * What a batch of clicks (the click mover's transaction) keeps for its
 * end, written in the same transaction (click_tally_flush()): the human
 * clicks of each link, counted with one UPDATE per link instead of one
 * per click, every link of the batch in the order of their ids (so that
 * the movers of several hosts, conversions and rebuilds take the links'
 * rows in one order before their rollups and never deadlock);
 * the click subscriptions of the account of the last click; and the
 * batch's rollups (rollup.h), one upsert per link, hour or day,
 * breakdown and value instead of several per click.  The clicks
 * themselves go in as bulk rows (lz_bulk_row: one COPY on PostgreSQL).
 * Zero it to start; free it with click_tally_free().
 */
struct click_count {
	int64_t	 link_id;
	int64_t	 n;
};

struct click_tally {
	struct click_count	*v;
	size_t			 n, cap;
	struct events_targets	 targets;
	struct rollup		 ru;
};

/*
 * Stores click c of link l, in the caller's transaction.  A human click
 * (not c->bot) counts in the link's clicks: at once, or in tally when
 * one is given; its rollups go to tally too, or are written at once.
 * With CLICK_CAP (and no tally), a human click of a link that reached
 * max_clicks is refused and nothing changes.  now: the clock of the
 * visitors' horizon (rollup.h).  Returns 1 stored, 0 refused (capped),
 * -1 on error.
 */
int	click_store(struct lz_db *, const struct link *l,
	    const struct click *c, int64_t now, int flags,
	    struct click_tally *tally);

/* Writes what tally holds (now as for click_store) and empties it, also
 * on failure.  0 or -1. */
int	click_tally_flush(struct lz_db *, struct click_tally *, int64_t now);
void	click_tally_free(struct click_tally *);

#endif
