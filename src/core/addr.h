/*
 * addr.h -- IP addresses: parsing into one 16-byte form (IPv4 as
 * ::ffff:a.b.c.d), CIDR lists.
 */
#ifndef LZ_ADDR_H
#define LZ_ADDR_H

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

/*
 * 1 when a is a public unicast address; 0 for loopback, private, shared,
 * link-local, documentation, benchmarking, multicast, reserved and other
 * special-purpose ranges of the IANA registries (IPv4-mapped and NAT64
 * addresses are judged by the IPv4 address they carry).
 */
int	lz_addr_public(const struct lz_addr *);

#endif
