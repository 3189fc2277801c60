/*
 * api_dash_hooks.c -- /dashboard/api/webhooks (DESIGN 3.6, 3.8): the
 * account's subscriptions, added (the secret shown once), rotated,
 * disabled, sent a test event, and their delivery log.  Additions and
 * tests are limited per account (webhook_rate_limit).
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "api.h"
#include "auth/audit.h"
#include "conf.h"
#include "ctx.h"
#include "jbody.h"
#include "log.h"
#include "lztime.h"
#include "query.h"
#include "ratelimit.h"
#include "resp.h"
#include "serve.h"
#include "sizes.h"
#include "store/webhooks.h"
#include "util.h"
#include "webhook/events.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

static void
hook_one(const struct webhook *w, void *arg)
{
	json_array_append_new(arg, webhook_json(w));
}

void
dash_hooks_list(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	json_t			*arr = json_array();

	lz_resp_list(r, webhook_list(&links.db, who->account_id, hook_one,
	    arr), "webhooks", arr, "webhooks");
}

/* The subscription of the path (of the session's account); 1 found, else
 * -1 after answering 404 or 500. */
static int
path_hook(struct lz_req *r, struct webhook *w)
{
	struct auth_caller	*who = API_WHO(r);
	int64_t			 id;

	if (api_path_id(r, "webhook", &id) == -1 ||
	    !api_done(r, webhook_get(&links.db, id, who->account_id, w),
	    "The webhook could not be read.", 404, "not_found",
	    "There is no webhook with this id."))
		return -1;
	return 1;
}

/* The webhook as JSON, read again after a change. */
static json_t *
hook_json_by_id(int64_t id, int64_t account_id)
{
	struct webhook	 w;

	if (webhook_get(&links.db, id, account_id, &w) != 1)
		return json_null();
	return webhook_json(&w);
}

/*
 * Webhook additions and test events of the session's account: at most
 * webhook_rate_limit a minute, exact across the workers.  Each may wait
 * on DNS or send a request to a server the account chose.  Returns 0,
 * or -1 after answering 429.
 */
static int
hook_rate_ok(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct lz_rl_result	 res;
	unsigned char		 key[1 + sizeof(who->account_id)];
	unsigned		 limit = (unsigned)links.conf->webhook_rate_limit;

	key[0] = 'w';
	memcpy(key + 1, &who->account_id, sizeof(who->account_id));
	(void)lz_rl_take(links.hook_rl, key, sizeof(key), limit, 60000,
	    lz_mono_us() / 1000, &res);
	if (res.allowed)
		return 0;
	ops_limited(OPS_LIMIT_WEBHOOKS);
	lz_resp_header(r, "Retry-After", "%d", res.retry_after);
	lz_resp_error(r, 429, "rate_limited", NULL, "At most %u webhook "
	    "additions and test events a minute; retry in %d s.", limit,
	    res.retry_after);
	return -1;
}

static int
need_key(struct lz_req *r)
{
	if (links.hook_key_ok)
		return 0;
	lz_resp_error(r, 500, "internal_error", NULL, "The webhook key is not "
	    "available; see the service's log.");
	return -1;
}

