/*
 * import_load.c -- the loaders of the prompt library's data file, one
 * per list, each with its field table: the whole contract of an object
 * (names, types, presence, bounds) in its rows (import_check.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "import_check.h"
#include "search.h"
#include "utf8.h"
#include "util.h"
#include "values.h"

/* Shorthands of the tables' rows. */
#define S	LZ_JT_STRING
#define SN	(LZ_JT_STRING | LZ_JT_NULL)
#define A	LZ_JT_ARRAY
#define AN	(LZ_JT_ARRAY | LZ_JT_NULL)
#define REQ	(LZ_JF_REQUIRED | LZ_JF_NONEMPTY)	/* there, not empty */
#define ML	LZ_JF_MULTILINE

#define SLUG_LEN	100	/* slugs, keys and the values of sets */
#define URL_LEN		2000
#define TIME_LEN	40
#define DATE_LEN	10

#define PREVIEW_MAX	160	/* characters of a PRO entry's preview */

/* ---- tools and tags ----------------------------------------------------- */

enum { TL_KEY, TL_LABEL, TL_LABEL_EN, TL_MEDIUM, TL_DESCRIPTION,
    TL_DESCRIPTION_EN, TL_ALIASES, TL__MAX };

static const struct lz_jfield tool_fields[TL__MAX] = {
	[TL_KEY] =		{ "key", S, REQ, 1, SLUG_LEN },
	[TL_LABEL] =		{ "label", S, REQ, 0, 100 },
	[TL_LABEL_EN] =		{ "label_en", SN, 0, 0, 100 },
	[TL_MEDIUM] =		{ "medium", S, REQ, 0, SLUG_LEN },
	[TL_DESCRIPTION] =	{ "description", S, REQ | ML, 0, 2000 },
	[TL_DESCRIPTION_EN] =	{ "description_en", SN, ML, 0, 2000 },
	[TL_ALIASES] =		{ "aliases", AN, 0, 0, 50 },
};

static const char *
tool_key_of(struct import *m, size_t i)
{
	return m->tools[i].t.key;
}

static void
load_tool(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = tool_fields;
	const char		*pre = at->path;
	struct itool		*t = &m->tools[m->ntools];
	json_t			*v;
	char			*n;
	size_t			 k;

	t->t.key = imp_slug(m, o, pre, &f[TL_KEY]);
	t->t.label = imp_text(m, o, pre, &f[TL_LABEL]);
	t->t.label_en = imp_text(m, o, pre, &f[TL_LABEL_EN]);
	t->t.medium = imp_oneof(m, o, pre, &f[TL_MEDIUM],
	    val_prompt_categories);
	t->t.description = imp_text(m, o, pre, &f[TL_DESCRIPTION]);
	t->t.description_en = imp_text(m, o, pre, &f[TL_DESCRIPTION_EN]);
	t->aliases = imp_strings(m, o, pre, &f[TL_ALIASES]);
	if (t->t.key == NULL)
		return;
	imp_name_add(&m->toolnames, &m->ntoolnames, xstrdup(t->t.key),
	    m->ntools);
	json_array_foreach(t->aliases, k, v) {
		if ((n = search_tool_name(json_string_value(v))) == NULL) {
			imp_bad(m, pre, "alias '%s' must be of a-z, 0-9, '.', "
			    "'_' and '-'", json_string_value(v));
			continue;
		}
		imp_name_add(&m->toolnames, &m->ntoolnames, n, m->ntools);
	}
	m->ntools++;
}

static const char *
tool_label(struct import *m, size_t i)
{
	return m->tools[i].t.key;
}

void
imp_load_tools(struct import *m, const json_t *arr)
{
	m->tools = xcalloc(json_array_size(arr) + 1, sizeof(*m->tools));
	imp_list(m, arr, "tools", tool_fields, TL__MAX, load_tool, NULL);
	imp_unique(m, "tools", m->ntools, tool_key_of);
	imp_names_check(m, m->toolnames, &m->ntoolnames, "tools",
	    tool_label);
}

enum { TG_SLUG, TG_LABEL, TG_LABEL_EN, TG_ALIASES, TG__MAX };

static const struct lz_jfield tag_fields[TG__MAX] = {
	[TG_SLUG] =		{ "slug", S, REQ, 1, SLUG_LEN },
	[TG_LABEL] =		{ "label", S, REQ, 0, 100 },
	[TG_LABEL_EN] =		{ "label_en", SN, 0, 0, 100 },
	[TG_ALIASES] =		{ "aliases", AN, 0, 0, 50 },
};

