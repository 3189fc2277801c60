/*
 * target.h -- where a visit of a link goes (DESIGN 3.2, 3.4): the variant
 * of mode ab, device or geo that fits the visitor, else target_url; then
 * the link's utm_* parameters set on that URL.  Pure functions: the
 * redirect, the click journal (which stores only the variant) and the
 * unit tests all call them.
 */
#ifndef LZ_TARGET_H
#define LZ_TARGET_H

#include <stdint.h>

#include "sizes.h"

struct link;


/* What the pick depends on. */
struct target_visit {
	const char	*os;		/* ua_info.os */
	int		 desktop;	/* ua_info.device == UA_DESKTOP */
	const char	*country;	/* ISO 3166-1 alpha-2, "" unknown */
	uint64_t	 bucket;	/* visitor_bucket() for mode ab */
};

/*
 * Picks the URL for a visit and writes its variant label to variant:
 * the A/B index ("0".."9"), the device key or the country code, or ""
 * when target_url is used.  Returns a string of l.
 */
const char *target_pick(const struct link *l, const struct target_visit *,
	    char variant[VARIANT_MAX]);

/* The URL a variant label stands for ("" or unknown: target_url). */
const char *target_of_variant(const struct link *l, const char *variant);

/*
 * url with the link's utm parameters set (utm.source as utm_source, ...),
 * replacing parameters of the same name already there; the rest of the
 * query and the fragment stay.  The result is ASCII, fit for a Location
 * header: an internationalised host in punycode, other non-ASCII bytes
 * %-escaped.  Returns a new string (caller frees), or NULL when url
 * cannot be parsed.
 */
char	*target_with_utm(const struct link *l, const char *url);

#endif
