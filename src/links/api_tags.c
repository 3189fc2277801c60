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
#include "link/tagops.h"
#include "resp.h"
#include "serve.h"
#include "store/tags.h"
#include "verr.h"

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

void
api_tags_rename(struct lz_req *r)
{
	static const struct lz_jfield name_field = { "name", LZ_JT_STRING,
	    LZ_JF_REQUIRED, 1, TAG_CHARS * 2 };
	struct auth_caller	*who = API_WHO(r);
	struct tag_renamed	 t;
	struct lz_verr		 e;
	json_t			*body;
	int			 rc;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if ((rc = lz_json_fields(body, &name_field, 1, NULL, &e)) == 0)
		rc = tagops_rename(&links.db, who->account_id, r->args[0],
		    json_string_value(json_object_get(body, "name")), &t, &e);
	json_decref(body);
	if (rc == -1) {
		lz_resp_verr(r, &e);
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:s, s:s, s:b}", "ok", 1,
	    "from", t.from, "name", t.name, "merged", t.merged));
}

void
api_tags_delete(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	char			 name[TAG_BYTES];

	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	if (tagops_delete(&links.db, who->account_id, r->args[0], name,
	    &e) == -1) {
		lz_resp_verr(r, &e);
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:s, s:b}", "ok", 1, "name",
	    name, "deleted", 1));
}
