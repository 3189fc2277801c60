/*
 * api_dashboard.c -- /dashboard/api/: session, sign-up, sign-in, sign-out,
 * password change, account, API keys.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "auth/account.h"
#include "addr.h"
#include "ctx.h"
#include "webhook/events.h"
#include "jbody.h"
#include "log.h"
#include "lztime.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "auth/session.h"
#include "store/accounts.h"
#include "store/links.h"
#include "store/sessions.h"
#include "store/webhooks.h"
#include "utf8.h"
#include "util.h"
#include "webhook/webhook.h"

#define FAIL_KEEP_MS	(86400LL * 1000)	/* failure rows kept a day */
#define SCOPE_MAX	400	/* "pair:", a network, '|', an e-mail */

void
dash_headers(struct lz_req *r)
{
	lz_resp_header(r, "Content-Security-Policy", "default-src 'none'; "
	    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
	lz_resp_header(r, "Cross-Origin-Opener-Policy", "same-origin");
	lz_resp_header(r, "X-Content-Type-Options", "nosniff");
	lz_resp_header(r, "X-Frame-Options", "DENY");
	lz_resp_header(r, "Referrer-Policy", "no-referrer");
	lz_resp_header(r, "Cache-Control", "no-store");
}

int
dash_host_ok(struct lz_req *r)
{
	const char	*want = links.conf->dashboard_host;
	const char	*host = lz_req_param(r, "HTTP_HOST");
	size_t		 n;

	if (*want == '\0')
		return 1;
	if (host == NULL)
		return 0;
	/* Names, no [v6]: the port, where both have one, must agree too
	 * (nginx may pass Host without it). */
	n = strcspn(want, ":");
	return strcspn(host, ":") == n && strncasecmp(host, want, n) == 0 &&
	    (host[n] == '\0' || want[n] == '\0' ||
	    strcmp(host + n, want + n) == 0);
}

/* ---- sign-in throttling ---------------------------------------------- */

/*
 * Failures count against two scopes (DESIGN 3.11): the client network,
 * "addr:<address>" (IPv6 by its /64), and the pair of that network and
 * an e-mail address, "pair:<network>|<lower-case address>".  Never
 * against the e-mail address alone: a stranger's failures would lock its
 * owner out.
 */
static void
scope_addr(const char *addr, char *out, size_t len)
{
	struct lz_addr	 a;
	char		 hex[17];

	if (lz_addr_parse(addr, &a) == 0 && !a.v4) {
		sodium_bin2hex(hex, sizeof(hex), a.b, 8);
		snprintf(out, len, "addr:%s::/64", hex);
	} else
		snprintf(out, len, "addr:%.100s", addr);
}

/* len is SCOPE_MAX: the network always fits, the address up to it. */
static void
scope_pair(const char *addr, const char *email, char *out, size_t len)
{
	char	 net[128];
	size_t	 i, n;

	scope_addr(addr, net, sizeof(net));
	n = (size_t)snprintf(out, len, "pair:%s|", net + strlen("addr:"));
	for (i = 0; email[i] != '\0' && n + 1 < len; i++)
		out[n++] = (char)tolower((unsigned char)email[i]);
	out[n] = '\0';
}

/*
 * Takes a try of scope: a failure is recorded before the password is
 * checked and counted with every other, in one transaction that holds
 * the scope's failures, so that of tries made at once exactly the limit
 * get through on either engine, however many run together (DESIGN
 * 3.11).  limit failures within
 * login_window lock scope until the oldest of them leaves the window, and
 * the window doubles with every further limit failures of the day (up to
 * a day): back-off for whoever keeps guessing.  Locked, the try is given
 * back and 429 answered: -1.  Else 0, and the caller gives the try back
 * (give_back) unless it failed.
 */
static int
take_try(struct lz_req *r, const char *scope, long long limit)
{
	struct lz_db	*db = &links.db;
	int64_t		 window = links.conf->login_window * 1000, nth, unused;
	long long	 n, wait;
	int		 k;

	/* One step for the scope's tries: else two at once each count
	 * the other's and both are refused. */
	if (lz_db_begin(db) == -1)
		goto fail;
	if (store_login_fail_lock(db, scope) == -1 ||
	    store_login_fail_add(db, scope, r->now_ms) == -1 ||
	    (n = store_login_fail_count(db, scope, r->now_ms -
	    FAIL_KEEP_MS, &unused)) < 1)
		goto fail;
	if (--n < limit)	/* the others */
		goto taken;
	for (k = 1; k < n / limit && window < FAIL_KEEP_MS; k++)
		window *= 2;
	if (window > FAIL_KEEP_MS)
		window = FAIL_KEEP_MS;
	/* The limit-th newest of the others: this try is the newest. */
	if (store_login_fail_nth(db, scope, limit + 1, &nth) == -1)
		goto fail;
	if (nth + window <= r->now_ms)
		goto taken;
	if (store_login_fail_give_back(db, scope, r->now_ms) == -1 ||
	    lz_db_commit(db) == -1)
		goto fail;
	wait = (nth + window - r->now_ms + 999) / 1000;
	lz_resp_header(r, "Retry-After", "%lld", wait);
	lz_resp_error(r, 429, "too_many_attempts", NULL, "Too many failed "
	    "attempts; try again in %lld seconds.", wait);
	return -1;
taken:
	if (lz_db_commit(db) == -1)
		goto fail;
	return 0;
fail:
	lz_db_rollback(db);
	lz_resp_error(r, 500, "internal_error", NULL, "The sign-in could not "
	    "be checked.");
	return -1;
}

/* Gives back the tries taken of s1 (and s2, when not NULL): 0 or -1. */
static int
give_back(struct lz_req *r, const char *s1, const char *s2)
{
	if (store_login_fail_give_back(&links.db, s1, r->now_ms) == -1 ||
	    (s2 && store_login_fail_give_back(&links.db, s2, r->now_ms) ==
	    -1))
		return -1;
	return 0;
}

/* After a failure (its rows stay): the rows older than a day go. */
static int
purge_failures(struct lz_req *r)
{
	return store_login_fail_purge(&links.db, r->now_ms - FAIL_KEEP_MS);
}

/*
 * Checks pw, a password of the account of email (NULL: of *id), once
 * the tries of scopes s1 and s2 (when not NULL) are taken.  Returns 1
 * right (with *id and *disabled; the tries given back), 0 wrong (the
 * tries stay, as failures), -1 on error.
 */
static int
check_password(struct lz_req *r, const char *email, int64_t *id,
    const char *pw, int *disabled, const char *s1, const char *s2)
{
	int	 rc = 0;

	if (strlen(pw) > 4 * PASSWORD_MAX_LEN ||
	    (rc = account_check_password(email, id, pw, disabled)) == 0)
		return purge_failures(r) == -1 ? -1 : 0;
	if (rc == -1 || give_back(r, s1, s2) == -1)
		return -1;
	return 1;
}

/* 1 when pw, the value of field, is a password the rules take, else 0
 * after answering 400 (what: "password", "new password"). */
static int
password_ok(struct lz_req *r, const char *field, const char *what,
    const char *pw)
{
	if (account_password_ok(pw))
		return 1;
	lz_resp_error(r, 400, "invalid_field", field, "The %s must be %d to "
	    "%d characters long.", what, PASSWORD_MIN_LEN, PASSWORD_MAX_LEN);
	return 0;
}

/* ---- session --------------------------------------------------------- */

/* {ok, signed_in, signup, csrf_token, account} */
static json_t *
session_json(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	struct account		 a;
	json_t			*j;

	j = json_object();
	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "signup", json_string(links.conf->signup_open ?
	    "open" : "closed"));
	/* Where short links, the API and conversion reports live: the
	 * dashboard may be on a host of its own (dashboard_host). */
	json_object_set_new(j, "base_url", json_string(links.conf->base_url));
	if (lr->session_id == 0 || store_account_get(&links.db,
	    lr->account_id, NULL, &a) != 1) {
		json_object_set_new(j, "signed_in", json_false());
		return j;
	}
	json_object_set_new(j, "signed_in", json_true());
	json_object_set_new(j, "csrf_token", json_string(lr->csrf));
	json_object_set_new(j, "account", json_pack("{s:I, s:s, s:s}", "id",
	    (json_int_t)a.id, "email", a.email, "plan", a.plan));
	return j;
}

