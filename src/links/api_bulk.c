/*
 * api_bulk.c -- /api/v1/links/bulk (lz-links(8) "Bulk calls"): create,
 * edit or delete up to BULK_MAX links in one call.  Each item counts as
 * a call of the monthly quota and is held to every rule of its single
 * call (the link cap too), with its events; the answer says of each, in
 * the order given, what became of it.  Only a bad envelope is a 400:
 * an item that fails is a result of its own.
 *
 * Creates' fields are checked one by one and their destinations scanned
 * as one batch (safety_links), then written in one transaction: what
 * makes a thousand creates cost little more than one.
 * Edits and deletes go one by one, each in its own transaction, as the
 * single calls do.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "auth/audit.h"
#include "auth/auth.h"
#include "conf.h"
#include "ctx.h"
#include "jbody.h"
#include "link/link.h"
#include "link/linkops.h"
#include "link/tag.h"
#include "req.h"
#include "resp.h"
#include "serve.h"
#include "util.h"
#include "verr.h"

#define BULK_MAX	1000

/* A failed item: {ok:false, index, error, message, param}. */
static json_t *
failed(size_t index, const struct lz_verr *e)
{
	json_t	*j;

	j = json_pack("{s:b, s:I, s:s, s:s}", "ok", 0, "index",
	    (json_int_t)index, "error", e->code, "message", e->msg);
	if (j != NULL && e->param[0] != '\0')
		json_object_set_new(j, "param", json_string(e->param));
	return j != NULL ? j : json_pack("{s:b, s:I, s:s, s:s}", "ok", 0,
	    "index", (json_int_t)index, "error", e->code, "message",
	    "The item failed.");
}

/*
 * The array field name of body, 1 to BULK_MAX entries, and no other field
 * but those of allowed; NULL after answering 400.
 */
static json_t *
envelope(struct lz_req *r, json_t *body, const char *name,
    const struct lz_jfield *fields, size_t nfields)
{
	struct lz_verr	 e;
	json_t		*arr;

	if (lz_json_fields(body, fields, nfields, NULL, &e) == -1) {
		lz_resp_verr(r, &e);
		return NULL;
	}
	arr = json_object_get(body, name);
	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    json_array_size(arr) > BULK_MAX) {
		lz_resp_error(r, 400, "invalid_field", name, "'%s' must be an "
		    "array of 1 to %d items.", name, BULK_MAX);
		return NULL;
	}
	return arr;
}

/*
 * Counts item i's call (the request's own counted the first): 1, or 0
 * with e (429 quota_exceeded), -1 after answering 500.
 */
static int
item_call(struct lz_req *r, size_t i, struct lz_verr *e)
{
	struct auth_caller	*who = API_WHO(r);
	int			 rc;

	if (i == 0)
		return 1;
	if ((rc = auth_meter_more(r, &links.db, links.quota, who)) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The quota could "
		    "not be counted.");
		return -1;
	}
	if (rc == 0)
		lz_verr_set(e, 429, "quota_exceeded", NULL, "The monthly quota "
		    "of %lld API calls of plan '%s' is used up.",
		    who->plan->quota, who->plan->name);
	return rc;
}

/* {ok, results} with the results (taken). */
static void
answer(struct lz_req *r, json_t *results)
{
	lz_resp_json(r, 200, json_pack("{s:b, s:o}", "ok", 1, "results",
	    results));
}

