/*
 * addr.c -- IP addresses and CIDR lists.
 */
#include "config.h"

#include <sys/socket.h>
#include <netinet/in.h>

#include <arpa/inet.h>
#include <netdb.h>
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

int
lz_addr_allowed(const char *list, const char *addr)
{
	struct lz_cidr	*c;
	struct lz_addr	 a;
	char		 bad[64];
	long		 n, i;
	int		 hit = 0;

	if (lz_addr_parse(addr, &a) == -1 ||
	    (n = lz_cidr_list(list, &c, bad, sizeof(bad))) == -1)
		return 0;
	for (i = 0; i < n && !hit; i++)
		hit = lz_cidr_match(&c[i], &a);
	free(c);
	return hit;
}

/* ---- classification (SSRF guard) ------------------------------------ */

/*
 * The special-purpose ranges, first match wins.  IPv4 ranges are matched
 * in their IPv4-mapped form.
 */
static const struct {
	const char		*cidr;
	enum lz_addr_class	 cls;
} special[] = {
	{ "0.0.0.0/8",		LZ_ADDR_RESERVED },	/* "this network" */
	{ "10.0.0.0/8",		LZ_ADDR_PRIVATE },
	{ "100.64.0.0/10",	LZ_ADDR_PRIVATE },	/* shared (CGNAT) */
	{ "127.0.0.0/8",	LZ_ADDR_LOOPBACK },
	{ "169.254.0.0/16",	LZ_ADDR_LINKLOCAL },
	{ "172.16.0.0/12",	LZ_ADDR_PRIVATE },
	{ "192.0.0.0/24",	LZ_ADDR_RESERVED },	/* IETF assignments */
	{ "192.0.2.0/24",	LZ_ADDR_RESERVED },	/* TEST-NET-1 */
	{ "192.88.99.0/24",	LZ_ADDR_RESERVED },	/* 6to4 relays */
	{ "192.168.0.0/16",	LZ_ADDR_PRIVATE },
	{ "198.18.0.0/15",	LZ_ADDR_RESERVED },	/* benchmarking */
	{ "198.51.100.0/24",	LZ_ADDR_RESERVED },	/* TEST-NET-2 */
	{ "203.0.113.0/24",	LZ_ADDR_RESERVED },	/* TEST-NET-3 */
	{ "224.0.0.0/4",	LZ_ADDR_MULTICAST },
	{ "240.0.0.0/4",	LZ_ADDR_RESERVED },	/* and broadcast */
	{ "::1/128",		LZ_ADDR_LOOPBACK },
	{ "64:ff9b:1::/48",	LZ_ADDR_PRIVATE },	/* local-use NAT64 */
	{ "100::/64",		LZ_ADDR_RESERVED },	/* discard-only */
	{ "2001::/23",		LZ_ADDR_RESERVED },	/* IETF, Teredo */
	{ "2001:db8::/32",	LZ_ADDR_RESERVED },	/* documentation */
	{ "3fff::/20",		LZ_ADDR_RESERVED },	/* documentation */
	{ "fc00::/7",		LZ_ADDR_PRIVATE },	/* unique local */
	{ "fe80::/10",		LZ_ADDR_LINKLOCAL },
	{ "fec0::/10",		LZ_ADDR_PRIVATE },	/* site-local */
	{ "ff00::/8",		LZ_ADDR_MULTICAST },
};

static const char *const class_names[] = {
	"public", "loopback", "private", "link-local", "multicast", "reserved"
};

static const uint8_t mapped_prefix[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};
static const uint8_t nat64_prefix[12] = {
	0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0
};

const char *
lz_addr_class_name(enum lz_addr_class c)
{
	if ((size_t)c >= LZ_NELEM(class_names))
		return "reserved";
	return class_names[c];
}

static enum lz_addr_class
class_of_table(const struct lz_addr *a, int *found)
{
	static struct lz_cidr	 nets[LZ_NELEM(special)];
	static int		 ready;
	size_t			 i;

	if (!ready) {
		for (i = 0; i < LZ_NELEM(special); i++)
			if (lz_cidr_parse(special[i].cidr, &nets[i]) == -1)
				abort();	/* a typo in the table above */
		ready = 1;
	}
	*found = 1;
	for (i = 0; i < LZ_NELEM(special); i++)
		if (lz_cidr_match(&nets[i], a))
			return special[i].cls;
	*found = 0;
	return LZ_ADDR_PUBLIC;
}

/* The class of the IPv4 address in b[0..4). */
static enum lz_addr_class
class_of_v4(const uint8_t *b)
{
	struct lz_addr	 m;
	int		 found;

	memset(&m, 0, sizeof(m));
	memcpy(m.b, mapped_prefix, sizeof(mapped_prefix));
	memcpy(m.b + 12, b, 4);
	m.v4 = 1;
	return class_of_table(&m, &found);
}

enum lz_addr_class
lz_addr_class(const struct lz_addr *a)
{
	static const uint8_t	 zero[12];
	enum lz_addr_class	 c;
	int			 found;

	if (memcmp(a->b, mapped_prefix, 12) == 0 ||
	    memcmp(a->b, nat64_prefix, 12) == 0)
		return class_of_v4(a->b + 12);
	if (a->b[0] == 0x20 && a->b[1] == 0x02 &&		/* 6to4 */
	    (c = class_of_v4(a->b + 2)) != LZ_ADDR_PUBLIC)
		return c;
	c = class_of_table(a, &found);
	if (found)
		return c;
	/* ::, the deprecated IPv4-compatible ::a.b.c.d, and all else
	 * outside global unicast. */
	if (memcmp(a->b, zero, 12) == 0 || (a->b[0] & 0xe0) != 0x20)
		return LZ_ADDR_RESERVED;
	return LZ_ADDR_PUBLIC;
}

int
lz_addr_from_sockaddr(const struct sockaddr *sa, struct lz_addr *a)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;

	memset(a, 0, sizeof(*a));
	switch (sa->sa_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)(const void *)sa;
		memcpy(a->b, mapped_prefix, sizeof(mapped_prefix));
		memcpy(a->b + 12, &sin->sin_addr, 4);
		a->v4 = 1;
		return 0;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)(const void *)sa;
		memcpy(a->b, &sin6->sin6_addr, 16);
		return 0;
	default:
		return -1;
	}
}

int
lz_addr_parse_host(const char *host, struct lz_addr *a)
{
	struct addrinfo	 hints, *res = NULL;
	char		 buf[128];
	size_t		 len = strlen(host);
	int		 rc;

	/* "[v6]" as in URLs. */
	if (len >= 2 && host[0] == '[' && host[len - 1] == ']') {
		if (len - 2 >= sizeof(buf))
			return -1;
		memcpy(buf, host + 1, len - 2);
		buf[len - 2] = '\0';
		host = buf;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_flags = AI_NUMERICHOST;
	if (getaddrinfo(host, NULL, &hints, &res) != 0 || res == NULL)
		return -1;
	rc = lz_addr_from_sockaddr(res->ai_addr, a);
	freeaddrinfo(res);
	return rc;
}

void
lz_addr_fmt(const struct lz_addr *a, char *buf, size_t len)
{
	char	 tmp[INET6_ADDRSTRLEN];

	if (memcmp(a->b, mapped_prefix, 12) == 0)
		inet_ntop(AF_INET, a->b + 12, tmp, sizeof(tmp));
	else
		inet_ntop(AF_INET6, a->b, tmp, sizeof(tmp));
	snprintf(buf, len, "%s", tmp);
}