void
dash_session(struct lz_req *r)
{
	if (session_load(r) == -1)
		return;
	lz_resp_json(r, 200, session_json(r));
}

enum { CRED_EMAIL, CRED_PASSWORD, CRED__MAX };

static const struct lz_jfield cred_fields[CRED__MAX] = {
	[CRED_EMAIL] =		{ "email", LZ_JT_STRING, LZ_JF_REQUIRED, 3,
				  ACCOUNT_EMAIL_MAX },
	[CRED_PASSWORD] =	{ "password", LZ_JT_STRING, LZ_JF_REQUIRED,
				  PASSWORD_MIN_LEN, PASSWORD_MAX_LEN },
};

/* Reads {email, password}; NULL after answering.  Caller decrefs. */
static json_t *
read_credentials(struct lz_req *r, const char **email, const char **pw)
{
	struct lz_verr	 e;
	json_t		*body;

	if ((body = lz_req_json(r)) == NULL)
		return NULL;
	if (lz_json_fields(body, cred_fields, CRED__MAX, NULL, &e) == -1) {
		json_decref(body);
		lz_resp_verr(r, &e);
		return NULL;
	}
	*email = json_string_value(json_object_get(body,
	    cred_fields[CRED_EMAIL].name));
	*pw = json_string_value(json_object_get(body,
	    cred_fields[CRED_PASSWORD].name));
	return body;
}

