/*
 * import_load.c -- the engine of the loaders of the prompt library's
 * data file: a list's objects read into records by the rows of its
 * field table, the whole contract of an object (names, types, presence,
 * bounds; import_check.h), and the loaders import.c calls, one per list
 * (import_load.h: the lists are in import_prompts.c and
 * import_catalog.c).
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
#include "import_load.h"

#define FIELDS_MAX	32	/* rows of a list's field table */

void
imp_read_fields(struct import *m, const json_t *o, const char *pre,
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

const char *
imp_slug_path(struct import *m, const json_t *o, const struct imp_at *at,
    const struct lz_jfield *f, char *pre, size_t len)
{
	const char	*slug;

	snprintf(pre, len, "%s", at->path);
	if ((slug = imp_slug(m, o, pre, f)) != NULL)
		snprintf(pre, len, "%s (%s)", at->path, slug);
	return slug;
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

	/* The slot of a record dropped before may hold its counts. */
	memset(rec, 0, l->size);
	if (r->read != NULL) {
		if (!r->read(m, o, at, rec))
			return;
	} else
		imp_read_fields(m, o, at->path, r->fields, 0, r->nfields,
		    rec);
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

/*
 * The loaders import.c calls (import_check.h), one per list.  They
 * differ only in the members of struct import that hold the list's
 * records, typed arrays no one function can store.
 */
#define LOADER(fn, r, array, count)					\
	void								\
	fn(struct import *m, const json_t *arr)				\
	{								\
		m->array = load_records(m, arr, &(r),			\
		    sizeof(*m->array), &m->count);			\
		if ((r).after != NULL)					\
			(r).after(m);					\
	}

LOADER(imp_load_tools, imp_tools_list, tools, ntools)
LOADER(imp_load_tags, imp_tags_list, tags, ntags)
LOADER(imp_load_prompts, imp_prompts_list, prompts, nprompts)
LOADER(imp_load_collections, imp_collections_list, colls, ncolls)
LOADER(imp_load_models, imp_models_list, models, nmodels)
LOADER(imp_load_integrations, imp_integrations_list, integs, ninteg)
LOADER(imp_load_tutorials, imp_tutorials_list, tuts, ntuts)
LOADER(imp_load_keywords, imp_keywords_list, kws, nkws)
