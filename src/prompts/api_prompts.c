/*
 * api_prompts.c -- /api/v1/prompts, /api/v1/prompts/{slug} and
 * /api/v1/changelog (spec 4.1, 4.2, 4.9).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lztime.h"
#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "search.h"
#include "serve.h"
#include "util.h"
#include "values.h"


static const char *const free_values[] = { "0", "1", NULL };
static const char *const sorts[] = {
	"recommended", "updated", "rating", NULL
};

#define CHANGELOG_MAX	100	/* prompts of a changelog page */

enum { P_Q, P_TAG, P_TOOL, P_CATEGORY, P_LANG, P_FREE, P_SORT, P_LIMIT,
    P_OFFSET, P__MAX };

static const struct lz_param list_params[P__MAX] = {
	/* Longer queries than the other lists take: a literal search. */
	[P_Q] =		{ "q", LZ_PT_STR, 1, 500, 0, NULL, 0 },
	[P_TAG] =	{ "tag", LZ_PT_STR, 1, 200, 0, NULL, 0 },
	[P_TOOL] =	{ "tool", LZ_PT_STR, 1, 100, 0, NULL, 0 },
	[P_CATEGORY] =	PARAM_CATEGORY(val_prompt_categories),
	[P_LANG] =	PARAM_LANG,
	[P_FREE] =	{ "free", LZ_PT_ENUM, 0, 0, 0, free_values, 0 },
	[P_SORT] =	{ "sort", LZ_PT_ENUM, 0, 0, PSORT_RECOMMENDED, sorts,
			  0 },
	[P_LIMIT] =	PARAM_LIMIT(20),
	[P_OFFSET] =	PARAM_OFFSET,
};

struct sumctx {
	enum lang	 lang;
	json_t		*arr;
	int		 changelog;
};

static void
summary_json(const struct prow *p, void *arg)
{
	struct sumctx	*c = arg;
	json_t		*o = json_object();

	json_object_set_new(o, "slug", json_string(p->slug));
	json_object_set_new(o, "title", json_string(out_text(c->lang,
	    p->title, p->title_en)));
	if (!c->changelog)
		json_object_set_new(o, "summary", json_string(out_text(c->lang,
		    p->summary, p->summary_en)));
	json_object_set_new(o, "tool", json_string(p->tool));
	json_object_set_new(o, "category", json_string(p->category));
	if (!c->changelog) {
		json_object_set_new(o, "tags", out_json_array(p->tags));
		json_object_set_new(o, "is_pro", json_boolean(p->is_pro));
	}
	json_object_set_new(o, "difficulty", json_string(p->difficulty));
	if (c->changelog)
		json_object_set_new(o, "updated_at", out_time(p->updated_at));
	json_object_set_new(o, "url", out_url(c->lang, "prompts", p->slug));
	json_array_append_new(c->arr, o);
}

/* The summaries of ids[0..n) into c->arr; -1 on a database error. */
static int
summaries(const int64_t *ids, long n, struct sumctx *c)
{
	long	 i;

	for (i = 0; i < n; i++)
		if (pstore_prompt_summary(&prompts.db, ids[i], summary_json,
		    c) < 0)
			return -1;
	return 0;
}