static const char *
tag_slug_of(struct import *m, size_t i)
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
load_tag(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = tag_fields;
	const char		*pre = at->path;
	struct itag		*t = &m->tags[m->ntags];
	json_t			*v;
	size_t			 k;

	t->t.slug = imp_slug(m, o, pre, &f[TG_SLUG]);
	t->t.label = imp_text(m, o, pre, &f[TG_LABEL]);
	t->t.label_en = imp_text(m, o, pre, &f[TG_LABEL_EN]);
	t->aliases = imp_strings(m, o, pre, &f[TG_ALIASES]);
	if (t->t.slug == NULL || t->t.label == NULL)
		return;
	tag_name(m, pre, t->t.slug, m->ntags);
	tag_name(m, pre, t->t.label, m->ntags);
	tag_name(m, pre, t->t.label_en, m->ntags);
	json_array_foreach(t->aliases, k, v)
		tag_name(m, pre, json_string_value(v), m->ntags);
	m->ntags++;
}

void
imp_load_tags(struct import *m, const json_t *arr)
{
	m->tags = xcalloc(json_array_size(arr) + 1, sizeof(*m->tags));
	imp_list(m, arr, "tags", tag_fields, TG__MAX, load_tag, NULL);
	imp_unique(m, "tags", m->ntags, tag_slug_of);
	imp_names_check(m, m->tagnames, &m->ntagnames, "tags", tag_slug_of);
}

/* ---- prompts ------------------------------------------------------------ */

enum { PR_SLUG, PR_STATUS, PR_PUBLISH_AT, PR_IS_PRO, PR_CATEGORY, PR_TOOL,
    PR_DIFFICULTY, PR_TAGS, PR_RANK, PR_TITLE, PR_TITLE_EN, PR_SUMMARY,
    PR_SUMMARY_EN, PR_CONTEXT, PR_CONTEXT_EN, PR_FULL_PROMPT,
    PR_FULL_PROMPT_EN, PR_SAMPLE_OUTPUT, PR_SAMPLE_OUTPUT_EN, PR_VARIABLES,
    PR_RATING, PR_UPDATED_AT, PR__MAX };

static const struct lz_jfield prompt_fields[PR__MAX] = {
	[PR_SLUG] =		{ "slug", S, REQ, 1, SLUG_LEN },
	[PR_STATUS] =		{ "status", S, REQ, 0, SLUG_LEN },
	[PR_PUBLISH_AT] =	{ "publish_at", SN, 0, 0, TIME_LEN },
	[PR_IS_PRO] =		{ "is_pro", LZ_JT_BOOL, 0 },
	[PR_CATEGORY] =		{ "category", S, REQ, 0, SLUG_LEN },
	[PR_TOOL] =		{ "tool", S, REQ, 0, SLUG_LEN },
	[PR_DIFFICULTY] =	{ "difficulty", S, REQ, 0, SLUG_LEN },
	[PR_TAGS] =		{ "tags", A, 0, 0, 20 },
	[PR_RANK] =		{ "rank", LZ_JT_INTEGER, 0, 0, 1000000 },
	[PR_TITLE] =		{ "title", S, REQ, 0, 200 },
	[PR_TITLE_EN] =		{ "title_en", SN, 0, 0, 200 },
	[PR_SUMMARY] =		{ "summary", S, REQ, 0, 1000 },
	[PR_SUMMARY_EN] =	{ "summary_en", SN, 0, 0, 1000 },
	[PR_CONTEXT] =		{ "context", S, REQ | ML, 0, 4000 },
	[PR_CONTEXT_EN] =	{ "context_en", SN, ML, 0, 4000 },
	[PR_FULL_PROMPT] =	{ "full_prompt", S, REQ | ML, 0, 20000 },
	[PR_FULL_PROMPT_EN] =	{ "full_prompt_en", SN, ML, 0, 20000 },
	[PR_SAMPLE_OUTPUT] =	{ "sample_output", S, REQ | ML, 0, 20000 },
	[PR_SAMPLE_OUTPUT_EN] =	{ "sample_output_en", SN, ML, 0, 20000 },
	[PR_VARIABLES] =	{ "variables", A, 0, 0, 50 },
	[PR_RATING] =		{ "rating", LZ_JT_OBJECT | LZ_JT_NULL, 0 },
	[PR_UPDATED_AT] =	{ "updated_at", S, REQ, 0, TIME_LEN },
};

enum { VA_NAME, VA_DESCRIPTION, VA_DESCRIPTION_EN, VA__MAX };

static const struct lz_jfield variable_fields[VA__MAX] = {
	[VA_NAME] =		{ "name", S, REQ, 1, 64 },
	[VA_DESCRIPTION] =	{ "description", S, REQ, 0, 500 },
	[VA_DESCRIPTION_EN] =	{ "description_en", SN, 0, 0, 500 },
};

enum { RA_AVG, RA_COUNT, RA__MAX };

static const struct lz_jfield rating_fields[RA__MAX] = {
	[RA_AVG] =	{ "avg", LZ_JT_NUMBER, LZ_JF_REQUIRED, 1, 5 },
	[RA_COUNT] =	{ "count", LZ_JT_INTEGER, LZ_JF_REQUIRED, 1,
			  1000000000 },
};

static const char *const statuses[] = {
	[S_PUBLISHED] = "published", [S_DRAFT] = "draft",
	[S_SCHEDULED] = "scheduled", NULL
};