void
api_bulk_create(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "links", LZ_JT_ARRAY, LZ_JF_REQUIRED, 1, BULK_MAX },
	};
	struct auth_caller	*who = API_WHO(r);
	const json_t		**bodies = NULL;
	struct link		*ls = NULL;
	struct lz_verr		*es = NULL;
	json_t			*body, *arr, *results, *it;
	char			*url;
	size_t			 i, n;
	int			 rc;

	lz_req_body_max(r, LZ_BODY_BULK_MAX);
	if ((body = lz_req_json(r)) == NULL)
		return;
	if ((arr = envelope(r, body, "links", fields, LZ_NELEM(fields))) ==
	    NULL)
		goto out;
	n = json_array_size(arr);
	bodies = xcalloc(n, sizeof(*bodies));
	ls = xcalloc(n, sizeof(*ls));
	es = xcalloc(n, sizeof(*es));
	for (i = 0; i < n; i++) {
		if ((rc = item_call(r, i, &es[i])) == -1)
			goto out;
		if (rc == 0)
			continue;
		it = json_array_get(arr, i);
		if (!json_is_object(it)) {
			lz_verr_set(&es[i], 400, "invalid_json", NULL, "Each item "
			    "must be a create body: a JSON object.");
			continue;
		}
		bodies[i] = it;
	}
	if (linkops_create_many(&links.db, links.conf, bodies, n,
	    who->account_id, who->plan, r->now_ms, ls, es) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The links could "
		    "not be stored; none was.");
		goto out;
	}
	results = json_array();
	for (i = 0; i < n; i++) {
		if (es[i].status != 0) {
			json_array_append_new(results, failed(i, &es[i]));
			continue;
		}
		url = link_short_url(links.conf->base_url, &ls[i], NULL);
		json_array_append_new(results, json_pack("{s:b, s:I, s:s, s:s}",
		    "ok", 1, "id", (json_int_t)ls[i].id, "slug", ls[i].slug,
		    "short_url", url));
		free(url);
		link_free(&ls[i]);
	}
	answer(r, results);
out:
	free(bodies);
	free(ls);
	free(es);
	json_decref(body);
}

/* ids[i] as a link id into *id: 1, or 0 with e (400 naming ids[i]). */
static int
item_id(const json_t *arr, size_t i, int64_t *id, struct lz_verr *e)
{
	const json_t	*v = json_array_get(arr, i);
	char		 param[32];

	if (json_is_integer(v) && json_integer_value(v) > 0) {
		*id = json_integer_value(v);
		return 1;
	}
	snprintf(param, sizeof(param), "ids[%zu]", i);
	lz_verr_set(e, 400, "invalid_field", param, "Each id must be a "
	    "positive integer.");
	return 0;
}

/* Each id of arr: fn(r, id, patch, e, ok) for those counted, the results
 * in order.  fn: 1 done (ok: true, id, and what it adds), 0 with e. */
static void
each_id(struct lz_req *r, const json_t *arr, const json_t *patch,
    int (*fn)(struct lz_req *, int64_t, const json_t *, struct lz_verr *,
    json_t *), json_t *results)
{
	struct lz_verr	 e;
	json_t		*ok;
	int64_t		 id;
	size_t		 i;
	int		 rc;

	for (i = 0; i < json_array_size(arr); i++) {
		memset(&e, 0, sizeof(e));
		if ((rc = item_call(r, i, &e)) == -1) {
			json_decref(results);
			return;
		}
		if (rc == 0 || !item_id(arr, i, &id, &e)) {
			json_array_append_new(results, failed(i, &e));
			continue;
		}
		ok = json_pack("{s:b, s:I}", "ok", 1, "id", (json_int_t)id);
		if (fn(r, id, patch, &e, ok) == 1)
			json_array_append_new(results, ok);
		else {
			json_decref(ok);
			json_array_append_new(results, failed(i, &e));
		}
	}
	answer(r, results);
}

/* 1 when the tag named name is among names (compared folded). */
static int
has_tag(const json_t *names, const char *fold)
{
	char		 n[TAG_BYTES], f[TAG_FOLD_BYTES], why[128];
	const json_t	*v;
	size_t		 i;

	json_array_foreach(names, i, v)
		if (tag_parse(json_string_value(v), n, f, why, sizeof(why)) ==
		    0 && strcmp(f, fold) == 0)
			return 1;
	return 0;
}

/*
 * The tags of link l with those of add put on and those of drop taken
 * off (compared folded), as a new array; NULL with e when a name is not
 * a tag or the link would carry too many.
 */
static json_t *
retag(const struct link *l, const json_t *add, const json_t *drop,
    struct lz_verr *e)
{
	char		 n[TAG_BYTES], f[TAG_FOLD_BYTES], why[128];
	json_t		*out = json_array(), *v;
	size_t		 i;

