/*
 * api_tags.c -- /api/v1/tags (DESIGN 3.13): an account's tags with their
 * live links, renamed (into another: merged) and deleted from every link.
 */
#include "config.h"

#include <string.h>

#include "api.h"
#include "ctx.h"
#include "jbody.h"
#include "link/tag.h"
#include "resp.h"
#include "serve.h"
#include "store/tags.h"

static void
tag_one(const char *name, long long n, void *arg)
{
	json_array_append_new(arg, json_pack("{s:s, s:I}", "name", name,
	    "links", (json_int_t)n));
}

void
api_tags_list(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	json_t			*arr;

	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	arr = json_array();
	lz_resp_list(r, store_tag_list(&links.db, who->account_id, tag_one,
	    arr), "tags", arr, "tags");
}

/* The caller's tag of the path into *id: 0, or -1 after answering 404
 * (400 for a name that is no tag). */
static int
path_tag(struct lz_req *r, int64_t *id, char *name)
{
	struct auth_caller	*who = API_WHO(r);
	char			 fold[TAG_FOLD_BYTES], why[128];
	int			 rc;

	if (r->nargs < 1 || tag_parse(r->args[0], name, fold, why,
	    sizeof(why)) == -1 || (rc = store_tag_by_fold(&links.db,
	    who->account_id, fold, id, name)) == 0) {
		lz_resp_error(r, 404, "not_found", "name", "There is no tag "
		    "with this name.");
		return -1;
	}
	if (rc == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The tag could "
		    "not be read.");
		return -1;
	}
	return 0;
}

void
api_tags_rename(struct lz_req *r)
{
	static const struct lz_jfield name_field = { "name", LZ_JT_STRING,
	    LZ_JF_REQUIRED, 1, TAG_CHARS * 2 };
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	char			 old[TAG_BYTES], name[TAG_BYTES];
	char			 fold[TAG_FOLD_BYTES], why[128];
	char			 other[TAG_BYTES];
	json_t			*body;
	int64_t			 id, into = 0;
	int			 rc, merged;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, &name_field, 1, NULL, &e) == -1) {
		json_decref(body);
		lz_resp_verr(r, &e);
		return;
	}
	rc = tag_parse(json_string_value(json_object_get(body, "name")),
	    name, fold, why, sizeof(why));
	json_decref(body);
	if (rc == -1) {
		lz_resp_error(r, 400, "invalid_field", "name", "The new name "
		    "%s.", why);
		return;
	}
	if (path_tag(r, &id, old) == -1)
		return;
	if (lz_db_begin(&links.db) == -1)
		goto fail;
	/* Into a tag the account has already (another, or this one in
	 * another case): its links carry that one. */
	if ((rc = store_tag_by_fold(&links.db, who->account_id, fold, &into,
	    other)) == -1)
		goto fail;
	merged = rc == 1 && into != id;
	if ((merged ? store_tag_merge(&links.db, id, into) :
	    store_tag_rename(&links.db, id, name, fold)) == -1 ||
	    lz_db_commit(&links.db) == -1)
		goto fail;
	lz_resp_json(r, 200, json_pack("{s:b, s:s, s:s, s:b}", "ok", 1,
	    "from", old, "name", merged ? other : name, "merged", merged));
	return;
fail:
	lz_db_rollback(&links.db);
	lz_resp_error(r, 500, "internal_error", NULL, "The tag could not be "
	    "renamed.");
}

void
api_tags_delete(struct lz_req *r)
{
	char	 name[TAG_BYTES];
	int64_t	 id;

	if (lz_req_params(r, NULL, 0, NULL) == -1 || path_tag(r, &id, name) ==
	    -1)
		return;
	if (lz_db_begin(&links.db) == -1 ||
	    store_tag_delete(&links.db, id) == -1 ||
	    lz_db_commit(&links.db) == -1) {
		lz_db_rollback(&links.db);
		lz_resp_error(r, 500, "internal_error", NULL, "The tag could "
		    "not be deleted.");
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:s, s:b}", "ok", 1, "name",
	    name, "deleted", 1));
}
