/*
 * import_catalog.c -- the lists of the data file around the prompts
 * (import_load.h): tools, tags, collections, models, integrations,
 * tutorials and keywords, each a field table, the reader of its own
 * checks where it has any, and its row for import_load.c.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "import_check.h"
#include "search.h"
#include "util.h"
#include "values.h"
#include "import_load.h"

/* Where the rows' values go: offsets in the records of each list. */
#define TL(m)	offsetof(struct itool, m)
#define TG(m)	offsetof(struct itag, m)
#define CO(m)	offsetof(struct icoll, m)
#define MO(m)	offsetof(struct imodel, m)
#define IN(m)	offsetof(struct iinteg, m)
#define TU(m)	offsetof(struct itut, m)
#define KW(m)	offsetof(struct ikw, m)

/* ---- tools and tags ----------------------------------------------------- */

enum { TL_KEY, TL_LABEL, TL_LABEL_EN, TL_MEDIUM, TL_DESCRIPTION,
    TL_DESCRIPTION_EN, TL_ALIASES, TL__MAX };

static const struct ifield tool_fields[TL__MAX] = {
	[TL_KEY] =		KEY("key", TL(t.key)),
	TEXT_EN(TL_LABEL, "label", 0, 100, TL, t.label),
	[TL_MEDIUM] =		{ { "medium", S, REQ, 0, SLUG_LEN }, V_ONEOF,
				  TL(t.medium), val_prompt_categories },
	TEXT_EN(TL_DESCRIPTION, "description", ML, 2000, TL, t.description),
	[TL_ALIASES] =		{ { "aliases", AN, 0, 0, 50 }, V_STRINGS,
				  TL(aliases) },
};

static int
read_tool(struct import *m, const json_t *o, const struct imp_at *at,
    void *rec)
{
	struct itool	*t = rec;
	json_t		*v;
	char		*n;
	size_t		 k;

	imp_read_fields(m, o, at->path, tool_fields, 0, TL__MAX, t);
	if (t->t.key == NULL)
		return 0;
	imp_name_add(&m->toolnames, &m->ntoolnames, xstrdup(t->t.key),
	    m->ntools);
	json_array_foreach(t->aliases, k, v) {
		if ((n = search_tool_name(json_string_value(v))) == NULL) {
			imp_bad(m, at->path, "alias '%s' must be of a-z, 0-9, "
			    "'.', '_' and '-'", json_string_value(v));
			continue;
		}
		imp_name_add(&m->toolnames, &m->ntoolnames, n, m->ntools);
	}
	return 1;
}

static const char *
tool_label(struct import *m, size_t i)
{
	return m->tools[i].t.key;
}

static void
tools_after(struct import *m)
{
	imp_names_check(m, m->toolnames, &m->ntoolnames, "tools",
	    tool_label);
}

const struct records imp_tools_list = {
	"tools", TABLE(tool_fields), 0, 1, read_tool, tools_after
};

enum { TG_SLUG, TG_LABEL, TG_LABEL_EN, TG_ALIASES, TG__MAX };

static const struct ifield tag_fields[TG__MAX] = {
	[TG_SLUG] =		KEY("slug", TG(t.slug)),
	TEXT_EN(TG_LABEL, "label", 0, 100, TG, t.label),
	[TG_ALIASES] =		{ { "aliases", AN, 0, 0, 50 }, V_STRINGS,
				  TG(aliases) },
};

static const char *
tag_label(struct import *m, size_t i)
{
	return m->tags[i].t.slug;
}

/* Adds the filter name of s for tag i (reports names that cannot be). */
static void
tag_name(struct import *m, const char *pre, const char *s, size_t i)
{
	char	*n;

	if (s == NULL)
		return;
	if ((n = search_tag_name(s)) == NULL) {
		imp_bad(m, pre, "'%s' cannot name a tag: letters, digits, "
		    "spaces and -_.+#&' only", s);
		return;
	}
	imp_name_add(&m->tagnames, &m->ntagnames, n, i);
}

static void
tags_after(struct import *m)
{
	imp_names_check(m, m->tagnames, &m->ntagnames, "tags", tag_label);
}

static int
read_tag(struct import *m, const json_t *o, const struct imp_at *at,
    void *rec)
{
	const char	*pre = at->path;
	struct itag	*t = rec;
	json_t		*v;
	size_t		 k;

	imp_read_fields(m, o, pre, tag_fields, 0, TG__MAX, t);
	if (t->t.slug == NULL || t->t.label == NULL)
		return 0;
	tag_name(m, pre, t->t.slug, m->ntags);
	tag_name(m, pre, t->t.label, m->ntags);
	tag_name(m, pre, t->t.label_en, m->ntags);
	json_array_foreach(t->aliases, k, v)
		tag_name(m, pre, json_string_value(v), m->ntags);
	return 1;
}

