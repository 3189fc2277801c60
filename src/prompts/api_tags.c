/*
 * api_tags.c -- /api/v1/tags (spec 4.3).
 */
#include "config.h"

#include <stdlib.h>

#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "search.h"
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
	enum { P_Q, P_MIN_COUNT, P_LANG, P_LIMIT, P_OFFSET, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_Q] = PARAM_Q,
		[P_MIN_COUNT] = { "min_count", LZ_PT_INT, 1, 100, 1, NULL, 0 },
		[P_LANG] = PARAM_LANG,
		[P_LIMIT] = PARAM_LIMIT(20),
		[P_OFFSET] = PARAM_OFFSET,
	};
	struct lz_pval	 v[P__MAX];
	struct tagctx	 c;
	long long	 count;
	char		*q = NULL;

	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    out_cached(r, params, P__MAX, v, 0))
		return;
	q = search_fold_dup(v[P_Q].s);
	c.lang = (enum lang)v[P_LANG].i;
	c.arr = json_array();
	count = pstore_tags(&prompts.db, q, v[P_MIN_COUNT].i, r->now_ms,
	    v[P_OFFSET].i, (long)v[P_LIMIT].i, tag_json, &c);
	free(q);
	out_counted(r, "tags", c.arr, count, v[P_LIMIT].i, v[P_OFFSET].i);
}
