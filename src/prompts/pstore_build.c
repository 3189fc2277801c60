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

enum {
	BD_META,
	BD_TOOL,
	BD_TOOL_NAME,
	BD_TAG,
	BD_TAG_NAME,
	BD_TAG_NAME_OWNER,
	BD_PROMPT,
	BD_PROMPT_TEXT,
	BD_PROMPT_DETAIL,
	BD_GRAM_DOCS,
	BD_GRAM_POS,
	BD_SET,
	BD_ORDER,
	BD_PROMPT_TAG,
	BD_COLLECTION,
	BD_ITEM,
	BD_MODEL,
	BD_INTEGRATION,
	BD_TUTORIAL,
	BD_KEYWORD,
	BD_BITS,
	BD_SETS,
	BD_ORDER_UPDATED,
	BD_ORDER_RATING,
	BD__MAX
};

static const struct lz_sql sql[BD__MAX] = {
	[BD_META] = { "meta",
	    "INSERT INTO meta (key, value) VALUES ($1, $2)" },
	[BD_TOOL] = { "tool",
	    "INSERT INTO tools (key, label, label_en, medium, description, "
	    "description_en, search, base_count) VALUES ($1, $2, $3, $4, $5, "
	    "$6, $7, 0) RETURNING id" },
	[BD_TOOL_NAME] = { "tool name",
	    "INSERT INTO tool_names (name, tool_id) VALUES ($1, $2) "
	    "ON CONFLICT (name) DO NOTHING" },
	[BD_TAG] = { "tag",
	    "INSERT INTO tags (slug, label, label_en, search, base_count) "
	    "VALUES ($1, $2, $3, $4, 0) RETURNING id" },
	[BD_TAG_NAME] = { "tag name",
	    "INSERT INTO tag_names (name, tag_id) VALUES ($1, $2) "
	    "ON CONFLICT (name) DO NOTHING" },
	[BD_TAG_NAME_OWNER] = { "tag name owner",
	    "SELECT tag_id FROM tag_names WHERE name = $1" },
	[BD_PROMPT] = { "prompt",
	    "INSERT INTO prompts (id, visible_at, is_pro, category, tool_id, "
	    "updated_at, upd_rank, rating_rank) VALUES ($1, $2, $3, $4, $5, "
	    "$6, 0, 0)" },
	[BD_PROMPT_TEXT] = { "prompt text",
	    "INSERT INTO prompt_text (prompt_id, slug, difficulty, tags, "
	    "rating_avg, rating_count, title, title_en, summary, summary_en) "
	    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)" },
	[BD_PROMPT_DETAIL] = { "prompt detail",
	    "INSERT INTO prompt_detail (prompt_id, detail, detail_en) "
	    "VALUES ($1, $2, $3)" },
	[BD_GRAM_DOCS] = { "gram",
	    "INSERT INTO gram_docs (key, ndocs, posbytes, docs) VALUES ($1, "
	    "$2, $3, $4)" },
	[BD_GRAM_POS] = { "trigram positions",
	    "INSERT INTO gram_pos (key, pos) VALUES ($1, $2)" },
	[BD_SET] = { "prompt set",
	    "INSERT INTO prompt_sets (name, docs) VALUES ($1, $2)" },
	[BD_ORDER] = { "prompt order",
	    "INSERT INTO prompt_orders (sort, ids) VALUES ($1, $2)" },
	[BD_PROMPT_TAG] = { "prompt tag",
	    "INSERT INTO prompt_tags (tag_id, prompt_id) VALUES ($1, $2)" },
	[BD_COLLECTION] = { "collection",
	    "INSERT INTO collections (slug, title, title_en, summary, "
	    "summary_en, kicker, kicker_en, unlock_cost, updated_at, "
	    "translation) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
	    "RETURNING id" },
	[BD_ITEM] = { "collection item",
	    "INSERT INTO collection_items (collection_id, position, "
	    "prompt_id, note, note_en) VALUES ($1, $2, $3, $4, $5)" },
	[BD_MODEL] = { "model",
	    "INSERT INTO models (" PSTORE_MODEL_COLS ", search) VALUES ($1, "
	    "$2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, "
	    "$16)" },
	[BD_INTEGRATION] = { "integration",
	    "INSERT INTO integrations (key, tool_key, tool_id, name, vendor, "
	    "category, generator_kind, generator_url) VALUES ($1, $2, $3, $4, "
	    "$5, $6, $7, $8)" },
	[BD_TUTORIAL] = { "tutorial",
	    "INSERT INTO tutorials (slug, title, summary, markdown, "
	    "source_url, published_at, updated_at, search) VALUES ($1, $2, "
	    "$3, $4, $5, $6, $7, $8)" },
	[BD_KEYWORD] = { "keyword",
	    "INSERT INTO keywords (" PSTORE_KW_COLS ", search) VALUES ($1, $2, "
	    "$3, $4, $5, $6, $7, $8, $9, $10, $11, $12)" },

	/* The size of the stored sets: ids [0, max id + 1). */
	[BD_BITS] = { "prompt ids",
	    "SELECT coalesce(max(id), 0) + 1 FROM prompts" },
	/* The stored sets of prompt_sets, as (name, id) in order. */
	[BD_SETS] = { "prompt sets",
	    "SELECT 'published', id FROM prompts WHERE visible_at = 0 "
	    "UNION ALL SELECT 'free', id FROM prompts WHERE is_pro = 0 "
	    "UNION ALL SELECT 'category:' || category, id FROM prompts "
	    "UNION ALL SELECT 'tool:' || tool_id, id FROM prompts "
	    "UNION ALL SELECT 'tag:' || tag_id, prompt_id FROM prompt_tags "
	    "ORDER BY 1, 2" },
	/* The orders of prompt_orders. */
	[BD_ORDER_UPDATED] = { "updated order",
	    "SELECT id FROM prompts ORDER BY upd_rank" },
	[BD_ORDER_RATING] = { "rating order",
	    "SELECT id FROM prompts ORDER BY rating_rank" },
};