void
dash_signup(struct lz_req *r)
{
	const char	*email, *pw;
	char		 addr[128];
	json_t		*body;
	int64_t		 id;

	if (!links.conf->signup_open) {
		lz_resp_error(r, 403, "signup_closed", NULL, "Sign-up is "
		    "closed on this service; ask its administrator for an "
		    "account.");
		return;
	}
	if ((body = read_credentials(r, &email, &pw)) == NULL)
		return;
	scope_addr(r->remote_addr, addr, sizeof(addr));
	if (!account_email_ok(email)) {
		lz_resp_error(r, 400, "invalid_field", "email", "'email' is "
		    "not an e-mail address.");
		goto out;
	}
	if (!password_ok(r, "password", "password", pw))
		goto out;
	/* Every sign-up counts against the address (its try is kept), so
	 * that one client cannot make accounts (or probe for taken e-mails)
	 * without end. */
	if (take_try(r, addr, links.conf->login_max_failures_addr) == -1)
		goto out;
	if (purge_failures(r) == -1 ||
	    (id = account_create(email, NULL, pw, r->now_ms)) < 0) {
		lz_resp_error(r, 500, "internal_error", NULL, "The account "
		    "could not be created.");
		goto out;
	}
	if (id == 0) {
		lz_resp_error(r, 409, "email_taken", "email", "An account with "
		    "this e-mail address exists; sign in instead.");
		goto out;
	}
	lz_log(LZ_LOG_INFO, "rid=%s dashboard sign-up: account %lld",
	    r->request_id, (long long)id);
	if (session_start(r, id) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The session "
		    "could not be started.");
		goto out;
	}
	lz_resp_json(r, 201, session_json(r));
out:
	json_decref(body);
}

void
dash_signin(struct lz_req *r)
{
	const char	*email, *pw;
	char		 addr[128], who[SCOPE_MAX];
	json_t		*body;
	int64_t		 id = 0;
	int		 rc, disabled = 0;

	if ((body = read_credentials(r, &email, &pw)) == NULL)
		return;
	scope_addr(r->remote_addr, addr, sizeof(addr));
	scope_pair(r->remote_addr, email, who, sizeof(who));
	if (take_try(r, addr, links.conf->login_max_failures_addr) == -1)
		goto out;
	if (take_try(r, who, links.conf->login_max_failures) == -1) {
		(void)give_back(r, addr, NULL);
		goto out;
	}
	if ((rc = check_password(r, email, &id, pw, &disabled, addr,
	    who)) == 0) {
		lz_resp_error(r, 401, "invalid_credentials", NULL, "The e-mail "
		    "address or the password is wrong.");
		goto out;
	}
	if (rc == -1)
		goto fail;
	if (disabled) {
		lz_resp_error(r, 403, "account_disabled", NULL, "This account "
		    "is disabled.");
		goto out;
	}
	if (store_login_fail_clear(&links.db, who) == -1 ||
	    session_start(r, id) == -1)
		goto fail;
	lz_resp_json(r, 200, session_json(r));
	goto out;
fail:
	lz_resp_error(r, 500, "internal_error", NULL, "The sign-in could not "
	    "be completed.");
out:
	json_decref(body);
}

