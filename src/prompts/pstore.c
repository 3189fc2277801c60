/*
 * store.c -- the prompt library's SQL (store.h).
 */
#include "config.h"

#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "grams.h"
#include "log.h"
#include "search.h"
#include "pstore.h"
#include "util.h"

/* The filters of the index-ordered pages (no tag, no query), as ?1 .. ?4.
 * The unary + keeps the planner walking the order's index rather than
 * visible_at's. */
#define PPAGE \
	"+visible_at <= ?1 AND (?2 IS NULL OR category = ?2) AND " \
	"(?3 = 0 OR tool_id = ?3) AND (?4 = 0 OR is_pro = 0)"

/* Visible prompts of a scheduled time (published ones have 0). */
#define SCHEDULED_NOW(p) \
	p ".visible_at > 0 AND " p ".visible_at <= ?1"

#define SUMMARY_COLS \
	"p.id, x.slug, p.category, t.key, x.difficulty, x.tags, p.is_pro, " \
	"p.updated_at, x.rating_avg, x.rating_count, x.title, x.title_en, " \
	"x.summary, x.summary_en"

#define MODEL_COLS \
	"key, name, category, version, vendor, notes, notes_en, source_url, " \
	"checked_on, verified_on, verification, status, tool_key, " \
	"generator_url, record_type"

#define COLL_COLS \
	"id, slug, title, title_en, summary, summary_en, kicker, kicker_en, " \
	"unlock_cost, updated_at, translation"

#define KW_COLS \
	"slug, term, term_en, category, definition, when_to_use, how_to_ask, " \
	"gotcha, related, tags, updated_at"

enum rd {
	RD_TAG_ID,
	RD_TAG_SLUG,
	RD_TOOL_ID,
	RD_PAGE_REC,
	RD_PAGE_UPD,
	RD_PAGE_RATING,
	RD_COUNT_FACETS,
	RD_COUNT_SCHEDULED,
	RD_BITS,
	RD_DUE,
	RD_SET,
	RD_GRAM_STAT,
	RD_GRAM_DOCS,
	RD_ORDER,
	RD_SUMMARY,
	RD_DETAIL,
	RD_CHANGELOG,
	RD_CHANGELOG_COUNT,
	RD_TAGS,
	RD_TAGS_SCHEDULED,
	RD_TOOLS,
	RD_TOOLS_COUNT,
	RD_INTEGRATIONS,
	RD_MODELS,
	RD_MODELS_COUNT,
	RD_COLLECTIONS,
	RD_COLLECTIONS_COUNT,
	RD_COLLECTION,
	RD_ITEMS,
	RD_ITEMS_COUNT,
	RD_TUTORIALS,
	RD_TUTORIALS_COUNT,
	RD_TUTORIAL,
	RD_KEYWORDS,
	RD_KEYWORDS_COUNT,
	RD_KEYWORD,
	RD__MAX
};

static const char *const rd_sql[RD__MAX] = {
	[RD_TAG_ID] =
	    "SELECT tag_id FROM tag_names WHERE name = ?",
	[RD_TAG_SLUG] =
	    "SELECT slug FROM tags WHERE id = ?",
	[RD_TOOL_ID] =
	    "SELECT tool_id FROM tool_names WHERE name = ?",

	[RD_PAGE_REC] =
	    "SELECT id FROM prompts WHERE " PPAGE " ORDER BY id "
	    "LIMIT ?5 OFFSET ?6",
	[RD_PAGE_UPD] =
	    "SELECT id FROM prompts WHERE " PPAGE " ORDER BY upd_rank "
	    "LIMIT ?5 OFFSET ?6",
	[RD_PAGE_RATING] =
	    "SELECT id FROM prompts WHERE " PPAGE " ORDER BY rating_rank "
	    "LIMIT ?5 OFFSET ?6",
	[RD_COUNT_FACETS] =
	    "SELECT coalesce(sum(n), 0) FROM prompt_facets WHERE "
	    "(?1 IS NULL OR category = ?1) AND (?2 = 0 OR tool_id = ?2) AND "
	    "(?3 = 0 OR is_pro = 0)",
	[RD_COUNT_SCHEDULED] =
	    "SELECT count(*) FROM prompts p WHERE " SCHEDULED_NOW("p") " AND "
	    "(?2 IS NULL OR category = ?2) AND (?3 = 0 OR tool_id = ?3) AND "
	    "(?4 = 0 OR is_pro = 0)",

	/* Searches (grams.h): the size of the sets, the scheduled prompts
	 * visible by now (?1), a stored set, a gram, an order. */
	[RD_BITS] =
	    "SELECT coalesce(max(id), 0) + 1 FROM prompts",
	[RD_DUE] =
	    "SELECT id FROM prompts WHERE " SCHEDULED_NOW("prompts"),
	[RD_SET] =
	    "SELECT docs FROM prompt_sets WHERE name = ?",
	[RD_GRAM_STAT] =
	    "SELECT ndocs, posbytes FROM gram_docs WHERE key = ?",
	[RD_GRAM_DOCS] =
	    "SELECT ndocs, docs FROM gram_docs WHERE key = ?",
	[RD_ORDER] =
	    "SELECT id FROM prompt_orders WHERE sort = ?",

	[RD_SUMMARY] =
	    "SELECT " SUMMARY_COLS " FROM prompts p "
	    "JOIN tools t ON t.id = p.tool_id "
	    "JOIN prompt_text x ON x.prompt_id = p.id WHERE p.id = ?",
	[RD_DETAIL] =
	    "SELECT d.detail, d.detail_en FROM prompt_text x "
	    "JOIN prompts p ON p.id = x.prompt_id "
	    "JOIN prompt_detail d ON d.prompt_id = x.prompt_id "
	    "WHERE x.slug = ?1 AND p.visible_at <= ?2",
	/* The updated order's index, from its start to the first prompt
	 * updated before ?1 (found on the updated_at index). */
	[RD_CHANGELOG] =
	    "SELECT id FROM prompts WHERE upd_rank < coalesce((SELECT "
	    "upd_rank FROM prompts WHERE updated_at < ?1 ORDER BY "
	    "updated_at DESC, upd_rank LIMIT 1), 9223372036854775807) AND "
	    "visible_at <= ?2 ORDER BY upd_rank LIMIT ?3",
	[RD_CHANGELOG_COUNT] =
	    "SELECT count(*) FROM prompts WHERE updated_at >= ?1 AND "
	    "visible_at <= ?2",

	/* Tags are few: their counts are merged and sorted in C. */
	[RD_TAGS] =
	    "SELECT id, slug, label, label_en, base_count FROM tags WHERE "
	    "(?1 IS NULL OR instr(search, ?1) > 0) ORDER BY id",
	[RD_TAGS_SCHEDULED] =
	    "SELECT pt.tag_id, count(*) FROM prompts p JOIN prompt_tags pt "
	    "ON pt.prompt_id = p.id WHERE " SCHEDULED_NOW("p") " GROUP BY "
	    "pt.tag_id",

	/* ?1 now, ?2 medium, ?3 query, ?4 limit, ?5 offset */
	[RD_TOOLS] =
	    "SELECT t.key, t.label, t.label_en, t.medium, t.description, "
	    "t.description_en, t.base_count + (SELECT count(*) FROM prompts p "
	    "WHERE p.tool_id = t.id AND " SCHEDULED_NOW("p") ") FROM tools t "
	    "WHERE (?2 IS NULL OR t.medium = ?2) AND "
	    "(?3 IS NULL OR instr(t.search, ?3) > 0) ORDER BY t.id "
	    "LIMIT ?4 OFFSET ?5",
	[RD_TOOLS_COUNT] =
	    "SELECT count(*) FROM tools t WHERE (?2 IS NULL OR t.medium = ?2) "
	    "AND (?3 IS NULL OR instr(t.search, ?3) > 0)",
	[RD_INTEGRATIONS] =
	    "SELECT i.key, i.tool_key, i.name, i.vendor, i.category, "
	    "i.generator_kind, i.generator_url, t.key, t.base_count + "
	    "(SELECT count(*) FROM prompts p WHERE p.tool_id = t.id AND "
	    SCHEDULED_NOW("p") ") FROM integrations i "
	    "JOIN tools t ON t.id = i.tool_id ORDER BY i.id",

	/* ?1 category, ?2 query, ?3 limit, ?4 offset */
	[RD_MODELS] =
	    "SELECT " MODEL_COLS " FROM models WHERE "
	    "(?1 IS NULL OR category = ?1) AND "
	    "(?2 IS NULL OR instr(search, ?2) > 0) ORDER BY id "
	    "LIMIT ?3 OFFSET ?4",
	[RD_MODELS_COUNT] =
	    "SELECT count(*) FROM models WHERE (?1 IS NULL OR category = ?1) "
	    "AND (?2 IS NULL OR instr(search, ?2) > 0)",

	[RD_COLLECTIONS] =
	    "SELECT " COLL_COLS " FROM collections "
	    "ORDER BY updated_at DESC, slug LIMIT ?1 OFFSET ?2",
	[RD_COLLECTIONS_COUNT] =
	    "SELECT count(*) FROM collections",
	[RD_COLLECTION] =
	    "SELECT " COLL_COLS " FROM collections WHERE slug = ?",
	/* ?1 collection, ?2 now, ?3 limit, ?4 offset */
	[RD_ITEMS] =
	    "SELECT ci.position, ci.note, ci.note_en, x.slug, x.title, "
	    "x.title_en, p.is_pro FROM collection_items ci "
	    "JOIN prompts p ON p.id = ci.prompt_id "
	    "JOIN prompt_text x ON x.prompt_id = p.id "
	    "WHERE ci.collection_id = ?1 AND p.visible_at <= ?2 "
	    "ORDER BY ci.position LIMIT ?3 OFFSET ?4",
	[RD_ITEMS_COUNT] =
	    "SELECT count(*) FROM collection_items ci "
	    "JOIN prompts p ON p.id = ci.prompt_id "
	    "WHERE ci.collection_id = ?1 AND p.visible_at <= ?2",

	/* ?1 query, ?2 limit, ?3 offset */
	[RD_TUTORIALS] =
	    "SELECT slug, title, summary, NULL, source_url, published_at, "
	    "updated_at FROM tutorials WHERE "
	    "(?1 IS NULL OR instr(search, ?1) > 0) "
	    "ORDER BY published_at DESC, slug LIMIT ?2 OFFSET ?3",
	[RD_TUTORIALS_COUNT] =
	    "SELECT count(*) FROM tutorials WHERE "
	    "(?1 IS NULL OR instr(search, ?1) > 0)",
	[RD_TUTORIAL] =
	    "SELECT slug, title, summary, markdown, source_url, published_at, "
	    "updated_at FROM tutorials WHERE slug = ?",

	/* ?1 query, ?2 category, ?3 limit, ?4 offset */
	[RD_KEYWORDS] =
	    "SELECT " KW_COLS " FROM keywords WHERE "
	    "(?1 IS NULL OR instr(search, ?1) > 0) AND "
	    "(?2 IS NULL OR category = ?2) ORDER BY id LIMIT ?3 OFFSET ?4",
	[RD_KEYWORDS_COUNT] =
	    "SELECT count(*) FROM keywords WHERE "
	    "(?1 IS NULL OR instr(search, ?1) > 0) AND "
	    "(?2 IS NULL OR category = ?2)",
	[RD_KEYWORD] =
	    "SELECT " KW_COLS " FROM keywords WHERE slug = ?",
};