const struct records imp_tags_list = {
	"tags", TABLE(tag_fields), 0, 1, read_tag, tags_after
};

/* ---- collections -------------------------------------------------------- */

enum { CO_SLUG, CO_STATUS, CO_TITLE, CO_TITLE_EN, CO_SUMMARY, CO_SUMMARY_EN,
    CO_KICKER, CO_KICKER_EN, CO_UNLOCK_COST, CO_UPDATED_AT, CO_ITEMS,
    CO__MAX };

static const struct ifield collection_fields[CO__MAX] = {
	[CO_SLUG] =		KEY("slug", CO(c.slug)),
	[CO_STATUS] =		{ { "status", S, REQ, 0, SLUG_LEN } },
	TEXT_EN(CO_TITLE, "title", 0, 200, CO, c.title),
	TEXT_EN(CO_SUMMARY, "summary", ML, 2000, CO, c.summary),
	[CO_KICKER] =		{ { "kicker", SN, 0, 0, 100 }, V_TEXT,
				  CO(c.kicker) },
	[CO_KICKER_EN] =	{ { "kicker_en", SN, 0, 0, 100 }, V_TEXT,
				  CO(c.kicker_en) },
	[CO_UNLOCK_COST] =	{ { "unlock_cost", LZ_JT_INTEGER | LZ_JT_NULL,
				  0, 0, 1000000 } },
	[CO_UPDATED_AT] =	{ { "updated_at", S, REQ, 0, TIME_LEN } },
	[CO_ITEMS] =		{ { "items", A, LZ_JF_REQUIRED, 0, 1000 } },
};

/* A note may be empty: it is shown as it is. */
enum { IT_PROMPT, IT_NOTE, IT_NOTE_EN, IT__MAX };

static const struct lz_jfield item_fields[IT__MAX] = {
	[IT_PROMPT] =	{ "prompt", S, REQ, 1, SLUG_LEN },
	[IT_NOTE] =	{ "note", S, LZ_JF_REQUIRED | ML, 0, 2000 },
	[IT_NOTE_EN] =	{ "note_en", SN, ML, 0, 2000 },
};

static void
load_item(struct import *m, const json_t *v, const struct imp_at *at)
{
	const struct lz_jfield	*f = item_fields;
	struct icoll		*ic = at->arg;
	struct iitem		*it = &ic->items[ic->nitems];
	const char		*s;
	size_t			 k;
	long			 p;

	it->note = json_string_value(json_object_get(v, f[IT_NOTE].name));
	if (*it->note != '\0')
		it->note = imp_text(m, v, at->path, &f[IT_NOTE]);
	it->note_en = imp_text(m, v, at->path, &f[IT_NOTE_EN]);
	if ((s = imp_text(m, v, at->path, &f[IT_PROMPT])) == NULL)
		return;
	if ((p = imp_prompt_find(m, s)) < 0) {
		imp_bad(m, at->path, "no prompt has the slug '%s'", s);
		return;
	}
	for (k = 0; k < ic->nitems; k++)
		if (ic->items[k].prompt == (size_t)p)
			imp_bad(m, at->path, "the prompt '%s' is in the "
			    "collection twice", s);
	it->prompt = (size_t)p;
	if (it->note == NULL)
		it->note = "";
	ic->nitems++;
}

static void
load_items(struct import *m, struct icoll *ic, const json_t *arr,
    const char *pre)
{
	char	 name[96];

	if (json_array_size(arr) > (size_t)collection_fields[CO_ITEMS].f.max) {
		imp_bad(m, pre, "'items' has more than %lld entries",
		    collection_fields[CO_ITEMS].f.max);
		return;
	}
	ic->items = xcalloc(json_array_size(arr) + 1, sizeof(*ic->items));
	snprintf(name, sizeof(name), "%.63s.items", pre);
	imp_list(m, arr, name, item_fields, IT__MAX, load_item, ic);
}

