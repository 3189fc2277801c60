/*
 * import_load.c -- the loaders of the prompt library's data file, one
 * per list, each with its field table: the whole contract of an object
 * (names, types, presence, bounds) in its rows (import_check.h).
 */
#include "config.h"

#include <stddef.h>
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

/*
 * A row of a list's field table: the field (what lz_json_fields checks),
 * how its value is read and where it goes in the loader's record, so
 * that read_fields reads a record from its rows.  The rows are in the
 * order the values are read and reported.
 */
enum { V_OWN, V_TEXT, V_SLUG, V_ONEOF, V_URL, V_DATE, V_TIME, V_STRINGS };
#define V_KIND		0x0f
#define V_SEARCH	0x10	/* in the entry's search text */

struct ifield {
	struct lz_jfield	 f;
	unsigned		 how;	/* V_*: V_OWN, the loader reads it */
	size_t			 off;	/* of the value in the record */
	const char *const	*set;	/* V_ONEOF: the values */
};

#define FIELDS_MAX	32	/* rows of a list's field table */

/* The first row of every list: its key, a slug unique in the list. */
#define KEY(name, off)	{ { (name), S, REQ, 1, SLUG_LEN }, V_SLUG, (off) }

/*
 * The rows i and i_EN of a text and its English translation, which may
 * be absent and is bounded as the text is (lz-prompts-data(5)); at(m)
 * is where member m of the record is.
 */