#define PSTORE_CACHE_KIB	"6144"

static void
logerr(struct lz_db *db, const char *what)
{
	lz_log(LZ_LOG_ERR, "sqlite: %s: %s", what, sqlite3_errmsg(db->h));
}

static const char *
col_or_null(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static long long
count_of(struct lz_db *db, sqlite3_stmt *st, const char *what)
{
	long long	 n = -1;

	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		logerr(db, what);
	sqlite3_reset(st);
	return n;
}

/* Binds a page: limit (-1: all) and offset. */
static void
bind_page(sqlite3_stmt *st, int at, long limit, long long offset)
{
	sqlite3_bind_int64(st, at, limit);
	sqlite3_bind_int64(st, at + 1, offset);
}

int
pstore_open(struct lz_db *db, const char *path, char *err, size_t errlen)
{
	if (lz_db_open(db, path, LZ_DB_RO | LZ_DB_IMMUTABLE, err, errlen) ==
	    -1)
		return -1;
	/* Room for the pages requests come back to: the inner pages of
	 * the gram index and of prompt_text, the filter sets, positions of
	 * common trigrams.  Since searches read no row per match the
	 * benchmark mix runs as fast with the default 2 MiB; 6 MiB keeps
	 * more of a busy library and a worker at 9 MiB resident. */
	if (lz_db_exec(db, "PRAGMA cache_size = -" PSTORE_CACHE_KIB) == -1) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(db->h));
		lz_db_close(db);
		return -1;
	}
	if (lz_db_check_version(db, lz_prompts_migrations,
	    lz_prompts_nmigrations, err, errlen) == -1) {
		/* Its data is never migrated: another import makes it. */
		if (lz_db_user_version(db) > 0)
			snprintf(err, errlen, "%s: made by another version of "
			    "lzctl (schema %d, this program's %d); import the "
			    "data again", path, lz_db_user_version(db),
			    lz_prompts_migrations[lz_prompts_nmigrations - 1].
			    version);
		lz_db_close(db);
		return -1;
	}
	if (lz_db_prepare(db, rd_sql, RD__MAX, err, errlen) == -1) {
		lz_db_close(db);
		return -1;
	}
	return 0;
}

/* ---- names ----------------------------------------------------------- */

static int64_t
id_by_name(struct lz_db *db, int which, const char *name)
{
	sqlite3_stmt	*st = lz_db_stmt(db, which);
	int64_t		 id = 0;
	int		 rc;

	lz_db_bind_text(st, 1, name);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE) {
		logerr(db, "name");
		id = -1;
	}
	sqlite3_reset(st);
	return id;
}

int64_t
pstore_tag_id(struct lz_db *db, const char *name)
{
	return id_by_name(db, RD_TAG_ID, name);
}

int64_t
pstore_tool_id(struct lz_db *db, const char *name)
{
	return id_by_name(db, RD_TOOL_ID, name);
}

int
pstore_tag_slug(struct lz_db *db, int64_t id, char *buf, size_t len)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_TAG_SLUG);
	int		 rc, found = 0;

	sqlite3_bind_int64(st, 1, id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		snprintf(buf, len, "%s", lz_db_text(st, 0));
		found = 1;
	} else if (rc != SQLITE_DONE) {
		logerr(db, "tag slug");
		found = -1;
	}
	sqlite3_reset(st);
	return found;
}

/* ---- prompt searches ------------------------------------------------- */

