/*
 * api_catalog.c -- the reference catalogue: /api/v1/models, /api/v1/tools
 * and /api/v1/integrations (spec 4.6, 4.7, 4.8).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "search.h"
#include "util.h"
#include "values.h"


/* ---- models ----------------------------------------------------------- */


struct modelctx {
	enum lang	 lang;
	json_t		*arr;
};

/* Where the site lists prompts for a model: its tool's prompts, or a
 * search for its name. */
static json_t *
model_search_url(const struct modelrow *m, enum lang lang)
{
	char	*esc, *s;
	json_t	*j;

	if (*m->tool_key != '\0')
		s = xasprintf("%s%s/prompts?tool=%s",
		    prompts.conf->prompts_base_url, lang == LANG_EN ? "/en" :
		    "", m->tool_key);
	else {
		if ((esc = curl_easy_escape(NULL, m->name, 0)) == NULL)
			abort();
		s = xasprintf("%s%s/search?q=%s",
		    prompts.conf->prompts_base_url, lang == LANG_EN ? "/en" :
		    "", esc);
		curl_free(esc);
	}
	j = json_string(s);
	free(s);
	return j;
}

static void
model_one(const struct modelrow *m, void *arg)
{
	struct modelctx	*c = arg;
	json_t		*o = json_object();

	json_object_set_new(o, "key", json_string(m->key));
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "category", json_string(m->category));
	json_object_set_new(o, "version", json_string(m->version));
	json_object_set_new(o, "vendor", json_string(m->vendor));
	json_object_set_new(o, "notes", json_string(out_text(c->lang, m->notes,
	    m->notes_en)));
	json_object_set_new(o, "source_url", json_string(m->source_url));
	json_object_set_new(o, "checked_on", json_string(m->checked_on));
	json_object_set_new(o, "verified_on", json_string(m->verified_on));
	json_object_set_new(o, "verification", json_string(m->verification));
	json_object_set_new(o, "status", json_string(m->status));
	json_object_set_new(o, "tool_key", json_string(m->tool_key));
	json_object_set_new(o, "url", out_url(c->lang, "models", m->key));
	json_object_set_new(o, "search_url", model_search_url(m, c->lang));
	json_object_set_new(o, "generator_url", json_string(m->generator_url));
	json_object_set_new(o, "record_type", json_string(m->record_type));
	json_array_append_new(c->arr, o);
}

void
api_models_list(struct lz_req *r)
{
	enum { P_Q, P_CATEGORY, P_LANG, P_LIMIT, P_OFFSET, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_Q] = PARAM_Q,
		[P_CATEGORY] = { "category", LZ_PT_ENUM, 0, 0, 0,
		    val_model_categories, LZ_PF_ANY },
		[P_LANG] = PARAM_LANG,
		[P_LIMIT] = PARAM_LIMIT(20),
		[P_OFFSET] = PARAM_OFFSET,
	};
	struct lz_pval	 v[P__MAX];
	struct modelctx	 c;
	long long	 total;
	char		*q = NULL;

	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    out_cached(r, params, P__MAX, v, 0))
		return;
	q = search_fold_dup(v[P_Q].s);
	c.lang = (enum lang)v[P_LANG].i;
	c.arr = json_array();
	total = pstore_models(&prompts.db, v[P_CATEGORY].set ?
	    val_model_categories[v[P_CATEGORY].i] : NULL, q, v[P_OFFSET].i,
	    (long)v[P_LIMIT].i, model_one, &c);
	free(q);
	out_page(r, "models", c.arr, total, v[P_LIMIT].i, v[P_OFFSET].i);
}

/* ---- tools ------------------------------------------------------------ */


struct toolctx {
	enum lang	 lang;
	int		 legacy;
	json_t		*arr;
};

static void
tool_one(const struct toolrow *t, void *arg)
{
	struct toolctx	*c = arg;
	enum lang	 lang = c->legacy ? LANG_ZH : c->lang;
	json_t		*o = json_object();

	json_object_set_new(o, "key", json_string(t->key));
	json_object_set_new(o, "label", json_string(out_text(lang, t->label,
	    t->label_en)));
	json_object_set_new(o, "label_en", json_string(out_text(LANG_EN,
	    t->label, t->label_en)));
	json_object_set_new(o, "medium", json_string(t->medium));
	json_object_set_new(o, "description", json_string(out_text(lang,
	    t->description, t->description_en)));
	json_object_set_new(o, "prompt_count", json_integer(t->count));
	json_object_set_new(o, "url", out_url(lang, "tools", t->key));
	json_array_append_new(c->arr, o);
}

