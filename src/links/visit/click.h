/*
 * click.h -- one visit of a short link, as recorded (DESIGN 3.4) and as
 * handed to the statistics and to the click webhook event; and the
 * referrer's cleaning, which every writer of a click applies.  The type
 * of the stores and the statistics: it includes nothing of theirs.
 * How a click enters storage is record.h's.
 *
 * Strings of a struct click point into storage owned by whoever fills it
 * (the redirect handler, or the code that reads clicks back) and live as
 * long as it.
 */
#ifndef LZ_CLICK_H
#define LZ_CLICK_H

#include <stddef.h>
#include <stdint.h>

#include "sizes.h"

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

#endif
