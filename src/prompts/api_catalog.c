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
#include "serve.h"
#include "util.h"
#include "values.h"

/* ---- models ----------------------------------------------------------- */

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
	struct listpage	*pg = arg;
	json_t		*o = json_object();

	json_object_set_new(o, "key", json_string(m->key));
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "category", json_string(m->category));
	json_object_set_new(o, "version", json_string(m->version));
	json_object_set_new(o, "vendor", json_string(m->vendor));
	json_object_set_new(o, "notes", json_string(out_text(pg->lang,
	    m->notes, m->notes_en)));
	json_object_set_new(o, "source_url", json_string(m->source_url));
	json_object_set_new(o, "checked_on", json_string(m->checked_on));
	json_object_set_new(o, "verified_on", json_string(m->verified_on));
	json_object_set_new(o, "verification", json_string(m->verification));
	json_object_set_new(o, "status", json_string(m->status));
	json_object_set_new(o, "tool_key", json_string(m->tool_key));
	json_object_set_new(o, "url", out_url(pg->lang, "models", m->key));
	json_object_set_new(o, "search_url", model_search_url(m, pg->lang));
	json_object_set_new(o, "generator_url", json_string(m->generator_url));
	json_object_set_new(o, "record_type", json_string(m->record_type));
	json_array_append_new(pg->arr, o);
}

static const struct lz_param model_category =
    PARAM_CATEGORY(val_model_categories);

static long long
models_fetch(struct listpage *pg)
{
	return pstore_models(&prompts.db, pg->own.set ?
	    val_model_categories[pg->own.i] : NULL, pg->q, pg->offset,
	    pg->limit, model_one, pg);
}

void
api_models_list(struct lz_req *r)
{
	list_answer(r, "models", LIST_Q | LIST_LANG, &model_category,
	    models_fetch);
}

/* ---- tools ------------------------------------------------------------ */

static void
tool_one(const struct toolrow *t, void *arg)
{
	struct listpage	*pg = arg;
	json_t		*o = json_object();

	json_object_set_new(o, "key", json_string(t->key));
	json_object_set_new(o, "label", json_string(out_text(pg->lang,
	    t->label, t->label_en)));
	json_object_set_new(o, "label_en", json_string(out_text(LANG_EN,
	    t->label, t->label_en)));
	json_object_set_new(o, "medium", json_string(t->medium));
	json_object_set_new(o, "description", json_string(out_text(pg->lang,
	    t->description, t->description_en)));
	json_object_set_new(o, "prompt_count", json_integer(t->count));
	json_object_set_new(o, "url", out_url(pg->lang, "tools", t->key));
	json_array_append_new(pg->arr, o);
}

/*
 * Without any query parameter the legacy answer: every tool, source
 * language, {ok, tools} (spec 9: newer behaviours keep the older ones).
 * With any parameter: a localised page with the paging envelope.
 */
void
api_tools_list(struct lz_req *r)
{
	static const struct lz_param category =
	    PARAM_CATEGORY(val_prompt_categories);
	const struct lz_query	*q;
	struct listpage		 pg;
	long long		 count;
	int			 legacy;
	json_t			*j;

	if ((q = lz_req_query(r)) == NULL)
		return;
	legacy = q->n == 0;
	if (list_begin(r, LIST_Q | LIST_LANG, &category, LIST_LIMIT_DEF, legacy,
	    &pg))
		return;
	count = pstore_tools(&prompts.db, pg.own.set ?
	    val_prompt_categories[pg.own.i] : NULL, pg.q, pg.now,
	    legacy ? 0 : pg.offset, legacy ? -1 : pg.limit, tool_one, &pg);
	free(pg.q);
	if (count < 0) {
		json_decref(pg.arr);
		out_dberr(r);
		return;
	}
	j = out_obj();
	if (!legacy) {
		json_object_set_new(j, "count", json_integer(count));
		out_paging(j, pg.limit, pg.offset, count);
		json_object_set_new(j, "lang", json_string(
		    lang_names[pg.lang]));
	}
	json_object_set_new(j, "tools", pg.arr);
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
