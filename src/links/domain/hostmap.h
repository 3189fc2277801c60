/*
 * hostmap.h -- which short domain a visit came to: the request's Host
 * (host_of_header) among the default domain and the live domains of the
 * database.  The domains are read all at once and kept for
 * LINKCACHE_TTL_MS in each worker, like the links (visit/linkcache.h): a
 * visit costs no query for its domain, and a domain added or changed
 * serves within a second.
 */
#ifndef LZ_DOMAIN_HOSTMAP_H
#define LZ_DOMAIN_HOSTMAP_H

#include <stdint.h>

struct domain;
struct lz_conf;
struct lz_db;

/*
 * The domain of host (as host_of_header gives it; NULL: the request had
 * none, which is the default domain's) into *d, valid until the next
 * call: 1, 0 when no domain has that host (the visit gets the 404
 * page, never the default domain's links), -1 when the domains cannot
 * be read.
 */
int	hostmap_find(struct lz_db *, const struct lz_conf *, const char *host,
	    int64_t now_ms, const struct domain **d);

/* Forgets the domains read (the next find reads them again). */
void	hostmap_clear(void);

#endif