static int
read_collection(struct import *m, const json_t *o, const struct imp_at *at,
    void *rec)
{
	static const char *const cstatuses[] = {
		"published", "unpublished", NULL
	};
	const struct ifield	*f = collection_fields;
	struct icoll		*ic = rec;
	struct pcoll		*c = &ic->c;
	json_t			*cost;
	char			 pre[64];
	size_t			 k;

	c->slug = imp_slug_path(m, o, at, &f[CO_SLUG].f, pre, sizeof(pre));
	ic->published = strcmp(imp_oneof(m, o, pre, &f[CO_STATUS].f,
	    cstatuses), "published") == 0;
	imp_read_fields(m, o, pre, f, CO_TITLE, CO_UNLOCK_COST, ic);
	if (c->kicker_en && !c->kicker)
		imp_bad(m, pre, "'kicker_en' without 'kicker'");
	if ((cost = json_object_get(o, f[CO_UNLOCK_COST].f.name)) != NULL &&
	    !json_is_null(cost)) {
		c->has_cost = 1;
		c->unlock_cost = imp_integer(m, o, pre, &f[CO_UNLOCK_COST].f,
		    0);
	}
	c->updated_at = imp_time(m, o, pre, &f[CO_UPDATED_AT].f);
	load_items(m, ic, json_object_get(o, f[CO_ITEMS].f.name), pre);
	if (c->slug == NULL) {
		/* Dropped: its slot takes the next collection. */
		free(ic->items);
		memset(ic, 0, sizeof(*ic));
		return 0;
	}
	if (ic->published) {
		m->stored_colls++;
		for (k = 0; k < ic->nitems; k++)
			if (m->prompts[ic->items[k].prompt].status == S_DRAFT)
				m->dropped_items++;
	}
	return 1;
}

const struct records imp_collections_list = {
	"collections", TABLE(collection_fields), 0, 1, read_collection, NULL
};

/* ---- models, integrations, tutorials, keywords -------------------------- */

enum { MO_KEY, MO_NAME, MO_CATEGORY, MO_VERSION, MO_VENDOR, MO_NOTES,
    MO_NOTES_EN, MO_SOURCE_URL, MO_CHECKED_ON, MO_VERIFICATION,
    MO_VERIFIED_ON, MO_STATUS, MO_TOOL, MO_GENERATOR_URL, MO_RECORD_TYPE,
    MO__MAX };

static const struct ifield model_fields[MO__MAX] = {
	[MO_KEY] =		{ { "key", S, REQ, 1, SLUG_LEN },
				  V_SLUG | V_SEARCH, MO(m.key) },
	[MO_NAME] =		{ { "name", S, REQ, 0, 200 },
				  V_TEXT | V_SEARCH, MO(m.name) },
	[MO_CATEGORY] =		{ { "category", S, REQ, 0, SLUG_LEN }, V_ONEOF,
				  MO(m.category), val_model_categories },
	[MO_VERSION] =		{ { "version", S, LZ_JF_REQUIRED, 0, 100 },
				  V_TEXT | V_SEARCH, MO(m.version) },
	[MO_VENDOR] =		{ { "vendor", S, REQ, 0, 200 },
				  V_TEXT | V_SEARCH, MO(m.vendor) },
	[MO_NOTES] =		{ { "notes", S, REQ | ML, 0, 4000 },
				  V_TEXT | V_SEARCH, MO(m.notes) },
	[MO_NOTES_EN] =		{ { "notes_en", SN, ML, 0, 4000 },
				  V_TEXT | V_SEARCH, MO(m.notes_en) },
	[MO_SOURCE_URL] =	{ { "source_url", S, REQ, 0, URL_LEN }, V_URL,
				  MO(m.source_url) },
	[MO_CHECKED_ON] =	{ { "checked_on", S, REQ, 0, DATE_LEN }, V_DATE,
				  MO(m.checked_on) },
	[MO_VERIFICATION] =	{ { "verification", S, REQ, 0, SLUG_LEN },
				  V_ONEOF, MO(m.verification),
				  val_verifications },
	[MO_VERIFIED_ON] =	{ { "verified_on", SN, 0, 0, DATE_LEN }, V_DATE,
				  MO(m.verified_on) },
	[MO_STATUS] =		{ { "status", S, REQ, 0, SLUG_LEN }, V_ONEOF,
				  MO(m.status), val_model_statuses },
	[MO_TOOL] =		{ { "tool", SN, 0, 0, SLUG_LEN }, V_TEXT,
				  MO(m.tool_key) },
	[MO_GENERATOR_URL] =	{ { "generator_url", SN, 0, 0, URL_LEN },
				  V_URL, MO(m.generator_url) },
	[MO_RECORD_TYPE] =	{ { "record_type", S, REQ, 0, SLUG_LEN },
				  V_ONEOF, MO(m.record_type),
				  val_record_types },
};

