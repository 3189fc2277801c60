/*
 * api_collections.c -- /api/v1/collections and /api/v1/collections/{slug}
 * (spec 4.4, 4.5).
 */
#include "config.h"

#include "lztime.h"
#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "serve.h"
#include "util.h"
#include "values.h"

struct collctx {
	enum lang	 lang;
	json_t		*arr;		/* the items */
	json_t		*one;		/* the collection */
	int64_t		 id;
};

static json_t *
collection_json(const struct collrow *c, enum lang lang)
{
	json_t	*o = json_object();

	json_object_set_new(o, "slug", json_string(c->slug));
	json_object_set_new(o, "title", json_string(out_text(lang, c->title,
	    c->title_en)));
	json_object_set_new(o, "summary", json_string(out_text(lang,
	    c->summary, c->summary_en)));
	json_object_set_new(o, "kicker", c->kicker ? json_string(out_text(lang,
	    c->kicker, c->kicker_en)) : json_null());
	json_object_set_new(o, "unlock_cost", c->has_cost ?
	    json_integer(c->unlock_cost) : json_null());
	json_object_set_new(o, "updated_at", out_time(c->updated_at));
	json_object_set_new(o, "translation_status",
	    json_string(c->translation));
	json_object_set_new(o, "url", out_url(lang, "collections", c->slug));
	return o;
}

static void
list_one(const struct collrow *c, void *arg)
{
	struct listpage	*pg = arg;

	json_array_append_new(pg->arr, collection_json(c, pg->lang));
}

static long long
collections_fetch(struct listpage *pg)
{
	return pstore_collections(&prompts.db, pg->offset, pg->limit,
	    list_one, pg);
}

void
api_collections_list(struct lz_req *r)
{
	list_answer(r, "collections", LIST_LANG | LIST_COUNT, NULL,
	    collections_fetch);
}

static void
detail_one(const struct collrow *c, void *arg)
{
	struct collctx	*x = arg;

	x->one = collection_json(c, x->lang);
	x->id = c->id;
}

static void
item_one(const struct itemrow *i, void *arg)
{
	struct collctx	*x = arg;
	json_t		*p;

	p = json_pack("{s:s, s:s, s:b, s:o}", "slug", i->slug, "title",
	    out_text(x->lang, i->title, i->title_en), "is_pro", i->is_pro,
	    "url", out_url(x->lang, "prompts", i->slug));
	/* An untranslated note keeps its source text (spec 2.6). */
	json_array_append_new(x->arr, json_pack("{s:I, s:s, s:o}",
	    "position", (json_int_t)i->position, "note", out_text(x->lang,
	    i->note, i->note_en), "prompt", p));
}

void
api_collections_get(struct lz_req *r)
{
	enum { P_LANG, P_LIMIT, P_OFFSET, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_LANG] = PARAM_LANG,
		[P_LIMIT] = PARAM_LIMIT(25),
		[P_OFFSET] = PARAM_OFFSET,
	};
	struct lz_pval	 v[P__MAX];
	struct collctx	 x;
	long long	 count;
	json_t		*j;
	int		 rc;

	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    out_cached(r, params, P__MAX, v, 0))
		return;
	x.lang = (enum lang)v[P_LANG].i;
	x.one = NULL;
	rc = val_slug_ok(r->args[0]) ? pstore_collection(&prompts.db,
	    r->args[0], detail_one, &x) : 0;
	if (rc < 0) {
		out_dberr(r);
		return;
	}
	if (rc == 0) {
		out_notfound(r, "collection");
		return;
	}
	x.arr = json_array();
	count = pstore_collection_items(&prompts.db, x.id, r->now_ms,
	    v[P_OFFSET].i, (long)v[P_LIMIT].i, item_one, &x);
	if (count < 0) {
		json_decref(x.arr);
		json_decref(x.one);
		out_dberr(r);
		return;
	}
	json_object_set_new(x.one, "items_count", json_integer(count));
	json_object_set_new(x.one, "items", x.arr);
	j = out_obj();
	out_paging(j, v[P_LIMIT].i, v[P_OFFSET].i, count);
	json_object_set_new(j, "collection", x.one);
	out_ok(r, j);
}
