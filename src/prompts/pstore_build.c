/*
 * pstore_build.c -- a new prompt library database, for "lzctl prompts
 * import" (pstore.h): the rows, then the orders, counts and stored sets
 * the service reads.
 */
#include "config.h"

#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "grams.h"
#include "pstore.h"
#include "util.h"

#include "pstore_build.sql.h"

struct lz_sqlset pstore_build_sql = LZ_SQLSET("prompt build", sql);
static struct lz_sqlset *const set = &pstore_build_sql;

/* Run once the rows are in: the orders and counts the service reads. */
static const char *const bd_finish =
	/* updated: newest first; rating: best average, then most ratings,
	 * unrated last; ties in recommended order (id). */
	"UPDATE prompts SET upd_rank = r.n FROM (SELECT id, row_number() "
	"OVER (ORDER BY updated_at DESC, id) AS n FROM prompts) AS r "
	"WHERE r.id = prompts.id;"
	"UPDATE prompts SET rating_rank = r.n FROM (SELECT prompt_id AS id, "
	"row_number() OVER (ORDER BY rating_avg IS NULL, rating_avg DESC, "
	"rating_count DESC, prompt_id) AS n FROM prompt_text) AS r "
	"WHERE r.id = prompts.id;"
	"INSERT INTO prompt_facets (category, tool_id, is_pro, n) "
	"SELECT category, tool_id, is_pro, count(*) FROM prompts "
	"WHERE visible_at = 0 GROUP BY category, tool_id, is_pro;"
	"UPDATE tags SET base_count = (SELECT count(*) FROM prompt_tags pt "
	"JOIN prompts p ON p.id = pt.prompt_id WHERE pt.tag_id = tags.id "
	"AND p.visible_at = 0);"
	"UPDATE tools SET base_count = (SELECT count(*) FROM prompts p "
	"WHERE p.tool_id = tools.id AND p.visible_at = 0);"
	/* The tag list's order (pstore_tags); slugs compare as bytes. */
	"UPDATE tags SET rank = r.n FROM (SELECT id, row_number() OVER "
	"(ORDER BY base_count DESC, slug) AS n FROM tags) AS r "
	"WHERE r.id = tags.id;";

static const struct {
	const char	*sort;
	int		 st;
} bd_orders[] = {
	{ "updated", BD_ORDER_UPDATED },
	{ "rating", BD_ORDER_RATING },
};

/* Runs statement i with v[0..n) bound: 0 or -1. */
static int
run(struct lz_db *db, int i, const struct lz_val *v, size_t n)
{
	return lz_run_ok(lz_db_stmtv(db, set, i, v, n));
}

int
pstore_create(struct lz_db *db, const char *path, char *err, size_t errlen)
{
	int	 from, to;

	/* A new file that nobody reads until it is renamed into place: no
	 * journal while building (a failed build is thrown away). */
	if (lz_db_open(db, path, LZ_DB_CREATE | LZ_DB_SCRATCH, err,
	    errlen) == -1)
		return -1;
	if (lz_db_migrate(db, lz_prompts_migrations, lz_prompts_nmigrations,
	    &from, &to, err, errlen) == -1) {
		lz_db_close(db);
		return -1;
	}
	return 0;
}

int
pstore_build_begin(struct lz_db *db)
{
	return lz_db_begin(db);
}

/* A growing vector of prompt ids. */
struct idv {
	uint32_t	*v;
	size_t		 n, cap;
};

static void
idv_add(struct idv *ids, int64_t id)
{
	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? ids->cap * 2 : 1024;
		ids->v = xreallocarray(ids->v, ids->cap, sizeof(*ids->v));
	}
	ids->v[ids->n++] = (uint32_t)id;
}

static void
add_id(struct lz_stmt *st, void *arg)
{
	idv_add(arg, lz_col_i64(st, 0));
}