/*
 * Without any query parameter the legacy answer: every tool, source
 * language, {ok, tools} (spec 9: newer behaviours keep the older ones).
 * With any parameter: a localised page with the paging envelope.
 */
void
api_tools_list(struct lz_req *r)
{
	enum { P_Q, P_CATEGORY, P_LANG, P_LIMIT, P_OFFSET, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_Q] = PARAM_Q,
		[P_CATEGORY] = { "category", LZ_PT_ENUM, 0, 0, 0,
		    val_prompt_categories, LZ_PF_ANY },
		[P_LANG] = PARAM_LANG,
		[P_LIMIT] = PARAM_LIMIT(20),
		[P_OFFSET] = PARAM_OFFSET,
	};
	const struct lz_query	*q;
	struct lz_pval		 v[P__MAX];
	struct toolctx		 c;
	long long		 count;
	char			*qf = NULL;
	json_t			*j;

	if ((q = lz_req_query(r)) == NULL)
		return;
	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    out_cached(r, params, P__MAX, v, q->n == 0))
		return;
	c.legacy = q->n == 0;
	c.lang = (enum lang)v[P_LANG].i;
	c.arr = json_array();
	qf = search_fold_dup(v[P_Q].s);
	count = pstore_tools(&prompts.db, v[P_CATEGORY].set ?
	    val_prompt_categories[v[P_CATEGORY].i] : NULL, qf, r->now_ms,
	    c.legacy ? 0 : v[P_OFFSET].i, c.legacy ? -1 : (long)v[P_LIMIT].i,
	    tool_one, &c);
	free(qf);
	if (count < 0) {
		json_decref(c.arr);
		out_dberr(r);
		return;
	}
	j = out_obj();
	if (!c.legacy) {
		json_object_set_new(j, "count", json_integer(count));
		out_paging(j, v[P_LIMIT].i, v[P_OFFSET].i, count);
		json_object_set_new(j, "lang", json_string(lang_names[c.lang]));
	}
	json_object_set_new(j, "tools", c.arr);
	out_ok(r, j);
}

/* ---- integrations ----------------------------------------------------- */


struct integctx {
	json_t		*arr;
	long long	 cats[VAL_INTEGRATION_CATEGORIES];
	long long	 with_generator, with_prompts;
};

static void
integration_one(const struct integrow *i, void *arg)
{
	struct integctx	*c = arg;
	int		 gen = *i->generator_url != '\0', has = i->count > 0;
	size_t		 k;
	json_t		*o = json_object();

	for (k = 0; val_integration_categories[k] != NULL; k++)
		if (strcmp(i->category, val_integration_categories[k]) == 0)
			c->cats[k]++;
	c->with_generator += gen;
	c->with_prompts += has;
	json_object_set_new(o, "key", json_string(i->key));
	json_object_set_new(o, "tool_key", json_string(i->tool_key));
	json_object_set_new(o, "name", json_string(i->name));
	json_object_set_new(o, "vendor", json_string(i->vendor));
	json_object_set_new(o, "category", json_string(i->category));
	json_object_set_new(o, "generator_kind", json_string(
	    i->generator_kind));
	json_object_set_new(o, "prompts_url", has ? out_url(LANG_ZH, "tools",
	    i->tool) : json_string(""));
	json_object_set_new(o, "generator_url", json_string(i->generator_url));
	json_object_set_new(o, "has_generator", json_boolean(gen));
	json_object_set_new(o, "has_prompts", json_boolean(has));
	json_array_append_new(c->arr, o);
}

void
api_integrations_list(struct lz_req *r)
{
	struct integctx	 c;
	json_t		*j, *cats;
	long		 n;
	size_t		 k;

	if (lz_req_params(r, NULL, 0, NULL) == -1 ||
	    out_cached(r, NULL, 0, NULL, 0))
		return;
	memset(&c, 0, sizeof(c));
	c.arr = json_array();
	if ((n = pstore_integrations(&prompts.db, r->now_ms, integration_one,
	    &c)) < 0) {
		json_decref(c.arr);
		out_dberr(r);
		return;
	}
	cats = json_object();
	for (k = 0; val_integration_categories[k] != NULL; k++)
		json_object_set_new(cats, val_integration_categories[k],
		    json_integer(c.cats[k]));
	j = out_obj();
	json_object_set_new(j, "total", json_integer(n));
	json_object_set_new(j, "categories", cats);
	json_object_set_new(j, "with_generator", json_integer(
	    c.with_generator));
	json_object_set_new(j, "with_prompts", json_integer(c.with_prompts));
	json_object_set_new(j, "integrations", c.arr);
	out_ok(r, j);
}
