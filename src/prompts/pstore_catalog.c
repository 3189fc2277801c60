/*
 * pstore_catalog.c -- the prompt library's SQL of everything around the
 * prompts: tags, tools, integrations, models, collections, tutorials and
 * keywords (pstore.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "pstore.h"
#include "util.h"

#define COLL_COLS \
	"id, slug, title, title_en, summary, summary_en, kicker, kicker_en, " \
	"unlock_cost, updated_at, translation"

/* The prompts of a tool visible by now (param n) beyond its base count. */
#define TOOL_COUNT(n) \
	"t.base_count + (SELECT count(*) FROM prompts p WHERE " \
	"p.tool_id = t.id AND " PSTORE_SCHEDULED("p", n) ")"

/* dialect: instr(a, b) > 0 is strpos(a, b) > 0 in PostgreSQL. */
#define HAS(col, n)	"(" n " IS NULL OR instr(" col ", " n ") > 0)"

#include "pstore_catalog.sql.h"

struct lz_sqlset pstore_catalog_sql = LZ_SQLSET("prompt catalog", sql);
static struct lz_sqlset *const set = &pstore_catalog_sql;

/*
 * The kinds of rows the lists hand out: each read by its column table
 * (db.h's lz_cols) into its struct, then given to the caller's fn.
 */
enum rowkind { R_TOOL, R_INTEG, R_MODEL, R_COLL, R_ITEM, R_TUT, R_KW };

union rowfn {
	void	(*tool)(const struct toolrow *, void *);
	void	(*integ)(const struct integrow *, void *);
	void	(*model)(const struct modelrow *, void *);
	void	(*coll)(const struct collrow *, void *);
	void	(*item)(const struct itemrow *, void *);
	void	(*tut)(const struct tutrow *, void *);
	void	(*kw)(const struct kwrow *, void *);
};

union row {
	struct toolrow	 tool;
	struct integrow	 integ;
	struct modelrow	 model;
	struct collrow	 coll;
	struct itemrow	 item;
	struct tutrow	 tut;
	struct kwrow	 kw;
};

static const struct lz_col tool_cols[] = {
	LZ_COL(toolrow, TEXT, key), LZ_COL(toolrow, TEXT, label),
	LZ_COL(toolrow, TEXT_OR_NULL, label_en), LZ_COL(toolrow, TEXT, medium),
	LZ_COL(toolrow, TEXT, description),
	LZ_COL(toolrow, TEXT_OR_NULL, description_en),
	LZ_COL(toolrow, LL, count)
};
static const struct lz_col integ_cols[] = {
	LZ_COL(integrow, TEXT, key), LZ_COL(integrow, TEXT, tool_key),
	LZ_COL(integrow, TEXT, name), LZ_COL(integrow, TEXT, vendor),
	LZ_COL(integrow, TEXT, category),
	LZ_COL(integrow, TEXT, generator_kind),
	LZ_COL(integrow, TEXT, generator_url), LZ_COL(integrow, TEXT, tool),
	LZ_COL(integrow, LL, count)
};
static const struct lz_col model_cols[] = {
	LZ_COL(modelrow, TEXT, key), LZ_COL(modelrow, TEXT, name),
	LZ_COL(modelrow, TEXT, category), LZ_COL(modelrow, TEXT, version),
	LZ_COL(modelrow, TEXT, vendor), LZ_COL(modelrow, TEXT, notes),
	LZ_COL(modelrow, TEXT_OR_NULL, notes_en),
	LZ_COL(modelrow, TEXT, source_url), LZ_COL(modelrow, TEXT, checked_on),
	LZ_COL(modelrow, TEXT, verified_on),
	LZ_COL(modelrow, TEXT, verification), LZ_COL(modelrow, TEXT, status),
	LZ_COL(modelrow, TEXT, tool_key), LZ_COL(modelrow, TEXT, generator_url),
	LZ_COL(modelrow, TEXT, record_type)
};
/* has_cost is set apart: column 8 is read twice. */
static const struct lz_col coll_cols[] = {
	LZ_COL(collrow, I64, id), LZ_COL(collrow, TEXT, slug),
	LZ_COL(collrow, TEXT, title), LZ_COL(collrow, TEXT_OR_NULL, title_en),
	LZ_COL(collrow, TEXT, summary),
	LZ_COL(collrow, TEXT_OR_NULL, summary_en),
	LZ_COL(collrow, TEXT_OR_NULL, kicker),
	LZ_COL(collrow, TEXT_OR_NULL, kicker_en),
	LZ_COL(collrow, LL, unlock_cost), LZ_COL(collrow, I64, updated_at),
	LZ_COL(collrow, TEXT, translation)
};
static const struct lz_col item_cols[] = {
	LZ_COL(itemrow, LL, position), LZ_COL(itemrow, TEXT, note),
	LZ_COL(itemrow, TEXT_OR_NULL, note_en), LZ_COL(itemrow, TEXT, slug),
	LZ_COL(itemrow, TEXT, title), LZ_COL(itemrow, TEXT_OR_NULL, title_en),
	LZ_COL(itemrow, INT, is_pro)
};
static const struct lz_col tut_cols[] = {
	LZ_COL(tutrow, TEXT, slug), LZ_COL(tutrow, TEXT, title),
	LZ_COL(tutrow, TEXT, summary), LZ_COL(tutrow, TEXT_OR_NULL, markdown),
	LZ_COL(tutrow, TEXT, source_url), LZ_COL(tutrow, I64, published_at),
	LZ_COL(tutrow, I64, updated_at)
};
static const struct lz_col kw_cols[] = {
	LZ_COL(kwrow, TEXT, slug), LZ_COL(kwrow, TEXT, term),
	LZ_COL(kwrow, TEXT, term_en), LZ_COL(kwrow, TEXT, category),
	LZ_COL(kwrow, TEXT, definition), LZ_COL(kwrow, TEXT, when_to_use),
	LZ_COL(kwrow, TEXT, how_to_ask), LZ_COL(kwrow, TEXT, gotcha),
	LZ_COL(kwrow, TEXT, related), LZ_COL(kwrow, TEXT, tags),
	LZ_COL(kwrow, I64, updated_at)
};

