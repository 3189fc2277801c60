/*
 * api_dash_session.c -- /dashboard/api/ of a person (DESIGN 3.8): the
 * session, sign-up, sign-in, sign-out, a new password, the account;
 * and the headers and host of every dashboard answer.  Wrong passwords
 * count against the throttles of auth/throttle.h.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "auth/audit.h"
#include "auth/account.h"
#include "auth/quota.h"
#include "auth/session.h"
#include "auth/team.h"
#include "auth/throttle.h"
#include "conf.h"
#include "ctx.h"
#include "jbody.h"
#include "log.h"
#include "lztime.h"
#include "resp.h"
#include "serve.h"
#include "store/accounts.h"
#include "store/members.h"
#include "store/links.h"
#include "store/sessions.h"

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

/* ---- wrong passwords -------------------------------------------------- */

/* The sign-in rules of lz.conf: a network's tries, a network's at one
 * e-mail address. */
static void
rules(struct throttle_rule *addr, struct throttle_rule *pair)
{
	const struct lz_conf	*c = links.conf;

	addr->window_ms = pair->window_ms = c->login_window * 1000;
	addr->longest_ms = pair->longest_ms = THROTTLE_LONGEST_MS;
	addr->limit = c->login_max_failures_addr;
	pair->limit = c->login_max_failures;
}

/*
 * Takes a try of scope under rule (throttle.h): 0, or -1 after
 * answering 429 with Retry-After, or 500.
 */
static int
take_try(struct lz_req *r, const char *scope, const struct throttle_rule *rule)
{
	long long	 wait;
	int		 rc;

	if ((rc = throttle_take(&links.db, scope, rule, r->now_ms,
	    &wait)) == 1)
		return 0;
	if (rc == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The sign-in "
		    "could not be checked.");
		return -1;
	}
	ops_limited(OPS_LIMIT_SIGN_IN);
	lz_resp_header(r, "Retry-After", "%lld", wait);
	lz_resp_error(r, 429, "too_many_attempts", NULL, "Too many failed "
	    "attempts; try again in %lld seconds.", wait);
	return -1;
}

/* Gives back the tries taken of s1 (and s2, when not NULL): 0 or -1. */
static int
give_back(const char *s1, const char *s2)
{
	if (throttle_give_back(&links.db, s1) == -1 ||
	    (s2 && throttle_give_back(&links.db, s2) == -1))
		return -1;
	return 0;
}

/*
 * Checks pw, a password of the user of email (NULL: of user *id), once
 * the tries of scopes s1 and s2 (when not NULL) are taken.  Returns 1
 * right (with *id; the tries given back), 0 wrong (the tries stay, as
 * failures), -1 on error.
 */
static int
check_password(const char *email, int64_t *id, const char *pw,
    const char *s1, const char *s2)
{
	int	 rc = 0;

	if (strlen(pw) > 4 * PASSWORD_MAX_LEN || (rc = email != NULL ?
	    team_check_password(&links.db, email, id, pw) :
	    team_check_user_password(&links.db, *id, pw)) == 0)
		return 0;
	if (rc == -1 || give_back(s1, s2) == -1)
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

/* The first account of a user's list (store_user_accounts). */
static void
first_account(int64_t id, const char *email, const char *role, void *arg)
{
	(void)email;
	(void)role;
	if (*(int64_t *)arg == 0)
		*(int64_t *)arg = id;
}

/* An account of the user's list, for the session's answer. */
static void
account_one(int64_t id, const char *email, const char *role, void *arg)
{
	json_array_append_new(arg, json_pack("{s:I, s:s, s:s}", "id",
	    (json_int_t)id, "email", email, "role", role));
}

/* {ok, signed_in, signup, csrf_token, account} */
static json_t *
session_json(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct account		 a;
	char			 email[USER_EMAIL_LEN];
	json_t			*j, *accounts;

	j = json_object();
	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "signup", json_string(links.conf->signup_open ?
	    "open" : "closed"));
	/* Where short links, the API and conversion reports live: the
	 * dashboard may be on a host of its own (dashboard_host). */
	json_object_set_new(j, "base_url", json_string(links.conf->base_url));
	if (who->session_id == 0 || store_account_get(&links.db,
	    who->account_id, NULL, &a) != 1) {
		json_object_set_new(j, "signed_in", json_false());
		return j;
	}
	json_object_set_new(j, "signed_in", json_true());
	json_object_set_new(j, "csrf_token", json_string(who->csrf));
	json_object_set_new(j, "account", json_pack("{s:I, s:s, s:s}", "id",
	    (json_int_t)a.id, "email", a.email, "plan", a.plan));
	json_object_set_new(j, "role", json_string(role_names[who->role]));
	if (store_user_email(&links.db, who->user_id, email,
	    sizeof(email)) == 1)
		json_object_set_new(j, "user", json_string(email));
	accounts = json_array();
	(void)store_user_accounts(&links.db, who->user_id, account_one,
	    accounts);
	json_object_set_new(j, "accounts", accounts);
	return j;
}