static int
put_set(struct lz_db *db, const char *name, const struct idv *ids,
    size_t nbits)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	struct lz_val	 v[2] = { LZ_TEXT(name) };
	int		 rc;

	pset_encode(&b, ids->v, ids->n, nbits);
	v[1] = (struct lz_val)LZ_BLOB(b.p, b.len);
	rc = run(db, BD_SET, v, LZ_NELEM(v));
	lz_buf_free(&b);
	return rc;
}

/* prompt_sets: the rows of BD_SETS, a set per name. */
struct sets {
	struct lz_db	*db;
	size_t		 nbits;
	char		*name;
	struct idv	 ids;
	int		 rc;
};

static void
add_set_row(struct lz_stmt *st, void *arg)
{
	struct sets	*s = arg;
	const char	*name = lz_col_text(st, 0);

	if (s->rc == -1)
		return;
	if (s->name != NULL && strcmp(s->name, name) != 0) {
		s->rc = put_set(s->db, s->name, &s->ids, s->nbits);
		s->ids.n = 0;
	}
	if (s->ids.n == 0) {
		free(s->name);
		s->name = xstrdup(name);
	}
	idv_add(&s->ids, lz_col_i64(st, 1));
}

static int
build_sets(struct lz_db *db, size_t nbits)
{
	struct sets	 s;

	memset(&s, 0, sizeof(s));
	s.db = db;
	s.nbits = nbits;
	if (lz_each(lz_db_stmt(db, set, BD_SETS), add_set_row, &s) == -1)
		s.rc = -1;
	if (s.rc == 0 && s.ids.n > 0)
		s.rc = put_set(db, s.name, &s.ids, nbits);
	free(s.ids.v);
	free(s.name);
	return s.rc;
}

/* prompt_orders: the ids of each order, as 32-bit little-endian. */
static int
build_orders(struct lz_db *db)
{
	struct lz_val	 v[2];
	struct idv	 ids = { NULL, 0, 0 };
	size_t		 k, i;
	int		 rc = 0;

	for (k = 0; k < LZ_NELEM(bd_orders) && rc == 0; k++) {
		ids.n = 0;
		if (lz_each(lz_db_stmt(db, set, bd_orders[k].st), add_id,
		    &ids) == -1) {
			rc = -1;
			break;
		}
		for (i = 0; i < ids.n; i++)
			ids.v[i] = htole32(ids.v[i]);
		v[0] = (struct lz_val)LZ_TEXT(bd_orders[k].sort);
		v[1] = (struct lz_val)LZ_BLOB(ids.v, ids.n * 4);
		rc = run(db, BD_ORDER, v, LZ_NELEM(v));
	}
	free(ids.v);
	return rc;
}

/* The size of the stored sets: ids [0, max id + 1). */
static long long
bits_of(struct lz_db *db)
{
	return pstore_count(lz_db_stmt(db, set, BD_BITS));
}

static int
put_gram(void *arg, uint64_t key, long long ndocs, const void *docs,
    size_t docslen, const void *pos, size_t poslen)
{
	const struct lz_val	 v[] = { LZ_I64((int64_t)key), LZ_I64(ndocs),
	    LZ_I64_IF(pos != NULL, (int64_t)poslen), LZ_BLOB(docs, docslen) };
	const struct lz_val	 p[] = { LZ_I64((int64_t)key),
	    LZ_BLOB(pos, poslen) };

	if (run(arg, BD_GRAM_DOCS, v, LZ_NELEM(v)) == -1)
		return -1;
	return pos == NULL ? 0 : run(arg, BD_GRAM_POS, p, LZ_NELEM(p));
}

int
pstore_put_grams(struct lz_db *db, struct gram_build *gb)
{
	long long	 nbits;

	if ((nbits = bits_of(db)) < 0)
		return -1;
	return gram_build_each(gb, (size_t)nbits, put_gram, db) == 0 ? 0 : -1;
}

