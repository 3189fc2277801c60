/*
 * clicks.h -- a click entering storage: the rules, in one place.
 *
 * Redirects of capped links store their click at once (the cap check and
 * the count are one transaction); all others write it to the click
 * journal (clicklog.h), which calls here when it moves clicks into the
 * database.  Either way clicks_store() runs inside the caller's write
 * transaction, so what else a click causes (the click webhook event) is
 * one more call here, committed or rolled back with the click.
 */
#ifndef LZ_CLICKS_H
#define LZ_CLICKS_H

#include <stddef.h>
#include <stdint.h>

struct click;
struct link;
struct lz_db;

/* Bytes of a Referer kept, with the NUL (fits a journal record). */
#define CLICK_REFERRER_MAX	860

/*
 * Copies a Referer header to out (outlen bytes): cut at a character
 * boundary to fit; "" when it is not UTF-8 without control characters.
 */
void	clicks_referrer(const char *raw, char *out, size_t outlen);

/* The lower-case host of a referrer URL into out; "" when none. */
void	clicks_referrer_host(const char *referrer, char *out, size_t outlen);

#define CLICKS_CAP	0x01	/* refuse a human click past max_clicks */

/*
 * Human clicks of one link stored but not counted yet: a batch of clicks
 * counts them with one UPDATE per run of a link instead of one per click
 * (clicks_tally_flush(), in the same transaction).  Zero it to start.
 */
struct clicks_tally {
	int64_t	 link_id;
	int64_t	 n;
};

/*
 * Stores click c of link l, in the caller's transaction.  A human click
 * (not c->bot) counts in the link's clicks: at once, or in tally when
 * one is given.  With CLICKS_CAP (and no tally), a human click of a link
 * that reached max_clicks is refused and nothing changes.  Returns 1
 * stored, 0 refused (capped), -1 on error.
 */
int	clicks_store(struct lz_db *, const struct link *l,
	    const struct click *c, int64_t now, int flags,
	    struct clicks_tally *tally);

/* Writes the counts kept in tally and empties it.  0 or -1. */
int	clicks_tally_flush(struct lz_db *, struct clicks_tally *);

#endif