struct lz_sqlset pstore_build_sql = LZ_SQLSET("prompt build", sql);

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
	"WHERE p.tool_id = tools.id AND p.visible_at = 0);";

static const struct {
	const char	*sort;
	int		 st;
} bd_orders[] = {
	{ "updated", BD_ORDER_UPDATED },
	{ "rating", BD_ORDER_RATING },
};

static struct lz_stmt *
stmt(struct lz_db *db, int i)
{
	return lz_db_stmt(db, &pstore_build_sql, (size_t)i);
}

/* Runs st: 0 or -1. */
static int
run(struct lz_stmt *st)
{
	return lz_run(st) < 0 ? -1 : 0;
}

/* Runs an INSERT ... RETURNING id: the id or -1. */
static int64_t
run_id(struct lz_stmt *st)
{
	int64_t	 id;

	return lz_one_i64(st, &id) == 1 ? id : -1;
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
	struct lz_stmt	*st = stmt(db, BD_SET);
	int		 rc;

	pset_encode(&b, ids->v, ids->n, nbits);
	lz_bind_text(st, 1, name);
	lz_bind_blob(st, 2, b.p, b.len);
	rc = run(st);
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
	if (lz_each(stmt(db, BD_SETS), add_set_row, &s) == -1)
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
	struct lz_stmt	*st;
	struct idv	 ids = { NULL, 0, 0 };
	size_t		 k, i;
	int		 rc = 0;

	for (k = 0; k < LZ_NELEM(bd_orders) && rc == 0; k++) {
		ids.n = 0;
		if (lz_each(stmt(db, bd_orders[k].st), add_id, &ids) == -1) {
			rc = -1;
			break;
		}
		for (i = 0; i < ids.n; i++)
			ids.v[i] = htole32(ids.v[i]);
		st = stmt(db, BD_ORDER);
		lz_bind_text(st, 1, bd_orders[k].sort);
		lz_bind_blob(st, 2, ids.v, ids.n * 4);
		rc = run(st);
	}
	free(ids.v);
	return rc;
}

/* The size of the stored sets: ids [0, max id + 1). */
static long long
bits_of(struct lz_db *db)
{
	return pstore_count(stmt(db, BD_BITS));
}

