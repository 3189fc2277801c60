/*
 * scope.c -- the scopes of API keys (scope.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "auth/scope.h"

const char *const scope_names[SC__MAX] = {
	[SC_LINKS_READ] = "links:read",
	[SC_LINKS_WRITE] = "links:write",
	[SC_STATS_READ] = "stats:read",
	[SC_CONVERSIONS_READ] = "conversions:read",
	[SC_DOMAINS_READ] = "domains:read",
	[SC_DOMAINS_WRITE] = "domains:write",
	[SC_TAGS_WRITE] = "tags:write",
	[SC_AUDIT_READ] = "audit:read",
};

int
scope_by_name(const char *s)
{
	int	 i;

	for (i = 0; i < SC__MAX; i++)
		if (strcmp(s, scope_names[i]) == 0)
			return i;
	return -1;
}

int
scope_parse_list(const char *s, unsigned *bits, char *bad, size_t badlen)
{
	char		 item[SCOPE_NAME_MAX];
	const char	*p = s, *end;
	size_t		 n;
	int		 sc;

	*bits = 0;
	for (;;) {
		while (*p == ' ')
			p++;
		end = p + strcspn(p, ",");
		n = (size_t)(end - p);
		while (n > 0 && p[n - 1] == ' ')
			n--;
		if (n == 0 || n >= sizeof(item)) {
			snprintf(bad, badlen, "%.*s", (int)(n ? n : 0), p);
			return -1;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		if ((sc = scope_by_name(item)) == -1 ||
		    (*bits & SCOPE_BIT(sc))) {
			snprintf(bad, badlen, "%s", item);
			return -1;
		}
		*bits |= SCOPE_BIT(sc);
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}

void
scope_list(unsigned bits, char *buf, size_t len)
{
	size_t	 off = 0;
	int	 i, w;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < SC__MAX; i++) {
		if (!(bits & SCOPE_BIT(i)))
			continue;
		w = snprintf(buf + off, off < len ? len - off : 0, "%s%s",
		    off ? "," : "", scope_names[i]);
		if (w < 0 || (size_t)w >= len - off)
			return;
		off += (size_t)w;
	}
}