void
api_prompts_list(struct lz_req *r)
{
	struct lz_pval	 v[P__MAX];
	struct pfilter	 f;
	struct sumctx	 c;
	int64_t		 ids[LIST_LIMIT_MAX];
	long		 nids;
	long long	 count;
	char		*qfold = NULL, *tagname = NULL, *toolname = NULL;
	char		 tagslug[256];
	json_t		*j, *tag = json_null();

	if (lz_req_params(r, list_params, P__MAX, v) == -1 ||
	    out_cached(r, list_params, P__MAX, v, 0))
		return;
	memset(&f, 0, sizeof(f));
	f.now = r->now_ms;
	f.sort = (enum psort)v[P_SORT].i;
	f.free_only = v[P_FREE].i == 1;
	if (v[P_CATEGORY].set)
		f.category = val_prompt_categories[v[P_CATEGORY].i];
	if (v[P_TAG].set) {
		if ((tagname = search_tag_name(v[P_TAG].s)) == NULL) {
			lz_resp_error(r, 400, "invalid_parameter", "tag",
			    "'tag' must be a topic label or slug: letters, "
			    "digits, spaces and -_.+#&' only.");
			goto out;
		}
		if ((f.tag_id = pstore_tag_id(&prompts.db, tagname)) < 0) {
			out_dberr(r);
			goto out;
		}
		if (f.tag_id == 0) {
			f.tag_id = -1;	/* an unknown topic: no results */
			tag = json_string(tagname);
		} else if (pstore_tag_slug(&prompts.db, f.tag_id, tagslug,
		    sizeof(tagslug)) == 1)
			tag = json_string(tagslug);
		else {
			out_dberr(r);
			goto out;
		}
	}
	if (v[P_TOOL].set) {
		toolname = search_tool_name(v[P_TOOL].s);
		f.tool_id = toolname ? pstore_tool_id(&prompts.db, toolname) :
		    0;
		if (f.tool_id < 0) {
			out_dberr(r);
			goto out;
		}
		if (f.tool_id == 0) {
			lz_resp_error(r, 400, "unsupported_tool", "tool",
			    "'tool' must be a tool key from /api/v1/tools, a "
			    "tool_key from /api/v1/integrations or a "
			    "recognised legacy alias.");
			goto out;
		}
	}
	qfold = search_fold_dup(v[P_Q].s);
	f.q = qfold;

	count = pstore_prompt_find(&prompts.db, &f, v[P_OFFSET].i,
	    (long)v[P_LIMIT].i, ids, &nids);
	c.lang = (enum lang)v[P_LANG].i;
	c.arr = json_array();
	c.changelog = 0;
	if (count < 0 || summaries(ids, nids, &c) == -1) {
		json_decref(c.arr);
		out_dberr(r);
		goto out;
	}
	j = out_obj();
	json_object_set_new(j, "count", json_integer(count));
	out_paging(j, v[P_LIMIT].i, v[P_OFFSET].i, count);
	json_object_set_new(j, "sort", json_string(sorts[f.sort]));
	json_object_set_new(j, "tag", tag);
	tag = NULL;
	json_object_set_new(j, "prompts", c.arr);
	out_ok(r, j);
out:
	json_decref(tag);
	free(qfold);
	free(tagname);
	free(toolname);
}

/* Stored variables [{name, description, description_en}] for lang. */
static json_t *
variables_json(const char *stored, enum lang lang)
{
	json_t	*in, *out, *v;
	size_t	 i;

	out = json_array();
	in = json_loads(stored, 0, NULL);
	json_array_foreach(in, i, v) {
		const char	*d = json_string_value(json_object_get(v,
		    "description"));
		const char	*de = json_string_value(json_object_get(v,
		    "description_en"));

		json_array_append_new(out, json_pack("{s:O, s:s}", "name",
		    json_object_get(v, "name"), "description",
		    out_text(lang, d, de)));
	}
	json_decref(in);
	return out;
}

/*
 * The detail object of a prompt in lang, without "url".  "lzctl prompts
 * import" renders it for both languages and stores the text
 * (table prompt_detail): what a detail request costs is then
 * one indexed read and a copy (lz-prompts(8), "Detail answers").
 */