static void
damaged(const char *what)
{
	lz_log(LZ_LOG_ERR, "the search index is damaged (%s); import the "
	    "data again", what);
}

/*
 * Loads (and == 0) or ANDs into s (and == 1) the stored set called name;
 * a name without a row is the empty set.  0, or -1.
 */
static int
set_named(struct lz_db *db, const char *name, struct pset *s, int and)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_SET);
	const void	*blob;
	size_t		 len;
	int		 rc, r = 0;

	lz_db_bind_text(st, 1, name);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		blob = sqlite3_column_blob(st, 0);
		len = (size_t)sqlite3_column_bytes(st, 0);
		r = and ? pset_and_stored(s, blob, len) : pset_load(s, blob,
		    len);
		if (r == -1)
			damaged(name);
	} else if (rc == SQLITE_DONE)
		pset_clear(s);
	else {
		logerr(db, name);
		r = -1;
	}
	sqlite3_reset(st);
	return r;
}

/* The prompts that pass f's filters (not q) into s. */
static int
filter_set(struct lz_db *db, const struct pfilter *f, struct pset *s)
{
	sqlite3_stmt	*st;
	char		 name[64];
	int		 rc;

	if (set_named(db, "published", s, 0) == -1)
		return -1;
	st = lz_db_stmt(db, RD_DUE);
	sqlite3_bind_int64(st, 1, f->now);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pset_add(s, (uint64_t)sqlite3_column_int64(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "scheduled prompts");
		return -1;
	}
	if (f->category != NULL) {
		snprintf(name, sizeof(name), "category:%s", f->category);
		if (set_named(db, name, s, 1) == -1)
			return -1;
	}
	if (f->tool_id > 0) {
		snprintf(name, sizeof(name), "tool:%lld",
		    (long long)f->tool_id);
		if (set_named(db, name, s, 1) == -1)
			return -1;
	}
	if (f->free_only && set_named(db, "free", s, 1) == -1)
		return -1;
	if (f->tag_id > 0) {
		snprintf(name, sizeof(name), "tag:%lld", (long long)f->tag_id);
		if (set_named(db, name, s, 1) == -1)
			return -1;
	}
	return 0;
}

/* A copy of column col of st's row; *len its size. */
static uint8_t *
blob_dup(sqlite3_stmt *st, int col, size_t *len)
{
	uint8_t	*p;

	*len = (size_t)sqlite3_column_bytes(st, col);
	p = xmalloc(*len + 1);
	if (*len > 0)
		memcpy(p, sqlite3_column_blob(st, col), *len);
	return p;
}

/* ---- the gram_source of the database ---- */

static int
src_stat(void *arg, struct gram_tile *t)
{
	struct lz_db	*db = arg;
	sqlite3_stmt	*st = lz_db_stmt(db, RD_GRAM_STAT);
	int		 rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)t->key);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		t->ndocs = sqlite3_column_int64(st, 0);
		t->poslen = (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		logerr(db, "search index");
		return -1;
	}
	return rc == SQLITE_ROW;
}

static int
src_docs(void *arg, struct gram_tile *t)
{
	struct lz_db	*db = arg;
	sqlite3_stmt	*st = lz_db_stmt(db, RD_GRAM_DOCS);
	int		 rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)t->key);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		t->ndocs = sqlite3_column_int64(st, 0);
		t->docs = blob_dup(st, 1, &t->docslen);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		logerr(db, "search index");
		return -1;
	}
	return rc == SQLITE_ROW;
}

/* Positions are read through incremental blob I/O: only the pages that
 * hold what the candidates need are read, never the whole blob. */
static int
src_pos_open(void *arg, struct gram_tile *t)
{
	struct lz_db	*db = arg;
	sqlite3_blob	*blob = NULL;

	if (sqlite3_blob_open(db->h, "main", "gram_pos", "pos",
	    (sqlite3_int64)t->key, 0, &blob) != SQLITE_OK) {
		logerr(db, "trigram positions");
		sqlite3_blob_close(blob);
		return -1;
	}
	t->pos = blob;
	t->poslen = (size_t)sqlite3_blob_bytes(blob);
	return 0;
}

static int
src_pos_read(void *arg, const struct gram_tile *t, void *buf, size_t len,
    size_t off)
{
	struct lz_db	*db = arg;

	if (sqlite3_blob_read(t->pos, buf, (int)len, (int)off) != SQLITE_OK) {
		logerr(db, "trigram positions");
		return -1;
	}
	return 0;
}

static void
src_pos_close(void *arg, struct gram_tile *t)
{
	(void)arg;
	sqlite3_blob_close(t->pos);
	t->pos = NULL;
}

/* Keeps in s the prompts that hold the folded query q. */
static int
match_set(struct lz_db *db, const char *q, struct pset *s)
{
	struct gram_source	 src;

	src.stat = src_stat;
	src.docs = src_docs;
	src.pos_open = src_pos_open;
	src.pos_read = src_pos_read;
	src.pos_close = src_pos_close;
	src.arg = db;
	switch (gram_match(q, s, &src)) {
	case 0:
		return 0;
	case -2:
		damaged("grams");
		break;
	}
	return -1;
}

/*
 * The page [offset, offset + limit) of s in the order called sort, which
 * lists every prompt: walked from its start until the page is full or
 * all count members of s went by.  Returns the ids put in ids[], or -1.
 */
static long
order_page(struct lz_db *db, const char *sort, const struct pset *s,
    long long count, long long offset, long limit, int64_t *ids)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_ORDER);
	sqlite3_blob	*blob = NULL;
	sqlite3_int64	 row = 0;
	uint8_t		 buf[4096];
	uint32_t	 id;
	long long	 seen = 0;
	long		 n = 0;
	int		 size, at, len, k, rc;

	lz_db_bind_text(st, 1, sort);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		row = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			damaged(sort);
		else
			logerr(db, sort);
		return -1;
	}
	if (sqlite3_blob_open(db->h, "main", "prompt_orders", "ids", row, 0,
	    &blob) != SQLITE_OK) {
		logerr(db, sort);
		sqlite3_blob_close(blob);
		return -1;
	}
	size = sqlite3_blob_bytes(blob);
	for (at = 0; at < size && n < limit && seen < count; at += len) {
		len = size - at < (int)sizeof(buf) ? size - at :
		    (int)sizeof(buf);
		len -= len % 4;
		if (len == 0 || sqlite3_blob_read(blob, buf, len, at) !=
		    SQLITE_OK) {
			if (len == 0)
				damaged(sort);
			else
				logerr(db, sort);
			n = -1;
			break;
		}
		for (k = 0; k < len && n < limit; k += 4) {
			memcpy(&id, buf + k, sizeof(id));
			id = le32toh(id);
			if (!pset_has(s, id))
				continue;
			if (seen++ >= offset)
				ids[n++] = id;
		}
	}
	sqlite3_blob_close(blob);
	return n;
}

/* Searches by q and/or tag: the filters' set, the query's prompts in it,
 * their number, then the page. */
static long long
find_search(struct lz_db *db, const struct pfilter *f, long long offset,
    long limit, int64_t *ids, long *nids)
{
	struct pset	 s;
	sqlite3_stmt	*st;
	long long	 nbits, count = -1;
	long		 n;

	st = lz_db_stmt(db, RD_BITS);
	if ((nbits = count_of(db, st, "prompt ids")) < 0)
		return -1;
	pset_init(&s, (size_t)nbits);
	if (filter_set(db, f, &s) == -1)
		goto out;
	if (f->q != NULL && !pset_empty(&s) && match_set(db, f->q, &s) == -1)
		goto out;
	count = pset_count(&s);
	if (offset >= count)
		n = 0;
	else if (f->sort == PSORT_RECOMMENDED)
		n = pset_page(&s, offset, limit, ids);
	else
		n = order_page(db, f->sort == PSORT_UPDATED ? "updated" :
		    "rating", &s, count, offset, limit, ids);
	if (n < 0)
		count = -1;
	else
		*nids = n;
out:
	pset_free(&s);
	return count;
}