int
pstore_build_end(struct lz_db *db, char *err, size_t errlen)
{
	long long	 nbits;

	if (lz_db_exec(db, bd_finish) == -1 || (nbits = bits_of(db)) < 0 ||
	    build_sets(db, (size_t)nbits) == -1 || build_orders(db) == -1 ||
	    lz_db_commit(db) == -1) {
		snprintf(err, errlen, "finishing the database: %s",
		    lz_db_error(db));
		lz_db_rollback(db);
		return -1;
	}
	return lz_db_seal(db, err, errlen);
}

int
pstore_put_meta(struct lz_db *db, const char *key, const char *value)
{
	const struct lz_val	 v[] = { LZ_TEXT(key), LZ_TEXT(value) };

	return run(db, BD_META, v, LZ_NELEM(v));
}

int64_t
pstore_put_tool(struct lz_db *db, const struct ptool *t)
{
	return lz_run_id(LZ_STMT(db, set, BD_TOOL, LZ_TEXT(t->key),
	    LZ_TEXT(t->label), LZ_TEXT(t->label_en), LZ_TEXT(t->medium),
	    LZ_TEXT(t->description), LZ_TEXT(t->description_en),
	    LZ_TEXT(t->search)));
}

int
pstore_put_tool_name(struct lz_db *db, const char *name, int64_t tool)
{
	const struct lz_val	 v[] = { LZ_TEXT(name), LZ_I64(tool) };
	int			 rc;

	rc = lz_run_changed(lz_db_stmtv(db, set, BD_TOOL_NAME, v,
	    LZ_NELEM(v)));
	return rc == -1 ? -1 : rc == 0;
}

int64_t
pstore_put_tag(struct lz_db *db, const struct ptag *t)
{
	return lz_run_id(LZ_STMT(db, set, BD_TAG, LZ_TEXT(t->slug),
	    LZ_TEXT(t->label), LZ_TEXT(t->label_en), LZ_TEXT(t->search)));
}

int64_t
pstore_put_tag_name(struct lz_db *db, const char *name, int64_t tag)
{
	const struct lz_val	 v[] = { LZ_TEXT(name), LZ_I64(tag) };
	int			 rc;

	if ((rc = lz_run_changed(lz_db_stmtv(db, set, BD_TAG_NAME, v,
	    LZ_NELEM(v)))) != 0)
		return rc == -1 ? -1 : 0;
	return lz_run_id(lz_db_stmtv(db, set, BD_TAG_NAME_OWNER, v, 1));
}

int
pstore_put_prompt(struct lz_db *db, const struct pprompt *p)
{
	const struct lz_val	 prompt[] = { LZ_I64(p->id),
	    LZ_I64(p->visible_at), LZ_I64(p->is_pro), LZ_TEXT(p->category),
	    LZ_I64(p->tool_id), LZ_I64(p->updated_at) };
	const struct lz_val	 text[] = { LZ_I64(p->id), LZ_TEXT(p->slug),
	    LZ_TEXT(p->difficulty), LZ_TEXT(p->tags),
	    p->rated ? (struct lz_val)LZ_DOUBLE(p->rating_avg) :
	    (struct lz_val)LZ_NULLV, LZ_I64(p->rating_count),
	    LZ_TEXT(p->title), LZ_TEXT(p->title_en), LZ_TEXT(p->summary),
	    LZ_TEXT(p->summary_en) };
	const struct lz_val	 detail[] = { LZ_I64(p->id), LZ_TEXT(p->detail),
	    LZ_TEXT(p->detail_en) };

	if (run(db, BD_PROMPT, prompt, LZ_NELEM(prompt)) == -1 ||
	    run(db, BD_PROMPT_TEXT, text, LZ_NELEM(text)) == -1)
		return -1;
	return run(db, BD_PROMPT_DETAIL, detail, LZ_NELEM(detail));
}