static const struct {
	const struct lz_col	*cols;
	size_t			 n;
} kinds[] = {
	[R_TOOL] = { tool_cols, LZ_NELEM(tool_cols) },
	[R_INTEG] = { integ_cols, LZ_NELEM(integ_cols) },
	[R_MODEL] = { model_cols, LZ_NELEM(model_cols) },
	[R_COLL] = { coll_cols, LZ_NELEM(coll_cols) },
	[R_ITEM] = { item_cols, LZ_NELEM(item_cols) },
	[R_TUT] = { tut_cols, LZ_NELEM(tut_cols) },
	[R_KW] = { kw_cols, LZ_NELEM(kw_cols) },
};

struct rows {
	enum rowkind	 kind;
	union rowfn	 fn;
	void		*arg;
};

static void
each(struct lz_stmt *st, void *arg)
{
	struct rows	*r = arg;
	union row	 w;

	lz_cols(st, kinds[r->kind].cols, kinds[r->kind].n, &w);
	switch (r->kind) {
	case R_TOOL:	r->fn.tool(&w.tool, r->arg); break;
	case R_INTEG:	r->fn.integ(&w.integ, r->arg); break;
	case R_MODEL:	r->fn.model(&w.model, r->arg); break;
	case R_COLL:
		w.coll.has_cost = !lz_col_null(st, 8);
		r->fn.coll(&w.coll, r->arg);
		break;
	case R_ITEM:	r->fn.item(&w.item, r->arg); break;
	case R_TUT:	r->fn.tut(&w.tut, r->arg); break;
	case R_KW:	r->fn.kw(&w.kw, r->arg); break;
	}
}

/* Runs st, handing each row of kind to fn(row, arg); the rows or -1. */
static long
rows(struct lz_stmt *st, enum rowkind kind, union rowfn fn, void *arg)
{
	struct rows	 r = { kind, fn, arg };

	return lz_each(st, each, &r);
}

/*
 * A page of a list: the rows of statement list with v[0..n) bound, to
 * fn(row, arg); then the size of the whole list, statement count with
 * v[0..nc).  The size, or -1.
 */
static long long
page(struct lz_db *db, int list, int count, const struct lz_val *v,
    size_t n, size_t nc, enum rowkind kind, union rowfn fn, void *arg)
{
	if (rows(lz_db_stmtv(db, set, list, v, n), kind, fn, arg) < 0)
		return -1;
	return pstore_count(lz_db_stmtv(db, set, count, v, nc));
}

/* The item called slug of statement i: 1, 0, -1. */
static int
by_slug(struct lz_db *db, int i, const char *slug, enum rowkind kind,
    union rowfn fn, void *arg)
{
	const struct lz_val	 v = LZ_TEXT(slug);

