/*
 * api_tags.c -- /api/v1/tags (spec 4.3).
 */
#include "config.h"

#include <stdlib.h>

#include "prompts.h"
#include "resp.h"
#include "search.h"
#include "pstore.h"
#include "util.h"

struct tagctx {
	enum lang	 lang;
	json_t		*arr;
};

static void
tag_json(const struct tagrow *t, void *arg)
{
	struct tagctx	*c = arg;

	json_array_append_new(c->arr, json_pack("{s:s, s:s, s:I, s:o}",
	    "slug", t->slug, "label", out_text(c->lang, t->label, t->label_en),
	    "prompt_count", (json_int_t)t->count, "url", out_url(c->lang,
	    "tags", t->slug)));
}

void
api_tags_list(struct lz_req *r)
{
	static const struct lz_param params[] = {
		{ "q", LZ_PT_STR, 1, 200, 0, NULL, 0 },
		{ "min_count", LZ_PT_INT, 1, 100, 1, NULL, 0 },
		{ "lang", LZ_PT_ENUM, 0, 0, LANG_ZH, lang_names, 0 },
		{ "limit", LZ_PT_INT, 1, 50, 20, NULL, 0 },
		{ "offset", LZ_PT_INT, 0, 9007199254740991LL, 0, NULL, 0 },
	};
	struct lz_pval	 v[LZ_NELEM(params)];
	struct tagctx	 c;
	long long	 count;
	char		*q = NULL;
	json_t		*j;

	if (out_params(r, params, LZ_NELEM(params), v) == -1)
		return;
	if (v[0].set)
		q = search_fold_dup(v[0].s);
	c.lang = (enum lang)v[2].i;
	c.arr = json_array();
	count = pstore_tags(&prompts.db, q, v[1].i, r->now_ms, v[4].i,
	    (long)v[3].i, tag_json, &c);
	free(q);
	if (count < 0) {
		json_decref(c.arr);
		out_dberr(r);
		return;
	}
	j = out_obj();
	json_object_set_new(j, "count", json_integer(count));
	out_paging(j, v[3].i, v[4].i, count);
	json_object_set_new(j, "tags", c.arr);
	out_ok(r, j);
}
