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

#include <jansson.h>

#include "store/domains.h"

struct lz_conf;
struct lz_db;
struct lz_verr;

/* No request waits on DNS longer (as webhook checks, DESIGN 3.11). */
#define DOMAIN_DNS_TIMEOUT_MS	2000
/* An account's own domains, at most: the workers read every domain
 * once a second (hostmap.h). */
#define DOMAINS_PER_ACCOUNT	100
/* The TXT record that proves an account owns a host. */
#define DOMAIN_TXT_LABEL	"_lz-verify."
#define DOMAIN_TXT_PREFIX	"lz-verify="

/*
 * What a domain's owner sets, in the order of struct domain: the three
 * URLs (the first DOMAIN__URLS), then the deep-link files served at
 * /.well-known/ of the host (JSON: an object, an array; at most
 * DOMAIN_DEEPLINK_MAX bytes).  The names are the API's fields.
 */
enum { DOMAIN_ROOT_URL, DOMAIN_NOT_FOUND_URL, DOMAIN_EXPIRED_URL,
    DOMAIN_AASA, DOMAIN_ASSETLINKS, DOMAIN__SETTINGS };
#define DOMAIN__URLS		3
#define DOMAIN_DEEPLINK_MAX	65536
extern const char *const domain_setting_names[DOMAIN__SETTINGS];

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
 * Sets the settings of d (the live domain by host) that set[i] says, to
 * v[i] (NULL or "" clears): URLs checked as by domain_add, deep-link
 * files as JSON of their kind (400 invalid_field naming the setting).
 * 0, or -1 with e (404 for a domain gone).
 */
int	domain_set(struct lz_db *, const struct lz_conf *, struct domain *d,
	    const int set[DOMAIN__SETTINGS], const char *const *v,
	    struct lz_verr *e);

/*
 * Looks up d's TXT record (DOMAIN_TXT_LABEL + host, with DOMAIN_TXT_PREFIX
 * + its token) and marks d verified at now.  0 (also when it was
 * verified already), or -1 with e: 409 verification_failed when the
 * record is missing, holds another text, or the name servers did not
 * answer within DOMAIN_DNS_TIMEOUT_MS (each said); 500.
 */
int	domain_verify(struct lz_db *, struct domain *d, int64_t now,
	    struct lz_verr *e);

/*
 * d as the API shows it: host, default, scope, verified, the three URLs,
 * links (the caller's live links on it) and, for an account's domain not
 * verified yet, the verification record to publish (else null).
 */
json_t	*domain_json(const struct domain *d, int is_default,
	    long long links);

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