int
pstore_put_prompt_tag(struct lz_db *db, int64_t tag, int64_t prompt)
{
	const struct lz_val	 v[] = { LZ_I64(tag), LZ_I64(prompt) };

	return run(db, BD_PROMPT_TAG, v, LZ_NELEM(v));
}

int64_t
pstore_put_collection(struct lz_db *db, const struct pcoll *c)
{
	return lz_run_id(LZ_STMT(db, set, BD_COLLECTION, LZ_TEXT(c->slug),
	    LZ_TEXT(c->title), LZ_TEXT(c->title_en), LZ_TEXT(c->summary),
	    LZ_TEXT(c->summary_en), LZ_TEXT(c->kicker), LZ_TEXT(c->kicker_en),
	    LZ_I64_IF(c->has_cost, c->unlock_cost), LZ_I64(c->updated_at),
	    LZ_TEXT(c->translation)));
}

int
pstore_put_item(struct lz_db *db, int64_t coll, long long position,
    int64_t prompt, const char *note, const char *note_en)
{
	const struct lz_val	 v[] = { LZ_I64(coll), LZ_I64(position),
	    LZ_I64(prompt), LZ_TEXT(note), LZ_TEXT(note_en) };

	return run(db, BD_ITEM, v, LZ_NELEM(v));
}

int
pstore_put_model(struct lz_db *db, const struct modelrow *m,
    const char *search)
{
	const struct lz_val	 v[] = { LZ_TEXT(m->key), LZ_TEXT(m->name),
	    LZ_TEXT(m->category), LZ_TEXT(m->version), LZ_TEXT(m->vendor),
	    LZ_TEXT(m->notes), LZ_TEXT(m->notes_en), LZ_TEXT(m->source_url),
	    LZ_TEXT(m->checked_on), LZ_TEXT(m->verified_on),
	    LZ_TEXT(m->verification), LZ_TEXT(m->status),
	    LZ_TEXT(m->tool_key), LZ_TEXT(m->generator_url),
	    LZ_TEXT(m->record_type), LZ_TEXT(search) };

	return run(db, BD_MODEL, v, LZ_NELEM(v));
}

int
pstore_put_integration(struct lz_db *db, const struct integrow *i,
    int64_t tool_id)
{
	const struct lz_val	 v[] = { LZ_TEXT(i->key), LZ_TEXT(i->tool_key),
	    LZ_I64(tool_id), LZ_TEXT(i->name), LZ_TEXT(i->vendor),
	    LZ_TEXT(i->category), LZ_TEXT(i->generator_kind),
	    LZ_TEXT(i->generator_url) };

	return run(db, BD_INTEGRATION, v, LZ_NELEM(v));
}

int
pstore_put_tutorial(struct lz_db *db, const struct tutrow *t,
    const char *search)
{
	const struct lz_val	 v[] = { LZ_TEXT(t->slug), LZ_TEXT(t->title),
	    LZ_TEXT(t->summary), LZ_TEXT(t->markdown), LZ_TEXT(t->source_url),
	    LZ_I64(t->published_at), LZ_I64(t->updated_at), LZ_TEXT(search) };

	return run(db, BD_TUTORIAL, v, LZ_NELEM(v));
}

int
pstore_put_keyword(struct lz_db *db, const struct kwrow *k,
    const char *search)
{
	const struct lz_val	 v[] = { LZ_TEXT(k->slug), LZ_TEXT(k->term),
	    LZ_TEXT(k->term_en), LZ_TEXT(k->category),
	    LZ_TEXT(k->definition), LZ_TEXT(k->when_to_use),
	    LZ_TEXT(k->how_to_ask), LZ_TEXT(k->gotcha), LZ_TEXT(k->related),
	    LZ_TEXT(k->tags), LZ_I64(k->updated_at), LZ_TEXT(search) };

	return run(db, BD_KEYWORD, v, LZ_NELEM(v));
}
