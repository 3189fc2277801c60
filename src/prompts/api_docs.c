/*
 * api_docs.c -- the stored reference texts: /api/v1/tutorials and
 * /api/v1/keywords, lists and details (spec 4.10, 4.11).  They are in
 * Traditional Chinese only: no lang parameter, nothing generated.
 */
#include "config.h"

#include <stdlib.h>

#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "search.h"
#include "util.h"
#include "values.h"

/* ---- tutorials -------------------------------------------------------- */

static json_t *
tutorial_json(const struct tutrow *t)
{
	json_t	*o = json_object();

	json_object_set_new(o, "slug", json_string(t->slug));
	json_object_set_new(o, "title", json_string(t->title));
	json_object_set_new(o, "summary", json_string(t->summary));
	if (t->markdown != NULL) {
		json_object_set_new(o, "content", json_string(t->markdown));
		json_object_set_new(o, "content_language",
		    json_string("zh-Hant"));
		json_object_set_new(o, "content_format",
		    json_string("markdown"));
	}
	json_object_set_new(o, "source_url", json_string(t->source_url));
	json_object_set_new(o, "url", out_url(LANG_ZH, "tutorials", t->slug));
	json_object_set_new(o, "published_at", out_time(t->published_at));
	json_object_set_new(o, "updated_at", out_time(t->updated_at));
	return o;
}

static void
tutorial_one(const struct tutrow *t, void *arg)
{
	json_array_append_new(arg, tutorial_json(t));
}

void
api_tutorials_list(struct lz_req *r)
{
	enum { P_Q, P_LIMIT, P_OFFSET, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_Q] = PARAM_Q,
		[P_LIMIT] = PARAM_LIMIT(20),
		[P_OFFSET] = PARAM_OFFSET,
	};
	struct lz_pval	 v[P__MAX];
	long long	 total;
	char		*q = NULL;
	json_t		*arr;

	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    out_cached(r, params, P__MAX, v, 0))
		return;
	q = search_fold_dup(v[P_Q].s);
	arr = json_array();
	total = pstore_tutorials(&prompts.db, q, v[P_OFFSET].i,
	    (long)v[P_LIMIT].i, tutorial_one, arr);
	free(q);
	out_page(r, "tutorials", arr, total, v[P_LIMIT].i, v[P_OFFSET].i);
}

static void
tutorial_detail(const struct tutrow *t, void *arg)
{
	*(json_t **)arg = tutorial_json(t);
}

void
api_tutorials_get(struct lz_req *r)
{
	json_t	*t = NULL;
	int	 rc;

	if (lz_req_params(r, NULL, 0, NULL) == -1 ||
	    out_cached(r, NULL, 0, NULL, 0))
		return;
	rc = val_slug_ok(r->args[0]) ? pstore_tutorial(&prompts.db,
	    r->args[0], tutorial_detail, &t) : 0;
	out_item(r, rc, "tutorial", t);
}

/* ---- keywords --------------------------------------------------------- */

static json_t *
keyword_json(const struct kwrow *k, int detail)
{
	json_t	*o = json_object();

	json_object_set_new(o, "slug", json_string(k->slug));
	json_object_set_new(o, "term", json_string(k->term));
	json_object_set_new(o, "term_en", json_string(k->term_en));
	json_object_set_new(o, "category", json_string(k->category));
	if (detail) {
		json_object_set_new(o, "definition",
		    json_string(k->definition));
		json_object_set_new(o, "when_to_use",
		    json_string(k->when_to_use));
		json_object_set_new(o, "how_to_ask",
		    json_string(k->how_to_ask));
		json_object_set_new(o, "gotcha", json_string(k->gotcha));
		json_object_set_new(o, "related", out_json_array(k->related));
		json_object_set_new(o, "tags", out_json_array(k->tags));
	}
	json_object_set_new(o, "url", out_url(LANG_ZH, "keywords", k->slug));
	json_object_set_new(o, "updated_at", out_time(k->updated_at));
	return o;
}

static void
keyword_one(const struct kwrow *k, void *arg)
{
	json_array_append_new(arg, keyword_json(k, 0));
}

void
api_keywords_list(struct lz_req *r)
{
	enum { P_Q, P_CATEGORY, P_LIMIT, P_OFFSET, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_Q] = PARAM_Q,
		[P_CATEGORY] = { "category", LZ_PT_ENUM, 0, 0, 0,
		    val_keyword_categories, LZ_PF_ANY },
		[P_LIMIT] = PARAM_LIMIT(20),
		[P_OFFSET] = PARAM_OFFSET,
	};
	struct lz_pval	 v[P__MAX];
	long long	 total;
	char		*q = NULL;
	json_t		*arr;

	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    out_cached(r, params, P__MAX, v, 0))
		return;
	q = search_fold_dup(v[P_Q].s);
	arr = json_array();
	total = pstore_keywords(&prompts.db, q, v[P_CATEGORY].set ?
	    val_keyword_categories[v[P_CATEGORY].i] : NULL, v[P_OFFSET].i,
	    (long)v[P_LIMIT].i, keyword_one, arr);
	free(q);
	out_page(r, "keywords", arr, total, v[P_LIMIT].i, v[P_OFFSET].i);
}

static void
keyword_detail(const struct kwrow *k, void *arg)
{
	*(json_t **)arg = keyword_json(k, 1);
}

void
api_keywords_get(struct lz_req *r)
{
	json_t	*k = NULL;
	int	 rc;

	if (lz_req_params(r, NULL, 0, NULL) == -1 ||
	    out_cached(r, NULL, 0, NULL, 0))
		return;
	rc = val_slug_ok(r->args[0]) ? pstore_keyword(&prompts.db,
	    r->args[0], keyword_detail, &k) : 0;
	out_item(r, rc, "keyword", k);
}
