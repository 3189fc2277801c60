/*
 * import_check.c -- the checks the importer's loaders share, and its
 * look-ups (import_check.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "import_check.h"
#include "lztime.h"
#include "req.h"
#include "utf8.h"
#include "util.h"
#include "values.h"

#define ERRORS_MAX	200	/* reported; then the list stops */

void
imp_bad(struct import *m, const char *path, const char *fmt, ...)
{
	va_list	 ap;

	if (++m->nerr > ERRORS_MAX) {
		if (m->nerr == ERRORS_MAX + 1)
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

int
imp_fields(struct import *m, const json_t *obj, const struct lz_jfield *f,
    size_t n, const char *prefix)
{
	struct lz_verr	 e;

	if (lz_json_fields(obj, f, n, prefix, &e) == -1) {
		imp_bad(m, e.param, "%s", e.msg);
		return -1;
	}
	return 0;
}

void
imp_list(struct import *m, const json_t *arr, const char *name,
    const struct lz_jfield *f, size_t n,
    void (*fn)(struct import *, const json_t *, const struct imp_at *),
    void *arg)
{
	struct imp_at	 at;
	json_t		*o;
	char		 pre[128];
	size_t		 i;

	at.path = pre;
	at.arg = arg;
	json_array_foreach(arr, i, o) {
		snprintf(pre, sizeof(pre), "%.96s[%zu].", name, i);
		if (!json_is_object(o)) {
			imp_bad(m, pre, "must be an object");
			continue;
		}
		if (imp_fields(m, o, f, n, pre) == -1)
			continue;
		pre[strlen(pre) - 1] = '\0';
		at.i = i;
		fn(m, o, &at);
	}
}

const char *
imp_text(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f)
{
	json_t		*v = json_object_get(o, f->name);
	const char	*s;
	long		 n;

	if (v == NULL || json_is_null(v) || !json_is_string(v) ||
	    json_string_length(v) == 0) {
		if (f->flags & LZ_JF_NONEMPTY)
			imp_bad(m, pre, "'%s' is required and must not be "
			    "empty", f->name);
		return NULL;
	}
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v)) {
		imp_bad(m, pre, "'%s' contains a NUL character", f->name);
		return NULL;
	}
	if ((n = lz_json_chars(f, s)) < 0) {
		imp_bad(m, pre, "'%s' contains control characters%s", f->name,
		    f->flags & LZ_JF_MULTILINE ? "" : " or line breaks");
		return NULL;
	}
	if (n > f->max) {
		imp_bad(m, pre, "'%s' is longer than %lld characters", f->name,
		    f->max);
		return NULL;
	}
	return s;
}

const char *
imp_slug(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f)
{
	const char	*s = imp_text(m, o, pre, f);

	if (s != NULL && !val_slug_ok(s)) {
		imp_bad(m, pre, "'%s' must be 1 to %lld of a-z, 0-9 and '-': "
		    "'%s'", f->name, f->max, s);
		return NULL;
	}
	return s;
}

const char *
imp_oneof(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f, const char *const *set)
{
	const char	*s = imp_text(m, o, pre, f);
	struct lz_buf	 b = LZ_BUF_INIT;
	size_t		 i;

	if (s == NULL)
		return set[0];
	if (val_index(set, s) >= 0)
		return s;
	for (i = 0; set[i] != NULL; i++)
		lz_buf_printf(&b, "%s%s", i ? ", " : "", set[i]);
	imp_bad(m, pre, "'%s' must be one of %s, not '%s'", f->name,
	    lz_buf_str(&b), s);
	lz_buf_free(&b);
	return set[0];
}

const char *
imp_url(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f)
{
	const char	*s = imp_text(m, o, pre, f);
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
		imp_bad(m, pre, "'%s' must be an http or https URL: '%s'",
		    f->name, s);
		return "";
	}
	return s;
}

int64_t
imp_time(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f)
{
	const char	*s = imp_text(m, o, pre, f);
	int64_t		 ms;

	if (s == NULL)
		return 0;
	if (lz_time_parse_iso(s, &ms) == -1) {
		imp_bad(m, pre, "'%s' must be an ISO 8601 time with a time "
		    "zone, such as 2026-05-01T09:30:00+08:00: '%s'", f->name,
		    s);
		return 0;
	}
	return ms;
}

