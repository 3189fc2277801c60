/*
 * safebrowsing.h -- the Google Safe Browsing v4 Lookup API
 * (threatMatches:find), through libcurl.
 */
#ifndef LZ_SAFEBROWSING_H
#define LZ_SAFEBROWSING_H

#include <stddef.h>

struct lz_conf;

#define SB_URLS_MAX	500	/* threat entries per request (API limit) */

/*
 * Looks urls[0..n) up in one request to conf->safe_browsing_url with the
 * key conf->safe_browsing_key, for malware, social engineering, unwanted
 * and potentially harmful software on any platform, giving up after
 * conf->safe_browsing_timeout_ms.  Returns 0 when no URL is listed; 1 when
 * one is, with its index in *hit and the threat type ("MALWARE", ...) in
 * threat; -1 when the lookup failed (time-out, transport or HTTP error, a
 * reply that is not the API's), with a message in err.
 */
int	sb_lookup(const struct lz_conf *conf, const char *const *urls,
	    size_t n, size_t *hit, char *threat, size_t threatlen, char *err,
	    size_t errlen);

#endif
