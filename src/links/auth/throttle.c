/*
 * throttle.c -- tries at passwords, counted per scope (throttle.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "addr.h"
#include "auth/throttle.h"
#include "store/throttles.h"

/* The client network of addr: an IPv4 address, or an IPv6 /64. */
static void
net(const char *addr, char *out, size_t len)
{
	struct lz_addr	 a;
	char		 hex[17];

	if (lz_addr_parse(addr, &a) == 0 && !a.v4) {
		sodium_bin2hex(hex, sizeof(hex), a.b, 8);
		snprintf(out, len, "%s::/64", hex);
	} else
		snprintf(out, len, "%.100s", addr);
}

void
throttle_scope_addr(const char *addr, char *out, size_t len)
{
	char	 n[128];

	net(addr, n, sizeof(n));
	snprintf(out, len, "addr:%s", n);
}

void
throttle_scope_pair(const char *addr, const char *email, char *out,
    size_t len)
{
	char	 n[128];
	size_t	 i, k;

	net(addr, n, sizeof(n));
	/* The network always fits; the address up to len. */
	k = (size_t)snprintf(out, len, "pair:%s|", n);
	for (i = 0; email[i] != '\0' && k + 1 < len; i++)
		out[k++] = (char)tolower((unsigned char)email[i]);
	out[k] = '\0';
}

void
throttle_scope_link(int64_t link_id, const char *addr, char *out, size_t len)
{
	char	 n[128];

	if (addr == NULL) {
		snprintf(out, len, "link:%lld", (long long)link_id);
		return;
	}
	net(addr, n, sizeof(n));
	snprintf(out, len, "link:%lld|%s", (long long)link_id, n);
}

int
throttle_take(struct lz_db *db, const char *scope,
    const struct throttle_rule *rule, int64_t now, long long *retry_after)
{
	int64_t	 until;
	int	 rc;

	rc = store_throttle_take(db, scope, now, rule->window_ms, rule->limit,
	    rule->longest_ms > rule->window_ms ? rule->longest_ms :
	    rule->window_ms, &until);
	if (rc == 0) {
		*retry_after = (until - now + 999) / 1000;
		if (*retry_after < 1)
			*retry_after = 1;
	}
	return rc;
}

int
throttle_give_back(struct lz_db *db, const char *scope)
{
	return store_throttle_give_back(db, scope);
}

int
throttle_clear(struct lz_db *db, const char *scope)
{
	return store_throttle_clear(db, scope);
}

int
throttle_purge(struct lz_db *db, int64_t now)
{
	return store_throttle_purge(db, now);
}