static int
read_model(struct import *m, const json_t *o, const struct imp_at *at,
    void *rec)
{
	const char	*pre = at->path;
	struct imodel	*im = rec;
	struct modelrow	*r = &im->m;

	imp_read_fields(m, o, pre, model_fields, 0, MO_STATUS, im);
	if (strcmp(r->verification, "verified") == 0 &&
	    *r->verified_on == '\0')
		imp_bad(m, pre, "a verified model needs 'verified_on'");
	if (strcmp(r->verification, "verified") != 0 &&
	    *r->verified_on != '\0')
		imp_bad(m, pre, "'verified_on' is for verified models only");
	imp_read_fields(m, o, pre, model_fields, MO_STATUS, MO_GENERATOR_URL,
	    im);
	if (r->tool_key != NULL && imp_tool_find(m, r->tool_key, 0) < 0)
		imp_bad(m, pre, "no tool has the key '%s'", r->tool_key);
	if (r->tool_key == NULL)
		r->tool_key = "";
	imp_read_fields(m, o, pre, model_fields, MO_GENERATOR_URL, MO__MAX,
	    im);
	if (r->version == NULL)
		r->version = "";
	return 1;
}

const struct records imp_models_list = {
	"models", TABLE(model_fields), MO(search), 0, read_model, NULL
};

enum { IN_KEY, IN_TOOL_KEY, IN_NAME, IN_VENDOR, IN_CATEGORY,
    IN_GENERATOR_KIND, IN_GENERATOR_URL, IN__MAX };

static const struct ifield integration_fields[IN__MAX] = {
	[IN_KEY] =		KEY("key", IN(i.key)),
	[IN_TOOL_KEY] =		{ { "tool_key", S, REQ, 0, SLUG_LEN }, V_TEXT,
				  IN(i.tool_key) },
	[IN_NAME] =		{ { "name", S, REQ, 0, 200 }, V_TEXT,
				  IN(i.name) },
	[IN_VENDOR] =		{ { "vendor", S, REQ, 0, 200 }, V_TEXT,
				  IN(i.vendor) },
	[IN_CATEGORY] =		{ { "category", S, REQ, 0, SLUG_LEN }, V_ONEOF,
				  IN(i.category), val_integration_categories },
	[IN_GENERATOR_KIND] =	{ { "generator_kind", S, REQ, 0, SLUG_LEN },
				  V_ONEOF, IN(i.generator_kind),
				  val_generator_kinds },
	[IN_GENERATOR_URL] =	{ { "generator_url", SN, 0, 0, URL_LEN }, V_URL,
				  IN(i.generator_url) },
};

static int
read_integration(struct import *m, const json_t *o, const struct imp_at *at,
    void *rec)
{
	struct iinteg	*ii = rec;
	struct integrow	*r = &ii->i;
	char		*n;
	long		 t;

	imp_read_fields(m, o, at->path, integration_fields, 0, IN_NAME, ii);
	/* The tool filter accepts every integration's tool_key, so it must
	 * name a tool (its key or a legacy alias). */
	if (r->tool_key != NULL) {
		n = search_tool_name(r->tool_key);
		t = n && strcmp(n, r->tool_key) == 0 ?
		    imp_tool_find(m, n, 1) : -1;
		free(n);
		if (t < 0)
			imp_bad(m, at->path, "'tool_key' must be a tool key or "
			    "alias: '%s'", r->tool_key);
		else
			ii->tool = (size_t)t;
	}
	imp_read_fields(m, o, at->path, integration_fields, IN_NAME, IN__MAX,
	    ii);
	return 1;
}

const struct records imp_integrations_list = {
	"integrations", TABLE(integration_fields), 0, 0, read_integration, NULL
};

enum { TU_SLUG, TU_TITLE, TU_SUMMARY, TU_MARKDOWN, TU_SOURCE_URL,
    TU_PUBLISHED_AT, TU_UPDATED_AT, TU__MAX };

