/*
 * api_collections.c -- /api/v1/collections and /api/v1/collections/{slug}
 * (spec 4.4, 4.5).
 */
#include "config.h"

#include "lztime.h"
#include "prompts.h"
#include "resp.h"
#include "pstore.h"
#include "util.h"
#include "values.h"

struct collctx {
	enum lang	 lang;
	json_t		*arr;		/* list */
	json_t		*one;		/* detail */
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
	struct collctx	*x = arg;

	json_array_append_new(x->arr, collection_json(c, x->lang));
}

void
api_collections_list(struct lz_req *r)
{
	static const struct lz_param params[] = {
		{ "lang", LZ_PT_ENUM, 0, 0, LANG_ZH, lang_names, 0 },
		{ "limit", LZ_PT_INT, 1, 50, 20, NULL, 0 },
		{ "offset", LZ_PT_INT, 0, 9007199254740991LL, 0, NULL, 0 },
	};
	struct lz_pval	 v[LZ_NELEM(params)];
	struct collctx	 x;
	long long	 count;
	json_t		*j;

	if (out_params(r, params, LZ_NELEM(params), v) == -1)
		return;
	x.lang = (enum lang)v[0].i;
	x.arr = json_array();
	count = pstore_collections(&prompts.db, v[2].i, (long)v[1].i, list_one,
	    &x);
	if (count < 0) {
		json_decref(x.arr);
		out_dberr(r);
		return;
	}
	j = out_obj();
	json_object_set_new(j, "count", json_integer(count));
	out_paging(j, v[1].i, v[2].i, count);
	json_object_set_new(j, "collections", x.arr);
	out_ok(r, j);
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
	static const struct lz_param params[] = {
		{ "lang", LZ_PT_ENUM, 0, 0, LANG_ZH, lang_names, 0 },
		{ "limit", LZ_PT_INT, 1, 50, 25, NULL, 0 },
		{ "offset", LZ_PT_INT, 0, 9007199254740991LL, 0, NULL, 0 },
	};
	struct lz_pval	 v[LZ_NELEM(params)];
	struct collctx	 x;
	long long	 count;
	json_t		*j;
	int		 rc;

	if (out_params(r, params, LZ_NELEM(params), v) == -1)
		return;
	x.lang = (enum lang)v[0].i;
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
	count = pstore_collection_items(&prompts.db, x.id, r->now_ms, v[2].i,
	    (long)v[1].i, item_one, &x);
	if (count < 0) {
		json_decref(x.arr);
		json_decref(x.one);
		out_dberr(r);
		return;
	}
	json_object_set_new(x.one, "items_count", json_integer(count));
	json_object_set_new(x.one, "items", x.arr);
	j = out_obj();
	out_paging(j, v[1].i, v[2].i, count);
	json_object_set_new(j, "collection", x.one);
	out_ok(r, j);
}