static int
variable_name_ok(const char *s)
{
	size_t	 n = strlen(s);

	return n >= 1 && n <= (size_t)variable_fields[VA_NAME].max &&
	    !(s[0] >= '0' && s[0] <= '9') && strspn(s,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_") == n;
}

/* The first non-empty line of s, at most PREVIEW_MAX characters. */
static char *
first_line(const char *s)
{
	const char	*p, *e;
	size_t		 len;
	long		 n;

	if (s == NULL)
		return NULL;
	for (p = s; *p == '\n' || *p == ' ' || *p == '\t'; p++)
		continue;
	e = p + strcspn(p, "\n");
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	len = (size_t)(e - p);
	/* Cut at a character boundary. */
	while ((n = lz_utf8_count(p, len, 0)) < 0 || n > PREVIEW_MAX)
		len--;
	return xstrndup(p, len);
}

/* A variable of the prompt (imp_list's arg): checked, and added to the
 * variables shown (out). */
struct vars {
	json_t	*arr;
	json_t	*out;
};

static void
load_variable(struct import *m, const json_t *v, const struct imp_at *at)
{
	const struct lz_jfield	*f = variable_fields;
	struct vars		*vs = at->arg;
	const char		*name, *d, *de;
	size_t			 k;

	name = imp_text(m, v, at->path, &f[VA_NAME]);
	d = imp_text(m, v, at->path, &f[VA_DESCRIPTION]);
	de = imp_text(m, v, at->path, &f[VA_DESCRIPTION_EN]);
	if (name == NULL || d == NULL)
		return;
	if (!variable_name_ok(name)) {
		imp_bad(m, at->path, "'name' must be a letter or '_', then "
		    "letters, digits and '_': '%s'", name);
		return;
	}
	for (k = 0; k < at->i; k++)
		if (json_equal(json_object_get(json_array_get(vs->arr, k),
		    "name"), json_object_get(v, "name")))
			imp_bad(m, at->path, "the variable '%s' is given twice",
			    name);
	if (de)
		json_array_append_new(vs->out, json_pack("{s:s, s:s, s:s}",
		    "name", name, "description", d, "description_en", de));
	else
		json_array_append_new(vs->out, json_pack("{s:s, s:s}",
		    "name", name, "description", d));
}

static void
load_variables(struct import *m, struct iprompt *ip, const json_t *o,
    const char *pre)
{
	struct vars	 vs;
	char		 name[96];

	vs.arr = json_object_get(o, prompt_fields[PR_VARIABLES].name);
	ip->variables = vs.arr;
	if (vs.arr == NULL) {
		ip->vars_json = xstrdup("[]");	/* free entries show [] */
		return;
	}
	if (json_array_size(vs.arr) >
	    (size_t)prompt_fields[PR_VARIABLES].max) {
		imp_bad(m, pre, "'variables' has more than %lld entries",
		    prompt_fields[PR_VARIABLES].max);
		return;
	}
	vs.out = json_array();
	snprintf(name, sizeof(name), "%.63s.variables", pre);
	imp_list(m, vs.arr, name, variable_fields, VA__MAX, load_variable,
	    &vs);
	ip->vars_json = json_dumps(vs.out, JSON_COMPACT);
	json_decref(vs.out);
}

static void
load_prompt_tags(struct import *m, struct iprompt *ip, const json_t *o,
    const char *pre)
{
	json_t		*arr, *v, *out;
	size_t		 i, k;
	long		 t;

	arr = imp_strings(m, o, pre, &prompt_fields[PR_TAGS]);
	out = json_array();
	ip->tags = xcalloc(json_array_size(arr) + 1, sizeof(*ip->tags));
	json_array_foreach(arr, i, v) {
		if ((t = imp_tag_find(m, json_string_value(v))) < 0) {
			imp_bad(m, pre, "tags[%zu]: no tag has the slug '%s'",
			    i, json_string_value(v));
			continue;
		}
		for (k = 0; k < ip->ntags; k++)
			if (ip->tags[k] == (size_t)t)
				break;
		if (k < ip->ntags) {
			imp_bad(m, pre, "tags[%zu]: '%s' is given twice", i,
			    json_string_value(v));
			continue;
		}
		ip->tags[ip->ntags++] = (size_t)t;
		json_array_append(out, v);
	}
	ip->tags_json = json_dumps(out, JSON_COMPACT);
	json_decref(out);
}

static void
load_rating(struct import *m, struct pprompt *p, const json_t *o,
    const char *pre)
{
	const struct lz_jfield	*f = rating_fields;
	json_t			*rating;
	char			 rpre[96];

	rating = json_object_get(o, prompt_fields[PR_RATING].name);
	if (rating == NULL || json_is_null(rating))
		return;
	snprintf(rpre, sizeof(rpre), "%.63s.rating.", pre);
	if (imp_fields(m, rating, f, RA__MAX, rpre) == -1)
		return;
	rpre[strlen(rpre) - 1] = '\0';
	p->rated = 1;
	p->rating_avg = json_number_value(json_object_get(rating,
	    f[RA_AVG].name));
	if (!(p->rating_avg >= f[RA_AVG].min &&
	    p->rating_avg <= f[RA_AVG].max))
		imp_bad(m, rpre, "'avg' must be from %lld to %lld",
		    f[RA_AVG].min, f[RA_AVG].max);
	p->rating_count = imp_integer(m, rating, rpre, &f[RA_COUNT], 1);
}

/* What literal search may find: public text of every entry, the body and
 * variables of free entries only. */
static char *
prompt_search_text(const struct iprompt *ip)
{
	struct lz_buf		 b = LZ_BUF_INIT;
	const struct pprompt	*p = &ip->p;
	json_t			*v;
	size_t			 i;

	search_field(&b, p->title);
	search_field(&b, p->title_en);
	search_field(&b, p->summary);
	search_field(&b, p->summary_en);
	search_field(&b, p->context);
	search_field(&b, p->context_en);
	search_field(&b, p->sample_output);
	search_field(&b, p->sample_output_en);
	if (!p->is_pro) {
		search_field(&b, p->full_prompt);
		search_field(&b, p->full_prompt_en);
		json_array_foreach(ip->variables, i, v) {
			search_field(&b, json_string_value(json_object_get(v,
			    "name")));
			search_field(&b, json_string_value(json_object_get(v,
			    "description")));
			search_field(&b, json_string_value(json_object_get(v,
			    "description_en")));
		}
	}
	return lz_buf_detach(&b);
}

static const char *
prompt_slug_of(struct import *m, size_t i)
{
	return m->prompts[i].p.slug;
}

static void
load_prompt(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = prompt_fields;
	struct iprompt		*ip = &m->prompts[m->nprompts];
	struct pprompt		*p = &ip->p;
	const char		*s;
	char			 pre[64];
	int			 nerr = m->nerr;
	int64_t			 publish_at;
	long			 t;

	snprintf(pre, sizeof(pre), "%s", at->path);
	if ((p->slug = imp_slug(m, o, pre, &f[PR_SLUG])) != NULL)
		snprintf(pre, sizeof(pre), "%s (%s)", at->path, p->slug);
	ip->status = (enum status)val_index(statuses, imp_oneof(m, o, pre,
	    &f[PR_STATUS], statuses));
	publish_at = imp_time(m, o, pre, &f[PR_PUBLISH_AT]);
	if (ip->status == S_SCHEDULED && publish_at == 0)
		imp_bad(m, pre, "a scheduled prompt needs 'publish_at'");
	if (ip->status != S_SCHEDULED && publish_at != 0)
		imp_bad(m, pre, "'publish_at' is for scheduled prompts only");
	p->visible_at = ip->status == S_SCHEDULED ? publish_at : 0;
	p->is_pro = json_is_true(json_object_get(o, f[PR_IS_PRO].name));
	p->category = imp_oneof(m, o, pre, &f[PR_CATEGORY],
	    val_prompt_categories);
	if ((s = imp_text(m, o, pre, &f[PR_TOOL])) != NULL) {
		if ((t = imp_tool_find(m, s, 0)) < 0)
			imp_bad(m, pre, "no tool has the key '%s'", s);
		else
			ip->tool = (size_t)t;
	}
	p->difficulty = imp_oneof(m, o, pre, &f[PR_DIFFICULTY],
	    val_difficulties);
	load_prompt_tags(m, ip, o, pre);
	ip->rank = imp_integer(m, o, pre, &f[PR_RANK], 0);
	p->title = imp_text(m, o, pre, &f[PR_TITLE]);
	p->title_en = imp_text(m, o, pre, &f[PR_TITLE_EN]);
	p->summary = imp_text(m, o, pre, &f[PR_SUMMARY]);
	p->summary_en = imp_text(m, o, pre, &f[PR_SUMMARY_EN]);
	p->context = imp_text(m, o, pre, &f[PR_CONTEXT]);
	p->context_en = imp_text(m, o, pre, &f[PR_CONTEXT_EN]);
	p->full_prompt = imp_text(m, o, pre, &f[PR_FULL_PROMPT]);
	p->full_prompt_en = imp_text(m, o, pre, &f[PR_FULL_PROMPT_EN]);
	p->sample_output = imp_text(m, o, pre, &f[PR_SAMPLE_OUTPUT]);
	p->sample_output_en = imp_text(m, o, pre, &f[PR_SAMPLE_OUTPUT_EN]);
	load_variables(m, ip, o, pre);
	load_rating(m, p, o, pre);
	p->updated_at = imp_time(m, o, pre, &f[PR_UPDATED_AT]);
	if (p->slug == NULL) {
		free(ip->tags);
		free(ip->tags_json);
		free(ip->vars_json);
		memset(ip, 0, sizeof(*ip));
		return;
	}
	/* A prompt with errors still holds its slug, so references to it
	 * do not add errors of their own. */
	m->nprompts++;
	if (m->nerr != nerr)
		return;
	if (ip->status == S_SCHEDULED && publish_at <= m->now)
		m->due++;
	if (ip->status == S_DRAFT)
		m->drafts++;
	else if (ip->status == S_SCHEDULED)
		m->scheduled++;
	/* PRO bodies and variables stay out of the database: only their
	 * first line, the preview, is public. */
	ip->preview = first_line(p->full_prompt);
	ip->preview_en = first_line(p->full_prompt_en);
	ip->search = prompt_search_text(ip);
}

void
imp_load_prompts(struct import *m, const json_t *arr)
{
	m->prompts = xcalloc(json_array_size(arr) + 1, sizeof(*m->prompts));
	imp_list(m, arr, "prompts", prompt_fields, PR__MAX, load_prompt, NULL);
	m->stored_prompts = m->nprompts - m->drafts;
	imp_unique(m, "prompts", m->nprompts, prompt_slug_of);
	imp_prompts_sort(m);
}

/* ---- collections -------------------------------------------------------- */

enum { CO_SLUG, CO_STATUS, CO_TITLE, CO_TITLE_EN, CO_SUMMARY, CO_SUMMARY_EN,
    CO_KICKER, CO_KICKER_EN, CO_UNLOCK_COST, CO_UPDATED_AT, CO_ITEMS,
    CO__MAX };

static const struct lz_jfield collection_fields[CO__MAX] = {
	[CO_SLUG] =		{ "slug", S, REQ, 1, SLUG_LEN },
	[CO_STATUS] =		{ "status", S, REQ, 0, SLUG_LEN },
	[CO_TITLE] =		{ "title", S, REQ, 0, 200 },
	[CO_TITLE_EN] =		{ "title_en", SN, 0, 0, 200 },
	[CO_SUMMARY] =		{ "summary", S, REQ | ML, 0, 2000 },
	[CO_SUMMARY_EN] =	{ "summary_en", SN, ML, 0, 2000 },
	[CO_KICKER] =		{ "kicker", SN, 0, 0, 100 },
	[CO_KICKER_EN] =	{ "kicker_en", SN, 0, 0, 100 },
	[CO_UNLOCK_COST] =	{ "unlock_cost", LZ_JT_INTEGER | LZ_JT_NULL,
				  0, 0, 1000000 },
	[CO_UPDATED_AT] =	{ "updated_at", S, REQ, 0, TIME_LEN },
	[CO_ITEMS] =		{ "items", A, LZ_JF_REQUIRED, 0, 1000 },
};

/* A note may be empty: it is shown as it is. */
enum { IT_PROMPT, IT_NOTE, IT_NOTE_EN, IT__MAX };

static const struct lz_jfield item_fields[IT__MAX] = {
	[IT_PROMPT] =	{ "prompt", S, REQ, 1, SLUG_LEN },
	[IT_NOTE] =	{ "note", S, LZ_JF_REQUIRED | ML, 0, 2000 },
	[IT_NOTE_EN] =	{ "note_en", SN, ML, 0, 2000 },
};

static const char *
coll_slug_of(struct import *m, size_t i)
{
	return m->colls[i].c.slug;
}

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

	if (json_array_size(arr) > (size_t)collection_fields[CO_ITEMS].max) {
		imp_bad(m, pre, "'items' has more than %lld entries",
		    collection_fields[CO_ITEMS].max);
		return;
	}
	ic->items = xcalloc(json_array_size(arr) + 1, sizeof(*ic->items));
	snprintf(name, sizeof(name), "%.63s.items", pre);
	imp_list(m, arr, name, item_fields, IT__MAX, load_item, ic);
}

