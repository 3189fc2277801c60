/*
 * throttle.h -- one mechanism for every password a stranger may guess
 * (DESIGN 3.11): dashboard sign-in and sign-up, a signed-in user's
 * current password, and the passwords of protected links.
 *
 * A scope is what tries are counted against: a client network
 * ("addr:NET"), a network and an e-mail address ("pair:NET|EMAIL"),
 * a network at a link ("link:ID|NET"), a link from everywhere
 * ("link:ID").  Never an e-mail address alone: a stranger's failures
 * would lock its owner out.  NET is an IPv4 address, or an IPv6
 * address's /64.
 *
 * Each scope has a window that holds at most its rule's limit of tries.
 * A try is taken before the password is checked, so that tries made at
 * once are counted exactly, on either engine, however many run
 * together (one statement: store/throttles.h); a right password gives
 * its try back, so only wrong ones add up.  A window that was full
 * makes the next one twice as long, up to the rule's longest (back-off
 * for whoever keeps guessing); a quiet one brings it back to its first
 * length.
 */
#ifndef LZ_THROTTLE_H
#define LZ_THROTTLE_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;

struct throttle_rule {
	long long	 limit;		/* tries a window holds */
	int64_t		 window_ms;	/* its first length */
	int64_t		 longest_ms;	/* what back-off doubles it up to
					   (window_ms: no back-off) */
};

#define THROTTLE_SCOPE_MAX	400	/* "pair:", a network, '|', an e-mail */
#define THROTTLE_LONGEST_MS	(24 * 3600 * 1000LL)	/* a day */

/* The scopes, into out (THROTTLE_SCOPE_MAX bytes; an e-mail address is
 * cut to fit, lower-cased). */
void	throttle_scope_addr(const char *addr, char *out, size_t len);
void	throttle_scope_pair(const char *addr, const char *email, char *out,
	    size_t len);
/* addr NULL: the link from everywhere. */
void	throttle_scope_link(int64_t link_id, const char *addr, char *out,
	    size_t len);

/*
 * Takes a try of scope under rule at now.  Returns 1 taken; 0 refused,
 * with *retry_after the seconds until a try may be taken again (1 and
 * up); -1 on error.
 */
int	throttle_take(struct lz_db *, const char *scope,
	    const struct throttle_rule *, int64_t now, long long *retry_after);
/* Gives a try of scope back (its password was right).  0 or -1. */
int	throttle_give_back(struct lz_db *, const char *scope);
/* Forgets scope's tries (a right sign-in clears its pair).  0 or -1. */
int	throttle_clear(struct lz_db *, const char *scope);
/* Forgets the windows past back-off at now.  0 or -1. */
int	throttle_purge(struct lz_db *, int64_t now);

#endif
