/*
 * addr.c -- IP addresses and CIDR lists.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "util.h"

int
lz_addr_parse(const char *s, struct lz_addr *a)
{
	struct in_addr	 v4;

	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, &v4) == 1) {
		a->b[10] = a->b[11] = 0xff;
		memcpy(a->b + 12, &v4, 4);
		a->v4 = 1;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->b) == 1)
		return 0;
	return -1;
}

int
lz_cidr_parse(const char *s, struct lz_cidr *c)
{
	char		 tmp[64];
	const char	*slash;
	long long	 bits;
	size_t		 len;

	slash = strchr(s, '/');
	len = slash ? (size_t)(slash - s) : strlen(s);
	if (len == 0 || len >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (lz_addr_parse(tmp, &c->a) == -1)
		return -1;
	if (slash == NULL)
		c->bits = 128;
	else {
		if (lz_parse_ll(slash + 1, 0, c->a.v4 ? 32 : 128, &bits) == -1)
			return -1;
		c->bits = (int)bits + (c->a.v4 ? 96 : 0);
	}
	return 0;
}

int
lz_cidr_match(const struct lz_cidr *c, const struct lz_addr *a)
{
	int	 full = c->bits / 8, rest = c->bits % 8;
	uint8_t	 mask;

	if (memcmp(c->a.b, a->b, (size_t)full) != 0)
		return 0;
	if (rest == 0)
		return 1;
	mask = (uint8_t)(0xff << (8 - rest));
	return (c->a.b[full] & mask) == (a->b[full] & mask);
}

long
lz_cidr_list(const char *s, struct lz_cidr **out, char *bad, size_t badlen)
{
	char		**v;
	size_t		  n, i;
	struct lz_cidr	 *c;

	n = lz_strlist_split(s, &v);
	c = xcalloc(n ? n : 1, sizeof(*c));
	for (i = 0; i < n; i++)
		if (lz_cidr_parse(v[i], &c[i]) == -1) {
			snprintf(bad, badlen, "%s", v[i]);
			lz_strlist_free(v, n);
			free(c);
			return -1;
		}
	lz_strlist_free(v, n);
	*out = c;
	return (long)n;
}

/* IANA IPv4 and IPv6 special-purpose address registries: ranges no public
 * host lives in. */
static const char *const nonpublic[] = {
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
	"169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
	"192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24",
	"192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15",
	"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
	"64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32",
	"2002::/16", "2620:4f:8000::/48", "3fff::/20",
};

int
lz_addr_public(const struct lz_addr *a)
{
	static struct lz_cidr	 table[LZ_NELEM(nonpublic)];
	static int		 ready;
	static const uint8_t	 mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0xff, 0xff };
	static const uint8_t	 nat64[12] = { 0, 0x64, 0xff, 0x9b };
	struct lz_addr		 v4;
	size_t			 i;

	if (!ready) {
		for (i = 0; i < LZ_NELEM(nonpublic); i++)
			if (lz_cidr_parse(nonpublic[i], &table[i]) == -1)
				abort();
		ready = 1;
	}
	if (memcmp(a->b, nat64, sizeof(nat64)) == 0) {
		memset(&v4, 0, sizeof(v4));
		memcpy(v4.b, mapped, sizeof(mapped));
		memcpy(v4.b + 12, a->b + 12, 4);
		v4.v4 = 1;
		return lz_addr_public(&v4);
	}
	/* IPv6 outside 2000::/3 (global unicast) is never public. */
	if (memcmp(a->b, mapped, sizeof(mapped)) != 0 &&
	    (a->b[0] & 0xe0) != 0x20)
		return 0;
	for (i = 0; i < LZ_NELEM(table); i++)
		if (lz_cidr_match(&table[i], a))
			return 0;
	return 1;
}