void
dash_session(struct lz_req *r)
{
	if (session_load(r, &links.db, links.conf, API_WHO(r)) == -1)
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
	struct throttle_rule	 ra, rp;
	const char		*email, *pw;
	char			 addr[THROTTLE_SCOPE_MAX];
	char			 hash[256];
	json_t			*body;
	int64_t			 id, uid;
	int			 rc;

	if (!links.conf->signup_open) {
		lz_resp_error(r, 403, "signup_closed", NULL, "Sign-up is "
		    "closed on this service; ask its administrator for an "
		    "account.");
		return;
	}
	if ((body = read_credentials(r, &email, &pw)) == NULL)
		return;
	throttle_scope_addr(r->remote_addr, addr, sizeof(addr));
	rules(&ra, &rp);
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
	if (take_try(r, addr, &ra) == -1)
		goto out;
	/* A user of another account signs in and is invited; a sign-up
	 * does not take its e-mail. */
	if ((rc = store_user_by_email(&links.db, email, &uid, hash,
	    sizeof(hash))) != 0) {
		if (rc == -1)
			lz_resp_error(r, 500, "internal_error", NULL, "The "
			    "account could not be created.");
		else
			lz_resp_error(r, 409, "email_taken", "email", "This "
			    "e-mail address has a sign-in already; sign in "
			    "instead.");
		goto out;
	}
	if ((id = account_create(&links.db, email, links.conf->default_plan,
	    pw, r->now_ms)) < 0) {
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
	if (store_user_by_email(&links.db, email, &uid, hash,
	    sizeof(hash)) != 1 || session_start(r, &links.db, links.conf,
	    API_WHO(r), uid, id) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The session "
		    "could not be started.");
		goto out;
	}
	audit_signin(&links.db, r, API_WHO(r), id, email);
	lz_resp_json(r, 201, session_json(r));
out:
	json_decref(body);
}

void
dash_signin(struct lz_req *r)
{
	struct throttle_rule	 ra, rp;
	const char		*email, *pw;
	char			 addr[THROTTLE_SCOPE_MAX];
	char			 pair[THROTTLE_SCOPE_MAX];
	json_t			*body;
	int64_t			 uid = 0, aid = 0;
	long			 n;
	int			 rc;

	if ((body = read_credentials(r, &email, &pw)) == NULL)
		return;
	throttle_scope_addr(r->remote_addr, addr, sizeof(addr));
	throttle_scope_pair(r->remote_addr, email, pair, sizeof(pair));
	rules(&ra, &rp);
	if (take_try(r, addr, &ra) == -1)
		goto out;
	if (take_try(r, pair, &rp) == -1) {
		(void)give_back(addr, NULL);
		goto out;
	}
	if ((rc = check_password(email, &uid, pw, addr, pair)) == 0) {
		lz_resp_error(r, 401, "invalid_credentials", NULL, "The e-mail "
		    "address or the password is wrong.");
		goto out;
	}
	if (rc == -1)
		goto fail;
	/* The first account joined that is not disabled. */
	if ((n = store_user_accounts(&links.db, uid, first_account,
	    &aid)) < 0)
		goto fail;
	if (aid == 0) {
		lz_resp_error(r, 403, "account_disabled", NULL, "This account "
		    "is disabled (or the sign-in is no member of any account "
		    "any more).");
		goto out;
	}
	if (throttle_clear(&links.db, pair) == -1 ||
	    session_start(r, &links.db, links.conf, API_WHO(r), uid, aid) == -1)
		goto fail;
	audit_signin(&links.db, r, API_WHO(r), aid, email);
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
	if (session_end(r, &links.db, links.conf, API_WHO(r)) == -1) {
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
	struct auth_caller	*who = API_WHO(r);
	struct throttle_rule	 ra, rp;
	struct lz_verr		 e;
	const char		*cur, *pw;
	char			 pair[THROTTLE_SCOPE_MAX];
	json_t			*body;
	int64_t			 id = who->user_id;
	char			 email[USER_EMAIL_LEN];
	int			 rc;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, P__MAX, NULL, &e) == -1) {
		lz_resp_verr(r, &e);
		goto out;
	}
	cur = json_string_value(json_object_get(body, fields[P_CURRENT].name));
	pw = json_string_value(json_object_get(body, fields[P_NEW].name));
	if (store_user_email(&links.db, id, email, sizeof(email)) != 1)
		goto fail;
	/* Wrong current passwords count like failed sign-ins: a borrowed
	 * session must not become a way to guess the password. */
	throttle_scope_pair(r->remote_addr, email, pair, sizeof(pair));
	rules(&ra, &rp);
	if (!password_ok(r, "new_password", "new password", pw))
		goto out;
	if (take_try(r, pair, &rp) == -1)
		goto out;
	if ((rc = check_password(NULL, &id, cur, pair, NULL)) == 0) {
		lz_resp_error(r, 403, "wrong_password", "current_password",
		    "The current password is wrong.");
		goto out;
	}
	if (rc == -1)
		goto fail;
	/* A new password ends every other session of the user. */
	if (team_set_password(&links.db, id, pw) != 1 ||
	    store_user_sessions_end(&links.db, id, who->session_id) == -1)
		goto fail;
	audit_note(&links.db, r, who, who->account_id, "password.changed",
	    "%s", email);
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
	struct auth_caller	*who = API_WHO(r);
	const struct lz_plan	*p = who->plan;
	struct account		 a;
	char			 date[16], month[8], created[32], reset[32];
	long long		 calls, nlinks, left;
	json_t			*j;

	lz_time_fmt_date(r->now_ms, date, sizeof(date));
	snprintf(month, sizeof(month), "%.7s", date);
	if (store_account_get(&links.db, who->account_id, NULL, &a) != 1 ||
	    (calls = store_usage_get(&links.db, a.id, month)) < 0 ||
	    (nlinks = store_link_count(&links.db, a.id)) < 0) {
		lz_resp_error(r, 500, "internal_error", NULL, "The account "
		    "could not be read.");
		return;
	}
	/* The database counts what the hosts leased (quota.h). */
	calls -= quota_held(links.quota, a.id, month);
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

