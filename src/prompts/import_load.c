/*
 * import.c -- reading, checking and storing the prompt data file.
 *
 * The whole file is checked before anything is written: every object
 * against its field table (lz_json_fields: unknown keys, types, required
 * fields), then its values (formats, bounds, closed sets), then the
 * references between objects (tools, tags, prompts, keywords).  Problems
 * are reported with their JSON path and do not stop the check, so one
 * run lists them all.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "db.h"
#include "import.h"
#include "jbody.h"
#include "lztime.h"
#include "prompts.h"
#include "req.h"
#include "resp.h"
#include "grams.h"
#include "search.h"
#include "pstore.h"
#include "utf8.h"
#include "util.h"
#include "values.h"

#define FORMAT		"lz-prompts/1"
#define PREVIEW_MAX	160		/* characters of the preview */

/* Flags of text fields. */
#define T_REQ		0x01		/* present and not empty */
#define T_ML		0x02		/* line breaks and tabs allowed */

enum status { ST_PUBLISHED, ST_DRAFT, ST_SCHEDULED };

struct itool {
	struct ptool	 t;
	json_t		*aliases;
	int64_t		 id;
};

struct itag {
	struct ptag	 t;
	json_t		*aliases;
	int64_t		 id;
};

struct iprompt {
	struct pprompt	 p;		/* ids filled when written */
	enum status	 status;
	long long	 rank;
	size_t		 tool;		/* index in tools[] */
	size_t		*tags;		/* indexes in tags[] */
	size_t		 ntags;
	json_t		*variables;	/* as given */
	char		*tags_json, *vars_json, *preview, *preview_en;
	char		*search;
};

struct iitem {
	size_t		 prompt;	/* index in prompts[] */
	const char	*note, *note_en;
};

struct icoll {
	struct pcoll	 c;
	int		 published;
	struct iitem	*items;
	size_t		 nitems;
};

struct imodel {
	struct modelrow	 m;
	char		*search;
};

struct iinteg {
	struct integrow	 i;
	size_t		 tool;
};

struct itut {
	struct tutrow	 t;
	char		*search;
};

struct ikw {
	struct kwrow	 k;
	json_t		*related, *tags;
	char		*related_json, *tags_json, *search;
};

struct import {
	const char	*file;
	FILE		*errs;
	int		 nerr;
	int64_t		 now;
	json_t		*root;

	struct itool	*tools;
	size_t		 ntools;
	struct itag	*tags;
	size_t		 ntags;
	struct iprompt	*prompts;
	size_t		 nprompts;
	struct icoll	*colls;
	size_t		 ncolls;
	struct imodel	*models;
	size_t		 nmodels;
	struct iinteg	*integs;
	size_t		 ninteg;
	struct itut	*tuts;
	size_t		 ntuts;
	struct ikw	*kws;
	size_t		 nkws;

	/* Sorted views for look-ups by slug or name. */
	size_t		*prompt_by_slug;
	/* Names the tool and tag filters accept, with their owner. */
	struct name	*toolnames, *tagnames;
	size_t		 ntoolnames, ntagnames;

	/* What the build stored and left out. */
	size_t		 stored_prompts, drafts, scheduled, due;
	size_t		 stored_colls, dropped_items;
};

struct name {
	char		*name;
	size_t		 owner;
};

static void
bad(struct import *m, const char *path, const char *fmt, ...)
    LZ_PRINTF(3, 4);

static void
bad(struct import *m, const char *path, const char *fmt, ...)
{
	va_list	 ap;

	if (++m->nerr > 200) {
		if (m->nerr == 201)
			fprintf(m->errs, "%s: too many errors; stopping the "
			    "list here\n", m->file);
		return;
	}
	fprintf(m->errs, "%s: %s: ", m->file, path);
	va_start(ap, fmt);
	vfprintf(m->errs, fmt, ap);
	va_end(ap);
	fputc('\n', m->errs);
}

/* Checks obj against its field table; reports and returns -1 if not. */
static int
fields(struct import *m, const json_t *obj, const struct lz_jfield *f,
    size_t n, const char *prefix)
{
	struct lz_verr	 e;

	if (lz_json_fields(obj, f, n, prefix, &e) == -1) {
		bad(m, e.param, "%s", e.msg);
		return -1;
	}
	return 0;
}

/* Characters of s, or -1 when it holds control characters (other than
 * line breaks and tabs when ml). */
static long
text_chars(const char *s, int ml)
{
	char	*tmp, *p;
	long	 n;

	if (!ml)
		return lz_utf8_count(s, strlen(s), LZ_UTF8_NOCTRL);
	tmp = xstrdup(s);
	for (p = tmp; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	n = lz_utf8_count(tmp, strlen(tmp), LZ_UTF8_NOCTRL);
	free(tmp);
	return n;
}

/*
 * A text field: NULL when absent, null or "" (an error with T_REQ);
 * otherwise checked for controls and length (in characters).
 */
static const char *
text(struct import *m, const json_t *o, const char *pre, const char *key,
    unsigned fl, long maxc)
{
	json_t		*v = json_object_get(o, key);
	const char	*s;
	long		 n;

	if (v == NULL || json_is_null(v) || !json_is_string(v) ||
	    json_string_length(v) == 0) {
		if (fl & T_REQ)
			bad(m, pre, "'%s' is required and must not be empty",
			    key);
		return NULL;
	}
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v)) {
		bad(m, pre, "'%s' contains a NUL character", key);
		return NULL;
	}
	if ((n = text_chars(s, fl & T_ML)) < 0) {
		bad(m, pre, "'%s' contains control characters%s", key,
		    fl & T_ML ? "" : " or line breaks");
		return NULL;
	}
	if (n > maxc) {
		bad(m, pre, "'%s' is longer than %ld characters", key, maxc);
		return NULL;
	}
	return s;
}

static const char *
slug(struct import *m, const json_t *o, const char *pre, const char *key,
    unsigned fl)
{
	const char	*s = text(m, o, pre, key, fl, 100);

	if (s != NULL && !val_slug_ok(s)) {
		bad(m, pre, "'%s' must be 1 to 100 of a-z, 0-9 and '-': '%s'",
		    key, s);
		return NULL;
	}
	return s;
}

static const char *
oneof(struct import *m, const json_t *o, const char *pre, const char *key,
    const char *const *set, const char *def)
{
	const char	*s = text(m, o, pre, key, def ? 0 : T_REQ, 100);
	struct lz_buf	 b = LZ_BUF_INIT;
	size_t		 i;

	if (s == NULL)
		return def ? def : set[0];
	if (val_index(set, s) >= 0)
		return s;
	for (i = 0; set[i] != NULL; i++)
		lz_buf_printf(&b, "%s%s", i ? ", " : "", set[i]);
	bad(m, pre, "'%s' must be one of %s, not '%s'", key, lz_buf_str(&b),
	    s);
	lz_buf_free(&b);
	return def ? def : set[0];
}

