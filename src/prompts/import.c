/*
 * import.c -- the prompt library's data file (import.h): read and
 * checked whole by the loaders of import_load.c, then written into a new
 * database.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "grams.h"
#include "import.h"
#include "import_check.h"
#include "lztime.h"
#include "prompts.h"
#include "pstore.h"
#include "resp.h"
#include "search.h"
#include "util.h"

#define FORMAT		"lz-prompts/1"

/* ---- the file ------------------------------------------------------------ */

/* The lists of the file, each with its loader, in the order they are
 * loaded (a list refers only to lists before it). */
enum { TOP_FORMAT, TOP_GENERATED_AT, TOP_TOOLS, TOP_TAGS, TOP_PROMPTS,
    TOP_COLLECTIONS, TOP_MODELS, TOP_INTEGRATIONS, TOP_TUTORIALS,
    TOP_KEYWORDS, TOP__MAX };

static const struct lz_jfield top_fields[TOP__MAX] = {
	[TOP_FORMAT] =		{ "format", LZ_JT_STRING, LZ_JF_REQUIRED },
	[TOP_GENERATED_AT] =	{ "generated_at", LZ_JT_STRING | LZ_JT_NULL,
				  0 },
	[TOP_TOOLS] =		{ "tools", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	[TOP_TAGS] =		{ "tags", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	[TOP_PROMPTS] =		{ "prompts", LZ_JT_ARRAY, LZ_JF_REQUIRED },
	[TOP_COLLECTIONS] =	{ "collections", LZ_JT_ARRAY, 0 },
	[TOP_MODELS] =		{ "models", LZ_JT_ARRAY, 0 },
	[TOP_INTEGRATIONS] =	{ "integrations", LZ_JT_ARRAY, 0 },
	[TOP_TUTORIALS] =	{ "tutorials", LZ_JT_ARRAY, 0 },
	[TOP_KEYWORDS] =	{ "keywords", LZ_JT_ARRAY, 0 },
};

static void (*const loaders[TOP__MAX])(struct import *, const json_t *) = {
	[TOP_TOOLS] = imp_load_tools,
	[TOP_TAGS] = imp_load_tags,
	[TOP_PROMPTS] = imp_load_prompts,
	[TOP_COLLECTIONS] = imp_load_collections,
	[TOP_MODELS] = imp_load_models,
	[TOP_INTEGRATIONS] = imp_load_integrations,
	[TOP_TUTORIALS] = imp_load_tutorials,
	[TOP_KEYWORDS] = imp_load_keywords,
};

struct import *
import_load(const char *path, FILE *errs, int64_t now)
{
	struct import	*m;
	json_error_t	 je;
	const char	*fmt;
	json_t		*empty = json_array(), *list;
	size_t		 i;

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
		imp_bad(m, "(top)", "the file must hold one JSON object");
		goto fail;
	}
	if (imp_fields(m, m->root, top_fields, TOP__MAX, "") == -1)
		goto fail;
	fmt = json_string_value(json_object_get(m->root,
	    top_fields[TOP_FORMAT].name));
	if (strcmp(fmt, FORMAT) != 0) {
		imp_bad(m, "format", "'%s' is not a format this version reads "
		    "(\"" FORMAT "\")", fmt);
		goto fail;
	}
	for (i = 0; i < TOP__MAX; i++) {
		if (loaders[i] == NULL)
			continue;
		if ((list = json_object_get(m->root, top_fields[i].name)) ==
		    NULL)
			list = empty;
		loaders[i](m, list);
	}
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
write_prompts(struct import *m, struct lz_db *db, lz_progress_fn *progress)
{
	struct iprompt	**order;
	struct gram_build *gb;
	char		 *zh, *en;
	size_t		  i, k, n = 0;
	int		  rc = -1, put;

	order = xcalloc(m->nprompts + 1, sizeof(*order));
	for (i = 0; i < m->nprompts; i++)
		if (m->prompts[i].status != S_DRAFT)
			order[n++] = &m->prompts[i];
	qsort(order, n, sizeof(*order), recommended_cmp);
	gb = gram_build_new();
	for (i = 0; i < n; i++) {
		struct iprompt	*ip = order[i];
		struct pprompt	*p = &ip->p;

		if (progress != NULL)
			progress("writing prompts", i, n);
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
	if (progress != NULL)
		progress("writing the search index", 0, 0);
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
		if (m->prompts[ic->items[i].prompt].status == S_DRAFT)
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
			if (ip->status == S_DRAFT)
				continue;
			if (pstore_put_item(db, id, (long long)k + 1,
			    ip->p.id, ic->items[k].note,
			    ic->items[k].note_en) == -1)
				return -1;
		}
	}
	return 0;
}

/* What literal search finds a tool or a tag by, in b: its texts (NULL:
 * none), then its aliases. */
static const char *
search_aliased(struct lz_buf *b, const char *const *texts, size_t n,
    const json_t *aliases)
{
	json_t	*v;
	size_t	 i;

	lz_buf_reset(b);
	for (i = 0; i < n; i++)
		search_field(b, texts[i]);
	json_array_foreach(aliases, i, v)
		search_field(b, json_string_value(v));
	return lz_buf_str(b);
}

int
import_write(struct import *m, const char *dbpath, const char *source,
    int64_t now, lz_progress_fn *progress, char *err, size_t errlen)
{
	struct lz_db	 db;
	struct lz_buf	 b = LZ_BUF_INIT;
	char		 ts[32];
	size_t		 i;
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
		const char	*texts[] = { t->t.key, t->t.label,
		    t->t.label_en, t->t.description, t->t.description_en };

		t->t.search = search_aliased(&b, texts, LZ_NELEM(texts),
		    t->aliases);
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
		const char	*texts[] = { t->t.label, t->t.label_en };

		t->t.search = search_aliased(&b, texts, LZ_NELEM(texts),
		    t->aliases);
		if ((t->id = pstore_put_tag(&db, &t->t)) == -1)
			goto dberr;
		t->t.search = NULL;
	}
	for (i = 0; i < m->ntagnames; i++)
		if (pstore_put_tag_name(&db, m->tagnames[i].name,
		    m->tags[m->tagnames[i].owner].id) < 0)
			goto dberr;
	if (write_prompts(m, &db, progress) == -1)
		goto dberr;
	if (progress != NULL)
		progress("writing collections, models, tutorials, keywords", 0,
		    0);
	if (write_collections(m, &db) == -1)
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
	if (progress != NULL)
		progress("creating the indexes", 0, 0);
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