/* Lists by facets only: the order's index gives the page, the facet
 * table (and the few scheduled prompts) the count. */
static long long
find_indexed(struct lz_db *db, const struct pfilter *f, long long offset,
    long limit, int64_t *ids, long *nids)
{
	sqlite3_stmt	*st;
	long long	 base, sched;
	int		 which, rc;

	which = f->sort == PSORT_UPDATED ? RD_PAGE_UPD :
	    f->sort == PSORT_RATING ? RD_PAGE_RATING : RD_PAGE_REC;
	st = lz_db_stmt(db, which);
	sqlite3_bind_int64(st, 1, f->now);
	lz_db_bind_text(st, 2, f->category);
	sqlite3_bind_int64(st, 3, f->tool_id);
	sqlite3_bind_int(st, 4, f->free_only);
	bind_page(st, 5, limit, offset);
	*nids = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *nids < limit)
		ids[(*nids)++] = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		logerr(db, "prompt page");
		return -1;
	}

	st = lz_db_stmt(db, RD_COUNT_FACETS);
	lz_db_bind_text(st, 1, f->category);
	sqlite3_bind_int64(st, 2, f->tool_id);
	sqlite3_bind_int(st, 3, f->free_only);
	if ((base = count_of(db, st, "prompt facets")) < 0)
		return -1;
	st = lz_db_stmt(db, RD_COUNT_SCHEDULED);
	sqlite3_bind_int64(st, 1, f->now);
	lz_db_bind_text(st, 2, f->category);
	sqlite3_bind_int64(st, 3, f->tool_id);
	sqlite3_bind_int(st, 4, f->free_only);
	if ((sched = count_of(db, st, "scheduled prompts")) < 0)
		return -1;
	return base + sched;
}

long long
pstore_prompt_find(struct lz_db *db, const struct pfilter *f,
    long long offset, long limit, int64_t *ids, long *nids)
{
	*nids = 0;
	if (f->tag_id < 0)		/* a topic nobody tagged */
		return 0;
	if (f->q == NULL && f->tag_id == 0)
		return find_indexed(db, f, offset, limit, ids, nids);
	return find_search(db, f, offset, limit, ids, nids);
}

long long
pstore_changelog(struct lz_db *db, int64_t since, int64_t now, long limit,
    int64_t *ids, long *nids)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_CHANGELOG);
	int		 rc;

	sqlite3_bind_int64(st, 1, since);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, limit);
	*nids = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *nids < limit)
		ids[(*nids)++] = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		logerr(db, "changelog");
		return -1;
	}
	st = lz_db_stmt(db, RD_CHANGELOG_COUNT);
	sqlite3_bind_int64(st, 1, since);
	sqlite3_bind_int64(st, 2, now);
	return count_of(db, st, "changelog count");
}

static void
row_prompt(sqlite3_stmt *st, struct prow *p)
{
	memset(p, 0, sizeof(*p));
	p->id = sqlite3_column_int64(st, 0);
	p->slug = lz_db_text(st, 1);
	p->category = lz_db_text(st, 2);
	p->tool = lz_db_text(st, 3);
	p->difficulty = lz_db_text(st, 4);
	p->tags = lz_db_text(st, 5);
	p->is_pro = sqlite3_column_int(st, 6);
	p->updated_at = sqlite3_column_int64(st, 7);
	p->rated = sqlite3_column_type(st, 8) != SQLITE_NULL;
	p->rating_avg = sqlite3_column_double(st, 8);
	p->rating_count = sqlite3_column_int64(st, 9);
	p->title = lz_db_text(st, 10);
	p->title_en = col_or_null(st, 11);
	p->summary = lz_db_text(st, 12);
	p->summary_en = col_or_null(st, 13);
}

/* Steps st, handing each row to row(); returns the rows or -1. */
static long
each_row(struct lz_db *db, sqlite3_stmt *st, const char *what,
    void (*row)(sqlite3_stmt *, void *, void *), void *fn, void *arg)
{
	long	 n = 0;
	int	 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row(st, fn, arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, what);
		return -1;
	}
	return n;
}

static int
one_prompt(struct lz_db *db, sqlite3_stmt *st, prow_fn fn, void *arg)
{
	struct prow	 p;
	int		 rc, found = 0;

	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_prompt(st, &p);
		fn(&p, arg);
		found = 1;
	} else if (rc != SQLITE_DONE) {
		logerr(db, "prompt");
		found = -1;
	}
	sqlite3_reset(st);
	return found;
}

int
pstore_prompt_summary(struct lz_db *db, int64_t id, prow_fn fn, void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_SUMMARY);

	sqlite3_bind_int64(st, 1, id);
	return one_prompt(db, st, fn, arg);
}

struct detailout {
	int		 en;
	struct lz_buf	*out;
};

static void
detail_row(sqlite3_stmt *st, void *fn, void *arg)
{
	struct detailout	*d = arg;

	(void)fn;
	lz_buf_add(d->out, sqlite3_column_text(st, d->en),
	    (size_t)sqlite3_column_bytes(st, d->en));
}

int
pstore_prompt_detail(struct lz_db *db, const char *slug, int64_t now,
    int en, struct lz_buf *out)
{
	sqlite3_stmt		*st = lz_db_stmt(db, RD_DETAIL);
	struct detailout	 d = { en, out };

	lz_db_bind_text(st, 1, slug);
	sqlite3_bind_int64(st, 2, now);
	return (int)each_row(db, st, "prompt", detail_row, NULL, &d);
}

/* ---- tags, tools, integrations, models -------------------------------- */


struct tagent {
	int64_t		 id;
	char		*slug, *label, *label_en;
	long long	 count;
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

long long
pstore_tags(struct lz_db *db, const char *q, long long min_count, int64_t now,
    long long offset, long limit, void (*fn)(const struct tagrow *, void *),
    void *arg)
{
	struct tagent	*v = NULL, *e;
	struct tagrow	 t;
	sqlite3_stmt	*st;
	size_t		 n = 0, kept, i;
	long long	 total = -1;
	int64_t		 id;
	int		 rc;

	st = lz_db_stmt(db, RD_TAGS);
	lz_db_bind_text(st, 1, q);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n].id = sqlite3_column_int64(st, 0);
		v[n].slug = xstrdup(lz_db_text(st, 1));
		v[n].label = xstrdup(lz_db_text(st, 2));
		v[n].label_en = col_or_null(st, 3) ?
		    xstrdup(col_or_null(st, 3)) : NULL;
		v[n].count = sqlite3_column_int64(st, 4);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "tags");
		goto out;
	}
	st = lz_db_stmt(db, RD_TAGS_SCHEDULED);
	sqlite3_bind_int64(st, 1, now);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (n > 0 && (e = bsearch(&id, v, n, sizeof(*v),
		    tagent_by_id)) != NULL)
			e->count += sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "scheduled tags");
		goto out;
	}
	for (i = 0, kept = 0; i < n; i++)
		if (v[i].count >= min_count)
			v[kept++] = v[i];
		else {
			free(v[i].slug);
			free(v[i].label);
			free(v[i].label_en);
		}
	n = kept;
	if (n > 1)
		qsort(v, n, sizeof(*v), tagent_order);
	for (i = (size_t)(offset < (long long)n ? offset : (long long)n);
	    i < n && (long)(i - (size_t)offset) < limit; i++) {
		t.slug = v[i].slug;
		t.label = v[i].label;
		t.label_en = v[i].label_en;
		t.count = v[i].count;
		fn(&t, arg);
	}
	total = (long long)n;