void
dash_signout(struct lz_req *r)
{
	if (session_end(r) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The session "
		    "could not be ended.");
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:b}", "ok", 1, "signed_in", 0));
}

void
dash_password(struct lz_req *r)
{
	enum { P_CURRENT, P_NEW, P__MAX };
	static const struct lz_jfield fields[P__MAX] = {
		[P_CURRENT] =	{ "current_password", LZ_JT_STRING,
				  LZ_JF_REQUIRED },
		[P_NEW] =	{ "new_password", LZ_JT_STRING, LZ_JF_REQUIRED,
				  PASSWORD_MIN_LEN, PASSWORD_MAX_LEN },
	};
	struct links_req	*lr = r->app;
	struct account		 a;
	struct lz_verr		 e;
	const char		*cur, *pw;
	char			 who[SCOPE_MAX];
	json_t			*body;
	int64_t			 id = lr->account_id;
	int			 rc, disabled = 0;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, P__MAX, NULL, &e) == -1) {
		lz_resp_verr(r, &e);
		goto out;
	}
	cur = json_string_value(json_object_get(body, fields[P_CURRENT].name));
	pw = json_string_value(json_object_get(body, fields[P_NEW].name));
	if (store_account_get(&links.db, id, NULL, &a) != 1)
		goto fail;
	/* Wrong current passwords count like failed sign-ins: a borrowed
	 * session must not become a way to guess the password. */
	scope_pair(r->remote_addr, a.email, who, sizeof(who));
	if (!password_ok(r, "new_password", "new password", pw))
		goto out;
	if (take_try(r, who, links.conf->login_max_failures) == -1)
		goto out;
	if ((rc = check_password(r, NULL, &id, cur, &disabled, who,
	    NULL)) == 0) {
		lz_resp_error(r, 403, "wrong_password", "current_password",
		    "The current password is wrong.");
		goto out;
	}
	if (rc == -1)
		goto fail;
	/* A new password ends every other session of the account. */
	if (account_set_password(id, pw) != 1 ||
	    store_session_delete_others(&links.db, id, lr->session_id) == -1)
		goto fail;
	lz_resp_json(r, 200, json_pack("{s:b}", "ok", 1));
	goto out;
fail:
	lz_resp_error(r, 500, "internal_error", NULL, "The password could not "
	    "be changed.");
out:
	json_decref(body);
}

/* ---- account --------------------------------------------------------- */

void
dash_account(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	const struct lz_plan	*p = lr->plan;
	struct account		 a;
	char			 date[16], month[8], created[32], reset[32];
	long long		 calls, nlinks, left;
	json_t			*j;

	lz_time_fmt_date(r->now_ms, date, sizeof(date));
	snprintf(month, sizeof(month), "%.7s", date);
	if (store_account_get(&links.db, lr->account_id, NULL, &a) != 1 ||
	    (calls = store_usage_get(&links.db, a.id, month)) < 0 ||
	    (nlinks = store_link_count(&links.db, a.id)) < 0) {
		lz_resp_error(r, 500, "internal_error", NULL, "The account "
		    "could not be read.");
		return;
	}
	lz_time_fmt_iso(a.created_at, created, sizeof(created), 0);
	lz_time_fmt_iso(lz_month_next(r->now_ms), reset, sizeof(reset), 0);
	left = p->quota - calls;
	j = json_pack("{s:b, s:{s:I, s:s, s:s, s:s}, "
	    "s:{s:s, s:I, s:I, s:b}, s:{s:s, s:I, s:I, s:I, s:s}, "
	    "s:{s:I, s:I}}",
	    "ok", 1,
	    "account", "id", (json_int_t)a.id, "email", a.email, "plan",
	    a.plan, "created_at", created,
	    "plan", "name", p->name, "quota", (json_int_t)p->quota, "links",
	    (json_int_t)p->links, "conversions", p->conversions,
	    "usage", "month", month, "calls", (json_int_t)calls, "quota",
	    (json_int_t)p->quota, "remaining", (json_int_t)(left > 0 ? left :
	    0), "resets_at", reset,
	    "links", "used", (json_int_t)nlinks, "cap", (json_int_t)p->links);
	lz_resp_json(r, 200, j);
}