/* ---- invitations and accounts --------------------------------------- */

/*
 * POST /dashboard/api/invitation {token, password}: an invitation taken,
 * signed in as its e-mail (a session of the user invited: the one of the
 * request's cookie, or a new user with password), then in the account.
 */
void
dash_invitation_accept(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "token", LZ_JT_STRING, LZ_JF_REQUIRED, 1, 64 },
		{ "password", LZ_JT_STRING, 0, 0, PASSWORD_MAX_LEN },
	};
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	char			 email[USER_EMAIL_LEN];
	json_t			*body;
	int64_t			 uid, aid;

	if (session_load(r, &links.db, links.conf, who) == -1 ||
	    (body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, LZ_NELEM(fields), NULL, &e) == -1 ||
	    team_accept(&links.db, json_string_value(json_object_get(body,
	    "token")), who->session_id ? who->user_id : 0, json_string_value(
	    json_object_get(body, "password")), r->now_ms, &uid, &aid, email,
	    &e) == -1) {
		lz_resp_verr(r, &e);
		json_decref(body);
		return;
	}
	json_decref(body);
	if (session_start(r, &links.db, links.conf, who, uid, aid) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The session "
		    "could not be started.");
		return;
	}
	who->role = ROLE_VIEWER;	/* for session_json; read again below */
	{
		char	 role[MEMBER_ROLE_LEN];

		if (store_member_role(&links.db, uid, aid, role) == 1)
			who->role = role_parse(role);
	}
	audit_note(&links.db, r, who, aid, "member.joined", "%s as %s", email,
	    role_names[who->role]);
	lz_resp_json(r, 200, session_json(r));
}

/* POST /dashboard/api/switch {account_id}: the session in another of its
 * user's accounts. */
void
dash_switch(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "account_id", LZ_JT_INTEGER, LZ_JF_REQUIRED, 1, INT64_MAX },
	};
	struct auth_caller	*who = API_WHO(r);
	struct account		 a;
	struct lz_verr		 e;
	char			 role[MEMBER_ROLE_LEN];
	json_t			*body;
	int64_t			 aid;
	int			 rc;

	if ((body = lz_req_json(r)) == NULL)
		return;
	rc = lz_json_fields(body, fields, LZ_NELEM(fields), NULL, &e);
	aid = json_integer_value(json_object_get(body, "account_id"));
	json_decref(body);
	if (rc == -1) {
		lz_resp_verr(r, &e);
		return;
	}
	if ((rc = store_member_role(&links.db, who->user_id, aid, role)) != 1 ||
	    store_account_get(&links.db, aid, NULL, &a) != 1 || a.disabled) {
		if (rc == -1)
			goto fail;
		lz_resp_error(r, 404, "not_found", "account_id", "You are no "
		    "member of such an account.");
		return;
	}
	if (store_session_switch(&links.db, who->session_id, aid) == -1)
		goto fail;
	who->account_id = aid;
	who->role = role_parse(role);
	if ((who->plan = lz_conf_plan(links.conf, a.plan)) == NULL)
		who->plan = lz_conf_plan(links.conf, links.conf->default_plan);
	lz_resp_json(r, 200, session_json(r));
	return;
fail:
	lz_resp_error(r, 500, "internal_error", NULL, "The account could not "
	    "be switched to.");
}