out:
	for (i = 0; i < n; i++) {
		free(v[i].slug);
		free(v[i].label);
		free(v[i].label_en);
	}
	free(v);
	return total;
}

static void
row_tool(sqlite3_stmt *st, void *fn, void *arg)
{
	struct toolrow	 t;

	t.key = lz_db_text(st, 0);
	t.label = lz_db_text(st, 1);
	t.label_en = col_or_null(st, 2);
	t.medium = lz_db_text(st, 3);
	t.description = lz_db_text(st, 4);
	t.description_en = col_or_null(st, 5);
	t.count = sqlite3_column_int64(st, 6);
	((void (*)(const struct toolrow *, void *))fn)(&t, arg);
}

long long
pstore_tools(struct lz_db *db, const char *medium, const char *q, int64_t now,
    long long offset, long limit, void (*fn)(const struct toolrow *, void *),
    void *arg)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, RD_TOOLS);
	sqlite3_bind_int64(st, 1, now);
	lz_db_bind_text(st, 2, medium);
	lz_db_bind_text(st, 3, q);
	bind_page(st, 4, limit, offset);
	if (each_row(db, st, "tools", row_tool, (void *)fn, arg) < 0)
		return -1;
	st = lz_db_stmt(db, RD_TOOLS_COUNT);
	sqlite3_bind_int64(st, 1, now);
	lz_db_bind_text(st, 2, medium);
	lz_db_bind_text(st, 3, q);
	return count_of(db, st, "tool count");
}

static void
row_integration(sqlite3_stmt *st, void *fn, void *arg)
{
	struct integrow	 i;

	i.key = lz_db_text(st, 0);
	i.tool_key = lz_db_text(st, 1);
	i.name = lz_db_text(st, 2);
	i.vendor = lz_db_text(st, 3);
	i.category = lz_db_text(st, 4);
	i.generator_kind = lz_db_text(st, 5);
	i.generator_url = lz_db_text(st, 6);
	i.tool = lz_db_text(st, 7);
	i.count = sqlite3_column_int64(st, 8);
	((void (*)(const struct integrow *, void *))fn)(&i, arg);
}

long
pstore_integrations(struct lz_db *db, int64_t now,
    void (*fn)(const struct integrow *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_INTEGRATIONS);

	sqlite3_bind_int64(st, 1, now);
	return each_row(db, st, "integrations", row_integration, (void *)fn,
	    arg);
}

static void
row_model(sqlite3_stmt *st, void *fn, void *arg)
{
	struct modelrow	 m;

	m.key = lz_db_text(st, 0);
	m.name = lz_db_text(st, 1);
	m.category = lz_db_text(st, 2);
	m.version = lz_db_text(st, 3);
	m.vendor = lz_db_text(st, 4);
	m.notes = lz_db_text(st, 5);
	m.notes_en = col_or_null(st, 6);
	m.source_url = lz_db_text(st, 7);
	m.checked_on = lz_db_text(st, 8);
	m.verified_on = lz_db_text(st, 9);
	m.verification = lz_db_text(st, 10);
	m.status = lz_db_text(st, 11);
	m.tool_key = lz_db_text(st, 12);
	m.generator_url = lz_db_text(st, 13);
	m.record_type = lz_db_text(st, 14);
	((void (*)(const struct modelrow *, void *))fn)(&m, arg);
}

long long
pstore_models(struct lz_db *db, const char *category, const char *q,
    long long offset, long limit, void (*fn)(const struct modelrow *, void *),
    void *arg)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, RD_MODELS);
	lz_db_bind_text(st, 1, category);
	lz_db_bind_text(st, 2, q);
	bind_page(st, 3, limit, offset);
	if (each_row(db, st, "models", row_model, (void *)fn, arg) < 0)
		return -1;
	st = lz_db_stmt(db, RD_MODELS_COUNT);
	lz_db_bind_text(st, 1, category);
	lz_db_bind_text(st, 2, q);
	return count_of(db, st, "model count");
}

/* ---- collections ------------------------------------------------------- */

static void
row_collection(sqlite3_stmt *st, void *fn, void *arg)
{
	struct collrow	 c;

	c.id = sqlite3_column_int64(st, 0);
	c.slug = lz_db_text(st, 1);
	c.title = lz_db_text(st, 2);
	c.title_en = col_or_null(st, 3);
	c.summary = lz_db_text(st, 4);
	c.summary_en = col_or_null(st, 5);
	c.kicker = col_or_null(st, 6);
	c.kicker_en = col_or_null(st, 7);
	c.has_cost = sqlite3_column_type(st, 8) != SQLITE_NULL;
	c.unlock_cost = sqlite3_column_int64(st, 8);
	c.updated_at = sqlite3_column_int64(st, 9);
	c.translation = lz_db_text(st, 10);
	((void (*)(const struct collrow *, void *))fn)(&c, arg);
}

long long
pstore_collections(struct lz_db *db, long long offset, long limit,
    void (*fn)(const struct collrow *, void *), void *arg)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, RD_COLLECTIONS);
	bind_page(st, 1, limit, offset);
	if (each_row(db, st, "collections", row_collection, (void *)fn,
	    arg) < 0)
		return -1;
	st = lz_db_stmt(db, RD_COLLECTIONS_COUNT);
	return count_of(db, st, "collection count");
}

int
pstore_collection(struct lz_db *db, const char *slug,
    void (*fn)(const struct collrow *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_COLLECTION);
	long		 n;

	lz_db_bind_text(st, 1, slug);
	n = each_row(db, st, "collection", row_collection, (void *)fn, arg);
	return n < 0 ? -1 : n > 0;
}

static void
row_item(sqlite3_stmt *st, void *fn, void *arg)
{
	struct itemrow	 i;

	i.position = sqlite3_column_int64(st, 0);
	i.note = lz_db_text(st, 1);
	i.note_en = col_or_null(st, 2);
	i.slug = lz_db_text(st, 3);
	i.title = lz_db_text(st, 4);
	i.title_en = col_or_null(st, 5);
	i.is_pro = sqlite3_column_int(st, 6);
	((void (*)(const struct itemrow *, void *))fn)(&i, arg);
}

long long
pstore_collection_items(struct lz_db *db, int64_t id, int64_t now,
    long long offset, long limit, void (*fn)(const struct itemrow *, void *),
    void *arg)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, RD_ITEMS);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, now);
	bind_page(st, 3, limit, offset);
	if (each_row(db, st, "collection items", row_item, (void *)fn,
	    arg) < 0)
		return -1;
	st = lz_db_stmt(db, RD_ITEMS_COUNT);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, now);
	return count_of(db, st, "collection item count");
}

/* ---- tutorials and keywords --------------------------------------------- */

static void
row_tutorial(sqlite3_stmt *st, void *fn, void *arg)
{
	struct tutrow	 t;

	t.slug = lz_db_text(st, 0);
	t.title = lz_db_text(st, 1);
	t.summary = lz_db_text(st, 2);
	t.markdown = col_or_null(st, 3);
	t.source_url = lz_db_text(st, 4);
	t.published_at = sqlite3_column_int64(st, 5);
	t.updated_at = sqlite3_column_int64(st, 6);
	((void (*)(const struct tutrow *, void *))fn)(&t, arg);
}

