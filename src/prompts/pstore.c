/*
 * pstore.c -- the prompt library's SQL: opening the database, names, and
 * the prompts themselves: searches, lists, summaries and details
 * (pstore.h).  pstore_catalog.c reads the rest, pstore_build.c writes a
 * new database.
 */
#include "config.h"

#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "grams.h"
#include "log.h"
#include "pstore.h"
#include "util.h"

/* The filters of the index-ordered pages (no tag, no query), as $1 ..
 * $4.  The unary + keeps the planner walking the order's index rather
 * than visible_at's. */
#define PPAGE \
	"+visible_at <= $1 AND ($2 IS NULL OR category = $2) AND " \
	"($3 = 0 OR tool_id = $3) AND ($4 = 0 OR is_pro = 0)"

#define SUMMARY_COLS \
	"p.id, x.slug, p.category, t.key, x.difficulty, x.tags, p.is_pro, " \
	"p.updated_at, x.rating_avg, x.rating_count, x.title, x.title_en, " \
	"x.summary, x.summary_en"

#include "pstore.sql.h"

struct lz_sqlset pstore_read_sql = LZ_SQLSET("prompts", sql);
static struct lz_sqlset *const set = &pstore_read_sql;

struct lz_sqlset *const pstore_sqlsets[] = {
	&pstore_read_sql,
	&pstore_catalog_sql,
	NULL
};

#define PSTORE_CACHE_KIB	6144

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
	if (lz_db_cache_kib(db, PSTORE_CACHE_KIB) == -1) {
		snprintf(err, errlen, "%s: cannot size the page cache", path);
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
	return 0;
}

long long
pstore_count(struct lz_stmt *st)
{
	int64_t	 n;

	return lz_one_i64(st, &n) == 1 ? n : -1;
}

/* ---- names ----------------------------------------------------------- */

static int64_t
id_by_name(struct lz_db *db, int which, const char *name)
{
	const struct lz_val	 v = LZ_TEXT(name);
	int64_t			 id = 0;

	return lz_one_i64(lz_db_stmtv(db, set, which, &v, 1), &id) == -1 ?
	    -1 : id;
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
	const struct lz_val	 v = LZ_I64(id);
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(db, set, RD_TAG_SLUG, &v, 1);
	if ((rc = lz_row(st)) == 1) {
		lz_col_copy(st, 0, buf, len);
		lz_reset(st);
	}
	return rc;
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
	const struct lz_val	 v = LZ_TEXT(name);
	struct lz_stmt		*st;
	const void		*blob;
	size_t			 len;
	int			 rc;

	st = lz_db_stmtv(db, set, RD_SET, &v, 1);
	if ((rc = lz_row(st)) == 0)
		pset_clear(s);
	if (rc != 1)
		return rc;
	blob = lz_col_blob(st, 0, &len);
	rc = and ? pset_and_stored(s, blob, len) : pset_load(s, blob, len);
	if (rc == -1)
		damaged(name);
	lz_reset(st);
	return rc;
}

static void
add_due(struct lz_stmt *st, void *arg)
{
	pset_add(arg, (uint64_t)lz_col_i64(st, 0));
}

