/*
 * resolve.h -- host names to addresses within a time limit (DESIGN 3.11).
 *
 * getaddrinfo(3) waits as long as the name servers make it (5 s a try,
 * several tries), and a worker that waits serves nothing else.  This asks
 * the name servers through c-ares, in the calling thread, and gives up at
 * a deadline.  Address literals -- in any notation inet_aton(3) or
 * inet_pton(3) takes ("127.1", "0x7f000001", "::1") -- are read without
 * asking anyone; names are looked up in /etc/hosts, then in the DNS.
 */
#ifndef LZ_RESOLVE_H
#define LZ_RESOLVE_H

#include <stddef.h>

struct lz_addr;

enum lz_resolve_rc {
	LZ_RESOLVE_OK,		/* at least one address */
	LZ_RESOLVE_NONE,	/* no such name, or no address for it */
	LZ_RESOLVE_TIMEOUT,	/* no answer before the deadline */
	LZ_RESOLVE_FAIL		/* anything else (logged) */
};

/*
 * Readies the resolver of this process: servers "" asks those of
 * /etc/resolv.conf, else a comma-separated list of "host[:port]" ("[v6]"
 * with a port).  Call after fork and before a sandbox: it reads
 * /etc/resolv.conf.  Calling it again replaces the servers.  Returns 0,
 * or -1 with err set.
 */
int	lz_resolve_init(const char *servers, char *err, size_t errlen);
void	lz_resolve_fini(void);

/*
 * Resolves name within timeout_ms.  On LZ_RESOLVE_OK *out holds *n >= 1
 * addresses, which the caller frees; else *out is NULL and *n 0.  A
 * process that did not call lz_resolve_init uses the system's servers.
 */
enum lz_resolve_rc lz_resolve(const char *name, int timeout_ms,
	    struct lz_addr **out, size_t *n);

/*
 * Looks for a TXT record of name whose text (its strings joined) is
 * want, within timeout_ms: LZ_RESOLVE_OK with *found 1 when one is, 0
 * when name has TXT records but none is want; LZ_RESOLVE_NONE when it
 * has none; else as lz_resolve.  (Domain verification, DESIGN 3.12.)
 */
enum lz_resolve_rc lz_resolve_txt(const char *name, const char *want,
	    int timeout_ms, int *found);

/* "timed out" and so on, for logs. */
const char *lz_resolve_strerror(enum lz_resolve_rc);

#endif
