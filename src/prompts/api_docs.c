/*
 * api_docs.c -- the stored reference texts: /api/v1/tutorials and
 * /api/v1/keywords, lists and details (spec 4.10, 4.11).  They are in
 * Traditional Chinese only: no lang parameter, nothing generated.
 */
#include "config.h"

#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "serve.h"
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
	struct listpage	*pg = arg;

	json_array_append_new(pg->arr, tutorial_json(t));
}

static long long
tutorials_fetch(struct listpage *pg)
{
	return pstore_tutorials(&prompts.db, pg->q, pg->offset, pg->limit,
	    tutorial_one, pg);
}

void
api_tutorials_list(struct lz_req *r)
{
	list_answer(r, "tutorials", LIST_Q, NULL, tutorials_fetch);
}

static void
tutorial_detail(const struct tutrow *t, void *arg)
{
	*(json_t **)arg = tutorial_json(t);
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
	struct listpage	*pg = arg;

	json_array_append_new(pg->arr, keyword_json(k, 0));
}

static const struct lz_param keyword_category =
    PARAM_CATEGORY(val_keyword_categories);

static long long
keywords_fetch(struct listpage *pg)
{
	return pstore_keywords(&prompts.db, pg->q, pg->own.set ?
	    val_keyword_categories[pg->own.i] : NULL, pg->offset, pg->limit,
	    keyword_one, pg);
}

void
api_keywords_list(struct lz_req *r)
{
	list_answer(r, "keywords", LIST_Q, &keyword_category,
	    keywords_fetch);
}

static void
keyword_detail(const struct kwrow *k, void *arg)
{
	*(json_t **)arg = keyword_json(k, 1);
}

/* ---- details ----------------------------------------------------------- */

/* One text by its slug: a tutorial, or with kw a keyword. */
static void
text_get(struct lz_req *r, int kw)
{
	json_t	*o = NULL;
	int	 rc = 0;

	if (lz_req_params(r, NULL, 0, NULL) == -1 ||
	    out_cached(r, NULL, 0, NULL, 0))
		return;
	if (val_slug_ok(r->args[0]))
		rc = kw ? pstore_keyword(&prompts.db, r->args[0],
		    keyword_detail, &o) : pstore_tutorial(&prompts.db,
		    r->args[0], tutorial_detail, &o);
	out_item(r, rc, kw ? "keyword" : "tutorial", o);
}

void
api_tutorials_get(struct lz_req *r)
{
	text_get(r, 0);
}

void
api_keywords_get(struct lz_req *r)
{
	text_get(r, 1);
}