static const struct ifield tutorial_fields[TU__MAX] = {
	[TU_SLUG] =		KEY("slug", TU(t.slug)),
	[TU_TITLE] =		{ { "title", S, REQ, 0, 200 },
				  V_TEXT | V_SEARCH, TU(t.title) },
	[TU_SUMMARY] =		{ { "summary", S, REQ | ML, 0, 2000 },
				  V_TEXT | V_SEARCH, TU(t.summary) },
	[TU_MARKDOWN] =		{ { "markdown", S, REQ | ML, 0, 200000 },
				  V_TEXT | V_SEARCH, TU(t.markdown) },
	[TU_SOURCE_URL] =	{ { "source_url", S, REQ, 0, URL_LEN }, V_URL,
				  TU(t.source_url) },
	[TU_PUBLISHED_AT] =	{ { "published_at", S, REQ, 0, TIME_LEN },
				  V_TIME, TU(t.published_at) },
	[TU_UPDATED_AT] =	{ { "updated_at", S, REQ, 0, TIME_LEN }, V_TIME,
				  TU(t.updated_at) },
};

const struct records imp_tutorials_list = {
	"tutorials", TABLE(tutorial_fields), TU(search), 0, NULL, NULL
};

enum { KW_SLUG, KW_TERM, KW_TERM_EN, KW_CATEGORY, KW_DEFINITION,
    KW_WHEN_TO_USE, KW_HOW_TO_ASK, KW_GOTCHA, KW_RELATED, KW_TAGS,
    KW_UPDATED_AT, KW__MAX };

static const struct ifield keyword_fields[KW__MAX] = {
	[KW_SLUG] =		KEY("slug", KW(k.slug)),
	[KW_TERM] =		{ { "term", S, REQ, 0, 100 }, V_TEXT | V_SEARCH,
				  KW(k.term) },
	[KW_TERM_EN] =		{ { "term_en", S, REQ, 0, 100 },
				  V_TEXT | V_SEARCH, KW(k.term_en) },
	[KW_CATEGORY] =		{ { "category", S, REQ, 0, SLUG_LEN }, V_ONEOF,
				  KW(k.category), val_keyword_categories },
	[KW_DEFINITION] =	{ { "definition", S, REQ | ML, 0, 4000 },
				  V_TEXT | V_SEARCH, KW(k.definition) },
	[KW_WHEN_TO_USE] =	{ { "when_to_use", S, REQ | ML, 0, 4000 },
				  V_TEXT, KW(k.when_to_use) },
	[KW_HOW_TO_ASK] =	{ { "how_to_ask", S, REQ | ML, 0, 4000 },
				  V_TEXT, KW(k.how_to_ask) },
	[KW_GOTCHA] =		{ { "gotcha", S, REQ | ML, 0, 4000 }, V_TEXT,
				  KW(k.gotcha) },
	[KW_RELATED] =		{ { "related", A, 0, 0, 20 }, V_STRINGS,
				  KW(related) },
	[KW_TAGS] =		{ { "tags", A, 0, 0, 20 }, V_STRINGS,
				  KW(tags) },
	[KW_UPDATED_AT] =	{ { "updated_at", S, REQ, 0, TIME_LEN }, V_TIME,
				  KW(k.updated_at) },
};

/* The references of keyword i, now that every slug is known. */
static void
keyword_refs(struct import *m, size_t i)
{
	struct ikw	*ik = &m->kws[i];
	json_t		*v, *rel = json_array(), *tags = json_array();
	char		 pre[64];
	size_t		 j, x;

	snprintf(pre, sizeof(pre), "keywords[%zu] (%s)", i, ik->k.slug);
	json_array_foreach(ik->related, j, v) {
		for (x = 0; x < m->nkws; x++)
			if (strcmp(m->kws[x].k.slug, json_string_value(v)) ==
			    0)
				break;
		if (x == m->nkws || x == i)
			imp_bad(m, pre, "related[%zu]: '%s' is not another "
			    "keyword", j, json_string_value(v));
		json_array_append(rel, v);
	}
	json_array_foreach(ik->tags, j, v) {
		if (imp_tag_find(m, json_string_value(v)) < 0)
			imp_bad(m, pre, "tags[%zu]: no tag has the slug '%s'",
			    j, json_string_value(v));
		json_array_append(tags, v);
	}
	ik->related_json = json_dumps(rel, JSON_COMPACT);
	ik->tags_json = json_dumps(tags, JSON_COMPACT);
	ik->k.related = ik->related_json;
	ik->k.tags = ik->tags_json;
	json_decref(rel);
	json_decref(tags);
}

static void
keywords_after(struct import *m)
{
	size_t	 i;

	for (i = 0; i < m->nkws; i++)
		keyword_refs(m, i);
}

const struct records imp_keywords_list = {
	"keywords", TABLE(keyword_fields), KW(search), 0, NULL, keywords_after
};