static int
put_gram(void *arg, uint64_t key, long long ndocs, const void *docs,
    size_t docslen, const void *pos, size_t poslen)
{
	struct lz_db	*db = arg;
	struct lz_stmt	*st;

	st = stmt(db, BD_GRAM_DOCS);
	lz_bind_i64(st, 1, (int64_t)key);
	lz_bind_i64(st, 2, ndocs);
	if (pos != NULL)
		lz_bind_i64(st, 3, (int64_t)poslen);
	lz_bind_blob(st, 4, docs, docslen);
	if (run(st) == -1)
		return -1;
	if (pos == NULL)
		return 0;
	st = stmt(db, BD_GRAM_POS);
	lz_bind_i64(st, 1, (int64_t)key);
	lz_bind_blob(st, 2, pos, poslen);
	return run(st);
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
	struct lz_stmt	*st = stmt(db, BD_META);

	lz_bind_text(st, 1, key);
	lz_bind_text(st, 2, value);
	return run(st);
}

int64_t
pstore_put_tool(struct lz_db *db, const struct ptool *t)
{
	struct lz_stmt	*st = stmt(db, BD_TOOL);

	lz_bind_text(st, 1, t->key);
	lz_bind_text(st, 2, t->label);
	lz_bind_text(st, 3, t->label_en);
	lz_bind_text(st, 4, t->medium);
	lz_bind_text(st, 5, t->description);
	lz_bind_text(st, 6, t->description_en);
	lz_bind_text(st, 7, t->search);
	return run_id(st);
}

int
pstore_put_tool_name(struct lz_db *db, const char *name, int64_t tool)
{
	struct lz_stmt	*st = stmt(db, BD_TOOL_NAME);
	long long	 n;

	lz_bind_text(st, 1, name);
	lz_bind_i64(st, 2, tool);
	if ((n = lz_run(st)) < 0)
		return -1;
	return n == 0;
}

int64_t
pstore_put_tag(struct lz_db *db, const struct ptag *t)
{
	struct lz_stmt	*st = stmt(db, BD_TAG);

	lz_bind_text(st, 1, t->slug);
	lz_bind_text(st, 2, t->label);
	lz_bind_text(st, 3, t->label_en);
	lz_bind_text(st, 4, t->search);
	return run_id(st);
}

int64_t
pstore_put_tag_name(struct lz_db *db, const char *name, int64_t tag)
{
	struct lz_stmt	*st = stmt(db, BD_TAG_NAME);
	long long	 n;

	lz_bind_text(st, 1, name);
	lz_bind_i64(st, 2, tag);
	if ((n = lz_run(st)) != 0)
		return n < 0 ? -1 : 0;
	st = stmt(db, BD_TAG_NAME_OWNER);
	lz_bind_text(st, 1, name);
	return run_id(st);
}

int
pstore_put_prompt(struct lz_db *db, const struct pprompt *p)
{
	struct lz_stmt	*st;

	st = stmt(db, BD_PROMPT);
	lz_bind_i64(st, 1, p->id);
	lz_bind_i64(st, 2, p->visible_at);
	lz_bind_int(st, 3, p->is_pro);
	lz_bind_text(st, 4, p->category);
	lz_bind_i64(st, 5, p->tool_id);
	lz_bind_i64(st, 6, p->updated_at);
	if (run(st) == -1)
		return -1;

	st = stmt(db, BD_PROMPT_TEXT);
	lz_bind_i64(st, 1, p->id);
	lz_bind_text(st, 2, p->slug);
	lz_bind_text(st, 3, p->difficulty);
	lz_bind_text(st, 4, p->tags);
	if (p->rated)
		lz_bind_double(st, 5, p->rating_avg);
	lz_bind_i64(st, 6, p->rating_count);
	lz_bind_text(st, 7, p->title);
	lz_bind_text(st, 8, p->title_en);
	lz_bind_text(st, 9, p->summary);
	lz_bind_text(st, 10, p->summary_en);
	if (run(st) == -1)
		return -1;

	st = stmt(db, BD_PROMPT_DETAIL);
	lz_bind_i64(st, 1, p->id);
	lz_bind_text(st, 2, p->detail);
	lz_bind_text(st, 3, p->detail_en);
	return run(st);
}