static void
load_collection(struct import *m, const json_t *o, const struct imp_at *at)
{
	static const char *const cstatuses[] = {
		"published", "unpublished", NULL
	};
	const struct lz_jfield	*f = collection_fields;
	struct icoll		*ic = &m->colls[m->ncolls];
	struct pcoll		*c = &ic->c;
	json_t			*cost;
	char			 pre[64];
	size_t			 k;

	snprintf(pre, sizeof(pre), "%s", at->path);
	if ((c->slug = imp_slug(m, o, pre, &f[CO_SLUG])) != NULL)
		snprintf(pre, sizeof(pre), "%s (%s)", at->path, c->slug);
	ic->published = strcmp(imp_oneof(m, o, pre, &f[CO_STATUS],
	    cstatuses), "published") == 0;
	c->title = imp_text(m, o, pre, &f[CO_TITLE]);
	c->title_en = imp_text(m, o, pre, &f[CO_TITLE_EN]);
	c->summary = imp_text(m, o, pre, &f[CO_SUMMARY]);
	c->summary_en = imp_text(m, o, pre, &f[CO_SUMMARY_EN]);
	c->kicker = imp_text(m, o, pre, &f[CO_KICKER]);
	c->kicker_en = imp_text(m, o, pre, &f[CO_KICKER_EN]);
	if (c->kicker_en && !c->kicker)
		imp_bad(m, pre, "'kicker_en' without 'kicker'");
	if ((cost = json_object_get(o, f[CO_UNLOCK_COST].name)) != NULL &&
	    !json_is_null(cost)) {
		c->has_cost = 1;
		c->unlock_cost = imp_integer(m, o, pre, &f[CO_UNLOCK_COST], 0);
	}
	c->updated_at = imp_time(m, o, pre, &f[CO_UPDATED_AT]);
	load_items(m, ic, json_object_get(o, f[CO_ITEMS].name), pre);
	if (c->slug == NULL)
		return;
	if (ic->published) {
		m->stored_colls++;
		for (k = 0; k < ic->nitems; k++)
			if (m->prompts[ic->items[k].prompt].status == S_DRAFT)
				m->dropped_items++;
	}
	m->ncolls++;
}