const char *
imp_date(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f)
{
	const char	*s = imp_text(m, o, pre, f);
	char		 tmp[32];
	int64_t		 ms;

	if (s == NULL)
		return "";
	snprintf(tmp, sizeof(tmp), "%sT00:00:00Z", s);
	if (strlen(s) != 10 || lz_time_parse_iso(tmp, &ms) == -1) {
		imp_bad(m, pre, "'%s' must be a date YYYY-MM-DD: '%s'",
		    f->name, s);
		return "";
	}
	return s;
}

long long
imp_integer(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f, long long def)
{
	json_t		*v = json_object_get(o, f->name);
	long long	 n;

	if (v == NULL || json_is_null(v))
		return def;
	n = json_integer_value(v);
	if (n < f->min || n > f->max) {
		imp_bad(m, pre, "'%s' must be from %lld to %lld", f->name,
		    f->min, f->max);
		return def;
	}
	return n;
}

json_t *
imp_strings(struct import *m, const json_t *o, const char *pre,
    const struct lz_jfield *f)
{
	json_t		*a = json_object_get(o, f->name), *v;
	const char	*s;
	size_t		 i;

	if (a == NULL || json_is_null(a))
		return NULL;
	if (json_array_size(a) > (size_t)f->max) {
		imp_bad(m, pre, "'%s' has more than %lld entries", f->name,
		    f->max);
		return NULL;
	}
	json_array_foreach(a, i, v) {
		s = json_string_value(v);
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    strlen(s) != json_string_length(v) ||
		    lz_utf8_count(s, strlen(s), LZ_UTF8_NOCTRL) < 0) {
			imp_bad(m, pre, "'%s[%zu]' must be a non-empty string "
			    "without control characters", f->name, i);
			return NULL;
		}
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

void
imp_name_add(struct name **v, size_t *n, char *s, size_t owner)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[*n].name = s;
	(*v)[(*n)++].owner = owner;
}

void
imp_names_check(struct import *m, struct name *v, size_t *n, const char *what,
    const char *(*label)(struct import *, size_t))
{
	size_t	 i, o;

	if (*n > 1)
		qsort(v, *n, sizeof(*v), name_cmp);
	for (i = 0, o = 0; i < *n; i++) {
		if (o > 0 && strcmp(v[o - 1].name, v[i].name) == 0) {
			if (v[o - 1].owner != v[i].owner)
				imp_bad(m, what, "the name '%s' stands for "
				    "both '%s' and '%s'", v[i].name,
				    label(m, v[o - 1].owner),
				    label(m, v[i].owner));
			free(v[i].name);
			continue;
		}
		v[o++] = v[i];
	}
	*n = o;
}

void
imp_unique(struct import *m, const char *list, size_t n,
    const char *(*slugof)(struct import *, size_t))
{
	struct name	*v = NULL;
	size_t		 nv = 0, i;

	for (i = 0; i < n; i++)
		if (slugof(m, i) != NULL)
			imp_name_add(&v, &nv, (char *)(uintptr_t)slugof(m, i),
			    i);
	if (nv > 1)
		qsort(v, nv, sizeof(*v), name_cmp);
	for (i = 1; i < nv; i++)
		if (strcmp(v[i - 1].name, v[i].name) == 0)
			imp_bad(m, list, "'%s' is used by two entries (%zu and "
			    "%zu)", v[i].name, v[i - 1].owner, v[i].owner);
	free(v);
}

static struct import *slug_ctx;	/* for the qsort comparator below */

static int
prompt_slug_cmp(const void *a, const void *b)
{
	return strcmp(slug_ctx->prompts[*(const size_t *)a].p.slug,
	    slug_ctx->prompts[*(const size_t *)b].p.slug);
}

void
imp_prompts_sort(struct import *m)
{
	size_t	 i;

	m->prompt_by_slug = xcalloc(m->nprompts + 1, sizeof(size_t));
	for (i = 0; i < m->nprompts; i++)
		m->prompt_by_slug[i] = i;
	slug_ctx = m;
	qsort(m->prompt_by_slug, m->nprompts, sizeof(size_t),
	    prompt_slug_cmp);
}

long
imp_prompt_find(struct import *m, const char *s)
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

long
imp_tool_find(struct import *m, const char *s, int aliases)
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

long
imp_tag_find(struct import *m, const char *s)
{
	size_t	 i;

	for (i = 0; i < m->ntags; i++)
		if (strcmp(m->tags[i].t.slug, s) == 0)
			return (long)i;
	return -1;
}