json_t *
prompt_detail_object(const struct prow *p, enum lang lang)
{
	json_t	*o = json_object(), *rating;

	json_object_set_new(o, "slug", json_string(p->slug));
	json_object_set_new(o, "title", json_string(out_text(lang,
	    p->title, p->title_en)));
	json_object_set_new(o, "summary", json_string(out_text(lang,
	    p->summary, p->summary_en)));
	json_object_set_new(o, "tool", json_string(p->tool));
	json_object_set_new(o, "category", json_string(p->category));
	json_object_set_new(o, "tags", out_json_array(p->tags));
	json_object_set_new(o, "difficulty", json_string(p->difficulty));
	json_object_set_new(o, "is_pro", json_boolean(p->is_pro));
	json_object_set_new(o, "access", json_string(p->is_pro ? "preview" :
	    "full"));
	json_object_set_new(o, "preview", json_string(out_text(lang,
	    p->preview, p->preview_en)));
	/* PRO bodies and variables are not even in the database; the
	 * is_pro checks keep it so should one ever be. */
	if (!p->is_pro && p->full_prompt != NULL)
		json_object_set_new(o, "full_prompt", json_string(out_text(
		    lang, p->full_prompt, p->full_prompt_en)));
	json_object_set_new(o, "context", json_string(out_text(lang,
	    p->context, p->context_en)));
	if (!p->is_pro && p->variables != NULL)
		json_object_set_new(o, "variables", variables_json(
		    p->variables, lang));
	json_object_set_new(o, "sample_output", json_string(out_text(lang,
	    p->sample_output, p->sample_output_en)));
	rating = json_object();
	json_object_set_new(rating, "avg", p->rated ?
	    json_real(p->rating_avg) : json_null());
	json_object_set_new(rating, "count", json_integer(p->rating_count));
	json_object_set_new(o, "rating", rating);
	json_object_set_new(o, "updated_at", out_time(p->updated_at));
	return o;
}

void
api_prompts_get(struct lz_req *r)
{
	static const struct lz_param lang_param = PARAM_LANG;
	static struct lz_buf	 stored = LZ_BUF_INIT, body = LZ_BUF_INIT;
	struct lz_pval		 v;
	enum lang		 lang;
	json_t			*url;
	char			*urltext;
	int			 rc;

	if (lz_req_params(r, &lang_param, 1, &v) == -1)
		return;
	lang = (enum lang)v.i;
	lz_buf_reset(&stored);
	rc = val_slug_ok(r->args[0]) ? pstore_prompt_detail(&prompts.db,
	    r->args[0], r->now_ms, lang == LANG_EN, &stored) : 0;
	if (rc == 0) {
		out_notfound(r, "prompt");
		return;
	}
	if (rc < 0 || stored.len < 2 || stored.p[0] != '{' ||
	    stored.p[stored.len - 1] != '}') {
		out_dberr(r);
		return;
	}
	/* {"ok":true,"prompt":{"url":...,<the stored members>}} */
	url = out_url(lang, "prompts", r->args[0]);
	urltext = json_dumps(url, JSON_ENCODE_ANY);
	json_decref(url);
	if (urltext == NULL) {
		out_dberr(r);
		return;
	}
	lz_buf_reset(&body);
	lz_buf_puts(&body, "{\"ok\":true,\"prompt\":{\"url\":");
	lz_buf_puts(&body, urltext);
	if (stored.len > 2)
		lz_buf_putc(&body, ',');
	lz_buf_add(&body, stored.p + 1, stored.len - 1);
	lz_buf_putc(&body, '}');
	free(urltext);
	out_body(r, body.p, body.len);
}

void
api_changelog(struct lz_req *r)
{
	enum { C_DAYS, C_LIMIT, C__MAX };
	static const struct lz_param params[C__MAX] = {
		[C_DAYS] =	{ "days", LZ_PT_INT, 1, 365, 30, NULL, 0 },
		[C_LIMIT] =	{ "limit", LZ_PT_INT, 1, CHANGELOG_MAX, 50,
				  NULL, 0 },
	};
	struct lz_pval	 v[C__MAX];
	struct sumctx	 c;
	int64_t		 ids[CHANGELOG_MAX];
	long		 nids;
	long long	 count;
	json_t		*j;

	if (lz_req_params(r, params, C__MAX, v) == -1)
		return;
	count = pstore_changelog(&prompts.db, r->now_ms - v[C_DAYS].i *
	    LZ_DAY_MS, r->now_ms, (long)v[C_LIMIT].i, ids, &nids);
	c.lang = LANG_ZH;
	c.arr = json_array();
	c.changelog = 1;
	if (count < 0 || summaries(ids, nids, &c) == -1) {
		json_decref(c.arr);
		out_dberr(r);
		return;
	}
	j = out_obj();
	json_object_set_new(j, "days", json_integer(v[C_DAYS].i));
	json_object_set_new(j, "count", json_integer(count));
	json_object_set_new(j, "limit", json_integer(v[C_LIMIT].i));
	json_object_set_new(j, "prompts", c.arr);
	out_ok(r, j);
}
