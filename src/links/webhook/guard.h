/*
 * guard.h -- the SSRF guard of webhooks (DESIGN 3.6): where a receiving
 * URL may lead, checked when a subscription is added (with a resolution
 * bounded in time) and at every connection lz-hooks makes.
 */
#ifndef LZ_WEBHOOK_GUARD_H
#define LZ_WEBHOOK_GUARD_H

#include <stddef.h>

struct lz_addr;
struct lz_verr;

/*
 * May a delivery connect to a? Public addresses always; loopback ones
 * only with allow_loopback (lz.conf webhook_allow_loopback); plain http
 * only to loopback.  Returns 1, or 0 with the reason in why.
 */
int	webhook_addr_allowed(const struct lz_addr *a, int allow_loopback,
	    int plain_http, char *why, size_t whylen);

/*
 * Checks a receiving URL: an absolute https URL (http only to loopback
 * with allow_loopback) of at most URL_MAX bytes, without user name or
 * password, whose host -- a name or a literal in any notation the
 * resolver accepts -- resolves within WEBHOOK_DNS_TIMEOUT_MS only to
 * addresses webhook_addr_allowed lets through (lz_resolve: the name
 * servers of lz_resolve_init).  Returns 0, or -1 with e filled (400
 * invalid_url for the URL's form, unsafe_url for where it leads, param
 * "url"); the message names the host and what it resolved to, for
 * admins: the dashboard answers a generic one.
 */
int	webhook_url_check(const char *url, int allow_loopback,
	    struct lz_verr *e);

#endif