/* An http(s) URL with a host, as libcurl parses it; "" when absent. */
static const char *
url(struct import *m, const json_t *o, const char *pre, const char *key,
    unsigned fl)
{
	const char	*s = text(m, o, pre, key, fl, 2000);
	CURLU		*u;
	char		*scheme = NULL, *host = NULL;
	int		 ok;

	if (s == NULL)
		return "";
	if ((u = curl_url()) == NULL)
		abort();
	ok = strpbrk(s, " \"<>\\^`{|}") == NULL &&
	    curl_url_set(u, CURLUPART_URL, s, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0) &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    *host != '\0';
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	if (!ok) {
		bad(m, pre, "'%s' must be an http or https URL: '%s'", key, s);
		return "";
	}
	return s;
}

/* An ISO 8601 time with an offset; 0 when absent (an error if req). */
static int64_t
timef(struct import *m, const json_t *o, const char *pre, const char *key,
    int req)
{
	const char	*s = text(m, o, pre, key, req ? T_REQ : 0, 40);
	int64_t		 ms;

	if (s == NULL)
		return 0;
	if (lz_time_parse_iso(s, &ms) == -1) {
		bad(m, pre, "'%s' must be an ISO 8601 time with a time zone, "
		    "such as 2026-05-01T09:30:00+08:00: '%s'", key, s);
		return 0;
	}
	return ms;
}

/* A YYYY-MM-DD date; "" when absent. */
static const char *
datef(struct import *m, const json_t *o, const char *pre, const char *key,
    int req)
{
	const char	*s = text(m, o, pre, key, req ? T_REQ : 0, 10);
	char		 tmp[32];
	int64_t		 ms;

	if (s == NULL)
		return "";
	snprintf(tmp, sizeof(tmp), "%sT00:00:00Z", s);
	if (strlen(s) != 10 || lz_time_parse_iso(tmp, &ms) == -1) {
		bad(m, pre, "'%s' must be a date YYYY-MM-DD: '%s'", key, s);
		return "";
	}
	return s;
}

static long long
integer(struct import *m, const json_t *o, const char *pre, const char *key,
    long long min, long long max, long long def)
{
	json_t		*v = json_object_get(o, key);
	long long	 n;

	if (v == NULL || json_is_null(v))
		return def;
	n = json_integer_value(v);
	if (n < min || n > max) {
		bad(m, pre, "'%s' must be from %lld to %lld", key, min, max);
		return def;
	}
	return n;
}

/* The elements of an optional array of strings, each checked by fn. */
static json_t *
strings(struct import *m, const json_t *o, const char *pre, const char *key,
    size_t max)
{
	json_t	*a = json_object_get(o, key), *v;
	size_t	 i;

	if (a == NULL || json_is_null(a))
		return NULL;
	if (json_array_size(a) > max) {
		bad(m, pre, "'%s' has more than %zu entries", key, max);
		return NULL;
	}
	json_array_foreach(a, i, v)
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    strlen(json_string_value(v)) != json_string_length(v) ||
		    text_chars(json_string_value(v), 0) < 0) {
			bad(m, pre, "'%s[%zu]' must be a non-empty string "
			    "without control characters", key, i);
			return NULL;
		}
	return a;
}

/* ---- look-ups ----------------------------------------------------------- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct name *)a)->name,
	    ((const struct name *)b)->name);
}

static const struct name *
name_find(const struct name *v, size_t n, const char *s)
{
	struct name	 key;

	key.name = (char *)(uintptr_t)s;
	return n ? bsearch(&key, v, n, sizeof(*v), name_cmp) : NULL;
}

static void
name_add(struct name **v, size_t *n, char *s, size_t owner)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[*n].name = s;
	(*v)[(*n)++].owner = owner;
}

/*
 * Sorts names and reports a name given to two different owners; the same
 * owner may name itself twice (a label equal to its slug).
 */
static void
names_check(struct import *m, struct name *v, size_t *n, const char *what,
    const char *(*label)(struct import *, size_t))
{
	size_t	 i, o;

	if (*n > 1)
		qsort(v, *n, sizeof(*v), name_cmp);
	for (i = 0, o = 0; i < *n; i++) {
		if (o > 0 && strcmp(v[o - 1].name, v[i].name) == 0) {
			if (v[o - 1].owner != v[i].owner)
				bad(m, what, "the name '%s' stands for both "
				    "'%s' and '%s'", v[i].name,
				    label(m, v[o - 1].owner),
				    label(m, v[i].owner));
			free(v[i].name);
			continue;
		}
		v[o++] = v[i];
	}
	*n = o;
}

static const char *
tool_label(struct import *m, size_t i)
{
	return m->tools[i].t.key;
}

static const char *
tag_label(struct import *m, size_t i)
{
	return m->tags[i].t.slug;
}

static struct import *slug_ctx;	/* for the qsort comparators below */

static int
prompt_slug_cmp(const void *a, const void *b)
{
	return strcmp(slug_ctx->prompts[*(const size_t *)a].p.slug,
	    slug_ctx->prompts[*(const size_t *)b].p.slug);
}

