/*
 * api_tags.c -- /api/v1/tags (spec 4.3).
 */
#include "config.h"

#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "util.h"

static void
tag_json(const struct tagrow *t, void *arg)
{
	struct listpage	*pg = arg;

	json_array_append_new(pg->arr, json_pack("{s:s, s:s, s:I, s:o}",
	    "slug", t->slug, "label", out_text(pg->lang, t->label,
	    t->label_en), "prompt_count", (json_int_t)t->count, "url",
	    out_url(pg->lang, "tags", t->slug)));
}

static const struct lz_param min_count =
    { "min_count", LZ_PT_INT, 1, 100, 1, NULL, 0 };

static long long
tags_fetch(struct listpage *pg)
{
	return pstore_tags(&prompts.db, pg->q, pg->own.i, pg->now,
	    pg->offset, pg->limit, tag_json, pg);
}

void
api_tags_list(struct lz_req *r)
{
	list_answer(r, "tags", LIST_Q | LIST_LANG | LIST_COUNT, &min_count,
	    tags_fetch);
}
