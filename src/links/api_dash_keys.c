/*
 * api_dash_keys.c -- /dashboard/api/keys (DESIGN 3.3, 3.8): the
 * account's API keys, listed, made (the key shown once) and revoked.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "api.h"
#include "auth/audit.h"
#include "auth/account.h"
#include "auth/keys.h"
#include "auth/scope.h"
#include "ctx.h"
#include "jbody.h"
#include "lztime.h"
#include "resp.h"
#include "serve.h"
#include "store/accounts.h"

static void
key_one(const struct apikey *k, void *arg)
{
	json_array_append_new(arg, apikey_json(k, lz_now_ms()));
}

/*
 * The scopes of a new key's body (an array of names; absent or null:
 * the default) into *bits, and its expires_at (an ISO 8601 time in the
 * future; absent or null: never) into *at.  0, or -1 after answering
 * 400 naming the field.
 */
static int
key_limits(struct lz_req *r, const json_t *body, unsigned *bits,
    int64_t *at)
{
	const json_t	*v = json_object_get(body, "scopes"), *s;
	size_t		 i;
	int		 sc;

	*bits = SCOPES_DEFAULT;
	if (v != NULL && !json_is_null(v)) {
		*bits = 0;
		if (json_array_size(v) == 0) {
			lz_resp_error(r, 400, "invalid_field", "scopes", "A key "
			    "needs at least one scope.");
			return -1;
		}
		json_array_foreach(v, i, s) {
			if (!json_is_string(s) || (sc = scope_by_name(
			    json_string_value(s))) == -1 ||
			    (*bits & SCOPE_BIT(sc))) {
				lz_resp_error(r, 400, "invalid_field", "scopes",
				    "scopes[%zu] is not a scope, or repeats "
				    "one.", i);
				return -1;
			}
			*bits |= SCOPE_BIT(sc);
		}
	}
	*at = 0;
	v = json_object_get(body, "expires_at");
	if (v != NULL && !json_is_null(v) && (lz_time_parse_iso(
	    json_string_value(v), at) == -1 || *at <= r->now_ms)) {
		lz_resp_error(r, 400, "invalid_field", "expires_at", "'expires_at' "
		    "must be an ISO 8601 time with a time zone, in the future.");
		return -1;
	}
	return 0;
}

void
dash_keys_list(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	json_t			*arr = json_array();

	lz_resp_list(r, store_key_list(&links.db, who->account_id, key_one,
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
	static const struct lz_jfield fields[] = {
		{ "name", LZ_JT_STRING | LZ_JT_NULL, 0, 0, KEY_NAME_MAX },
		{ "scopes", LZ_JT_ARRAY | LZ_JT_NULL, 0, 0, SC__MAX },
		{ "expires_at", LZ_JT_STRING | LZ_JT_NULL, 0, 0, 40 },
	};
	const struct lz_jfield	*name_field = &fields[0];
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	const char		*name;
	char			 key[KEY_LEN + 1];
	json_t			*body, *k;
	unsigned		 scopes;
	int64_t			 id, expires;
	long			 n;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, LZ_NELEM(fields), NULL, &e) == -1) {
		lz_resp_verr(r, &e);
		goto out;
	}
	name = json_string_value(json_object_get(body, name_field->name));
	if (name == NULL)
		name = "";
	n = lz_json_chars(name_field, name);
	if (n < 0 || n > name_field->max) {
		lz_resp_error(r, 400, "invalid_field", "name", "'name' must be "
		    "at most %lld characters, without control characters.",
		    name_field->max);
		goto out;
	}
	if (key_limits(r, body, &scopes, &expires) == -1)
		goto out;
	if ((id = apikey_create(&links.db, who->account_id, who->user_id, name,
	    scopes, expires, r->now_ms, key)) < 0 ||
	    (k = key_by_id(who->account_id, id)) == NULL) {
		lz_resp_error(r, 500, "internal_error", NULL, "The key could "
		    "not be created.");
		goto out;
	}
	audit_note(&links.db, r, who, who->account_id, "key.created",
	    "key %s...%s%s%s", json_string_value(json_object_get(k, "prefix")),
	    json_string_value(json_object_get(k, "last4")), *name ? ": " : "",
	    name);
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
	struct auth_caller	*who = API_WHO(r);
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "active key", &id) == -1)
		return;
	rc = store_key_revoke(&links.db, id, who->account_id, r->now_ms);
	if (rc == 1)
		audit_note(&links.db, r, who, who->account_id, "key.revoked",
		    "key %lld", (long long)id);
	api_removed(r, rc, id, "revoked", "The key could not be revoked.",
	    "There is no active key with this id.");
}