void
imp_load_collections(struct import *m, const json_t *arr)
{
	m->colls = xcalloc(json_array_size(arr) + 1, sizeof(*m->colls));
	imp_list(m, arr, "collections", collection_fields, CO__MAX,
	    load_collection, NULL);
	imp_unique(m, "collections", m->ncolls, coll_slug_of);
}

/* ---- models, integrations, tutorials, keywords -------------------------- */

enum { MO_KEY, MO_NAME, MO_CATEGORY, MO_VERSION, MO_VENDOR, MO_NOTES,
    MO_NOTES_EN, MO_SOURCE_URL, MO_CHECKED_ON, MO_VERIFIED_ON,
    MO_VERIFICATION, MO_STATUS, MO_TOOL, MO_GENERATOR_URL, MO_RECORD_TYPE,
    MO__MAX };

static const struct lz_jfield model_fields[MO__MAX] = {
	[MO_KEY] =		{ "key", S, REQ, 1, SLUG_LEN },
	[MO_NAME] =		{ "name", S, REQ, 0, 200 },
	[MO_CATEGORY] =		{ "category", S, REQ, 0, SLUG_LEN },
	[MO_VERSION] =		{ "version", S, LZ_JF_REQUIRED, 0, 100 },
	[MO_VENDOR] =		{ "vendor", S, REQ, 0, 200 },
	[MO_NOTES] =		{ "notes", S, REQ | ML, 0, 4000 },
	[MO_NOTES_EN] =		{ "notes_en", SN, ML, 0, 4000 },
	[MO_SOURCE_URL] =	{ "source_url", S, REQ, 0, URL_LEN },
	[MO_CHECKED_ON] =	{ "checked_on", S, REQ, 0, DATE_LEN },
	[MO_VERIFIED_ON] =	{ "verified_on", SN, 0, 0, DATE_LEN },
	[MO_VERIFICATION] =	{ "verification", S, REQ, 0, SLUG_LEN },
	[MO_STATUS] =		{ "status", S, REQ, 0, SLUG_LEN },
	[MO_TOOL] =		{ "tool", SN, 0, 0, SLUG_LEN },
	[MO_GENERATOR_URL] =	{ "generator_url", SN, 0, 0, URL_LEN },
	[MO_RECORD_TYPE] =	{ "record_type", S, REQ, 0, SLUG_LEN },
};

