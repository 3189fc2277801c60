/*
 * auth.c -- API keys on requests (DESIGN 3.3): Bearer token, checksum,
 * hash look-up, revocation, and the monthly quota with its headers.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "auth/auth.h"
#include "auth/keys.h"
#include "auth/quota.h"
#include "auth/scope.h"
#include "conf.h"
#include "db.h"
#include "log.h"
#include "lztime.h"
#include "memo.h"
#include "resp.h"
#include "store/accounts.h"

/* Keys looked up, kept while the database is unchanged (memo.h): an
 * API call's own read was a fifth of a GET's CPU. */
#define KEY_MEMO_SLOTS	64

static struct lz_memo	*key_memo;

/* store_key_auth, through the memo. */
static int
key_auth(struct lz_db *db, const unsigned char hash[KEY_HASH_LEN],
    int64_t now, struct apikey *k)
{
	struct lz_memo_ver	 ver;
	const void		*kept;
	size_t			 len;
	int			 rc;

	if (key_memo == NULL)
		key_memo = lz_memo_new(KEY_MEMO_SLOTS);
	if ((kept = lz_memo_get(key_memo, db, hash, KEY_HASH_LEN, now,
	    &len)) != NULL && len == sizeof(*k)) {
		memcpy(k, kept, sizeof(*k));
		return 1;
	}
	lz_memo_begin(db, &ver);
	if ((rc = store_key_auth(db, hash, k)) == 1)
		lz_memo_put(key_memo, &ver, hash, KEY_HASH_LEN, k, sizeof(*k),
		    INT64_MAX);
	return rc;
}

static void
unauthorized(struct lz_req *r, const char *code, const char *msg)
{
	lz_resp_header(r, "WWW-Authenticate", "Bearer realm=\"lz\"");
	lz_resp_error(r, 401, code, NULL, "%s", msg);
}

static void
quota_headers(struct lz_req *r, long long limit, long long used)
{
	long long	 left = limit - used;

	lz_resp_header(r, "X-RateLimit-Limit", "%lld", limit);
	lz_resp_header(r, "X-RateLimit-Remaining", "%lld", left > 0 ? left : 0);
	lz_resp_header(r, "X-RateLimit-Reset", "%lld",
	    (long long)(lz_month_next(r->now_ms) / 1000));
}

int
auth_api_key(struct lz_req *r, struct lz_db *db, const struct lz_conf *c,
    struct quota_table *quota, struct auth_caller *who)
{
	struct apikey		 k;
	unsigned char		 hash[KEY_HASH_LEN];
	const char		*h, *tok;
	const struct lz_plan	*plan;
	int			 rc;

	h = lz_req_param(r, "HTTP_AUTHORIZATION");
	if (h == NULL || *h == '\0') {
		unauthorized(r, "missing_api_key", "Send your API key as "
		    "'Authorization: Bearer lk_live_...'.");
		return -1;
	}
	if (strncasecmp(h, "Bearer ", 7) != 0) {
		unauthorized(r, "invalid_api_key", "The Authorization header "
		    "must be 'Bearer <API key>'.");
		return -1;
	}
	for (tok = h + 7; *tok == ' '; tok++)
		continue;
	if (!key_wellformed(tok)) {
		unauthorized(r, "invalid_api_key", "The API key is not valid.");
		return -1;
	}
	key_hash(tok, hash);
	if ((rc = key_auth(db, hash, r->now_ms, &k)) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The key could "
		    "not be checked.");
		return -1;
	}
	if (rc == 0) {
		unauthorized(r, "invalid_api_key", "The API key is not valid.");
		return -1;
	}
	if (k.revoked_at != 0) {
		unauthorized(r, "revoked_api_key", "The API key was revoked.");
		return -1;
	}
	if (k.expires_at != 0 && r->now_ms >= k.expires_at) {
		unauthorized(r, "expired_api_key", "The API key expired.");
		return -1;
	}
	if (k.account_disabled) {
		unauthorized(r, "account_disabled", "The account of this API "
		    "key is disabled.");
		return -1;
	}
	if ((plan = lz_conf_plan(c, k.plan)) == NULL)
		plan = lz_conf_plan(c, c->default_plan);
	who->account_id = k.account_id;
	who->key_id = k.id;
	who->scopes = (unsigned)k.scopes;
	snprintf(who->key_shown, sizeof(who->key_shown), "%s...%s", k.prefix,
	    k.last4);
	who->plan = plan;
	if (auth_meter(r, db, quota, who) == -1)
		return -1;
	/* Its last use, to the minute: no write for every call. */
	if (quota_touch_due(quota, k.id, r->now_ms) &&
	    store_key_touch(db, k.id, r->now_ms) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The key could "
		    "not be noted as used.");
		return -1;
	}
	return 0;
}

int
auth_scope(struct lz_req *r, const struct auth_caller *who, int scope)
{
	if (scope >= 0 && scope < SC__MAX && (who->scopes & SCOPE_BIT(scope)))
		return 0;
	/* RFC 6750 3.1: the scope the request needs, in the challenge. */
	lz_resp_header(r, "WWW-Authenticate", "Bearer realm=\"lz\", "
	    "error=\"insufficient_scope\", scope=\"%s\"", scope >= 0 &&
	    scope < SC__MAX ? scope_names[scope] : "");
	lz_resp_error(r, 403, "insufficient_scope", NULL, "This API key "
	    "lacks the scope %s that this request needs.", scope >= 0 &&
	    scope < SC__MAX ? scope_names[scope] : "(none)");
	return -1;
}

int
auth_meter_more(struct lz_req *r, struct lz_db *db,
    struct quota_table *quota, const struct auth_caller *who)
{
	struct quota_answer	 qa;
	char			 month[8], date[16];

	lz_time_fmt_date(r->now_ms, date, sizeof(date));
	snprintf(month, sizeof(month), "%.7s", date);
	if (quota_take(quota, db, who->account_id, month, who->plan->quota,
	    &qa) == -1)
		return -1;
	lz_resp_header_drop(r, "X-RateLimit-Limit");
	lz_resp_header_drop(r, "X-RateLimit-Remaining");
	lz_resp_header_drop(r, "X-RateLimit-Reset");
	quota_headers(r, who->plan->quota, qa.used);
	return qa.allowed;
}

int
auth_meter(struct lz_req *r, struct lz_db *db, struct quota_table *quota,
    const struct auth_caller *who)
{
	struct quota_answer	 qa;
	const struct lz_plan	*plan = who->plan;
	char			 month[8], date[16];

	lz_time_fmt_date(r->now_ms, date, sizeof(date));
	snprintf(month, sizeof(month), "%.7s", date);
	if (quota_take(quota, db, who->account_id, month, plan->quota,
	    &qa) == -1)
		goto fail;
	quota_headers(r, plan->quota, qa.used);
	if (!qa.allowed) {
		long long	 wait = (lz_month_next(r->now_ms) - r->now_ms +
		    999) / 1000;

		lz_resp_header(r, "Retry-After", "%lld", wait > 0 ? wait : 1);
		lz_resp_error(r, 429, "quota_exceeded", NULL, "The monthly "
		    "quota of %lld API calls of plan '%s' is used up; it "
		    "resets at the start of the next UTC month.", plan->quota,
		    plan->name);
		return -1;
	}
	return 0;
fail:
	lz_resp_error(r, 500, "internal_error", NULL, "The quota could not be "
	    "counted.");
	return -1;
}