#define TEXT_EN(i, name, flags, max, at, m)				\
	[i] = { { name, S, REQ | (flags), 0, (max) }, V_TEXT, at(m) },	\
	[i##_EN] = { { name "_en", SN, (flags), 0, (max) }, V_TEXT,	\
	    at(m##_en) }

/* Where the rows' values go: offsets in the records of each list. */
#define TL(m)	offsetof(struct itool, m)
#define TG(m)	offsetof(struct itag, m)
#define PR(m)	offsetof(struct iprompt, m)
#define CO(m)	offsetof(struct icoll, m)
#define MO(m)	offsetof(struct imodel, m)
#define IN(m)	offsetof(struct iinteg, m)
#define TU(m)	offsetof(struct itut, m)
#define KW(m)	offsetof(struct ikw, m)

/* Reads the values of rows [from, to) of fl from o into rec. */
static void
read_fields(struct import *m, const json_t *o, const char *pre,
    const struct ifield *fl, size_t from, size_t to, void *rec)
{
	const struct lz_jfield	*f;
	void			*p;
	size_t			 i;

	for (i = from; i < to; i++) {
		f = &fl[i].f;
		p = (char *)rec + fl[i].off;
		switch (fl[i].how & V_KIND) {
		case V_TEXT:
			*(const char **)p = imp_text(m, o, pre, f);
			break;
		case V_SLUG:
			*(const char **)p = imp_slug(m, o, pre, f);
			break;
		case V_ONEOF:
			*(const char **)p = imp_oneof(m, o, pre, f, fl[i].set);
			break;
		case V_URL:
			*(const char **)p = imp_url(m, o, pre, f);
			break;
		case V_DATE:
			*(const char **)p = imp_date(m, o, pre, f);
			break;
		case V_TIME:
			*(int64_t *)p = imp_time(m, o, pre, f);
			break;
		case V_STRINGS:
			*(json_t **)p = imp_strings(m, o, pre, f);
			break;
		}
	}
}

/* What literal search may find of rec: its V_SEARCH texts, in order. */
static char *
search_text(const struct ifield *fl, size_t n, const void *rec)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	size_t		 i;

	for (i = 0; i < n; i++)
		if (fl[i].how & V_SEARCH)
			search_field(&b, *(const char *const *)(const void *)
			    ((const char *)rec + fl[i].off));
	return lz_buf_detach(&b);
}

/*
 * A list of the file whose objects are records (struct itool, struct
 * imodel, ...), each read from the rows of the list's field table: by
 * read, when the list has checks of its own, else by read_fields.  A
 * record with errors is dropped, unless the list keeps it (its key
 * read) so that references to it add no errors of their own.  The
 * records' keys must be unique in the list.
 */
struct records {
	const char		*name;		/* "models" */
	const struct ifield	*fields;	/* the key first */
	size_t			 nfields;
	size_t			 search;	/* of its search text, or 0 */
	int			 faulty;	/* keeps records with errors */
	/* Reads o into rec; 0 drops the record. */
	int			(*read)(struct import *, const json_t *o,
				    const struct imp_at *, void *rec);
	/* The list's checks once all of it is read (NULL: none). */
	void			(*after)(struct import *);
};

/* A list being loaded (imp_list's arg), and the one imp_unique checks
 * (its callback has no argument of its own). */
struct loading {
	const struct records	*r;
	char			*base;		/* the records */
	size_t			 size;		/* of one */
	size_t			*n;		/* kept so far */
};

static const struct loading *unique_ctx;

static void
load_record(struct import *m, const json_t *o, const struct imp_at *at)
{
	const struct loading	*l = at->arg;
	const struct records	*r = l->r;
	char			*rec = l->base + *l->n * l->size;
	int			 nerr = m->nerr;

	if (r->read != NULL) {
		if (!r->read(m, o, at, rec))
			return;
	} else
		read_fields(m, o, at->path, r->fields, 0, r->nfields, rec);
	if (m->nerr != nerr && !r->faulty)
		return;
	if (r->search != 0)
		*(char **)(void *)(rec + r->search) = search_text(r->fields,
		    r->nfields, rec);
	(*l->n)++;
}

static const char *
record_key(struct import *m, size_t i)
{
	const struct loading	*l = unique_ctx;

	(void)m;
	return *(const char **)(void *)(l->base + i * l->size +
	    l->r->fields[0].off);
}

/* The records of size bytes of the list arr, described by r; *n of
 * them are kept. */
static void *
load_records(struct import *m, const json_t *arr, const struct records *r,
    size_t size, size_t *n)
{
	struct lz_jfield	 f[FIELDS_MAX];
	struct loading		 l;
	size_t			 i;

	if (r->nfields > FIELDS_MAX)
		abort();
	for (i = 0; i < r->nfields; i++)
		f[i] = r->fields[i].f;
	l.r = r;
	l.base = xcalloc(json_array_size(arr) + 1, size);
	l.size = size;
	l.n = n;
	imp_list(m, arr, r->name, f, r->nfields, load_record, &l);
	unique_ctx = &l;
	imp_unique(m, r->name, *n, record_key);
	unique_ctx = NULL;
	return l.base;
}

/* The slug of o, and its path with it ("prompts[3] (slug)") in pre once
 * known, so that what is reported after names the entry. */
static const char *
slug_path(struct import *m, const json_t *o, const struct imp_at *at,
    const struct lz_jfield *f, char *pre, size_t len)
{
	const char	*slug;

	snprintf(pre, len, "%s", at->path);
	if ((slug = imp_slug(m, o, pre, f)) != NULL)
		snprintf(pre, len, "%s (%s)", at->path, slug);
	return slug;
}

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

	read_fields(m, o, at->path, tool_fields, 0, TL__MAX, t);
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

	read_fields(m, o, pre, tag_fields, 0, TG__MAX, t);
	if (t->t.slug == NULL || t->t.label == NULL)
		return 0;
	tag_name(m, pre, t->t.slug, m->ntags);
	tag_name(m, pre, t->t.label, m->ntags);
	tag_name(m, pre, t->t.label_en, m->ntags);
	json_array_foreach(t->aliases, k, v)
		tag_name(m, pre, json_string_value(v), m->ntags);
	return 1;
}

/* ---- prompts ------------------------------------------------------------ */

enum { PR_SLUG, PR_STATUS, PR_PUBLISH_AT, PR_IS_PRO, PR_CATEGORY, PR_TOOL,
    PR_DIFFICULTY, PR_TAGS, PR_RANK, PR_TITLE, PR_TITLE_EN, PR_SUMMARY,
    PR_SUMMARY_EN, PR_CONTEXT, PR_CONTEXT_EN, PR_FULL_PROMPT,
    PR_FULL_PROMPT_EN, PR_SAMPLE_OUTPUT, PR_SAMPLE_OUTPUT_EN, PR_VARIABLES,
    PR_RATING, PR_UPDATED_AT, PR__MAX };