static const char *
model_key_of(struct import *m, size_t i)
{
	return m->models[i].m.key;
}

static void
load_model(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = model_fields;
	const char		*pre = at->path;
	struct imodel		*im = &m->models[m->nmodels];
	struct modelrow		*r = &im->m;
	struct lz_buf		 b = LZ_BUF_INIT;
	int			 nerr = m->nerr;

	r->key = imp_slug(m, o, pre, &f[MO_KEY]);
	r->name = imp_text(m, o, pre, &f[MO_NAME]);
	r->category = imp_oneof(m, o, pre, &f[MO_CATEGORY],
	    val_model_categories);
	r->version = imp_text(m, o, pre, &f[MO_VERSION]);
	r->vendor = imp_text(m, o, pre, &f[MO_VENDOR]);
	r->notes = imp_text(m, o, pre, &f[MO_NOTES]);
	r->notes_en = imp_text(m, o, pre, &f[MO_NOTES_EN]);
	r->source_url = imp_url(m, o, pre, &f[MO_SOURCE_URL]);
	r->checked_on = imp_date(m, o, pre, &f[MO_CHECKED_ON]);
	r->verification = imp_oneof(m, o, pre, &f[MO_VERIFICATION],
	    val_verifications);
	r->verified_on = imp_date(m, o, pre, &f[MO_VERIFIED_ON]);
	if (strcmp(r->verification, "verified") == 0 &&
	    *r->verified_on == '\0')
		imp_bad(m, pre, "a verified model needs 'verified_on'");
	if (strcmp(r->verification, "verified") != 0 &&
	    *r->verified_on != '\0')
		imp_bad(m, pre, "'verified_on' is for verified models only");
	r->status = imp_oneof(m, o, pre, &f[MO_STATUS], val_model_statuses);
	r->tool_key = imp_text(m, o, pre, &f[MO_TOOL]);
	if (r->tool_key != NULL && imp_tool_find(m, r->tool_key, 0) < 0)
		imp_bad(m, pre, "no tool has the key '%s'", r->tool_key);
	if (r->tool_key == NULL)
		r->tool_key = "";
	r->generator_url = imp_url(m, o, pre, &f[MO_GENERATOR_URL]);
	r->record_type = imp_oneof(m, o, pre, &f[MO_RECORD_TYPE],
	    val_record_types);
	if (r->version == NULL)
		r->version = "";
	if (m->nerr != nerr)
		return;
	search_field(&b, r->key);
	search_field(&b, r->name);
	search_field(&b, r->version);
	search_field(&b, r->vendor);
	search_field(&b, r->notes);
	search_field(&b, r->notes_en);
	im->search = lz_buf_detach(&b);
	m->nmodels++;
}