void
dash_hooks_add(struct lz_req *r)
{
	enum { H_URL, H_EVENTS, H__MAX };
	static const struct lz_jfield fields[H__MAX] = {
		[H_URL] =	{ "url", LZ_JT_STRING, LZ_JF_REQUIRED, 1,
				  URL_MAX },
		[H_EVENTS] =	{ "events", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	};
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	struct lz_buf		 ev = LZ_BUF_INIT;
	char			 secret[WEBHOOK_SECRET_LEN + 1];
	const json_t		*item;
	json_t			*body;
	unsigned		 mask;
	int64_t			 id;
	size_t			 i;

	if (need_key(r) == -1 || (body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, H__MAX, NULL, &e) == -1)
		goto verr;
	json_array_foreach(json_object_get(body, "events"), i, item) {
		if (!json_is_string(item) || strchr(json_string_value(item),
		    ',') != NULL) {
			lz_verr_set(&e, 400, "invalid_events", "events",
			    "'events' must be a list of event names: "
			    WEBHOOK_EVENTS_LIST ".");
			goto verr;
		}
		lz_buf_printf(&ev, "%s%s", i ? "," : "",
		    json_string_value(item));
	}
	if (webhook_events_parse(lz_buf_str(&ev), &mask, &e) == -1)
		goto verr;
	if (hook_rate_ok(r) == -1)
		goto out;
	id = webhook_add(&links.db, links.hook_key, who->account_id,
	    json_string_value(json_object_get(body, "url")), mask,
	    links.conf->webhook_allow_loopback, r->now_ms, secret, &e);
	if (id < 0 && strcmp(e.code, "unsafe_url") == 0) {
		/* Where a name leads (an internal address, a name server
		 * that does not answer) is for the log, not the account. */
		lz_log(LZ_LOG_INFO, "rid=%s: webhook of account %lld refused: "
		    "%s", r->request_id, (long long)who->account_id, e.msg);
		lz_verr_set(&e, 400, "unsafe_url", "url", "The receiving URL "
		    "must lead to a public https server whose name resolves "
		    "within %d seconds.", WEBHOOK_DNS_TIMEOUT_MS / 1000);
	}
	if (id < 0)
		goto verr;
	audit_note(&links.db, r, who, who->account_id, "webhook.added",
	    "webhook %lld", (long long)id);
	/* The secret is in this answer only: the store keeps it sealed. */
	lz_resp_json(r, 201, json_pack("{s:b, s:s, s:o}", "ok", 1, "secret",
	    secret, "webhook", hook_json_by_id(id, who->account_id)));
	sodium_memzero(secret, sizeof(secret));
	goto out;
verr:
	lz_resp_verr(r, &e);
out:
	lz_buf_free(&ev);
	json_decref(body);
}

/* Answers what a change to a webhook returned: -1 500 with failed, 0 409
 * with disabled; else 1: it was done (the caller answers). */
static int
hook_done(struct lz_req *r, int rc, const char *failed,
    const char *disabled)
{
	return api_done(r, rc, failed, 409, "webhook_disabled", disabled);
}

void
dash_hooks_rotate(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct webhook		 w;
	char			 secret[WEBHOOK_SECRET_LEN + 1];
	int			 rc;

	if (need_key(r) == -1 || path_hook(r, &w) == -1)
		return;
	rc = webhook_rotate(&links.db, links.hook_key, w.id, who->account_id,
	    r->now_ms, secret);
	if (hook_done(r, rc, "The secret could not be changed.",
	    "The webhook is disabled; add a new one.")) {
		audit_note(&links.db, r, who, who->account_id,
		    "webhook.changed", "webhook %lld: a new secret",
		    (long long)w.id);
		lz_resp_json(r, 200, json_pack("{s:b, s:s, s:o}", "ok", 1,
		    "secret", secret, "webhook", hook_json_by_id(w.id,
		    who->account_id)));
	}
	sodium_memzero(secret, sizeof(secret));
}

void
dash_hooks_disable(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct webhook		 w;
	int			 rc;

	if (path_hook(r, &w) == -1)
		return;
	rc = webhook_disable(&links.db, w.id, who->account_id,
	    "disabled in the dashboard", r->now_ms);
	if (hook_done(r, rc, "The webhook could not be disabled.",
	    "The webhook is disabled already.")) {
		audit_note(&links.db, r, who, who->account_id,
		    "webhook.removed", "webhook %lld", (long long)w.id);
		lz_resp_json(r, 200, json_pack("{s:b, s:o}", "ok", 1,
		    "webhook", hook_json_by_id(w.id, who->account_id)));
	}
}

void
dash_hooks_test(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct webhook		 w;
	char			 uuid[WEBHOOK_DELIVERY_LEN + 1];
	int			 rc;

	if (path_hook(r, &w) == -1 || hook_rate_ok(r) == -1)
		return;
	rc = webhook_test(&links.db, w.id, who->account_id, r->now_ms, uuid);
	if (hook_done(r, rc, "The test event could not be queued.",
	    "The webhook is disabled."))	/* queued: lz-hooks sends it */
		lz_resp_json(r, 202, json_pack("{s:b, s:s, s:s}", "ok", 1,
		    "event", EVENTS_TEST, "delivery", uuid));
}

static void
delivery_one(const struct webhook_delivery *d, void *arg)
{
	json_array_append_new(arg, webhook_delivery_json(d));
}

void
dash_hooks_deliveries(struct lz_req *r)
{
	static const struct lz_param limit_param =
		{ "limit", LZ_PT_INT, 1, 100, 20, NULL, 0 };
	struct lz_pval		 v;
	struct webhook		 w;
	json_t			*arr;

	if (path_hook(r, &w) == -1 || lz_req_params(r, &limit_param, 1,
	    &v) == -1)
		return;
	arr = json_array();
	lz_resp_list(r, store_delivery_list(&links.db, w.id, 0, (long)v.i,
	    delivery_one, arr), "deliveries", arr, "delivery log");
}