int
pstore_put_prompt_tag(struct lz_db *db, int64_t tag, int64_t prompt)
{
	struct lz_stmt	*st = stmt(db, BD_PROMPT_TAG);

	lz_bind_i64(st, 1, tag);
	lz_bind_i64(st, 2, prompt);
	return run(st);
}

int64_t
pstore_put_collection(struct lz_db *db, const struct pcoll *c)
{
	struct lz_stmt	*st = stmt(db, BD_COLLECTION);

	lz_bind_text(st, 1, c->slug);
	lz_bind_text(st, 2, c->title);
	lz_bind_text(st, 3, c->title_en);
	lz_bind_text(st, 4, c->summary);
	lz_bind_text(st, 5, c->summary_en);
	lz_bind_text(st, 6, c->kicker);
	lz_bind_text(st, 7, c->kicker_en);
	if (c->has_cost)
		lz_bind_i64(st, 8, c->unlock_cost);
	lz_bind_i64(st, 9, c->updated_at);
	lz_bind_text(st, 10, c->translation);
	return run_id(st);
}

int
pstore_put_item(struct lz_db *db, int64_t coll, long long position,
    int64_t prompt, const char *note, const char *note_en)
{
	struct lz_stmt	*st = stmt(db, BD_ITEM);

	lz_bind_i64(st, 1, coll);
	lz_bind_i64(st, 2, position);
	lz_bind_i64(st, 3, prompt);
	lz_bind_text(st, 4, note);
	lz_bind_text(st, 5, note_en);
	return run(st);
}

/* Binds texts to $1, $2, ... in order. */
static void
bind_texts(struct lz_stmt *st, const char *const *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		lz_bind_text(st, (int)i + 1, v[i]);
}

int
pstore_put_model(struct lz_db *db, const struct modelrow *m,
    const char *search)
{
	const char *const v[] = { m->key, m->name, m->category, m->version,
	    m->vendor, m->notes, m->notes_en, m->source_url, m->checked_on,
	    m->verified_on, m->verification, m->status, m->tool_key,
	    m->generator_url, m->record_type, search };
	struct lz_stmt	*st = stmt(db, BD_MODEL);

	bind_texts(st, v, LZ_NELEM(v));
	return run(st);
}

int
pstore_put_integration(struct lz_db *db, const struct integrow *i,
    int64_t tool_id)
{
	struct lz_stmt	*st = stmt(db, BD_INTEGRATION);

	lz_bind_text(st, 1, i->key);
	lz_bind_text(st, 2, i->tool_key);
	lz_bind_i64(st, 3, tool_id);
	lz_bind_text(st, 4, i->name);
	lz_bind_text(st, 5, i->vendor);
	lz_bind_text(st, 6, i->category);
	lz_bind_text(st, 7, i->generator_kind);
	lz_bind_text(st, 8, i->generator_url);
	return run(st);
}

int
pstore_put_tutorial(struct lz_db *db, const struct tutrow *t,
    const char *search)
{
	struct lz_stmt	*st = stmt(db, BD_TUTORIAL);

	lz_bind_text(st, 1, t->slug);
	lz_bind_text(st, 2, t->title);
	lz_bind_text(st, 3, t->summary);
	lz_bind_text(st, 4, t->markdown);
	lz_bind_text(st, 5, t->source_url);
	lz_bind_i64(st, 6, t->published_at);
	lz_bind_i64(st, 7, t->updated_at);
	lz_bind_text(st, 8, search);
	return run(st);
}

int
pstore_put_keyword(struct lz_db *db, const struct kwrow *k,
    const char *search)
{
	const char *const v[] = { k->slug, k->term, k->term_en, k->category,
	    k->definition, k->when_to_use, k->how_to_ask, k->gotcha,
	    k->related, k->tags };
	struct lz_stmt	*st = stmt(db, BD_KEYWORD);

	bind_texts(st, v, LZ_NELEM(v));
	lz_bind_i64(st, 11, k->updated_at);
	lz_bind_text(st, 12, search);
	return run(st);
}