void
imp_load_models(struct import *m, const json_t *arr)
{
	m->models = xcalloc(json_array_size(arr) + 1, sizeof(*m->models));
	imp_list(m, arr, "models", model_fields, MO__MAX, load_model, NULL);
	imp_unique(m, "models", m->nmodels, model_key_of);
}

enum { IN_KEY, IN_TOOL_KEY, IN_NAME, IN_VENDOR, IN_CATEGORY,
    IN_GENERATOR_KIND, IN_GENERATOR_URL, IN__MAX };

static const struct lz_jfield integration_fields[IN__MAX] = {
	[IN_KEY] =		{ "key", S, REQ, 1, SLUG_LEN },
	[IN_TOOL_KEY] =		{ "tool_key", S, REQ, 0, SLUG_LEN },
	[IN_NAME] =		{ "name", S, REQ, 0, 200 },
	[IN_VENDOR] =		{ "vendor", S, REQ, 0, 200 },
	[IN_CATEGORY] =		{ "category", S, REQ, 0, SLUG_LEN },
	[IN_GENERATOR_KIND] =	{ "generator_kind", S, REQ, 0, SLUG_LEN },
	[IN_GENERATOR_URL] =	{ "generator_url", SN, 0, 0, URL_LEN },
};

static const char *
integ_key_of(struct import *m, size_t i)
{
	return m->integs[i].i.key;
}

static void
load_integration(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = integration_fields;
	const char		*pre = at->path;
	struct iinteg		*ii = &m->integs[m->ninteg];
	struct integrow		*r = &ii->i;
	int			 nerr = m->nerr;
	char			*n;
	long			 t;

	r->key = imp_slug(m, o, pre, &f[IN_KEY]);
	/* The tool filter accepts every integration's tool_key, so it must
	 * name a tool (its key or a legacy alias). */
	if ((r->tool_key = imp_text(m, o, pre, &f[IN_TOOL_KEY])) != NULL) {
		n = search_tool_name(r->tool_key);
		t = n && strcmp(n, r->tool_key) == 0 ?
		    imp_tool_find(m, n, 1) : -1;
		free(n);
		if (t < 0)
			imp_bad(m, pre, "'tool_key' must be a tool key or "
			    "alias: '%s'", r->tool_key);
		else
			ii->tool = (size_t)t;
	}
	r->name = imp_text(m, o, pre, &f[IN_NAME]);
	r->vendor = imp_text(m, o, pre, &f[IN_VENDOR]);
	r->category = imp_oneof(m, o, pre, &f[IN_CATEGORY],
	    val_integration_categories);
	r->generator_kind = imp_oneof(m, o, pre, &f[IN_GENERATOR_KIND],
	    val_generator_kinds);
	r->generator_url = imp_url(m, o, pre, &f[IN_GENERATOR_URL]);
	if (m->nerr == nerr)
		m->ninteg++;
}

void
imp_load_integrations(struct import *m, const json_t *arr)
{
	m->integs = xcalloc(json_array_size(arr) + 1, sizeof(*m->integs));
	imp_list(m, arr, "integrations", integration_fields, IN__MAX,
	    load_integration, NULL);
	imp_unique(m, "integrations", m->ninteg, integ_key_of);
}

enum { TU_SLUG, TU_TITLE, TU_SUMMARY, TU_MARKDOWN, TU_SOURCE_URL,
    TU_PUBLISHED_AT, TU_UPDATED_AT, TU__MAX };

static const struct lz_jfield tutorial_fields[TU__MAX] = {
	[TU_SLUG] =		{ "slug", S, REQ, 1, SLUG_LEN },
	[TU_TITLE] =		{ "title", S, REQ, 0, 200 },
	[TU_SUMMARY] =		{ "summary", S, REQ | ML, 0, 2000 },
	[TU_MARKDOWN] =		{ "markdown", S, REQ | ML, 0, 200000 },
	[TU_SOURCE_URL] =	{ "source_url", S, REQ, 0, URL_LEN },
	[TU_PUBLISHED_AT] =	{ "published_at", S, REQ, 0, TIME_LEN },
	[TU_UPDATED_AT] =	{ "updated_at", S, REQ, 0, TIME_LEN },
};

static const char *
tut_slug_of(struct import *m, size_t i)
{
	return m->tuts[i].t.slug;
}

