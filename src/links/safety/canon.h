/*
 * canon.h -- URL canonicalisation the Google Safe Browsing way ("URLs and
 * Hashing" of the Safe Browsing v4 documentation), the form in which
 * destinations are matched against blocklists:
 *
 *  - tab, CR and LF removed, leading and trailing spaces and controls
 *    trimmed, the fragment dropped;
 *  - a missing scheme taken as http;
 *  - host, path and query percent-unescaped until no escape is left;
 *  - host: lower case, IDN to punycode (UTS #46, as browsers), leading and
 *    trailing dots removed, runs of dots collapsed, IPv4 in any notation
 *    (decimal, octal, hex, fewer than four parts) written as a dotted
 *    quad, IPv6 in its canonical text form, port dropped;
 *  - path: "/./" and "/../" resolved, runs of slashes collapsed (a
 *    backslash is a slash, as in browsers); the query left as it is;
 *  - bytes <= 0x20, >= 0x7f, '#' and '%' percent-escaped (upper-case hex).
 *
 * Besides the canonical URL, the parse records what the safety scan
 * judges: a user name or password, a backslash in the authority, a host
 * with characters no host name has, an IP-address host.
 */
#ifndef LZ_CANON_H
#define LZ_CANON_H

#include <stddef.h>

#include "addr.h"

#define CANON_INPUT_MAX	16384	/* longer input is refused */
#define CANON_EXPR_MAX	30	/* 5 host suffixes x 6 path prefixes */

/* struct canon flags */
#define CANON_NO_SCHEME	0x001	/* no "scheme://"; http was assumed */
#define CANON_USERINFO	0x002	/* "user[:password]@" before the host */
#define CANON_BACKSLASH	0x004	/* a backslash ended the authority */
#define CANON_BAD_PORT	0x008	/* a port that is not 0-65535 */
#define CANON_HOST_BAD	0x010	/* characters outside [a-z0-9._-] after
				   IDN processing, or longer than 253 */
#define CANON_IDN_BAD	0x020	/* non-ASCII host that is no valid IDN */
#define CANON_IPV4	0x040	/* host is an IPv4 address (any notation) */
#define CANON_IPV6	0x080	/* host is an [IPv6] literal */
#define CANON_NUMERIC	0x100	/* host ends in a number but is no valid
				   IPv4 address (browsers refuse it) */
#define CANON_IDN	0x200	/* host has a punycode (xn--) label */

struct canon {
	char		 scheme[32];	/* lower case */
	char		*host;		/* canonical, escaped */
	char		*path;		/* canonical, escaped, starts with / */
	char		*query;		/* escaped, without '?'; NULL: none */
	char		*url;		/* scheme://host/path[?query] */
	int		 port;		/* -1: none */
	unsigned	 flags;		/* CANON_* */
	struct lz_addr	 addr;		/* with CANON_IPV4 or CANON_IPV6 */
};

/*
 * Canonicalises in[0..len).  Returns 0 with c filled (free with
 * canon_free), or -1 when there is no host or the input is longer than
 * CANON_INPUT_MAX.
 */
int	canon_url(const char *in, size_t len, struct canon *c);
void	canon_free(struct canon *);

/*
 * Canonicalises a host name alone (as in a hosts file or lz.conf), the
 * way canon_url treats hosts.  Returns a new string (caller frees) with
 * the flags of the host in *flags, or NULL for an empty host.
 */
char	*canon_host(const char *in, size_t len, unsigned *flags);

/*
 * The Safe Browsing lookup expressions of c, without scheme: the exact
 * host and up to four host suffixes (from the last five labels, never the
 * top-level domain alone; the address only for IP hosts) combined with the
 * exact path with and without the query and up to four path prefixes
 * ("/", "/a/", ...).  Stores up to CANON_EXPR_MAX new strings in out and
 * returns their number; free them with lz_strs_free (util.h).
 */
size_t	canon_expressions(const struct canon *c, char **out);

/*
 * The host and each parent domain of a canonical host, longest first,
 * never a single label unless the host is one: "a.b.example.com" gives
 * itself, "b.example.com" and "example.com"; an IP address only itself.
 * Stores pointers into host in out (at most max) and returns the count.
 */
size_t	canon_host_parents(const char *host, unsigned flags, const char **out,
	    size_t max);

/* 1 when host (canonical) is domain or a subdomain of it. */
int	canon_host_within(const char *host, const char *domain);

#endif