long long
pstore_tutorials(struct lz_db *db, const char *q, long long offset,
    long limit, void (*fn)(const struct tutrow *, void *), void *arg)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, RD_TUTORIALS);
	lz_db_bind_text(st, 1, q);
	bind_page(st, 2, limit, offset);
	if (each_row(db, st, "tutorials", row_tutorial, (void *)fn, arg) < 0)
		return -1;
	st = lz_db_stmt(db, RD_TUTORIALS_COUNT);
	lz_db_bind_text(st, 1, q);
	return count_of(db, st, "tutorial count");
}

int
pstore_tutorial(struct lz_db *db, const char *slug,
    void (*fn)(const struct tutrow *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_TUTORIAL);
	long		 n;

	lz_db_bind_text(st, 1, slug);
	n = each_row(db, st, "tutorial", row_tutorial, (void *)fn, arg);
	return n < 0 ? -1 : n > 0;
}

static void
row_keyword(sqlite3_stmt *st, void *fn, void *arg)
{
	struct kwrow	 k;

	k.slug = lz_db_text(st, 0);
	k.term = lz_db_text(st, 1);
	k.term_en = lz_db_text(st, 2);
	k.category = lz_db_text(st, 3);
	k.definition = lz_db_text(st, 4);
	k.when_to_use = lz_db_text(st, 5);
	k.how_to_ask = lz_db_text(st, 6);
	k.gotcha = lz_db_text(st, 7);
	k.related = lz_db_text(st, 8);
	k.tags = lz_db_text(st, 9);
	k.updated_at = sqlite3_column_int64(st, 10);
	((void (*)(const struct kwrow *, void *))fn)(&k, arg);
}

long long
pstore_keywords(struct lz_db *db, const char *q, const char *category,
    long long offset, long limit, void (*fn)(const struct kwrow *, void *),
    void *arg)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, RD_KEYWORDS);
	lz_db_bind_text(st, 1, q);
	lz_db_bind_text(st, 2, category);
	bind_page(st, 3, limit, offset);
	if (each_row(db, st, "keywords", row_keyword, (void *)fn, arg) < 0)
		return -1;
	st = lz_db_stmt(db, RD_KEYWORDS_COUNT);
	lz_db_bind_text(st, 1, q);
	lz_db_bind_text(st, 2, category);
	return count_of(db, st, "keyword count");
}

int
pstore_keyword(struct lz_db *db, const char *slug,
    void (*fn)(const struct kwrow *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, RD_KEYWORD);
	long		 n;

	lz_db_bind_text(st, 1, slug);
	n = each_row(db, st, "keyword", row_keyword, (void *)fn, arg);
	return n < 0 ? -1 : n > 0;
}

/* ---- the build ---------------------------------------------------------- */

enum bd {
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
	BD__MAX
};

static const char *const bd_sql[BD__MAX] = {
	[BD_META] =
	    "INSERT INTO meta (key, value) VALUES (?, ?)",
	[BD_TOOL] =
	    "INSERT INTO tools (key, label, label_en, medium, description, "
	    "description_en, search, base_count) VALUES (?, ?, ?, ?, ?, ?, ?, "
	    "0)",
	[BD_TOOL_NAME] =
	    "INSERT INTO tool_names (name, tool_id) VALUES (?, ?) "
	    "ON CONFLICT (name) DO NOTHING",
	[BD_TAG] =
	    "INSERT INTO tags (slug, label, label_en, search, base_count) "
	    "VALUES (?, ?, ?, ?, 0)",
	[BD_TAG_NAME] =
	    "INSERT INTO tag_names (name, tag_id) VALUES (?, ?) "
	    "ON CONFLICT (name) DO NOTHING",
	[BD_TAG_NAME_OWNER] =
	    "SELECT tag_id FROM tag_names WHERE name = ?",
	[BD_PROMPT] =
	    "INSERT INTO prompts (id, visible_at, is_pro, category, tool_id, "
	    "updated_at, upd_rank, rating_rank) VALUES (?, ?, ?, ?, ?, ?, 0, "
	    "0)",
	[BD_PROMPT_TEXT] =
	    "INSERT INTO prompt_text (prompt_id, slug, difficulty, tags, "
	    "rating_avg, rating_count, title, title_en, summary, summary_en) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[BD_PROMPT_DETAIL] =
	    "INSERT INTO prompt_detail (prompt_id, detail, detail_en) "
	    "VALUES (?, ?, ?)",
	[BD_GRAM_DOCS] =
	    "INSERT INTO gram_docs (key, ndocs, posbytes, docs) VALUES (?, ?, "
	    "?, ?)",
	[BD_GRAM_POS] =
	    "INSERT INTO gram_pos (key, pos) VALUES (?, ?)",
	[BD_SET] =
	    "INSERT INTO prompt_sets (name, docs) VALUES (?, ?)",
	[BD_ORDER] =
	    "INSERT INTO prompt_orders (sort, ids) VALUES (?, ?)",
	[BD_PROMPT_TAG] =
	    "INSERT INTO prompt_tags (tag_id, prompt_id) VALUES (?, ?)",
	[BD_COLLECTION] =
	    "INSERT INTO collections (slug, title, title_en, summary, "
	    "summary_en, kicker, kicker_en, unlock_cost, updated_at, "
	    "translation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[BD_ITEM] =
	    "INSERT INTO collection_items (collection_id, position, "
	    "prompt_id, note, note_en) VALUES (?, ?, ?, ?, ?)",
	[BD_MODEL] =
	    "INSERT INTO models (" MODEL_COLS ", search) VALUES (?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[BD_INTEGRATION] =
	    "INSERT INTO integrations (key, tool_key, tool_id, name, vendor, "
	    "category, generator_kind, generator_url) VALUES (?, ?, ?, ?, ?, "
	    "?, ?, ?)",
	[BD_TUTORIAL] =
	    "INSERT INTO tutorials (slug, title, summary, markdown, "
	    "source_url, published_at, updated_at, search) VALUES (?, ?, ?, "
	    "?, ?, ?, ?, ?)",
	[BD_KEYWORD] =
	    "INSERT INTO keywords (" KW_COLS ", search) VALUES (?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?)",
};

static int	step_done(struct lz_db *, sqlite3_stmt *, const char *);

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

/* The stored sets of prompt_sets, as (name, id) in order. */
static const char *const bd_sets =
	"SELECT 'published', id FROM prompts WHERE visible_at = 0 "
	"UNION ALL SELECT 'free', id FROM prompts WHERE is_pro = 0 "
	"UNION ALL SELECT 'category:' || category, id FROM prompts "
	"UNION ALL SELECT 'tool:' || tool_id, id FROM prompts "
	"UNION ALL SELECT 'tag:' || tag_id, prompt_id FROM prompt_tags "
	"ORDER BY 1, 2";

/* The orders of prompt_orders. */
static const struct {
	const char	*sort, *sql;
} bd_orders[] = {
	{ "updated", "SELECT id FROM prompts ORDER BY upd_rank" },
	{ "rating", "SELECT id FROM prompts ORDER BY rating_rank" },
};

