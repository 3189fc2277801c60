/*
 * domain.h -- short domains (DESIGN 3.12, lz-links(8) "Domains"): the
 * default one (base_url's host, always there), the instance's (added by
 * the admin, usable by every account) and accounts' own (verified by a
 * DNS TXT record before they take links).  The rules; store/domains.h
 * has the SQL.
 */
#ifndef LZ_DOMAIN_H
#define LZ_DOMAIN_H

#include <stdint.h>

#include "store/domains.h"

struct lz_conf;
struct lz_db;
struct lz_verr;

/* The three URLs of a domain, in the order of struct domain. */
enum { DOMAIN_ROOT_URL, DOMAIN_NOT_FOUND_URL, DOMAIN_EXPIRED_URL,
    DOMAIN__URLS };
extern const char *const domain_url_names[DOMAIN__URLS];

/* The default domain's host: base_url's, as host_of_header reads it
 * (into out, HOST_MAX + 1 bytes).  0, or -1 when base_url has none. */
int	domain_default_host(const struct lz_conf *, char *out, size_t len);

/*
 * Adds host (host_parse) for account (0: an instance domain), verified
 * at now when verified (the admin's), with urls[DOMAIN__URLS] (NULL or
 * "": none; each through the destination checks and the safety scan).
 * Into d; 0, or -1 with e: 400 invalid_field naming host or the URL,
 * 409 domain_taken for the default domain's host or one another has.
 */
int	domain_add(struct lz_db *, const struct lz_conf *, const char *host,
	    int64_t account, int verified, const char *const *urls,
	    int64_t now, struct domain *d, struct lz_verr *e);

/*
 * Sets the URLs of d (the live domain by host) that set[i] says, to
 * urls[i] (NULL or "" clears), checked as by domain_add.  0, or -1 with
 * e (404 for a domain gone).
 */
int	domain_set_urls(struct lz_db *, const struct lz_conf *,
	    struct domain *d, const int set[DOMAIN__URLS],
	    const char *const *urls, struct lz_verr *e);

/*
 * The domain host (as host_parse reads it; NULL or "": the default) that
 * account may put links on, its id into *id (0: the default): the
 * default domain, the instance's, and the account's own once verified.
 * 0, or -1 with e: 400 invalid_field naming param for any other host
 * (another account's is no different from none), 500.
 */
int	domain_usable(struct lz_db *, const struct lz_conf *, const char *host,
	    int64_t account, const char *param, int64_t *id,
	    struct lz_verr *e);

/* Removes d unless live links use it: 0, or -1 with e (409
 * domain_in_use). */
int	domain_remove(struct lz_db *, const struct domain *d, int64_t now,
	    struct lz_verr *e);

#endif
