/*
 * addr.h -- IP addresses: parsing into one 16-byte form (IPv4 as
 * ::ffff:a.b.c.d), CIDR lists.
 */
#ifndef LZ_ADDR_H
#define LZ_ADDR_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

struct lz_addr {
	uint8_t	 b[16];		/* IPv6 order; IPv4 as ::ffff:a.b.c.d */
	int	 v4;		/* 1 when the text was IPv4 */
};

struct lz_cidr {
	struct lz_addr	 a;
	int		 bits;	/* prefix length over the 128-bit form */
};

/* Parses a textual address (inet_pton rules, IPv4 dotted quad only).
 * Returns 0 or -1. */
int	lz_addr_parse(const char *, struct lz_addr *);
/* Parses "addr" or "addr/len"; returns 0 or -1. */
int	lz_cidr_parse(const char *, struct lz_cidr *);
int	lz_cidr_match(const struct lz_cidr *, const struct lz_addr *);
/* Parses a comma/space list into a new array; returns the count or -1
 * with the bad entry copied to bad. Caller frees *out. */
long	lz_cidr_list(const char *, struct lz_cidr **out, char *bad, size_t);
/* 1 when the address addr is in one of the comma/space list of CIDR
 * ranges list (metrics_allow), 0 when not or either does not parse. */
int	lz_addr_allowed(const char *list, const char *addr);

/*
 * What kind of address it is, for the SSRF guard of outgoing requests
 * (webhooks): only LZ_ADDR_PUBLIC may be reached from the service.  The
 * special ranges are those of IANA's IPv4 and IPv6 special-purpose
 * registries; IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
 * (2002::/16) addresses are classified by the IPv4 address inside, and
 * IPv6 outside global unicast (2000::/3) is reserved.
 */
enum lz_addr_class {
	LZ_ADDR_PUBLIC = 0,
	LZ_ADDR_LOOPBACK,	/* 127/8, ::1 */
	LZ_ADDR_PRIVATE,	/* RFC 1918, 100.64/10, fc00::/7, fec0::/10 */
	LZ_ADDR_LINKLOCAL,	/* 169.254/16, fe80::/10 */
	LZ_ADDR_MULTICAST,	/* 224/4, ff00::/8 */
	LZ_ADDR_RESERVED	/* unspecified, documentation, benchmarking,
				   240/4, broadcast, non-global IPv6, ... */
};

enum lz_addr_class lz_addr_class(const struct lz_addr *);
/* "public", "loopback", "private", "link-local", "multicast",
 * "reserved". */
const char *lz_addr_class_name(enum lz_addr_class);

/*
 * Parses a numeric host the way the resolver does (getaddrinfo with
 * AI_NUMERICHOST), so every notation it accepts is accepted here too:
 * "127.1", "0x7f000001", "2130706433", "0177.0.0.1", IPv6 with or
 * without brackets.  Returns 0, or -1 when host is not numeric.
 */
int	lz_addr_parse_host(const char *host, struct lz_addr *);
/* The address of an AF_INET or AF_INET6 socket address; 0 or -1. */
int	lz_addr_from_sockaddr(const struct sockaddr *, struct lz_addr *);
/* Formats as text: dotted quad for IPv4 (and IPv4-mapped), else IPv6. */
void	lz_addr_fmt(const struct lz_addr *, char *buf, size_t len);

#endif