	return (int)rows(lz_db_stmtv(db, set, i, &v, 1), kind, fn, arg);
}

/* ---- tags ------------------------------------------------------------ */

struct tagent {
	int64_t		 id;
	char		*slug, *label, *label_en;
	long long	 count;
};

struct tagents {
	struct tagent	*v;
	size_t		 n;
};

static int
tagent_by_id(const void *key, const void *elem)
{
	int64_t	 id = *(const int64_t *)key;
	int64_t	 other = ((const struct tagent *)elem)->id;

	return id < other ? -1 : id > other;
}

/* Most used first, then by slug (byte order, as SQLite's BINARY). */
static int
tagent_order(const void *a, const void *b)
{
	const struct tagent	*x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->slug, y->slug);
}

static void
tagent_free(struct tagent *e)
{
	free(e->slug);
	free(e->label);
	free(e->label_en);
}

static void
add_tag(struct lz_stmt *st, void *arg)
{
	struct tagents	*t = arg;
	struct tagent	*e;
	const char	*en;

	t->v = xreallocarray(t->v, t->n + 1, sizeof(*t->v));
	e = &t->v[t->n++];
	e->id = lz_col_i64(st, 0);
	e->slug = xstrdup(lz_col_text(st, 1));
	e->label = xstrdup(lz_col_text(st, 2));
	en = lz_col_text_or_null(st, 3);
	e->label_en = en ? xstrdup(en) : NULL;
	e->count = lz_col_i64(st, 4);
}

static void
add_scheduled(struct lz_stmt *st, void *arg)
{
	struct tagents	*t = arg;
	struct tagent	*e;
	int64_t		 id = lz_col_i64(st, 0);

	if (t->n > 0 && (e = bsearch(&id, t->v, t->n, sizeof(*t->v),
	    tagent_by_id)) != NULL)
		e->count += lz_col_i64(st, 1);
}

/* Rows [from, from + limit) of t to fn. */
static void
tags_page(const struct tagents *t, size_t from, long limit,
    void (*fn)(const struct tagrow *, void *), void *arg)
{
	struct tagrow	 r;
	size_t		 i;

	for (i = from; i < t->n && (long)(i - from) < limit; i++) {
		r.slug = t->v[i].slug;
		r.label = t->v[i].label;
		r.label_en = t->v[i].label_en;
		r.count = t->v[i].count;
		fn(&r, arg);
	}
}

long long
pstore_tags(struct lz_db *db, const char *q, long long min_count, int64_t now,
    long long offset, long limit, void (*fn)(const struct tagrow *, void *),
    void *arg)
{
	const struct lz_val	 vq = LZ_TEXT(q), vnow = LZ_I64(now);
	const struct lz_val	 v[] = { LZ_TEXT(q), LZ_I64(min_count),
	    LZ_I64(limit), LZ_I64(offset) };
	struct tagents		 t = { NULL, 0 };
	size_t			 kept, i;
	long long		 total = -1, due;

	/* Scheduled prompts visible since the import change counts and
	 * so the order: then count and sort here. */
	if ((due = pstore_count(lz_db_stmtv(db, set, RD_TAGS_DUE, &vnow,
	    1))) < 0)
		return -1;
	if (due == 0) {		/* the import's order and counts */
		if (lz_each(lz_db_stmtv(db, set, RD_TAGS_RANKED, v,
		    LZ_NELEM(v)), add_tag, &t) >= 0 &&
		    (total = pstore_count(lz_db_stmtv(db, set,
		    RD_TAGS_RANKED_COUNT, v, 2))) >= 0)
			tags_page(&t, 0, limit, fn, arg);
		goto out;
	}
	if (lz_each(lz_db_stmtv(db, set, RD_TAGS, &vq, 1), add_tag, &t) < 0 ||
	    lz_each(lz_db_stmtv(db, set, RD_TAGS_SCHEDULED, &vnow, 1),
	    add_scheduled, &t) < 0)
		goto out;
	for (i = 0, kept = 0; i < t.n; i++)
		if (t.v[i].count >= min_count)
			t.v[kept++] = t.v[i];
		else
			tagent_free(&t.v[i]);
	t.n = kept;
	if (t.n > 1)
		qsort(t.v, t.n, sizeof(*t.v), tagent_order);
	tags_page(&t, (size_t)(offset < (long long)t.n ? offset :
	    (long long)t.n), limit, fn, arg);
	total = (long long)t.n;
out:
	for (i = 0; i < t.n; i++)
		tagent_free(&t.v[i]);
	free(t.v);
	return total;
}