int
pstore_create(struct lz_db *db, const char *path, char *err, size_t errlen)
{
	int	 from, to;

	if (lz_db_open(db, path, LZ_DB_CREATE, err, errlen) == -1)
		return -1;
	/* A new file that nobody reads until it is renamed into place: no
	 * journal while building (a failed build is thrown away). */
	if (lz_db_exec(db, "PRAGMA page_size=16384;"
	    "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	    "PRAGMA foreign_keys=ON") == -1 ||
	    lz_db_migrate(db, lz_prompts_migrations, lz_prompts_nmigrations,
	    &from, &to, err, errlen) == -1 ||
	    lz_db_prepare(db, bd_sql, BD__MAX, err, errlen) == -1) {
		if (*err == '\0')
			snprintf(err, errlen, "%s: %s", path,
			    sqlite3_errmsg(db->h));
		lz_db_close(db);
		return -1;
	}
	return 0;
}

int
pstore_build_begin(struct lz_db *db)
{
	return lz_db_exec(db, "BEGIN");
}

/* Runs sql (one column of integers), appending each to ids[]; the
 * count, or -1. */
static long
build_ids(struct lz_db *db, const char *sql, uint32_t **ids)
{
	sqlite3_stmt	*st;
	size_t		 n = 0, cap = 0;
	int		 rc;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		logerr(db, sql);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			*ids = xreallocarray(*ids, cap, sizeof(**ids));
		}
		(*ids)[n++] = (uint32_t)sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE)
		logerr(db, sql);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? (long)n : -1;
}

/* The size of the stored sets: ids [0, max id + 1). */
static long long
bits_of(struct lz_db *db)
{
	uint32_t	*v = NULL;
	long long	 n;

	n = build_ids(db, "SELECT coalesce(max(id), 0) + 1 FROM prompts", &v) ==
	    1 ? (long long)v[0] : -1;
	free(v);
	return n;
}

static int
put_set(struct lz_db *db, const char *name, const uint32_t *ids, size_t n,
    size_t nbits)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	sqlite3_stmt	*st = lz_db_stmt(db, BD_SET);
	int		 rc;

	pset_encode(&b, ids, n, nbits);
	lz_db_bind_text(st, 1, name);
	sqlite3_bind_blob(st, 2, b.p, (int)b.len, SQLITE_STATIC);
	rc = step_done(db, st, "prompt set");
	lz_buf_free(&b);
	return rc;
}

/* prompt_sets, from bd_sets. */
static int
build_sets(struct lz_db *db, size_t nbits)
{
	sqlite3_stmt	*st;
	uint32_t	*ids = NULL;
	char		*name = NULL;
	const char	*row;
	size_t		 n = 0, cap = 0;
	int		 rc;

	if (sqlite3_prepare_v2(db->h, bd_sets, -1, &st, NULL) != SQLITE_OK) {
		logerr(db, "prompt sets");
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row = lz_db_text(st, 0);
		if (name != NULL && strcmp(name, row) != 0) {
			if (put_set(db, name, ids, n, nbits) == -1)
				break;
			n = 0;
		}
		if (n == 0) {
			free(name);
			name = xstrdup(row);
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			ids = xreallocarray(ids, cap, sizeof(*ids));
		}
		ids[n++] = (uint32_t)sqlite3_column_int64(st, 1);
	}
	if (rc == SQLITE_DONE && n > 0 && put_set(db, name, ids, n, nbits) ==
	    -1)
		rc = SQLITE_ERROR;
	else if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		logerr(db, "prompt sets");
	sqlite3_finalize(st);
	free(ids);
	free(name);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* prompt_orders, from bd_orders. */
static int
build_orders(struct lz_db *db)
{
	sqlite3_stmt	*st;
	uint32_t	*ids = NULL;
	long		 n, i;
	size_t		 k;
	int		 rc = 0;

	for (k = 0; k < LZ_NELEM(bd_orders) && rc == 0; k++) {
		if ((n = build_ids(db, bd_orders[k].sql, &ids)) < 0) {
			rc = -1;
			break;
		}
		for (i = 0; i < n; i++)
			ids[i] = htole32(ids[i]);
		st = lz_db_stmt(db, BD_ORDER);
		lz_db_bind_text(st, 1, bd_orders[k].sort);
		sqlite3_bind_blob(st, 2, n > 0 ? (void *)ids : (void *)"",
		    (int)(n * 4), SQLITE_STATIC);
		rc = step_done(db, st, "prompt order");
	}
	free(ids);
	return rc;
}

static int
put_gram(void *arg, uint64_t key, long long ndocs, const void *docs,
    size_t docslen, const void *pos, size_t poslen)
{
	struct lz_db	*db = arg;
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, BD_GRAM_DOCS);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
	sqlite3_bind_int64(st, 2, ndocs);
	if (pos != NULL)
		sqlite3_bind_int64(st, 3, (sqlite3_int64)poslen);
	sqlite3_bind_blob(st, 4, docs, (int)docslen, SQLITE_STATIC);
	if (step_done(db, st, "gram") == -1)
		return -1;
	if (pos == NULL)
		return 0;
	st = lz_db_stmt(db, BD_GRAM_POS);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
	sqlite3_bind_blob(st, 2, pos, (int)poslen, SQLITE_STATIC);
	return step_done(db, st, "trigram positions");
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
	sqlite3_stmt	*st;
	int		 ok = 0;

	long long	 nbits;

	if (lz_db_exec(db, bd_finish) == -1 || (nbits = bits_of(db)) < 0 ||
	    build_sets(db, (size_t)nbits) == -1 || build_orders(db) == -1 ||
	    lz_db_commit(db) == -1) {
		snprintf(err, errlen, "finishing the database: %s",
		    sqlite3_errmsg(db->h));
		lz_db_rollback(db);
		return -1;
	}
	if (lz_db_exec(db, "PRAGMA journal_mode=DELETE") == -1) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db->h));
		return -1;
	}
	if (sqlite3_prepare_v2(db->h, "PRAGMA quick_check", -1, &st, NULL) ==
	    SQLITE_OK) {
		ok = sqlite3_step(st) == SQLITE_ROW && strcmp(lz_db_text(st, 0),
		    "ok") == 0;
		sqlite3_finalize(st);
	}
	if (!ok) {
		snprintf(err, errlen, "the new database failed its check");
		return -1;
	}
	return 0;
}

static int
step_done(struct lz_db *db, sqlite3_stmt *st, const char *what)
{
	int	 rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, what);
		return -1;
	}
	return 0;
}

static int64_t
step_id(struct lz_db *db, sqlite3_stmt *st, const char *what)
{
	if (step_done(db, st, what) == -1)
		return -1;
	return sqlite3_last_insert_rowid(db->h);
}

int
pstore_put_meta(struct lz_db *db, const char *key, const char *value)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_META);

	lz_db_bind_text(st, 1, key);
	lz_db_bind_text(st, 2, value);
	return step_done(db, st, "meta");
}

int64_t
pstore_put_tool(struct lz_db *db, const struct ptool *t)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_TOOL);

	lz_db_bind_text(st, 1, t->key);
	lz_db_bind_text(st, 2, t->label);
	lz_db_bind_text(st, 3, t->label_en);
	lz_db_bind_text(st, 4, t->medium);
	lz_db_bind_text(st, 5, t->description);
	lz_db_bind_text(st, 6, t->description_en);
	lz_db_bind_text(st, 7, t->search);
	return step_id(db, st, "tool");
}

int
pstore_put_tool_name(struct lz_db *db, const char *name, int64_t tool)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_TOOL_NAME);

	lz_db_bind_text(st, 1, name);
	sqlite3_bind_int64(st, 2, tool);
	if (step_done(db, st, "tool name") == -1)
		return -1;
	return sqlite3_changes(db->h) == 0;
}