static const struct ifield prompt_fields[PR__MAX] = {
	[PR_SLUG] =		KEY("slug", PR(p.slug)),
	[PR_STATUS] =		{ { "status", S, REQ, 0, SLUG_LEN } },
	[PR_PUBLISH_AT] =	{ { "publish_at", SN, 0, 0, TIME_LEN } },
	[PR_IS_PRO] =		{ { "is_pro", LZ_JT_BOOL, 0 } },
	[PR_CATEGORY] =		{ { "category", S, REQ, 0, SLUG_LEN } },
	[PR_TOOL] =		{ { "tool", S, REQ, 0, SLUG_LEN } },
	[PR_DIFFICULTY] =	{ { "difficulty", S, REQ, 0, SLUG_LEN } },
	[PR_TAGS] =		{ { "tags", A, 0, 0, 20 } },
	[PR_RANK] =		{ { "rank", LZ_JT_INTEGER, 0, 0, 1000000 } },
	TEXT_EN(PR_TITLE, "title", 0, 200, PR, p.title),
	TEXT_EN(PR_SUMMARY, "summary", 0, 1000, PR, p.summary),
	TEXT_EN(PR_CONTEXT, "context", ML, 4000, PR, p.context),
	TEXT_EN(PR_FULL_PROMPT, "full_prompt", ML, 20000, PR, p.full_prompt),
	TEXT_EN(PR_SAMPLE_OUTPUT, "sample_output", ML, 20000, PR,
	    p.sample_output),
	[PR_VARIABLES] =	{ { "variables", A, 0, 0, 50 } },
	[PR_RATING] =		{ { "rating", LZ_JT_OBJECT | LZ_JT_NULL, 0 } },
	[PR_UPDATED_AT] =	{ { "updated_at", S, REQ, 0, TIME_LEN } },
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

	vs.arr = json_object_get(o, prompt_fields[PR_VARIABLES].f.name);
	ip->variables = vs.arr;
	if (vs.arr == NULL) {
		ip->vars_json = xstrdup("[]");	/* free entries show [] */
		return;
	}
	if (json_array_size(vs.arr) >
	    (size_t)prompt_fields[PR_VARIABLES].f.max) {
		imp_bad(m, pre, "'variables' has more than %lld entries",
		    prompt_fields[PR_VARIABLES].f.max);
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

	arr = imp_strings(m, o, pre, &prompt_fields[PR_TAGS].f);
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

	rating = json_object_get(o, prompt_fields[PR_RATING].f.name);
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

static int
read_prompt(struct import *m, const json_t *o, const struct imp_at *at,
    void *rec)
{
	const struct ifield	*f = prompt_fields;
	struct iprompt		*ip = rec;
	struct pprompt		*p = &ip->p;
	const char		*s;
	char			 pre[64];
	int			 nerr = m->nerr;
	int64_t			 publish_at;
	long			 t;

	p->slug = slug_path(m, o, at, &f[PR_SLUG].f, pre, sizeof(pre));
	ip->status = (enum status)val_index(statuses, imp_oneof(m, o, pre,
	    &f[PR_STATUS].f, statuses));
	publish_at = imp_time(m, o, pre, &f[PR_PUBLISH_AT].f);
	if (ip->status == S_SCHEDULED && publish_at == 0)
		imp_bad(m, pre, "a scheduled prompt needs 'publish_at'");
	if (ip->status != S_SCHEDULED && publish_at != 0)
		imp_bad(m, pre, "'publish_at' is for scheduled prompts only");
	p->visible_at = ip->status == S_SCHEDULED ? publish_at : 0;
	p->is_pro = json_is_true(json_object_get(o, f[PR_IS_PRO].f.name));
	p->category = imp_oneof(m, o, pre, &f[PR_CATEGORY].f,
	    val_prompt_categories);
	if ((s = imp_text(m, o, pre, &f[PR_TOOL].f)) != NULL) {
		if ((t = imp_tool_find(m, s, 0)) < 0)
			imp_bad(m, pre, "no tool has the key '%s'", s);
		else
			ip->tool = (size_t)t;
	}
	p->difficulty = imp_oneof(m, o, pre, &f[PR_DIFFICULTY].f,
	    val_difficulties);
	load_prompt_tags(m, ip, o, pre);
	ip->rank = imp_integer(m, o, pre, &f[PR_RANK].f, 0);
	read_fields(m, o, pre, f, PR_TITLE, PR_VARIABLES, ip);
	load_variables(m, ip, o, pre);
	load_rating(m, p, o, pre);
	p->updated_at = imp_time(m, o, pre, &f[PR_UPDATED_AT].f);
	if (p->slug == NULL) {
		free(ip->tags);
		free(ip->tags_json);
		free(ip->vars_json);
		memset(ip, 0, sizeof(*ip));
		return 0;
	}
	/* A prompt with errors is still kept with its slug, so references
	 * to it do not add errors of their own. */
	if (m->nerr != nerr)
		return 1;
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
	return 1;
}

static void
prompts_after(struct import *m)
{
	m->stored_prompts = m->nprompts - m->drafts;
	imp_prompts_sort(m);
}

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

	c->slug = slug_path(m, o, at, &f[CO_SLUG].f, pre, sizeof(pre));
	ic->published = strcmp(imp_oneof(m, o, pre, &f[CO_STATUS].f,
	    cstatuses), "published") == 0;
	read_fields(m, o, pre, f, CO_TITLE, CO_UNLOCK_COST, ic);
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
	if (c->slug == NULL)
		return 0;
	if (ic->published) {
		m->stored_colls++;
		for (k = 0; k < ic->nitems; k++)
			if (m->prompts[ic->items[k].prompt].status == S_DRAFT)
				m->dropped_items++;
	}
	return 1;
}

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

	read_fields(m, o, pre, model_fields, 0, MO_STATUS, im);
	if (strcmp(r->verification, "verified") == 0 &&
	    *r->verified_on == '\0')
		imp_bad(m, pre, "a verified model needs 'verified_on'");
	if (strcmp(r->verification, "verified") != 0 &&
	    *r->verified_on != '\0')
		imp_bad(m, pre, "'verified_on' is for verified models only");
	read_fields(m, o, pre, model_fields, MO_STATUS, MO_GENERATOR_URL, im);
	if (r->tool_key != NULL && imp_tool_find(m, r->tool_key, 0) < 0)
		imp_bad(m, pre, "no tool has the key '%s'", r->tool_key);
	if (r->tool_key == NULL)
		r->tool_key = "";
	read_fields(m, o, pre, model_fields, MO_GENERATOR_URL, MO__MAX, im);
	if (r->version == NULL)
		r->version = "";
	return 1;
}

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

	read_fields(m, o, at->path, integration_fields, 0, IN_NAME, ii);
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
	read_fields(m, o, at->path, integration_fields, IN_NAME, IN__MAX, ii);
	return 1;
}

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

