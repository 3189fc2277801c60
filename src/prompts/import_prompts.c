/*
 * import_prompts.c -- the prompts of the data file (import_load.h): their
 * field table and reader, with its checks of what the table cannot say
 * (status and publish_at, tools and tags by reference, variables, the
 * rating), their previews and search text.
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
#include "import_load.h"

#define PREVIEW_MAX	160	/* characters of a PRO entry's preview */

/* Where the rows' values go: offsets in a prompt's record. */
#define PR(m)	offsetof(struct iprompt, m)

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

	p->slug = imp_slug_path(m, o, at, &f[PR_SLUG].f, pre, sizeof(pre));
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
	imp_read_fields(m, o, pre, f, PR_TITLE, PR_VARIABLES, ip);
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


const struct records imp_prompts_list = {
	"prompts", TABLE(prompt_fields), 0, 1, read_prompt, prompts_after
};