/* The prompts that pass f's filters (not q) into s. */
static int
filter_set(struct lz_db *db, const struct pfilter *f, struct pset *s)
{
	const struct lz_val	 v = LZ_I64(f->now);
	char			 name[64];

	if (set_named(db, "published", s, 0) == -1 ||
	    lz_each(lz_db_stmtv(db, set, RD_DUE, &v, 1), add_due, s) == -1)
		return -1;
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

/* ---- the gram_source of the database ---- */

static int
src_stat(void *arg, struct gram_tile *t)
{
	const struct lz_val	 v = LZ_I64((int64_t)t->key);
	struct lz_stmt		*st;
	int			 rc;

	st = lz_db_stmtv(arg, set, RD_GRAM_STAT, &v, 1);
	if ((rc = lz_row(st)) == 1) {
		t->ndocs = lz_col_i64(st, 0);
		t->poslen = (size_t)lz_col_i64(st, 1);
		lz_reset(st);
	}
	return rc;
}

static int
src_docs(void *arg, struct gram_tile *t)
{
	const struct lz_val	 v = LZ_I64((int64_t)t->key);
	struct lz_stmt		*st;
	const void		*docs;
	int			 rc;

	st = lz_db_stmtv(arg, set, RD_GRAM_DOCS, &v, 1);
	if ((rc = lz_row(st)) == 1) {
		t->ndocs = lz_col_i64(st, 0);
		docs = lz_col_blob(st, 1, &t->docslen);
		t->docs = xmalloc(t->docslen + 1);
		if (t->docslen > 0)
			memcpy(t->docs, docs, t->docslen);
		lz_reset(st);
	}
	return rc;
}

/* Positions are read through incremental blob I/O: only the pages that
 * hold what the candidates need are read, never the whole blob. */
static int
src_pos_open(void *arg, struct gram_tile *t)
{
	if ((t->pos = lz_blob_open(arg, "gram_pos", "pos",
	    (int64_t)t->key)) == NULL)
		return -1;
	t->poslen = lz_blob_size(t->pos);
	return 0;
}

static int
src_pos_read(void *arg, const struct gram_tile *t, void *buf, size_t len,
    size_t off)
{
	(void)arg;
	return lz_blob_read(t->pos, buf, len, off);
}

static void
src_pos_close(void *arg, struct gram_tile *t)
{
	(void)arg;
	lz_blob_close(t->pos);
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
	const struct lz_val	 v = LZ_TEXT(sort);
	struct lz_blob	*blob;
	int64_t		 row = 0;
	uint8_t		 buf[4096];
	uint32_t	 id;
	long long	 seen = 0;
	long		 n = 0;
	size_t		 size, at, len, k;
	int		 rc;

	if ((rc = lz_one_i64(lz_db_stmtv(db, set, RD_ORDER, &v, 1), &row)) !=
	    1) {
		if (rc == 0)
			damaged(sort);
		return -1;
	}
	if ((blob = lz_blob_open(db, "prompt_orders", "ids", row)) == NULL)
		return -1;
	size = lz_blob_size(blob);
	for (at = 0; at < size && n < limit && seen < count; at += len) {
		len = size - at < sizeof(buf) ? size - at : sizeof(buf);
		len -= len % 4;
		if (len == 0) {
			damaged(sort);
			n = -1;
			break;
		}
		if (lz_blob_read(blob, buf, len, at) == -1) {
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
	lz_blob_close(blob);
	return n;
}

/* Searches by q and/or tag: the filters' set, the query's prompts in it,
 * their number, then the page. */
static long long
find_search(struct lz_db *db, const struct pfilter *f, long long offset,
    long limit, int64_t *ids, long *nids)
{
	struct pset	 s;
	long long	 nbits, count = -1;
	long		 n;

	if ((nbits = pstore_count(lz_db_stmt(db, set, RD_BITS))) < 0)
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

/* Steps a statement of one column of ids into ids[], at most limit of
 * them; 0 or -1. */
static int
ids_of(struct lz_stmt *st, long limit, int64_t *ids, long *nids)
{
	int	 rc = 0;

	*nids = 0;
	while (*nids < limit && (rc = lz_step(st)) == 1)
		ids[(*nids)++] = lz_col_i64(st, 0);
	if (rc == 1)
		lz_reset(st);
	return rc == -1 ? -1 : 0;
}

/* Lists by facets only: the order's index gives the page, the facet
 * table (and the few scheduled prompts) the count. */
static long long
find_indexed(struct lz_db *db, const struct pfilter *f, long long offset,
    long limit, int64_t *ids, long *nids)
{
	/* The page takes them all, the scheduled count the first four, the
	 * facets' count the three filters. */
	const struct lz_val	 v[] = { LZ_I64(f->now), LZ_TEXT(f->category),
	    LZ_I64(f->tool_id), LZ_I64(f->free_only), LZ_I64(limit),
	    LZ_I64(offset) };
	long long		 base, sched;
	int			 which;

	which = f->sort == PSORT_UPDATED ? RD_PAGE_UPD :
	    f->sort == PSORT_RATING ? RD_PAGE_RATING : RD_PAGE_REC;
	if (ids_of(lz_db_stmtv(db, set, which, v, LZ_NELEM(v)), limit, ids,
	    nids) == -1 ||
	    (base = pstore_count(lz_db_stmtv(db, set, RD_COUNT_FACETS, v + 1,
	    3))) < 0 ||
	    (sched = pstore_count(lz_db_stmtv(db, set, RD_COUNT_SCHEDULED, v,
	    4))) < 0)
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
	const struct lz_val	 v[] = { LZ_I64(since), LZ_I64(now),
	    LZ_I64(limit) };

	if (ids_of(lz_db_stmtv(db, set, RD_CHANGELOG, v, LZ_NELEM(v)), limit,
	    ids, nids) == -1)
		return -1;
	return pstore_count(lz_db_stmtv(db, set, RD_CHANGELOG_COUNT, v, 2));
}

int64_t
pstore_next_visible(struct lz_db *db, int64_t now)
{
	const struct lz_val	 v = LZ_I64(now);

	return pstore_count(lz_db_stmtv(db, set, RD_NEXT_VISIBLE, &v, 1));
}

/* ---- summaries and details ------------------------------------------- */

struct prompt_fn {
	prow_fn	 fn;
	void	*arg;
};

static void
row_prompt(struct lz_stmt *st, void *arg)
{
	struct prompt_fn	*f = arg;
	struct prow		 p;

	memset(&p, 0, sizeof(p));
	p.id = lz_col_i64(st, 0);
	p.slug = lz_col_text(st, 1);
	p.category = lz_col_text(st, 2);
	p.tool = lz_col_text(st, 3);
	p.difficulty = lz_col_text(st, 4);
	p.tags = lz_col_text(st, 5);
	p.is_pro = lz_col_int(st, 6);
	p.updated_at = lz_col_i64(st, 7);
	p.rated = !lz_col_null(st, 8);
	p.rating_avg = lz_col_double(st, 8);
	p.rating_count = lz_col_i64(st, 9);
	p.title = lz_col_text(st, 10);
	p.title_en = lz_col_text_or_null(st, 11);
	p.summary = lz_col_text(st, 12);
	p.summary_en = lz_col_text_or_null(st, 13);
	f->fn(&p, f->arg);
}

int
pstore_prompt_summary(struct lz_db *db, int64_t id, prow_fn fn, void *arg)
{
	const struct lz_val	 v = LZ_I64(id);
	struct prompt_fn	 f = { fn, arg };

	return (int)lz_each(lz_db_stmtv(db, set, RD_SUMMARY, &v, 1),
	    row_prompt, &f);
}

int
pstore_prompt_detail(struct lz_db *db, const char *slug, int64_t now,
    int en, struct lz_buf *out)
{
	const struct lz_val	 v[] = { LZ_TEXT(slug), LZ_I64(now) };
	struct lz_stmt		*st;
	const char		*detail;
	size_t			 len;
	int			 rc;

	st = lz_db_stmtv(db, set, RD_DETAIL, v, LZ_NELEM(v));
	if ((rc = lz_row(st)) == 1) {
		detail = lz_col_textn(st, en ? 1 : 0, &len);
		lz_buf_add(out, detail, len);
		lz_reset(st);
	}
	return rc;
}