static void
load_tutorial(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = tutorial_fields;
	const char		*pre = at->path;
	struct itut		*it = &m->tuts[m->ntuts];
	struct tutrow		*t = &it->t;
	struct lz_buf		 b = LZ_BUF_INIT;
	int			 nerr = m->nerr;

	t->slug = imp_slug(m, o, pre, &f[TU_SLUG]);
	t->title = imp_text(m, o, pre, &f[TU_TITLE]);
	t->summary = imp_text(m, o, pre, &f[TU_SUMMARY]);
	t->markdown = imp_text(m, o, pre, &f[TU_MARKDOWN]);
	t->source_url = imp_url(m, o, pre, &f[TU_SOURCE_URL]);
	t->published_at = imp_time(m, o, pre, &f[TU_PUBLISHED_AT]);
	t->updated_at = imp_time(m, o, pre, &f[TU_UPDATED_AT]);
	if (m->nerr != nerr)
		return;
	search_field(&b, t->title);
	search_field(&b, t->summary);
	search_field(&b, t->markdown);
	it->search = lz_buf_detach(&b);
	m->ntuts++;
}

void
imp_load_tutorials(struct import *m, const json_t *arr)
{
	m->tuts = xcalloc(json_array_size(arr) + 1, sizeof(*m->tuts));
	imp_list(m, arr, "tutorials", tutorial_fields, TU__MAX,
	    load_tutorial, NULL);
	imp_unique(m, "tutorials", m->ntuts, tut_slug_of);
}

enum { KW_SLUG, KW_TERM, KW_TERM_EN, KW_CATEGORY, KW_DEFINITION,
    KW_WHEN_TO_USE, KW_HOW_TO_ASK, KW_GOTCHA, KW_RELATED, KW_TAGS,
    KW_UPDATED_AT, KW__MAX };

static const struct lz_jfield keyword_fields[KW__MAX] = {
	[KW_SLUG] =		{ "slug", S, REQ, 1, SLUG_LEN },
	[KW_TERM] =		{ "term", S, REQ, 0, 100 },
	[KW_TERM_EN] =		{ "term_en", S, REQ, 0, 100 },
	[KW_CATEGORY] =		{ "category", S, REQ, 0, SLUG_LEN },
	[KW_DEFINITION] =	{ "definition", S, REQ | ML, 0, 4000 },
	[KW_WHEN_TO_USE] =	{ "when_to_use", S, REQ | ML, 0, 4000 },
	[KW_HOW_TO_ASK] =	{ "how_to_ask", S, REQ | ML, 0, 4000 },
	[KW_GOTCHA] =		{ "gotcha", S, REQ | ML, 0, 4000 },
	[KW_RELATED] =		{ "related", A, 0, 0, 20 },
	[KW_TAGS] =		{ "tags", A, 0, 0, 20 },
	[KW_UPDATED_AT] =	{ "updated_at", S, REQ, 0, TIME_LEN },
};

static const char *
kw_slug_of(struct import *m, size_t i)
{
	return m->kws[i].k.slug;
}

static void
load_keyword(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct lz_jfield	*f = keyword_fields;
	const char		*pre = at->path;
	struct ikw		*ik = &m->kws[m->nkws];
	struct kwrow		*k = &ik->k;
	struct lz_buf		 b = LZ_BUF_INIT;
	int			 nerr = m->nerr;

	k->slug = imp_slug(m, o, pre, &f[KW_SLUG]);
	k->term = imp_text(m, o, pre, &f[KW_TERM]);
	k->term_en = imp_text(m, o, pre, &f[KW_TERM_EN]);
	k->category = imp_oneof(m, o, pre, &f[KW_CATEGORY],
	    val_keyword_categories);
	k->definition = imp_text(m, o, pre, &f[KW_DEFINITION]);
	k->when_to_use = imp_text(m, o, pre, &f[KW_WHEN_TO_USE]);
	k->how_to_ask = imp_text(m, o, pre, &f[KW_HOW_TO_ASK]);
	k->gotcha = imp_text(m, o, pre, &f[KW_GOTCHA]);
	ik->related = imp_strings(m, o, pre, &f[KW_RELATED]);
	ik->tags = imp_strings(m, o, pre, &f[KW_TAGS]);
	k->updated_at = imp_time(m, o, pre, &f[KW_UPDATED_AT]);
	if (m->nerr != nerr)
		return;
	search_field(&b, k->term);
	search_field(&b, k->term_en);
	search_field(&b, k->definition);
	ik->search = lz_buf_detach(&b);
	m->nkws++;
}

/* A keyword's references, now that every slug is known. */
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

void
imp_load_keywords(struct import *m, const json_t *arr)
{
	size_t	 i;

	m->kws = xcalloc(json_array_size(arr) + 1, sizeof(*m->kws));
	imp_list(m, arr, "keywords", keyword_fields, KW__MAX, load_keyword,
	    NULL);
	imp_unique(m, "keywords", m->nkws, kw_slug_of);
	for (i = 0; i < m->nkws; i++)
		keyword_refs(m, i);
}
