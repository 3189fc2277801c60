/*
 * click.h -- one visit of a short link, as recorded (DESIGN 3.4) and as
 * handed to the statistics and to the click webhook event.
 *
 * Strings point into storage owned by whoever fills the struct (the
 * redirect handler, or the code that reads clicks back) and live as long
 * as it.
 */
#ifndef LZ_CLICK_H
#define LZ_CLICK_H

#include <stdint.h>

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

#endif
