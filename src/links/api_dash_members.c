/*
 * api_dash_members.c -- /dashboard/api/members (lz-links(8) "Teams"):
 * an account's members and invitations, listed, invited, their roles
 * changed, removed.  The rules are auth/team.h's; the routes take an
 * admin or an owner (main.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "auth/audit.h"
#include "auth/team.h"
#include "conf.h"
#include "ctx.h"
#include "jbody.h"
#include "log.h"
#include "resp.h"
#include "serve.h"
#include "store/members.h"
#include "verr.h"

static void
member_one(const struct member *m, void *arg)
{
	json_array_append_new(arg, json_pack("{s:I, s:s, s:s, s:o}", "id",
	    (json_int_t)m->user_id, "email", m->email, "role", m->role,
	    "joined_at", lz_json_time(m->joined_at)));
}

static void
invite_one(const struct invitation *inv, void *arg)
{
	json_array_append_new(arg, json_pack("{s:I, s:s, s:s, s:o, s:o}", "id",
	    (json_int_t)inv->id, "email", inv->email, "role", inv->role,
	    "created_at", lz_json_time(inv->created_at), "expires_at",
	    lz_json_time(inv->expires_at)));
}

void
dash_members_list(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	json_t			*m = json_array(), *inv = json_array();

	if (store_member_list(&links.db, who->account_id, member_one, m) < 0 ||
	    store_invite_pending(&links.db, who->account_id, r->now_ms,
	    invite_one, inv) < 0) {
		json_decref(m);
		json_decref(inv);
		lz_resp_error(r, 500, "internal_error", NULL, "The members could "
		    "not be read.");
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:I, s:o, s:o}", "ok", 1, "you",
	    (json_int_t)who->user_id, "members", m, "invitations", inv));
}

/* Who acts, for the invitations' record: the signed-in e-mail. */
static void
actor_email(const struct auth_caller *who, char *out, size_t len)
{
	if (store_user_email(&links.db, who->user_id, out, len) != 1)
		snprintf(out, len, "user %lld", (long long)who->user_id);
}

/*
 * The invitation's mail, when mail_command is set and the worker has
 * the key that seals it: NULL otherwise (the inviter passes the URL on
 * alone).  prefix is the URL but its token, the caller's to free.
 */
static const struct invite_mail *
mail_of(struct invite_mail *m, const char *by, char **prefix)
{
	*prefix = NULL;
	if (*links.conf->mail_command == '\0')
		return NULL;
	if (!links.mail_key_ok) {
		lz_log(LZ_LOG_WARN, "an invitation is not mailed: the worker "
		    "has no mail key");
		return NULL;
	}
	*prefix = team_invite_url(links.conf, "");
	m->key = links.mail_key;
	m->url = *prefix;
	m->inviter = by;
	return m;
}

void
dash_members_invite(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "email", LZ_JT_STRING, LZ_JF_REQUIRED, 3, 254 },
		{ "role", LZ_JT_STRING, LZ_JF_REQUIRED, 1, 10 },
	};
	struct auth_caller		*who = API_WHO(r);
	struct invite_mail		 im;
	const struct invite_mail	*mail;
	struct lz_verr			 e;
	const char			*email;
	char				 token[INVITE_TOKEN_LEN + 1];
	char				 by[USER_EMAIL_LEN];
	char				*url, *prefix;
	json_t				*body;
	enum role			 role;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, LZ_NELEM(fields), NULL, &e) == -1)
		goto verr;
	email = json_string_value(json_object_get(body, "email"));
	role = role_parse(json_string_value(json_object_get(body, "role")));
	actor_email(who, by, sizeof(by));
	mail = mail_of(&im, by, &prefix);
	if (team_invite(&links.db, who->account_id, (enum role)who->role, by,
	    email, role, mail, r->now_ms, token, &e) == -1) {
		free(prefix);
		goto verr;
	}
	free(prefix);
	audit_note(&links.db, r, who, who->account_id, "member.invited",
	    "%s as %s", email, role_names[role]);
	url = team_invite_url(links.conf, token);
	/* The URL is in this answer, and sealed in the mail queued: the
	 * store keeps its token hashed.  The inviter passes it on when no
	 * mail goes. */
	lz_resp_json(r, 201, json_pack("{s:b, s:s, s:s, s:s, s:i, s:b}", "ok",
	    1, "email", email, "role", role_names[role], "invitation_url", url,
	    "valid_days", INVITE_DAYS, "mailed", mail != NULL));
	sodium_memzero(url, strlen(url));
	free(url);
	sodium_memzero(token, sizeof(token));
	goto out;
verr:
	lz_resp_verr(r, &e);
out:
	json_decref(body);
}

/* The member of the path, and its e-mail: 0, or -1 after answering. */
static int
path_member(struct lz_req *r, int64_t *uid, char *email, size_t len)
{
	if (api_path_id(r, "member", uid) == -1)
		return -1;
	if (store_user_email(&links.db, *uid, email, len) != 1) {
		lz_resp_error(r, 404, "not_found", NULL, "There is no such "
		    "member of the account.");
		return -1;
	}
	return 0;
}

void
dash_members_set(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "role", LZ_JT_STRING, LZ_JF_REQUIRED, 1, 10 },
	};
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	char			 email[USER_EMAIL_LEN];
	json_t			*body;
	int64_t			 uid;
	enum role		 role;

	if (path_member(r, &uid, email, sizeof(email)) == -1 ||
	    (body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, LZ_NELEM(fields), NULL, &e) == -1)
		goto verr;
	if ((role = role_parse(json_string_value(json_object_get(body,
	    "role")))) == ROLE_NONE) {
		lz_verr_set(&e, 400, "invalid_field", "role", "The role is "
		    "owner, admin, member or viewer.");
		goto verr;
	}
	if (team_set_role(&links.db, who->account_id, (enum role)who->role,
	    uid, role, 0, r->now_ms, &e) == -1)
		goto verr;
	audit_note(&links.db, r, who, who->account_id, "member.changed",
	    "%s to %s", email, role_names[role]);
	lz_resp_json(r, 200, json_pack("{s:b, s:I, s:s, s:s}", "ok", 1, "id",
	    (json_int_t)uid, "email", email, "role", role_names[role]));
	goto out;
verr:
	lz_resp_verr(r, &e);
out:
	json_decref(body);
}

void
dash_members_remove(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	char			 email[USER_EMAIL_LEN];
	int64_t			 uid;

	if (path_member(r, &uid, email, sizeof(email)) == -1)
		return;
	if (team_remove(&links.db, who->account_id, (enum role)who->role, uid,
	    &e) == -1) {
		lz_resp_verr(r, &e);
		return;
	}
	audit_note(&links.db, r, who, who->account_id, "member.removed", "%s",
	    email);
	lz_resp_json(r, 200, json_pack("{s:b, s:I, s:b}", "ok", 1, "id",
	    (json_int_t)uid, "removed", 1));
}
