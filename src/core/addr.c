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
