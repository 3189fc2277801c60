/*
 * audit.c -- the audit log of an account (audit.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "addr.h"
#include "auth/audit.h"
#include "auth/auth.h"
#include "log.h"
#include "lztime.h"
#include "req.h"
#include "store/audit.h"

void
audit_network(const char *addr, char *out, size_t len)
{
	struct lz_addr	 a;
	const uint8_t	*b = a.b;

	if (len > 0)
		out[0] = '\0';
	if (addr == NULL || lz_addr_parse(addr, &a) == -1)
		return;
	if (a.v4)
		snprintf(out, len, "%u.%u.%u.0/24", b[12], b[13], b[14]);
	else
		snprintf(out, len, "%x:%x:%x::/48", b[0] << 8 | b[1],
		    b[2] << 8 | b[3], b[4] << 8 | b[5]);
}

/* Who did it: the key, the dashboard, lzctl. */
static void
actor(const struct auth_caller *who, char *out, size_t len)
{
	if (who == NULL)
		snprintf(out, len, "lzctl");
	else if (who->key_id != 0)
		snprintf(out, len, "key %s", who->key_shown);
	else
		snprintf(out, len, "dashboard");
}

static void
note(struct lz_db *db, struct lz_req *r, const struct auth_caller *who,
    int64_t account_id, const char *action, const char *target)
{
	char	 by[64], net[AUDIT_NETWORK_MAX];

	actor(who, by, sizeof(by));
	audit_network(r != NULL ? r->remote_addr : NULL, net, sizeof(net));
	if (store_audit_add(db, account_id, r != NULL ? r->now_ms :
	    lz_now_ms(), by, action, target, net) == -1)
		lz_log(LZ_LOG_ERR, "audit log: %s of account %lld by %s not "
		    "written", action, (long long)account_id, by);
}

void
audit_note(struct lz_db *db, struct lz_req *r, const struct auth_caller *who,
    int64_t account_id, const char *action, const char *fmt, ...)
{
	char	 target[AUDIT_TARGET_MAX];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(target, sizeof(target), fmt, ap);
	va_end(ap);
	note(db, r, who, account_id, action, target);
}

void
audit_signin(struct lz_db *db, struct lz_req *r,
    const struct auth_caller *who, int64_t account_id, const char *email)
{
	char	 net[AUDIT_NETWORK_MAX];
	int	 seen;

	audit_network(r->remote_addr, net, sizeof(net));
	if ((seen = store_audit_seen(db, account_id, net)) != 0) {
		if (seen == -1)
			lz_log(LZ_LOG_ERR, "audit log: sign-ins of account "
			    "%lld not read", (long long)account_id);
		return;
	}
	note(db, r, who, account_id, "signin.new_network", email);
}
