/*
 * store/domains.h -- the SQL of short domains (domain/domain.h has the
 * rules; these are only the statements).
 */
#ifndef LZ_STORE_DOMAINS_H
#define LZ_STORE_DOMAINS_H

#include <stdint.h>

#include "sizes.h"

struct lz_db;

#define DOMAIN_TOKEN_LEN	32	/* characters of a verify token */
#define DOMAIN_URL_MAX		2048

/* A row of domains. */
struct domain {
	int64_t	 id;
	char	 host[HOST_MAX + 1];
	int64_t	 account_id;		/* 0: an instance domain */
	char	 token[DOMAIN_TOKEN_LEN + 1];
	int64_t	 verified_at;		/* 0: not yet */
	char	*root_url, *not_found_url, *expired_url;	/* or NULL */
	char	*aasa, *assetlinks;	/* deep-link files, JSON, or NULL */
	int64_t	 created_at;
};

void	store_domain_free(struct domain *);

/* Adds d (its host, account, token, verified_at, URLs, created_at), or
 * brings a removed one of the host back as d: its id, 0 when the host
 * is taken, -1 on error. */
int64_t	store_domain_add(struct lz_db *, const struct domain *d);
/* The live domain of host into d: 1, 0 none, -1 on error. */
int	store_domain_by_host(struct lz_db *, const char *host,
	    struct domain *d);
/* Which of host[0..n) are live domains: fn(i, arg) for each.  A look-up
 * each on SQLite, one statement on PostgreSQL.  0 or -1. */
int	store_domain_hosts_live(struct lz_db *, const char *const *host,
	    size_t n, void (*fn)(size_t, void *), void *arg);
/* The domains of account and the instance's (account 0: all), by host;
 * fn's d lives for the call.  The count, or -1. */
long	store_domain_list(struct lz_db *, int64_t account,
	    void (*fn)(const struct domain *, void *), void *arg);
/* Stores d's URLs and deep-link files.  1 done, 0 no such live domain,
 * -1. */
int	store_domain_set(struct lz_db *, const struct domain *d);
/* The host of domain id, removed or not, into host (HOST_MAX + 1
 * bytes): 1, 0 none, -1. */
int	store_domain_host(struct lz_db *, int64_t id, char *host);
/* Marks a domain verified at now: 1 done, 0 not (gone or verified
 * already), -1. */
int	store_domain_verify(struct lz_db *, int64_t id, int64_t now);
/* The live domains of account, or -1. */
long long store_domain_count(struct lz_db *, int64_t account);
/* Calls fn(domain id, 0 the default one; live links) for each domain
 * account has live links on.  The count, or -1. */
long	store_domain_account_links(struct lz_db *, int64_t account,
	    void (*fn)(int64_t domain, long long links, void *), void *arg);
/* The live links of domain id, or -1: a count that grows with them. */
long long store_domain_links(struct lz_db *, int64_t id);
/* Removes the domain unless live links use it: 1 done, 0 not, -1. */
int	store_domain_remove(struct lz_db *, int64_t id, int64_t now);

#endif