	if (l->tags != NULL)
		json_array_foreach(l->tags, i, v) {
			if (tag_parse(json_string_value(v), n, f, why,
			    sizeof(why)) == 0 && !has_tag(drop, f))
				json_array_append(out, v);
		}
	json_array_foreach(add, i, v) {
		if (!json_is_string(v) || tag_parse(json_string_value(v), n, f,
		    why, sizeof(why)) == -1) {
			lz_verr_set(e, 400, "invalid_field", "add_tags", "Each "
			    "tag to add must be a tag name.");
			goto fail;
		}
		if (!has_tag(out, f))
			json_array_append_new(out, json_string(n));
	}
	if (json_array_size(out) > TAGS_MAX) {
		lz_verr_set(e, 400, "invalid_field", "tags", "A link carries at "
		    "most %d tags.", TAGS_MAX);
		goto fail;
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

static int
patch_one(struct lz_req *r, int64_t id, const json_t *body,
    struct lz_verr *e, json_t *ok)
{
	struct auth_caller	*who = API_WHO(r);
	const json_t		*add = json_object_get(body, "add_tags");
	const json_t		*drop = json_object_get(body, "remove_tags");
	json_t			*patch, *tags, *none;
	struct link		 l;
	int			 rc;

	patch = json_deep_copy(json_object_get(body, "patch"));
	if (patch == NULL)
		patch = json_object();
	if (add != NULL || drop != NULL) {
		/* The link's tags as they are, with the changes. */
		if (linkops_get(&links.db, id, who->account_id, &l, e) == -1) {
			json_decref(patch);
			return 0;
		}
		none = json_array();
		tags = retag(&l, add ? add : none, drop ? drop : none, e);
		json_decref(none);
		link_free(&l);
		if (tags == NULL) {
			json_decref(patch);
			return 0;
		}
		json_object_set_new(patch, "tags", tags);
	}
	rc = linkops_update(&links.db, links.conf, id, who->account_id, patch,
	    r->now_ms, &l, e);
	json_decref(patch);
	if (rc == -1)
		return 0;
	json_object_set_new(ok, "link", link_json(&l, links.conf->base_url,
	    r->now_ms));
	link_free(&l);
	return 1;
}

void
api_bulk_update(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "ids", LZ_JT_ARRAY, LZ_JF_REQUIRED, 1, BULK_MAX },
		{ "patch", LZ_JT_OBJECT, 0, 0, 0 },
		{ "add_tags", LZ_JT_ARRAY, 0, 0, TAGS_MAX },
		{ "remove_tags", LZ_JT_ARRAY, 0, 0, TAGS_MAX },
	};
	json_t	*body, *arr;

	if ((body = lz_req_json_merge(r)) == NULL)
		return;
	if ((arr = envelope(r, body, "ids", fields, LZ_NELEM(fields))) ==
	    NULL)
		goto out;
	if (json_object_get(body, "patch") == NULL &&
	    json_object_get(body, "add_tags") == NULL &&
	    json_object_get(body, "remove_tags") == NULL) {
		lz_resp_error(r, 400, "missing_field", "patch", "A bulk edit "
		    "needs 'patch', 'add_tags' or 'remove_tags'.");
		goto out;
	}
	if (json_object_get(json_object_get(body, "patch"), "tags") != NULL &&
	    (json_object_get(body, "add_tags") != NULL ||
	    json_object_get(body, "remove_tags") != NULL)) {
		lz_resp_error(r, 400, "invalid_field", "patch.tags", "'tags' "
		    "replaces a link's tags: not with 'add_tags' or "
		    "'remove_tags'.");
		goto out;
	}
	each_id(r, arr, body, patch_one, json_array());
out:
	json_decref(body);
}

static int
delete_one(struct lz_req *r, int64_t id, const json_t *patch,
    struct lz_verr *e, json_t *ok)
{
	struct auth_caller	*who = API_WHO(r);
	int			 rc;

	(void)patch;
	rc = linkops_delete(&links.db, id, who->account_id, r->now_ms);
	if (rc == 1) {
		audit_note(&links.db, r, who, who->account_id, "link.deleted",
		    "link %lld", (long long)id);
		json_object_set_new(ok, "deleted", json_true());
		return 1;
	}
	if (rc == 0)
		lz_verr_set(e, 404, "not_found", NULL, "There is no link with "
		    "this id.");
	else
		lz_verr_set(e, 500, "internal_error", NULL, "The link could not "
		    "be deleted.");
	return 0;
}

void
api_bulk_delete(struct lz_req *r)
{
	static const struct lz_jfield fields[] = {
		{ "ids", LZ_JT_ARRAY, LZ_JF_REQUIRED, 1, BULK_MAX },
	};
	json_t	*body, *arr;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if ((arr = envelope(r, body, "ids", fields, LZ_NELEM(fields))) != NULL)
		each_id(r, arr, NULL, delete_one, json_array());
	json_decref(body);
}