/* ---- API keys -------------------------------------------------------- */

static void
key_one(const struct apikey *k, void *arg)
{
	json_array_append_new(arg, apikey_json(k));
}

void
dash_keys_list(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	json_t			*arr = json_array();

	lz_resp_list(r, store_key_list(&links.db, lr->account_id, key_one,
	    arr), "keys", arr, "keys");
}

/* The key of account_id with id, as JSON, or NULL. */
static json_t *
key_by_id(int64_t account_id, int64_t id)
{
	json_t	*arr = json_array(), *k, *hit = NULL;
	size_t	 i;

	if (store_key_list(&links.db, account_id, key_one, arr) >= 0)
		json_array_foreach(arr, i, k)
			if (json_integer_value(json_object_get(k, "id")) ==
			    id)
				hit = json_incref(k);
	json_decref(arr);
	return hit;
}

void
dash_keys_create(struct lz_req *r)
{
	static const struct lz_jfield name_field = { "name",
	    LZ_JT_STRING | LZ_JT_NULL, 0, 0, KEY_NAME_MAX };
	struct links_req	*lr = r->app;
	struct lz_verr		 e;
	const char		*name;
	char			 key[KEY_LEN + 1];
	json_t			*body, *k;
	int64_t			 id;
	long			 n;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, &name_field, 1, NULL, &e) == -1) {
		lz_resp_verr(r, &e);
		goto out;
	}
	name = json_string_value(json_object_get(body, name_field.name));
	if (name == NULL)
		name = "";
	n = lz_json_chars(&name_field, name);
	if (n < 0 || n > name_field.max) {
		lz_resp_error(r, 400, "invalid_field", "name", "'name' must be "
		    "at most %lld characters, without control characters.",
		    name_field.max);
		goto out;
	}
	if ((id = apikey_create(lr->account_id, name, r->now_ms, key)) < 0 ||
	    (k = key_by_id(lr->account_id, id)) == NULL) {
		lz_resp_error(r, 500, "internal_error", NULL, "The key could "
		    "not be created.");
		goto out;
	}
	/* The key itself is in this answer only: the store keeps its hash. */
	lz_resp_json(r, 201, json_pack("{s:b, s:s, s:o}", "ok", 1, "secret",
	    key, "key", k));
	sodium_memzero(key, sizeof(key));
out:
	json_decref(body);
}

void
dash_keys_revoke(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "active key", &id) == -1)
		return;
	rc = store_key_revoke(&links.db, id, lr->account_id, r->now_ms);
	if (api_done(r, rc, "The key could not be revoked.", 404,
	    "not_found", "There is no active key with this id."))
		lz_resp_json(r, 200, json_pack("{s:b, s:I, s:b}", "ok", 1,
		    "id", (json_int_t)id, "revoked", 1));
}

/* ---- webhooks -------------------------------------------------------- */

static unsigned char	hookkey[WEBHOOK_KEY_BYTES];
static int		hookkey_ok;

void
dash_init(void)
{
	char	 err[512];

	if (webhook_key_load(links.conf, hookkey, err, sizeof(err)) == -1)
		lz_log(LZ_LOG_ERR, "webhooks: %s; the dashboard cannot add "
		    "webhooks or rotate their secrets", err);
	else
		hookkey_ok = 1;
}

static void
hook_one(const struct webhook *w, void *arg)
{
	json_array_append_new(arg, webhook_json(w));
}