/* ---- tools, integrations, models ------------------------------------- */

long long
pstore_tools(struct lz_db *db, const char *medium, const char *q, int64_t now,
    long long offset, long limit, void (*fn)(const struct toolrow *, void *),
    void *arg)
{
	const struct lz_val	 v[] = { LZ_TEXT(medium), LZ_TEXT(q),
	    LZ_I64(limit), LZ_I64(offset), LZ_I64(now) };

	return page(db, RD_TOOLS, RD_TOOLS_COUNT, v, LZ_NELEM(v), 2, R_TOOL,
	    (union rowfn){ .tool = fn }, arg);
}

long
pstore_integrations(struct lz_db *db, int64_t now,
    void (*fn)(const struct integrow *, void *), void *arg)
{
	const struct lz_val	 v = LZ_I64(now);

	return rows(lz_db_stmtv(db, set, RD_INTEGRATIONS, &v, 1),
	    R_INTEG, (union rowfn){ .integ = fn }, arg);
}

long long
pstore_models(struct lz_db *db, const char *category, const char *q,
    long long offset, long limit, void (*fn)(const struct modelrow *, void *),
    void *arg)
{
	const struct lz_val	 v[] = { LZ_TEXT(category), LZ_TEXT(q),
	    LZ_I64(limit), LZ_I64(offset) };

	return page(db, RD_MODELS, RD_MODELS_COUNT, v, LZ_NELEM(v), 2,
	    R_MODEL, (union rowfn){ .model = fn }, arg);
}

/* ---- collections ----------------------------------------------------- */

long long
pstore_collections(struct lz_db *db, long long offset, long limit,
    void (*fn)(const struct collrow *, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(limit), LZ_I64(offset) };

	return page(db, RD_COLLECTIONS, RD_COLLECTIONS_COUNT, v, LZ_NELEM(v),
	    0, R_COLL, (union rowfn){ .coll = fn }, arg);
}

int
pstore_collection(struct lz_db *db, const char *slug,
    void (*fn)(const struct collrow *, void *), void *arg)
{
	return by_slug(db, RD_COLLECTION, slug, R_COLL,
	    (union rowfn){ .coll = fn }, arg);
}

long long
pstore_collection_items(struct lz_db *db, int64_t id, int64_t now,
    long long offset, long limit, void (*fn)(const struct itemrow *, void *),
    void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(id), LZ_I64(now), LZ_I64(limit),
	    LZ_I64(offset) };

	return page(db, RD_ITEMS, RD_ITEMS_COUNT, v, LZ_NELEM(v), 2, R_ITEM,
	    (union rowfn){ .item = fn }, arg);
}

/* ---- tutorials and keywords ------------------------------------------ */

long long
pstore_tutorials(struct lz_db *db, const char *q, long long offset,
    long limit, void (*fn)(const struct tutrow *, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_TEXT(q), LZ_I64(limit),
	    LZ_I64(offset) };

	return page(db, RD_TUTORIALS, RD_TUTORIALS_COUNT, v, LZ_NELEM(v), 1,
	    R_TUT, (union rowfn){ .tut = fn }, arg);
}

int
pstore_tutorial(struct lz_db *db, const char *slug,
    void (*fn)(const struct tutrow *, void *), void *arg)
{
	return by_slug(db, RD_TUTORIAL, slug, R_TUT,
	    (union rowfn){ .tut = fn }, arg);
}

long long
pstore_keywords(struct lz_db *db, const char *q, const char *category,
    long long offset, long limit, void (*fn)(const struct kwrow *, void *),
    void *arg)
{
	const struct lz_val	 v[] = { LZ_TEXT(q), LZ_TEXT(category),
	    LZ_I64(limit), LZ_I64(offset) };

	return page(db, RD_KEYWORDS, RD_KEYWORDS_COUNT, v, LZ_NELEM(v), 2,
	    R_KW, (union rowfn){ .kw = fn }, arg);
}

int
pstore_keyword(struct lz_db *db, const char *slug,
    void (*fn)(const struct kwrow *, void *), void *arg)
{
	return by_slug(db, RD_KEYWORD, slug, R_KW,
	    (union rowfn){ .kw = fn }, arg);
}