/* ---- the lists ---------------------------------------------------------- */

/* The lists of the file, in its order (import.c). */
enum { L_TOOLS, L_TAGS, L_PROMPTS, L_COLLECTIONS, L_MODELS, L_INTEGRATIONS,
    L_TUTORIALS, L_KEYWORDS, L__MAX };

#define TABLE(f)	(f), LZ_NELEM(f)

static const struct records lists[L__MAX] = {
	[L_TOOLS] =		{ "tools", TABLE(tool_fields), 0, 1, read_tool,
				  tools_after },
	[L_TAGS] =		{ "tags", TABLE(tag_fields), 0, 1, read_tag,
				  tags_after },
	[L_PROMPTS] =		{ "prompts", TABLE(prompt_fields), 0, 1,
				  read_prompt, prompts_after },
	[L_COLLECTIONS] =	{ "collections", TABLE(collection_fields), 0, 1,
				  read_collection, NULL },
	[L_MODELS] =		{ "models", TABLE(model_fields), MO(search), 0,
				  read_model, NULL },
	[L_INTEGRATIONS] =	{ "integrations", TABLE(integration_fields), 0,
				  0, read_integration, NULL },
	[L_TUTORIALS] =		{ "tutorials", TABLE(tutorial_fields),
				  TU(search), 0, NULL, NULL },
	[L_KEYWORDS] =		{ "keywords", TABLE(keyword_fields),
				  KW(search), 0, NULL, keywords_after },
};

/*
 * The loaders import.c calls (import_check.h), one per list.  They
 * differ only in the members of struct import that hold the list's
 * records, typed arrays no one function can store.
 */
#define LOADER(fn, l, array, count)					\
	void								\
	fn(struct import *m, const json_t *arr)				\
	{								\
		m->array = load_records(m, arr, &lists[l],		\
		    sizeof(*m->array), &m->count);			\
		if (lists[l].after != NULL)				\
			lists[l].after(m);				\
	}

LOADER(imp_load_tools, L_TOOLS, tools, ntools)
LOADER(imp_load_tags, L_TAGS, tags, ntags)
LOADER(imp_load_prompts, L_PROMPTS, prompts, nprompts)
LOADER(imp_load_collections, L_COLLECTIONS, colls, ncolls)
LOADER(imp_load_models, L_MODELS, models, nmodels)
LOADER(imp_load_integrations, L_INTEGRATIONS, integs, ninteg)
LOADER(imp_load_tutorials, L_TUTORIALS, tuts, ntuts)
LOADER(imp_load_keywords, L_KEYWORDS, kws, nkws)