void
dash_hooks_list(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	json_t			*arr = json_array();

	lz_resp_list(r, webhook_list(&links.db, lr->account_id, hook_one,
	    arr), "webhooks", arr, "webhooks");
}

/* The subscription of the path (of the session's account); 1 found, else
 * -1 after answering 404 or 500. */
static int
path_hook(struct lz_req *r, struct webhook *w)
{
	struct links_req	*lr = r->app;
	int64_t			 id;

	if (api_path_id(r, "webhook", &id) == -1 ||
	    !api_done(r, webhook_get(&links.db, id, lr->account_id, w),
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
	struct links_req	*lr = r->app;
	struct lz_rl_result	 res;
	unsigned char		 key[1 + sizeof(lr->account_id)];
	unsigned		 limit = (unsigned)links.conf->webhook_rate_limit;

	key[0] = 'w';
	memcpy(key + 1, &lr->account_id, sizeof(lr->account_id));
	(void)lz_rl_take(links.hook_rl, key, sizeof(key), limit, 60000,
	    lz_mono_us() / 1000, &res);
	if (res.allowed)
		return 0;
	lz_resp_header(r, "Retry-After", "%d", res.retry_after);
	lz_resp_error(r, 429, "rate_limited", NULL, "At most %u webhook "
	    "additions and test events a minute; retry in %d s.", limit,
	    res.retry_after);
	return -1;
}

static int
need_key(struct lz_req *r)
{
	if (hookkey_ok)
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
	struct links_req	*lr = r->app;
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
	id = webhook_add(&links.db, hookkey, lr->account_id,
	    json_string_value(json_object_get(body, "url")), mask,
	    links.conf->webhook_allow_loopback, r->now_ms, secret, &e);
	if (id < 0 && strcmp(e.code, "unsafe_url") == 0) {
		/* Where a name leads (an internal address, a name server
		 * that does not answer) is for the log, not the account. */
		lz_log(LZ_LOG_INFO, "rid=%s: webhook of account %lld refused: "
		    "%s", r->request_id, (long long)lr->account_id, e.msg);
		lz_verr_set(&e, 400, "unsafe_url", "url", "The receiving URL "
		    "must lead to a public https server whose name resolves "
		    "within %d seconds.", WEBHOOK_DNS_TIMEOUT_MS / 1000);
	}
	if (id < 0)
		goto verr;
	/* The secret is in this answer only: the store keeps it sealed. */
	lz_resp_json(r, 201, json_pack("{s:b, s:s, s:o}", "ok", 1, "secret",
	    secret, "webhook", hook_json_by_id(id, lr->account_id)));
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
	struct links_req	*lr = r->app;
	struct webhook		 w;
	char			 secret[WEBHOOK_SECRET_LEN + 1];
	int			 rc;

	if (need_key(r) == -1 || path_hook(r, &w) == -1)
		return;
	rc = webhook_rotate(&links.db, hookkey, w.id, lr->account_id,
	    r->now_ms, secret);
	if (hook_done(r, rc, "The secret could not be changed.",
	    "The webhook is disabled; add a new one."))
		lz_resp_json(r, 200, json_pack("{s:b, s:s, s:o}", "ok", 1,
		    "secret", secret, "webhook", hook_json_by_id(w.id,
		    lr->account_id)));
	sodium_memzero(secret, sizeof(secret));
}

void
dash_hooks_disable(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	struct webhook		 w;
	int			 rc;

	if (path_hook(r, &w) == -1)
		return;
	rc = webhook_disable(&links.db, w.id, lr->account_id,
	    "disabled in the dashboard", r->now_ms);
	if (hook_done(r, rc, "The webhook could not be disabled.",
	    "The webhook is disabled already."))
		lz_resp_json(r, 200, json_pack("{s:b, s:o}", "ok", 1,
		    "webhook", hook_json_by_id(w.id, lr->account_id)));
}

void
dash_hooks_test(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	struct webhook		 w;
	char			 uuid[WEBHOOK_DELIVERY_LEN + 1];
	int			 rc;

	if (path_hook(r, &w) == -1 || hook_rate_ok(r) == -1)
		return;
	rc = webhook_test(&links.db, w.id, lr->account_id, r->now_ms, uuid);
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
