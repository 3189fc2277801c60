/*
 * api_dash_keys.c -- /dashboard/api/keys (DESIGN 3.3, 3.8): the
 * account's API keys, listed, made (the key shown once) and revoked.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "api.h"
#include "auth/account.h"
#include "auth/keys.h"
#include "ctx.h"
#include "jbody.h"
#include "resp.h"
#include "serve.h"
#include "store/accounts.h"

static void
key_one(const struct apikey *k, void *arg)
{
	json_array_append_new(arg, apikey_json(k));
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
	static const struct lz_jfield name_field = { "name",
	    LZ_JT_STRING | LZ_JT_NULL, 0, 0, KEY_NAME_MAX };
	struct auth_caller	*who = API_WHO(r);
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
	if ((id = apikey_create(&links.db, who->account_id, name, r->now_ms,
	    key)) < 0 ||
	    (k = key_by_id(who->account_id, id)) == NULL) {
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
	struct auth_caller	*who = API_WHO(r);
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "active key", &id) == -1)
		return;
	rc = store_key_revoke(&links.db, id, who->account_id, r->now_ms);
	api_removed(r, rc, id, "revoked", "The key could not be revoked.",
	    "There is no active key with this id.");
}