/* The index of the prompt called s, or -1. */
static long
prompt_find(struct import *m, const char *s)
{
	size_t	 lo = 0, hi = m->nprompts, mid;
	int	 c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(s, m->prompts[m->prompt_by_slug[mid]].p.slug);
		if (c == 0)
			return (long)m->prompt_by_slug[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* The index of the tool with key s (or, with aliases, named s), or -1. */
static long
tool_find(struct import *m, const char *s, int aliases)
{
	const struct name	*n;
	size_t			 i;

	if (!aliases) {
		for (i = 0; i < m->ntools; i++)
			if (strcmp(m->tools[i].t.key, s) == 0)
				return (long)i;
		return -1;
	}
	n = name_find(m->toolnames, m->ntoolnames, s);
	return n ? (long)n->owner : -1;
}

static long
tag_find(struct import *m, const char *s)
{
	size_t	 i;

	for (i = 0; i < m->ntags; i++)
		if (strcmp(m->tags[i].t.slug, s) == 0)
			return (long)i;
	return -1;
}

/* Reports slugs used twice in a list of n objects. */
static void
unique(struct import *m, const char *list, size_t n,
    const char *(*slugof)(struct import *, size_t))
{
	struct name	*v = NULL;
	size_t		 nv = 0, i;

	for (i = 0; i < n; i++)
		if (slugof(m, i) != NULL)
			name_add(&v, &nv, (char *)(uintptr_t)slugof(m, i), i);
	if (nv > 1)
		qsort(v, nv, sizeof(*v), name_cmp);
	for (i = 1; i < nv; i++)
		if (strcmp(v[i - 1].name, v[i].name) == 0)
			bad(m, list, "'%s' is used by two entries (%zu and "
			    "%zu)", v[i].name, v[i - 1].owner, v[i].owner);
	free(v);
}

/* ---- tools and tags ----------------------------------------------------- */

static const struct lz_jfield tool_fields[] = {
	{ "key", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "label", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "label_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "medium", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "description", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "description_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "aliases", LZ_JT_ARRAY | LZ_JT_NULL, 0 },
};

static const char *
tool_key_of(struct import *m, size_t i)
{
	return m->tools[i].t.key;
}

static void
load_tools(struct import *m, json_t *arr)
{
	json_t		*o, *v;
	char		 pre[64], *n;
	size_t		 i, k;

	m->tools = xcalloc(json_array_size(arr) + 1, sizeof(*m->tools));
	json_array_foreach(arr, i, o) {
		struct itool	*t = &m->tools[m->ntools];

		snprintf(pre, sizeof(pre), "tools[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, tool_fields, LZ_NELEM(tool_fields), pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		t->t.key = slug(m, o, pre, "key", T_REQ);
		t->t.label = text(m, o, pre, "label", T_REQ, 100);
		t->t.label_en = text(m, o, pre, "label_en", 0, 100);
		t->t.medium = oneof(m, o, pre, "medium", val_prompt_categories,
		    NULL);
		t->t.description = text(m, o, pre, "description", T_REQ | T_ML,
		    2000);
		t->t.description_en = text(m, o, pre, "description_en", T_ML,
		    2000);
		t->aliases = strings(m, o, pre, "aliases", 50);
		if (t->t.key == NULL)
			continue;
		name_add(&m->toolnames, &m->ntoolnames, xstrdup(t->t.key),
		    m->ntools);
		json_array_foreach(t->aliases, k, v) {
			if ((n = search_tool_name(json_string_value(v))) ==
			    NULL) {
				bad(m, pre, "alias '%s' must be of a-z, 0-9, "
				    "'.', '_' and '-'", json_string_value(v));
				continue;
			}
			name_add(&m->toolnames, &m->ntoolnames, n, m->ntools);
		}
		m->ntools++;
	}
	unique(m, "tools", m->ntools, tool_key_of);
	names_check(m, m->toolnames, &m->ntoolnames, "tools", tool_label);
}

static const struct lz_jfield tag_fields[] = {
	{ "slug", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "label", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "label_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "aliases", LZ_JT_ARRAY | LZ_JT_NULL, 0 },
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
		bad(m, pre, "'%s' cannot name a tag: letters, digits, spaces "
		    "and -_.+#&' only", s);
		return;
	}
	name_add(&m->tagnames, &m->ntagnames, n, i);
}

static void
load_tags(struct import *m, json_t *arr)
{
	json_t		*o, *v;
	char		 pre[64];
	size_t		 i, k;

	m->tags = xcalloc(json_array_size(arr) + 1, sizeof(*m->tags));
	json_array_foreach(arr, i, o) {
		struct itag	*t = &m->tags[m->ntags];

		snprintf(pre, sizeof(pre), "tags[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, tag_fields, LZ_NELEM(tag_fields), pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		t->t.slug = slug(m, o, pre, "slug", T_REQ);
		t->t.label = text(m, o, pre, "label", T_REQ, 100);
		t->t.label_en = text(m, o, pre, "label_en", 0, 100);
		t->aliases = strings(m, o, pre, "aliases", 50);
		if (t->t.slug == NULL || t->t.label == NULL)
			continue;
		tag_name(m, pre, t->t.slug, m->ntags);
		tag_name(m, pre, t->t.label, m->ntags);
		tag_name(m, pre, t->t.label_en, m->ntags);
		json_array_foreach(t->aliases, k, v)
			tag_name(m, pre, json_string_value(v), m->ntags);
		m->ntags++;
	}
	unique(m, "tags", m->ntags, tag_slug_of);
	names_check(m, m->tagnames, &m->ntagnames, "tags", tag_label);
}

/* ---- prompts ------------------------------------------------------------ */

static const struct lz_jfield prompt_fields[] = {
	{ "slug", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "status", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "publish_at", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "is_pro", LZ_JT_BOOL, 0 },
	{ "category", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "tool", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "difficulty", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "tags", LZ_JT_ARRAY, 0 },
	{ "rank", LZ_JT_INTEGER, 0 },
	{ "title", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "title_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "summary", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "summary_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "context", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "context_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "full_prompt", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "full_prompt_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "sample_output", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "sample_output_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "variables", LZ_JT_ARRAY, 0 },
	{ "rating", LZ_JT_OBJECT | LZ_JT_NULL, 0 },
	{ "updated_at", LZ_JT_STRING, LZ_JF_REQUIRED },
};

static const struct lz_jfield variable_fields[] = {
	{ "name", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "description", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "description_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
};

static const struct lz_jfield rating_fields[] = {
	{ "avg", LZ_JT_NUMBER, LZ_JF_REQUIRED },
	{ "count", LZ_JT_INTEGER, LZ_JF_REQUIRED },
};

static int
variable_name_ok(const char *s)
{
	size_t	 n = strlen(s);

	return n >= 1 && n <= 64 && !(s[0] >= '0' && s[0] <= '9') &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
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

static void
load_variables(struct import *m, struct iprompt *ip, json_t *o,
    const char *pre)
{
	json_t		*arr = json_object_get(o, "variables"), *v, *out;
	char		 vpre[96];
	const char	*name, *d, *de;
	size_t		 i, k;

	ip->variables = arr;
	if (arr == NULL) {
		ip->vars_json = xstrdup("[]");	/* free entries show [] */
		return;
	}
	if (json_array_size(arr) > 50) {
		bad(m, pre, "'variables' has more than 50 entries");
		return;
	}
	out = json_array();
	json_array_foreach(arr, i, v) {
		snprintf(vpre, sizeof(vpre), "%s.variables[%zu].", pre, i);
		if (!json_is_object(v)) {
			bad(m, vpre, "must be an object");
			continue;
		}
		if (fields(m, v, variable_fields, LZ_NELEM(variable_fields),
		    vpre) == -1)
			continue;
		vpre[strlen(vpre) - 1] = '\0';
		name = text(m, v, vpre, "name", T_REQ, 64);
		d = text(m, v, vpre, "description", T_REQ, 500);
		de = text(m, v, vpre, "description_en", 0, 500);
		if (name == NULL || d == NULL)
			continue;
		if (!variable_name_ok(name)) {
			bad(m, vpre, "'name' must be a letter or '_', then "
			    "letters, digits and '_': '%s'", name);
			continue;
		}
		for (k = 0; k < i; k++)
			if (json_equal(json_object_get(json_array_get(arr, k),
			    "name"), json_object_get(v, "name")))
				bad(m, vpre, "the variable '%s' is given "
				    "twice", name);
		if (de)
			json_array_append_new(out, json_pack("{s:s, s:s, s:s}",
			    "name", name, "description", d, "description_en",
			    de));
		else
			json_array_append_new(out, json_pack("{s:s, s:s}",
			    "name", name, "description", d));
	}
	ip->vars_json = json_dumps(out, JSON_COMPACT);
	json_decref(out);
}

static void
load_prompt_tags(struct import *m, struct iprompt *ip, json_t *o,
    const char *pre)
{
	json_t		*arr = strings(m, o, pre, "tags", 20), *v, *out;
	size_t		 i, k;
	long		 t;

	out = json_array();
	ip->tags = xcalloc(json_array_size(arr) + 1, sizeof(*ip->tags));
	json_array_foreach(arr, i, v) {
		if ((t = tag_find(m, json_string_value(v))) < 0) {
			bad(m, pre, "tags[%zu]: no tag has the slug '%s'", i,
			    json_string_value(v));
			continue;
		}
		for (k = 0; k < ip->ntags; k++)
			if (ip->tags[k] == (size_t)t)
				break;
		if (k < ip->ntags) {
			bad(m, pre, "tags[%zu]: '%s' is given twice", i,
			    json_string_value(v));
			continue;
		}
		ip->tags[ip->ntags++] = (size_t)t;
		json_array_append(out, v);
	}
	ip->tags_json = json_dumps(out, JSON_COMPACT);
	json_decref(out);
}

/* What literal search may find: public text of every entry, the body and
 * variables of free entries only. */
static char *
prompt_search_text(const struct iprompt *ip)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	const struct pprompt *p = &ip->p;
	json_t		*v;
	size_t		 i;

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
load_prompts(struct import *m, json_t *arr)
{
	static const char *const statuses[] = {
		"published", "draft", "scheduled", NULL
	};
	json_t		*o, *rating;
	char		 pre[64];
	const char	*s;
	size_t		 i;
	long		 t;

	m->prompts = xcalloc(json_array_size(arr) + 1, sizeof(*m->prompts));
	json_array_foreach(arr, i, o) {
		struct iprompt	*ip = &m->prompts[m->nprompts];
		struct pprompt	*p = &ip->p;
		int		 nerr = m->nerr;
		int64_t		 publish_at;

		snprintf(pre, sizeof(pre), "prompts[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, prompt_fields, LZ_NELEM(prompt_fields),
		    pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		if ((p->slug = slug(m, o, pre, "slug", T_REQ)) != NULL)
			snprintf(pre, sizeof(pre), "prompts[%zu] (%s)", i,
			    p->slug);
		ip->status = (enum status)val_index(statuses, oneof(m, o, pre,
		    "status", statuses, NULL));
		publish_at = timef(m, o, pre, "publish_at", 0);
		if (ip->status == ST_SCHEDULED && publish_at == 0)
			bad(m, pre, "a scheduled prompt needs 'publish_at'");
		if (ip->status != ST_SCHEDULED && publish_at != 0)
			bad(m, pre, "'publish_at' is for scheduled prompts "
			    "only");
		p->visible_at = ip->status == ST_SCHEDULED ? publish_at : 0;
		p->is_pro = json_is_true(json_object_get(o, "is_pro"));
		p->category = oneof(m, o, pre, "category",
		    val_prompt_categories, NULL);
		if ((s = text(m, o, pre, "tool", T_REQ, 100)) != NULL) {
			if ((t = tool_find(m, s, 0)) < 0)
				bad(m, pre, "no tool has the key '%s'", s);
			else
				ip->tool = (size_t)t;
		}
		p->difficulty = oneof(m, o, pre, "difficulty",
		    val_difficulties, NULL);
		load_prompt_tags(m, ip, o, pre);
		ip->rank = integer(m, o, pre, "rank", 0, 1000000, 0);
		p->title = text(m, o, pre, "title", T_REQ, 200);
		p->title_en = text(m, o, pre, "title_en", 0, 200);
		p->summary = text(m, o, pre, "summary", T_REQ, 1000);
		p->summary_en = text(m, o, pre, "summary_en", 0, 1000);
		p->context = text(m, o, pre, "context", T_REQ | T_ML, 4000);
		p->context_en = text(m, o, pre, "context_en", T_ML, 4000);
		p->full_prompt = text(m, o, pre, "full_prompt", T_REQ | T_ML,
		    20000);
		p->full_prompt_en = text(m, o, pre, "full_prompt_en", T_ML,
		    20000);
		p->sample_output = text(m, o, pre, "sample_output",
		    T_REQ | T_ML, 20000);
		p->sample_output_en = text(m, o, pre, "sample_output_en", T_ML,
		    20000);
		load_variables(m, ip, o, pre);
		if ((rating = json_object_get(o, "rating")) != NULL &&
		    !json_is_null(rating)) {
			char	 rpre[96];

			snprintf(rpre, sizeof(rpre), "%s.rating.", pre);
			if (fields(m, rating, rating_fields,
			    LZ_NELEM(rating_fields), rpre) == 0) {
				rpre[strlen(rpre) - 1] = '\0';
				p->rated = 1;
				p->rating_avg = json_number_value(
				    json_object_get(rating, "avg"));
				if (!(p->rating_avg >= 1 && p->rating_avg <= 5))
					bad(m, rpre, "'avg' must be from 1 to "
					    "5");
				p->rating_count = integer(m, rating, rpre,
				    "count", 1, 1000000000, 1);
			}
		}
		p->updated_at = timef(m, o, pre, "updated_at", 1);
		if (p->slug == NULL) {
			free(ip->tags);
			free(ip->tags_json);
			free(ip->vars_json);
			memset(ip, 0, sizeof(*ip));
			continue;
		}
		/* A prompt with errors still holds its slug, so references
		 * to it do not add errors of their own. */
		m->nprompts++;
		if (m->nerr != nerr)
			continue;
		if (ip->status == ST_SCHEDULED && publish_at <= m->now)
			m->due++;
		if (ip->status == ST_DRAFT)
			m->drafts++;
		else if (ip->status == ST_SCHEDULED)
			m->scheduled++;
		/* PRO bodies and variables stay out of the database: only
		 * their first line, the preview, is public. */
		ip->preview = first_line(p->full_prompt);
		ip->preview_en = first_line(p->full_prompt_en);
		ip->search = prompt_search_text(ip);
	}
	m->stored_prompts = m->nprompts - m->drafts;
	unique(m, "prompts", m->nprompts, prompt_slug_of);
	m->prompt_by_slug = xcalloc(m->nprompts + 1, sizeof(size_t));
	for (i = 0; i < m->nprompts; i++)
		m->prompt_by_slug[i] = i;
	slug_ctx = m;
	qsort(m->prompt_by_slug, m->nprompts, sizeof(size_t),
	    prompt_slug_cmp);
}

/* ---- collections -------------------------------------------------------- */

static const struct lz_jfield collection_fields[] = {
	{ "slug", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "status", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "title", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "title_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "summary", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "summary_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "kicker", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "kicker_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "unlock_cost", LZ_JT_INTEGER | LZ_JT_NULL, 0 },
	{ "updated_at", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "items", LZ_JT_ARRAY, LZ_JF_REQUIRED },
};

static const struct lz_jfield item_fields[] = {
	{ "prompt", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "note", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "note_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
};

static const char *
coll_slug_of(struct import *m, size_t i)
{
	return m->colls[i].c.slug;
}

static void
load_items(struct import *m, struct icoll *ic, json_t *arr, const char *pre)
{
	json_t		*v;
	char		 ipre[96];
	const char	*s;
	size_t		 i, k;
	long		 p;

	if (json_array_size(arr) > 1000) {
		bad(m, pre, "'items' has more than 1000 entries");
		return;
	}
	ic->items = xcalloc(json_array_size(arr) + 1, sizeof(*ic->items));
	json_array_foreach(arr, i, v) {
		struct iitem	*it = &ic->items[ic->nitems];

		snprintf(ipre, sizeof(ipre), "%s.items[%zu].", pre, i);
		if (!json_is_object(v)) {
			bad(m, ipre, "must be an object");
			continue;
		}
		if (fields(m, v, item_fields, LZ_NELEM(item_fields), ipre) ==
		    -1)
			continue;
		ipre[strlen(ipre) - 1] = '\0';
		/* A note may be empty; it is shown as it is. */
		it->note = json_string_value(json_object_get(v, "note"));
		if (*it->note != '\0')
			it->note = text(m, v, ipre, "note", T_ML, 2000);
		it->note_en = text(m, v, ipre, "note_en", T_ML, 2000);
		if ((s = text(m, v, ipre, "prompt", T_REQ, 100)) == NULL)
			continue;
		if ((p = prompt_find(m, s)) < 0) {
			bad(m, ipre, "no prompt has the slug '%s'", s);
			continue;
		}
		for (k = 0; k < ic->nitems; k++)
			if (ic->items[k].prompt == (size_t)p)
				bad(m, ipre, "the prompt '%s' is in the "
				    "collection twice", s);
		it->prompt = (size_t)p;
		if (it->note == NULL)
			it->note = "";
		ic->nitems++;
	}
}

static void
load_collections(struct import *m, json_t *arr)
{
	static const char *const statuses[] = {
		"published", "unpublished", NULL
	};
	json_t		*o, *cost;
	char		 pre[64];
	size_t		 i;

	m->colls = xcalloc(json_array_size(arr) + 1, sizeof(*m->colls));
	json_array_foreach(arr, i, o) {
		struct icoll	*ic = &m->colls[m->ncolls];
		struct pcoll	*c = &ic->c;

		snprintf(pre, sizeof(pre), "collections[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, collection_fields,
		    LZ_NELEM(collection_fields), pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		if ((c->slug = slug(m, o, pre, "slug", T_REQ)) != NULL)
			snprintf(pre, sizeof(pre), "collections[%zu] (%s)", i,
			    c->slug);
		ic->published = strcmp(oneof(m, o, pre, "status", statuses,
		    NULL), "published") == 0;
		c->title = text(m, o, pre, "title", T_REQ, 200);
		c->title_en = text(m, o, pre, "title_en", 0, 200);
		c->summary = text(m, o, pre, "summary", T_REQ | T_ML, 2000);
		c->summary_en = text(m, o, pre, "summary_en", T_ML, 2000);
		c->kicker = text(m, o, pre, "kicker", 0, 100);
		c->kicker_en = text(m, o, pre, "kicker_en", 0, 100);
		if (c->kicker_en && !c->kicker)
			bad(m, pre, "'kicker_en' without 'kicker'");
		if ((cost = json_object_get(o, "unlock_cost")) != NULL &&
		    !json_is_null(cost)) {
			c->has_cost = 1;
			c->unlock_cost = integer(m, o, pre, "unlock_cost", 0,
			    1000000, 0);
		}
		c->updated_at = timef(m, o, pre, "updated_at", 1);
		load_items(m, ic, json_object_get(o, "items"), pre);
		if (c->slug == NULL)
			continue;
		if (ic->published) {
			size_t	 k;

			m->stored_colls++;
			for (k = 0; k < ic->nitems; k++)
				if (m->prompts[ic->items[k].prompt].status ==
				    ST_DRAFT)
					m->dropped_items++;
		}
		m->ncolls++;
	}
	unique(m, "collections", m->ncolls, coll_slug_of);
}

/* ---- models, integrations, tutorials, keywords -------------------------- */

static const struct lz_jfield model_fields[] = {
	{ "key", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "name", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "category", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "version", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "vendor", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "notes", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "notes_en", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "source_url", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "checked_on", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "verified_on", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "verification", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "status", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "tool", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "generator_url", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "record_type", LZ_JT_STRING, LZ_JF_REQUIRED },
};

static const char *
model_key_of(struct import *m, size_t i)
{
	return m->models[i].m.key;
}

static void
load_models(struct import *m, json_t *arr)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	json_t		*o;
	char		 pre[64];
	size_t		 i;

	m->models = xcalloc(json_array_size(arr) + 1, sizeof(*m->models));
	json_array_foreach(arr, i, o) {
		struct imodel	*im = &m->models[m->nmodels];
		struct modelrow	*r = &im->m;
		int		 nerr = m->nerr;

		snprintf(pre, sizeof(pre), "models[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, model_fields, LZ_NELEM(model_fields), pre) ==
		    -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		r->key = slug(m, o, pre, "key", T_REQ);
		r->name = text(m, o, pre, "name", T_REQ, 200);
		r->category = oneof(m, o, pre, "category",
		    val_model_categories, NULL);
		r->version = text(m, o, pre, "version", 0, 100);
		r->vendor = text(m, o, pre, "vendor", T_REQ, 200);
		r->notes = text(m, o, pre, "notes", T_REQ | T_ML, 4000);
		r->notes_en = text(m, o, pre, "notes_en", T_ML, 4000);
		r->source_url = url(m, o, pre, "source_url", T_REQ);
		r->checked_on = datef(m, o, pre, "checked_on", 1);
		r->verification = oneof(m, o, pre, "verification",
		    val_verifications, NULL);
		r->verified_on = datef(m, o, pre, "verified_on", 0);
		if (strcmp(r->verification, "verified") == 0 &&
		    *r->verified_on == '\0')
			bad(m, pre, "a verified model needs 'verified_on'");
		if (strcmp(r->verification, "verified") != 0 &&
		    *r->verified_on != '\0')
			bad(m, pre, "'verified_on' is for verified models "
			    "only");
		r->status = oneof(m, o, pre, "status", val_model_statuses,
		    NULL);
		r->tool_key = text(m, o, pre, "tool", 0, 100);
		if (r->tool_key != NULL && tool_find(m, r->tool_key, 0) < 0)
			bad(m, pre, "no tool has the key '%s'", r->tool_key);
		if (r->tool_key == NULL)
			r->tool_key = "";
		r->generator_url = url(m, o, pre, "generator_url", 0);
		r->record_type = oneof(m, o, pre, "record_type",
		    val_record_types, NULL);
		if (r->version == NULL)
			r->version = "";
		if (m->nerr != nerr)
			continue;
		lz_buf_reset(&b);
		search_field(&b, r->key);
		search_field(&b, r->name);
		search_field(&b, r->version);
		search_field(&b, r->vendor);
		search_field(&b, r->notes);
		search_field(&b, r->notes_en);
		im->search = xstrdup(lz_buf_str(&b));
		m->nmodels++;
	}
	lz_buf_free(&b);
	unique(m, "models", m->nmodels, model_key_of);
}

static const struct lz_jfield integration_fields[] = {
	{ "key", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "tool_key", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "name", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "vendor", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "category", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "generator_kind", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "generator_url", LZ_JT_STRING | LZ_JT_NULL, 0 },
};

static const char *
integ_key_of(struct import *m, size_t i)
{
	return m->integs[i].i.key;
}

static void
load_integrations(struct import *m, json_t *arr)
{
	json_t		*o;
	char		 pre[64], *n;
	size_t		 i;
	long		 t;

	m->integs = xcalloc(json_array_size(arr) + 1, sizeof(*m->integs));
	json_array_foreach(arr, i, o) {
		struct iinteg	*ii = &m->integs[m->ninteg];
		struct integrow	*r = &ii->i;
		int		 nerr = m->nerr;

		snprintf(pre, sizeof(pre), "integrations[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, integration_fields,
		    LZ_NELEM(integration_fields), pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		r->key = slug(m, o, pre, "key", T_REQ);
		/* The tool filter accepts every integration's tool_key, so
		 * it must name a tool (its key or a legacy alias). */
		if ((r->tool_key = text(m, o, pre, "tool_key", T_REQ, 100)) !=
		    NULL) {
			n = search_tool_name(r->tool_key);
			t = n && strcmp(n, r->tool_key) == 0 ?
			    tool_find(m, n, 1) : -1;
			free(n);
			if (t < 0)
				bad(m, pre, "'tool_key' must be a tool key or "
				    "alias: '%s'", r->tool_key);
			else
				ii->tool = (size_t)t;
		}
		r->name = text(m, o, pre, "name", T_REQ, 200);
		r->vendor = text(m, o, pre, "vendor", T_REQ, 200);
		r->category = oneof(m, o, pre, "category",
		    val_integration_categories, NULL);
		r->generator_kind = oneof(m, o, pre, "generator_kind",
		    val_generator_kinds, NULL);
		r->generator_url = url(m, o, pre, "generator_url", 0);
		if (m->nerr == nerr)
			m->ninteg++;
	}
	unique(m, "integrations", m->ninteg, integ_key_of);
}

static const struct lz_jfield tutorial_fields[] = {
	{ "slug", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "title", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "summary", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "markdown", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "source_url", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "published_at", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "updated_at", LZ_JT_STRING, LZ_JF_REQUIRED },
};

static const char *
tut_slug_of(struct import *m, size_t i)
{
	return m->tuts[i].t.slug;
}

static void
load_tutorials(struct import *m, json_t *arr)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	json_t		*o;
	char		 pre[64];
	size_t		 i;

	m->tuts = xcalloc(json_array_size(arr) + 1, sizeof(*m->tuts));
	json_array_foreach(arr, i, o) {
		struct itut	*it = &m->tuts[m->ntuts];
		struct tutrow	*t = &it->t;
		int		 nerr = m->nerr;

		snprintf(pre, sizeof(pre), "tutorials[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, tutorial_fields, LZ_NELEM(tutorial_fields),
		    pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		t->slug = slug(m, o, pre, "slug", T_REQ);
		t->title = text(m, o, pre, "title", T_REQ, 200);
		t->summary = text(m, o, pre, "summary", T_REQ | T_ML, 2000);
		t->markdown = text(m, o, pre, "markdown", T_REQ | T_ML, 200000);
		t->source_url = url(m, o, pre, "source_url", T_REQ);
		t->published_at = timef(m, o, pre, "published_at", 1);
		t->updated_at = timef(m, o, pre, "updated_at", 1);
		if (m->nerr != nerr)
			continue;
		lz_buf_reset(&b);
		search_field(&b, t->title);
		search_field(&b, t->summary);
		search_field(&b, t->markdown);
		it->search = xstrdup(lz_buf_str(&b));
		m->ntuts++;
	}
	lz_buf_free(&b);
	unique(m, "tutorials", m->ntuts, tut_slug_of);
}

static const struct lz_jfield keyword_fields[] = {
	{ "slug", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "term", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "term_en", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "category", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "definition", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "when_to_use", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "how_to_ask", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "gotcha", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "related", LZ_JT_ARRAY, 0 },
	{ "tags", LZ_JT_ARRAY, 0 },
	{ "updated_at", LZ_JT_STRING, LZ_JF_REQUIRED },
};

static const char *
kw_slug_of(struct import *m, size_t i)
{
	return m->kws[i].k.slug;
}

static void
load_keywords(struct import *m, json_t *arr)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	json_t		*o;
	char		 pre[64];
	size_t		 i;

	m->kws = xcalloc(json_array_size(arr) + 1, sizeof(*m->kws));
	json_array_foreach(arr, i, o) {
		struct ikw	*ik = &m->kws[m->nkws];
		struct kwrow	*k = &ik->k;
		int		 nerr = m->nerr;

		snprintf(pre, sizeof(pre), "keywords[%zu].", i);
		if (!json_is_object(o)) {
			bad(m, pre, "must be an object");
			continue;
		}
		if (fields(m, o, keyword_fields, LZ_NELEM(keyword_fields),
		    pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		k->slug = slug(m, o, pre, "slug", T_REQ);
		k->term = text(m, o, pre, "term", T_REQ, 100);
		k->term_en = text(m, o, pre, "term_en", T_REQ, 100);
		k->category = oneof(m, o, pre, "category",
		    val_keyword_categories, NULL);
		k->definition = text(m, o, pre, "definition", T_REQ | T_ML,
		    4000);
		k->when_to_use = text(m, o, pre, "when_to_use", T_REQ | T_ML,
		    4000);
		k->how_to_ask = text(m, o, pre, "how_to_ask", T_REQ | T_ML,
		    4000);
		k->gotcha = text(m, o, pre, "gotcha", T_REQ | T_ML, 4000);
		ik->related = strings(m, o, pre, "related", 20);
		ik->tags = strings(m, o, pre, "tags", 20);
		k->updated_at = timef(m, o, pre, "updated_at", 1);
		if (m->nerr != nerr)
			continue;
		lz_buf_reset(&b);
		search_field(&b, k->term);
		search_field(&b, k->term_en);
		search_field(&b, k->definition);
		ik->search = xstrdup(lz_buf_str(&b));
		m->nkws++;
	}
	lz_buf_free(&b);
	unique(m, "keywords", m->nkws, kw_slug_of);
	/* References, now that every slug is known. */
	for (i = 0; i < m->nkws; i++) {
		struct ikw	*ik = &m->kws[i];
		json_t		*v, *rel = json_array(), *tags = json_array();
		size_t		 j, x;

		snprintf(pre, sizeof(pre), "keywords[%zu] (%s)", i,
		    ik->k.slug);
		json_array_foreach(ik->related, j, v) {
			for (x = 0; x < m->nkws; x++)
				if (strcmp(m->kws[x].k.slug,
				    json_string_value(v)) == 0)
					break;
			if (x == m->nkws || x == i)
				bad(m, pre, "related[%zu]: '%s' is not another "
				    "keyword", j, json_string_value(v));
			json_array_append(rel, v);
		}
		json_array_foreach(ik->tags, j, v) {
			if (tag_find(m, json_string_value(v)) < 0)
				bad(m, pre, "tags[%zu]: no tag has the slug "
				    "'%s'", j, json_string_value(v));
			json_array_append(tags, v);
		}
		ik->related_json = json_dumps(rel, JSON_COMPACT);
		ik->tags_json = json_dumps(tags, JSON_COMPACT);
		ik->k.related = ik->related_json;
		ik->k.tags = ik->tags_json;
		json_decref(rel);
		json_decref(tags);
	}
}

/* ---- the file ------------------------------------------------------------ */

static const struct lz_jfield top_fields[] = {
	{ "format", LZ_JT_STRING, LZ_JF_REQUIRED },
	{ "generated_at", LZ_JT_STRING | LZ_JT_NULL, 0 },
	{ "tools", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	{ "tags", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	{ "prompts", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	{ "collections", LZ_JT_ARRAY, 0 },
	{ "models", LZ_JT_ARRAY, 0 },
	{ "integrations", LZ_JT_ARRAY, 0 },
	{ "tutorials", LZ_JT_ARRAY, 0 },
	{ "keywords", LZ_JT_ARRAY, 0 },
};

struct import *
import_load(const char *path, FILE *errs, int64_t now)
{
	struct import	*m;
	json_error_t	 je;
	const char	*fmt;
	json_t		*empty = json_array();

	m = xcalloc(1, sizeof(*m));
	m->file = path;
	m->errs = errs;
	m->now = now;
	m->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (m->root == NULL) {
		fprintf(errs, "%s:%d:%d: %s\n", path, je.line, je.column,
		    je.text);
		goto fail;
	}
	if (!json_is_object(m->root)) {
		bad(m, "(top)", "the file must hold one JSON object");
		goto fail;
	}
	if (fields(m, m->root, top_fields, LZ_NELEM(top_fields), "") == -1)
		goto fail;
	fmt = json_string_value(json_object_get(m->root, "format"));
	if (strcmp(fmt, FORMAT) != 0) {
		bad(m, "format", "'%s' is not a format this version reads "
		    "(\"" FORMAT "\")", fmt);
		goto fail;
	}
#define LIST(k)	(json_object_get(m->root, k) ? json_object_get(m->root, k) : \
	empty)
	load_tools(m, LIST("tools"));
	load_tags(m, LIST("tags"));
	load_prompts(m, LIST("prompts"));
	load_collections(m, LIST("collections"));
	load_models(m, LIST("models"));
	load_integrations(m, LIST("integrations"));
	load_tutorials(m, LIST("tutorials"));
	load_keywords(m, LIST("keywords"));
#undef LIST
	json_decref(empty);
	empty = NULL;
	if (m->nerr == 0)
		return m;
fail:
	if (m->nerr > 0)
		fprintf(errs, "%s: %d error%s; nothing imported\n", path,
		    m->nerr, m->nerr == 1 ? "" : "s");
	else
		fprintf(errs, "%s: nothing imported\n", path);
	json_decref(empty);
	import_free(m);
	return NULL;
}

/* Recommended order: editorial rank (higher first), then most recently
 * updated, then slug. */
static int
recommended_cmp(const void *a, const void *b)
{
	const struct iprompt	*x = *(struct iprompt *const *)a;
	const struct iprompt	*y = *(struct iprompt *const *)b;

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (x->p.updated_at != y->p.updated_at)
		return x->p.updated_at > y->p.updated_at ? -1 : 1;
	return strcmp(x->p.slug, y->p.slug);
}

static const char *
nz(const char *s)
{
	return s ? s : "";
}

/*
 * The detail answers of a prompt, rendered once here and stored
 * (sql/prompts/0003-detail-answers.sql), by the code that built them per
 * request before: prompt_detail_object in api_prompts.c.
 */
static void
render_detail(const struct import *m, const struct iprompt *ip,
    char **zh, char **en)
{
	const struct pprompt	*p = &ip->p;
	struct prow		 row;
	json_t			*o;

	memset(&row, 0, sizeof(row));
	row.id = p->id;
	row.slug = nz(p->slug);
	row.category = nz(p->category);
	row.tool = nz(m->tools[ip->tool].t.key);
	row.difficulty = nz(p->difficulty);
	row.tags = nz(p->tags);
	row.is_pro = p->is_pro;
	row.updated_at = p->updated_at;
	row.rated = p->rated;
	row.rating_avg = p->rating_avg;
	row.rating_count = p->rating_count;
	row.title = nz(p->title);
	row.title_en = p->title_en;
	row.summary = nz(p->summary);
	row.summary_en = p->summary_en;
	row.preview = nz(p->preview);
	row.preview_en = p->preview_en;
	row.context = nz(p->context);
	row.context_en = p->context_en;
	row.sample_output = nz(p->sample_output);
	row.sample_output_en = p->sample_output_en;
	row.full_prompt = p->full_prompt;
	row.full_prompt_en = p->full_prompt_en;
	row.variables = p->variables;
	o = prompt_detail_object(&row, LANG_ZH);
	*zh = lz_json_dump(o, NULL);
	json_decref(o);
	o = prompt_detail_object(&row, LANG_EN);
	*en = lz_json_dump(o, NULL);
	json_decref(o);
}

static int
write_prompts(struct import *m, struct lz_db *db)
{
	struct iprompt	**order;
	struct gram_build *gb;
	char		 *zh, *en;
	size_t		  i, k, n = 0;
	int		  rc = -1, put;

	order = xcalloc(m->nprompts + 1, sizeof(*order));
	for (i = 0; i < m->nprompts; i++)
		if (m->prompts[i].status != ST_DRAFT)
			order[n++] = &m->prompts[i];
	qsort(order, n, sizeof(*order), recommended_cmp);
	gb = gram_build_new();
	for (i = 0; i < n; i++) {
		struct iprompt	*ip = order[i];
		struct pprompt	*p = &ip->p;

		p->id = (int64_t)i + 1;
		/* Due already: stored as published, so the counts made now
		 * include it and only later ones are counted per request. */
		if (p->visible_at <= m->now)
			p->visible_at = 0;
		p->tool_id = m->tools[ip->tool].id;
		p->tags = ip->tags_json;
		p->preview = ip->preview ? ip->preview : "";
		p->preview_en = ip->preview_en;
		gram_build_add(gb, (uint32_t)p->id, ip->search);
		/* PRO bodies and variables are never stored. */
		p->variables = p->is_pro ? NULL : ip->vars_json;
		if (p->is_pro)
			p->full_prompt = p->full_prompt_en = NULL;
		render_detail(m, ip, &zh, &en);
		p->detail = zh;
		p->detail_en = en;
		put = pstore_put_prompt(db, p);
		p->detail = p->detail_en = NULL;
		free(zh);
		free(en);
		if (put == -1)
			goto out;
		for (k = 0; k < ip->ntags; k++)
			if (pstore_put_prompt_tag(db, m->tags[ip->tags[k]].id,
			    p->id) == -1)
				goto out;
	}
	rc = pstore_put_grams(db, gb);
out:
	gram_build_free(gb);
	free(order);
	return rc;
}

/* complete, partial or source: the English translation of what a
 * collection shows. */
static const char *
translation_status(const struct icoll *ic, const struct import *m)
{
	int	 have = 0, want = 0;
	size_t	 i;

	want += 2;
	have += ic->c.title_en != NULL;
	have += ic->c.summary_en != NULL;
	if (ic->c.kicker != NULL) {
		want++;
		have += ic->c.kicker_en != NULL;
	}
	for (i = 0; i < ic->nitems; i++) {
		if (m->prompts[ic->items[i].prompt].status == ST_DRAFT)
			continue;
		if (*ic->items[i].note == '\0')
			continue;
		want++;
		have += ic->items[i].note_en != NULL;
	}
	return have == want ? "complete" : have == 0 ? "source" : "partial";
}

static int
write_collections(struct import *m, struct lz_db *db)
{
	size_t	 i, k;
	int64_t	 id;

	for (i = 0; i < m->ncolls; i++) {
		struct icoll	*ic = &m->colls[i];

		if (!ic->published)
			continue;
		ic->c.translation = translation_status(ic, m);
		if ((id = pstore_put_collection(db, &ic->c)) == -1)
			return -1;
		for (k = 0; k < ic->nitems; k++) {
			struct iprompt	*ip = &m->prompts[ic->items[k].prompt];

			/* Positions keep the data file's numbering, so
			 * the order survives items left out. */
			if (ip->status == ST_DRAFT)
				continue;
			if (pstore_put_item(db, id, (long long)k + 1,
			    ip->p.id, ic->items[k].note,
			    ic->items[k].note_en) == -1)
				return -1;
		}
	}
	return 0;
}

int
import_write(struct import *m, const char *dbpath, const char *source,
    int64_t now, char *err, size_t errlen)
{
	struct lz_db	 db;
	struct lz_buf	 b = LZ_BUF_INIT;
	json_t		*v;
	char		 ts[32];
	size_t		 i, k;
	int64_t		 id;

	err[0] = '\0';
	m->now = now;
	if (pstore_create(&db, dbpath, err, errlen) == -1)
		return -1;
	if (pstore_build_begin(&db) == -1)
		goto dberr;
	lz_time_fmt_iso(now, ts, sizeof(ts), 0);
	if (pstore_put_meta(&db, "format", FORMAT) == -1 ||
	    pstore_put_meta(&db, "imported_at", ts) == -1 ||
	    pstore_put_meta(&db, "source", source) == -1)
		goto dberr;

	for (i = 0; i < m->ntools; i++) {
		struct itool	*t = &m->tools[i];

		lz_buf_reset(&b);
		search_field(&b, t->t.key);
		search_field(&b, t->t.label);
		search_field(&b, t->t.label_en);
		search_field(&b, t->t.description);
		search_field(&b, t->t.description_en);
		json_array_foreach(t->aliases, k, v)
			search_field(&b, json_string_value(v));
		t->t.search = lz_buf_str(&b);
		if ((t->id = pstore_put_tool(&db, &t->t)) == -1)
			goto dberr;
		t->t.search = NULL;
	}
	for (i = 0; i < m->ntoolnames; i++)
		if (pstore_put_tool_name(&db, m->toolnames[i].name,
		    m->tools[m->toolnames[i].owner].id) == -1)
			goto dberr;
	for (i = 0; i < m->ntags; i++) {
		struct itag	*t = &m->tags[i];

		lz_buf_reset(&b);
		search_field(&b, t->t.label);
		search_field(&b, t->t.label_en);
		json_array_foreach(t->aliases, k, v)
			search_field(&b, json_string_value(v));
		t->t.search = lz_buf_str(&b);
		if ((t->id = pstore_put_tag(&db, &t->t)) == -1)
			goto dberr;
		t->t.search = NULL;
	}
	for (i = 0; i < m->ntagnames; i++)
		if (pstore_put_tag_name(&db, m->tagnames[i].name,
		    m->tags[m->tagnames[i].owner].id) < 0)
			goto dberr;
	if (write_prompts(m, &db) == -1 || write_collections(m, &db) == -1)
		goto dberr;
	for (i = 0; i < m->nmodels; i++)
		if (pstore_put_model(&db, &m->models[i].m,
		    m->models[i].search) == -1)
			goto dberr;
	for (i = 0; i < m->ninteg; i++) {
		id = m->tools[m->integs[i].tool].id;
		if (pstore_put_integration(&db, &m->integs[i].i, id) == -1)
			goto dberr;
	}
	for (i = 0; i < m->ntuts; i++)
		if (pstore_put_tutorial(&db, &m->tuts[i].t,
		    m->tuts[i].search) == -1)
			goto dberr;
	for (i = 0; i < m->nkws; i++)
		if (pstore_put_keyword(&db, &m->kws[i].k, m->kws[i].search) ==
		    -1)
			goto dberr;
	lz_buf_free(&b);
	if (pstore_build_end(&db, err, errlen) == -1) {
		lz_db_close(&db);
		return -1;
	}
	lz_db_close(&db);
	return 0;
dberr:
	if (err[0] == '\0')
		snprintf(err, errlen, "%s: %s", dbpath, lz_db_error(&db));
	lz_buf_free(&b);
	lz_db_rollback(&db);
	lz_db_close(&db);
	return -1;
}

void
import_summary(const struct import *m, FILE *fp)
{
	fprintf(fp, "%zu prompts (%zu of them scheduled; %zu drafts left out), "
	    "%zu collections (%zu unpublished left out), %zu tags, %zu tools, "
	    "%zu models, %zu integrations, %zu tutorials, %zu keywords\n",
	    m->stored_prompts, m->scheduled, m->drafts, m->stored_colls,
	    m->ncolls - m->stored_colls, m->ntags, m->ntools, m->nmodels,
	    m->ninteg, m->ntuts, m->nkws);
	if (m->due > 0)
		fprintf(fp, "%zu scheduled prompts are visible at once: their "
		    "publish_at has passed\n", m->due);
	if (m->dropped_items > 0)
		fprintf(fp, "%zu collection items left out: their prompts are "
		    "drafts\n", m->dropped_items);
}

void
import_free(struct import *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nprompts; i++) {
		free(m->prompts[i].tags);
		free(m->prompts[i].tags_json);
		free(m->prompts[i].vars_json);
		free(m->prompts[i].preview);
		free(m->prompts[i].preview_en);
		free(m->prompts[i].search);
	}
	for (i = 0; i < m->ncolls; i++)
		free(m->colls[i].items);
	for (i = 0; i < m->nmodels; i++)
		free(m->models[i].search);
	for (i = 0; i < m->ntuts; i++)
		free(m->tuts[i].search);
	for (i = 0; i < m->nkws; i++) {
		free(m->kws[i].related_json);
		free(m->kws[i].tags_json);
		free(m->kws[i].search);
	}
	for (i = 0; i < m->ntoolnames; i++)
		free(m->toolnames[i].name);
	for (i = 0; i < m->ntagnames; i++)
		free(m->tagnames[i].name);
	free(m->toolnames);
	free(m->tagnames);
	free(m->tools);
	free(m->tags);
	free(m->prompts);
	free(m->prompt_by_slug);
	free(m->colls);
	free(m->models);
	free(m->integs);
	free(m->tuts);
	free(m->kws);
	json_decref(m->root);
	free(m);
}