int64_t
pstore_put_tag(struct lz_db *db, const struct ptag *t)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_TAG);

	lz_db_bind_text(st, 1, t->slug);
	lz_db_bind_text(st, 2, t->label);
	lz_db_bind_text(st, 3, t->label_en);
	lz_db_bind_text(st, 4, t->search);
	return step_id(db, st, "tag");
}

int64_t
pstore_put_tag_name(struct lz_db *db, const char *name, int64_t tag)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_TAG_NAME);
	int64_t		 owner;

	lz_db_bind_text(st, 1, name);
	sqlite3_bind_int64(st, 2, tag);
	if (step_done(db, st, "tag name") == -1)
		return -1;
	if (sqlite3_changes(db->h) > 0)
		return 0;
	st = lz_db_stmt(db, BD_TAG_NAME_OWNER);
	lz_db_bind_text(st, 1, name);
	owner = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) :
	    -1;
	sqlite3_reset(st);
	return owner;
}

int
pstore_put_prompt(struct lz_db *db, const struct pprompt *p)
{
	sqlite3_stmt	*st;

	st = lz_db_stmt(db, BD_PROMPT);
	sqlite3_bind_int64(st, 1, p->id);
	sqlite3_bind_int64(st, 2, p->visible_at);
	sqlite3_bind_int(st, 3, p->is_pro);
	lz_db_bind_text(st, 4, p->category);
	sqlite3_bind_int64(st, 5, p->tool_id);
	sqlite3_bind_int64(st, 6, p->updated_at);
	if (step_done(db, st, "prompt") == -1)
		return -1;

	st = lz_db_stmt(db, BD_PROMPT_TEXT);
	sqlite3_bind_int64(st, 1, p->id);
	lz_db_bind_text(st, 2, p->slug);
	lz_db_bind_text(st, 3, p->difficulty);
	lz_db_bind_text(st, 4, p->tags);
	if (p->rated)
		sqlite3_bind_double(st, 5, p->rating_avg);
	sqlite3_bind_int64(st, 6, p->rating_count);
	lz_db_bind_text(st, 7, p->title);
	lz_db_bind_text(st, 8, p->title_en);
	lz_db_bind_text(st, 9, p->summary);
	lz_db_bind_text(st, 10, p->summary_en);
	if (step_done(db, st, "prompt text") == -1)
		return -1;

	st = lz_db_stmt(db, BD_PROMPT_DETAIL);
	sqlite3_bind_int64(st, 1, p->id);
	lz_db_bind_text(st, 2, p->detail);
	lz_db_bind_text(st, 3, p->detail_en);
	if (step_done(db, st, "prompt detail") == -1)
		return -1;

	return 0;
}

int
pstore_put_prompt_tag(struct lz_db *db, int64_t tag, int64_t prompt)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_PROMPT_TAG);

	sqlite3_bind_int64(st, 1, tag);
	sqlite3_bind_int64(st, 2, prompt);
	return step_done(db, st, "prompt tag");
}

int64_t
pstore_put_collection(struct lz_db *db, const struct pcoll *c)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_COLLECTION);

	lz_db_bind_text(st, 1, c->slug);
	lz_db_bind_text(st, 2, c->title);
	lz_db_bind_text(st, 3, c->title_en);
	lz_db_bind_text(st, 4, c->summary);
	lz_db_bind_text(st, 5, c->summary_en);
	lz_db_bind_text(st, 6, c->kicker);
	lz_db_bind_text(st, 7, c->kicker_en);
	if (c->has_cost)
		sqlite3_bind_int64(st, 8, c->unlock_cost);
	sqlite3_bind_int64(st, 9, c->updated_at);
	lz_db_bind_text(st, 10, c->translation);
	return step_id(db, st, "collection");
}

int
pstore_put_item(struct lz_db *db, int64_t coll, long long position,
    int64_t prompt, const char *note, const char *note_en)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_ITEM);

	sqlite3_bind_int64(st, 1, coll);
	sqlite3_bind_int64(st, 2, position);
	sqlite3_bind_int64(st, 3, prompt);
	lz_db_bind_text(st, 4, note);
	lz_db_bind_text(st, 5, note_en);
	return step_done(db, st, "collection item");
}

int
pstore_put_model(struct lz_db *db, const struct modelrow *m,
    const char *search)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_MODEL);

	lz_db_bind_text(st, 1, m->key);
	lz_db_bind_text(st, 2, m->name);
	lz_db_bind_text(st, 3, m->category);
	lz_db_bind_text(st, 4, m->version);
	lz_db_bind_text(st, 5, m->vendor);
	lz_db_bind_text(st, 6, m->notes);
	lz_db_bind_text(st, 7, m->notes_en);
	lz_db_bind_text(st, 8, m->source_url);
	lz_db_bind_text(st, 9, m->checked_on);
	lz_db_bind_text(st, 10, m->verified_on);
	lz_db_bind_text(st, 11, m->verification);
	lz_db_bind_text(st, 12, m->status);
	lz_db_bind_text(st, 13, m->tool_key);
	lz_db_bind_text(st, 14, m->generator_url);
	lz_db_bind_text(st, 15, m->record_type);
	lz_db_bind_text(st, 16, search);
	return step_done(db, st, "model");
}

int
pstore_put_integration(struct lz_db *db, const struct integrow *i,
    int64_t tool_id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_INTEGRATION);

	lz_db_bind_text(st, 1, i->key);
	lz_db_bind_text(st, 2, i->tool_key);
	sqlite3_bind_int64(st, 3, tool_id);
	lz_db_bind_text(st, 4, i->name);
	lz_db_bind_text(st, 5, i->vendor);
	lz_db_bind_text(st, 6, i->category);
	lz_db_bind_text(st, 7, i->generator_kind);
	lz_db_bind_text(st, 8, i->generator_url);
	return step_done(db, st, "integration");
}

int
pstore_put_tutorial(struct lz_db *db, const struct tutrow *t,
    const char *search)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_TUTORIAL);

	lz_db_bind_text(st, 1, t->slug);
	lz_db_bind_text(st, 2, t->title);
	lz_db_bind_text(st, 3, t->summary);
	lz_db_bind_text(st, 4, t->markdown);
	lz_db_bind_text(st, 5, t->source_url);
	sqlite3_bind_int64(st, 6, t->published_at);
	sqlite3_bind_int64(st, 7, t->updated_at);
	lz_db_bind_text(st, 8, search);
	return step_done(db, st, "tutorial");
}

int
pstore_put_keyword(struct lz_db *db, const struct kwrow *k,
    const char *search)
{
	sqlite3_stmt	*st = lz_db_stmt(db, BD_KEYWORD);

	lz_db_bind_text(st, 1, k->slug);
	lz_db_bind_text(st, 2, k->term);
	lz_db_bind_text(st, 3, k->term_en);
	lz_db_bind_text(st, 4, k->category);
	lz_db_bind_text(st, 5, k->definition);
	lz_db_bind_text(st, 6, k->when_to_use);
	lz_db_bind_text(st, 7, k->how_to_ask);
	lz_db_bind_text(st, 8, k->gotcha);
	lz_db_bind_text(st, 9, k->related);
	lz_db_bind_text(st, 10, k->tags);
	sqlite3_bind_int64(st, 11, k->updated_at);
	lz_db_bind_text(st, 12, search);
	return step_done(db, st, "keyword");
}
