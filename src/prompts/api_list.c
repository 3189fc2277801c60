/*
 * api_list.c -- the outline every list handler shares (spec 2.1): the
 * shared parameters, the answer cache, the folded query, the language
 * and the page asked for, the rows, the envelope.  The handlers keep
 * what is their own: a parameter, the store call, the rows.
 */
#include "config.h"

#include <stdlib.h>

#include "prompts.h"
#include "search.h"
#include "serve.h"

int
list_begin(struct lz_req *r, unsigned flags, const struct lz_param *own,
    long long limit_def, int variant, struct listpage *pg)
{
	struct lz_param	 p[5];
	struct lz_pval	 v[5];
	size_t		 n = 0, q = 0, o = 0, lang = 0;

	/* The order of the spec's tables: it makes the cache key. */
	if (flags & LIST_Q) {
		q = n;
		p[n++] = (struct lz_param)PARAM_Q;
	}
	if (own != NULL) {
		o = n;
		p[n++] = *own;
	}
	if (flags & LIST_LANG) {
		lang = n;
		p[n++] = (struct lz_param)PARAM_LANG;
	}
	p[n++] = (struct lz_param)PARAM_LIMIT(limit_def);
	p[n++] = (struct lz_param)PARAM_OFFSET;
	if (lz_req_params(r, p, n, v) == -1 ||
	    out_cached(r, p, n, v, variant))
		return 1;
	pg->q = flags & LIST_Q ? search_fold_dup(v[q].s) : NULL;
	pg->lang = flags & LIST_LANG ? (enum lang)v[lang].i : LANG_ZH;
	pg->own = own != NULL ? v[o] : (struct lz_pval){ 0, 0, NULL };
	pg->limit = (long)v[n - 2].i;
	pg->offset = v[n - 1].i;
	pg->now = r->now_ms;
	pg->arr = json_array();
	return 0;
}

void
list_answer(struct lz_req *r, const char *name, unsigned flags,
    const struct lz_param *own, long long (*fetch)(struct listpage *))
{
	struct listpage	 pg;
	long long	 total;

	if (list_begin(r, flags, own, LIST_LIMIT_DEF, 0, &pg))
		return;
	total = fetch(&pg);
	free(pg.q);
	if (flags & LIST_COUNT)
		out_counted(r, name, pg.arr, total, pg.limit, pg.offset);
	else
		out_page(r, name, pg.arr, total, pg.limit, pg.offset);
}
