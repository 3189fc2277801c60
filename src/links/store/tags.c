/*
 * tags.c -- the SQL of tags.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "link/tag.h"
#include "resp.h"
#include "store/clicks.h"
#include "store/store.h"
#include "store/tags.h"
#include "util.h"

#include "tags.sql.h"

struct lz_sqlset store_tags_sql = LZ_SQLSET("tags", sql);
static struct lz_sqlset *const set = &store_tags_sql;

const struct store_read store_tags_reads[] = {
	{ &store_tags_sql, ST_TAG_LIST, 2 },
	{ &store_tags_sql, ST_TAG_BY_FOLD, 2 },
	{ NULL, 0, 0 }
};

int
store_link_tags_set(struct lz_db *db, int64_t link_id, int64_t account_id,
    const json_t *names)
{
	char	 name[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128], *keep;
	json_t	*v;
	size_t	 i, n = 0;
	int64_t	 ids[TAGS_MAX];
	int	 rc;

	json_array_foreach(names, i, v) {
		if (n == TAGS_MAX || tag_parse(json_string_value(v), name,
		    fold, why, sizeof(why)) == -1)
			return -1;	/* checked when parsed: not here */
		if (lz_one_i64(LZ_STMT(db, set, ST_TAG_UPSERT,
		    LZ_I64(account_id), LZ_TEXT(name), LZ_TEXT(fold)),
		    &ids[n++]) != 1)
			return -1;
	}
	keep = store_json_ids(ids, n);
	rc = lz_run_ok(LZ_STMT(db, set, ST_LINK_TAGS_KEEP, LZ_I64(link_id),
	    LZ_TEXT(keep)));
	free(keep);
	for (i = 0; rc == 0 && i < n; i++)
		rc = lz_run_ok(LZ_STMT(db, set, ST_LINK_TAG_ADD,
		    LZ_I64(link_id), LZ_I64(ids[i])));
	return rc;
}

#define TAG_CACHE_SLOTS	1024	/* a power of 2; when full, asked each time */

struct store_tag_cache {
	struct lz_buf	 pairs;		/* [link, tag] pairs to put on */
	size_t	 n;
	struct {
		char	*fold;
		int64_t	 id;
	} slot[TAG_CACHE_SLOTS];
};

struct store_tag_cache *
store_tag_cache_new(void)
{
	return xcalloc(1, sizeof(struct store_tag_cache));
}

void
store_tag_cache_free(struct store_tag_cache *c)
{
	size_t	 i;

	if (c == NULL)
		return;
	for (i = 0; i < TAG_CACHE_SLOTS; i++)
		free(c->slot[i].fold);
	lz_buf_free(&c->pairs);
	free(c);
}

int
store_tag_cache_flush(struct lz_db *db, struct store_tag_cache *c)
{
	int	 rc;

	if (c == NULL || c->pairs.len == 0)
		return 0;
	lz_buf_putc(&c->pairs, ']');
	/* On PostgreSQL, the tag rows of links made in this transaction
	 * skip link_tags's statement trigger (sql/links/pg/0023): such a
	 * link has no rollups for the trigger to add to its tags' sums,
	 * nor can it get any before this commits (no one else sees it),
	 * and the trigger's look-ups were a tenth of an import's time.
	 * SQLite's row triggers ask each link first (0022). */
	if (lz_db_is_sqlite(db))
		rc = lz_run_ok(LZ_STMT(db, set, ST_LINK_TAGS_ADD_MANY,
		    LZ_TEXT(c->pairs.p)));
	else
		rc = store_scope_pause(db, 1) == -1 || lz_run_ok(LZ_STMT(db,
		    set, ST_LINK_TAGS_ADD_MANY, LZ_TEXT(c->pairs.p))) == -1 ||
		    store_scope_pause(db, 0) == -1 ? -1 : 0;
	lz_buf_reset(&c->pairs);
	return rc;
}

/* fold's slot in c: its own, or the free one it would take. */
static size_t
cache_slot(const struct store_tag_cache *c, const char *fold)
{
	uint64_t	 h = lz_hash_keyed(fold, strlen(fold));
	size_t		 i;

	for (i = h & (TAG_CACHE_SLOTS - 1); c->slot[i].fold != NULL &&
	    strcmp(c->slot[i].fold, fold) != 0; i = (i + 1) &
	    (TAG_CACHE_SLOTS - 1))
		;
	return i;
}

int
store_tag_cache_fill(struct lz_db *db, struct store_tag_cache *c,
    int64_t account_id, const json_t *const *names, size_t n)
{
	struct lz_strtab	 asked;
	struct lz_stmt		*st;
	char			 name[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128];
	char			*js;
	json_t			*arr, *v;
	size_t			 i, j, k;
	int			 rc;

	if (lz_db_is_sqlite(db))
		return 0;
	memset(&asked, 0, sizeof(asked));
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_foreach(names[i], j, v) {
			/* Bad ones are refused when parsed: not here.  No
			 * more than the cache keeps. */
			if (j == TAGS_MAX || tag_parse(json_string_value(v),
			    name, fold, why, sizeof(why)) == -1)
				break;
			if (c->slot[cache_slot(c, fold)].fold != NULL ||
			    c->n + asked.n >= TAG_CACHE_SLOTS / 2)
				continue;
			k = asked.n;
			if (lz_strtab_put(&asked, fold) == k)
				json_array_append_new(arr, json_pack("[s,s]",
				    name, fold));
		}
	rc = 0;
	if (json_array_size(arr) > 0) {
		js = lz_json_dump(arr, NULL);
		st = LZ_STMT(db, set, ST_TAG_UPSERT_MANY, LZ_I64(account_id),
		    LZ_TEXT(js));
		while ((rc = lz_step(st)) == 1) {
			k = cache_slot(c, lz_col_text(st, 1));
			if (c->slot[k].fold == NULL) {
				c->slot[k].fold = xstrdup(lz_col_text(st, 1));
				c->slot[k].id = lz_col_i64(st, 0);
				c->n++;
			}
		}
		free(js);
	}
	json_decref(arr);
	lz_strtab_free(&asked);
	return rc == -1 ? -1 : 0;
}

int
store_link_tags_new(struct lz_db *db, int64_t link_id, int64_t account_id,
    const json_t *names, struct store_tag_cache *c)
{
	char	 name[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128];
	json_t	*v;
	size_t	 i, k = 0;
	int64_t	 id;

	json_array_foreach(names, i, v) {
		if (i == TAGS_MAX || tag_parse(json_string_value(v), name,
		    fold, why, sizeof(why)) == -1)
			return -1;	/* checked when parsed: not here */
		if (c != NULL && c->slot[k = cache_slot(c, fold)].fold != NULL)
			id = c->slot[k].id;
		else {
			if (lz_one_i64(LZ_STMT(db, set, ST_TAG_UPSERT,
			    LZ_I64(account_id), LZ_TEXT(name), LZ_TEXT(fold)),
			    &id) != 1)
				return -1;
			/* The table kept at most half full: short probes. */
			if (c != NULL && c->n < TAG_CACHE_SLOTS / 2) {
				c->slot[k].fold = xstrdup(fold);
				c->slot[k].id = id;
				c->n++;
			}
		}
		/* A name twice folds to one tag: the second adds nothing.
		 * With a cache, put on by store_tag_cache_flush. */
		if (c != NULL)
			lz_buf_printf(&c->pairs, "%c[%lld,%lld]",
			    c->pairs.len ? ',' : '[', (long long)link_id,
			    (long long)id);
		else if (lz_run_ok(LZ_STMT(db, set, ST_LINK_TAG_ADD,
		    LZ_I64(link_id), LZ_I64(id))) == -1)
			return -1;
	}
	return 0;
}

struct list_fn {
	void	(*fn)(const char *, long long, void *);
	void	*arg;
};

static void
list_row(struct lz_stmt *st, void *arg)
{
	struct list_fn	*f = arg;

	f->fn(lz_col_text(st, 0), lz_col_i64(st, 1), f->arg);
}

long
store_tag_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const char *, long long, void *), void *arg)
{
	struct list_fn	 f = { fn, arg };

	return lz_each(LZ_STMT(db, set, ST_TAG_LIST, LZ_I64(account_id)),
	    list_row, &f);
}

int
store_tag_by_fold(struct lz_db *db, int64_t account_id, const char *fold,
    int64_t *id, char *name)
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_TAG_BY_FOLD, LZ_I64(account_id),
	    LZ_TEXT(fold));
	if ((rc = lz_step(st)) == 1) {
		*id = lz_col_i64(st, 0);
		lz_col_copy(st, 1, name, TAG_BYTES);
		lz_reset(st);
	}
	return rc;
}

int
store_tag_rename(struct lz_db *db, int64_t id, const char *name,
    const char *fold)
{
	return lz_run_ok(LZ_STMT(db, set, ST_TAG_RENAME, LZ_I64(id),
	    LZ_TEXT(name), LZ_TEXT(fold)));
}

int
store_tag_merge(struct lz_db *db, int64_t from, int64_t into)
{
	if (lz_run_ok(LZ_STMT(db, set, ST_TAG_MERGE, LZ_I64(from),
	    LZ_I64(into))) == -1)
		return -1;
	return store_tag_delete(db, from);
}

int
store_tag_delete(struct lz_db *db, int64_t id)
{
	if (lz_run_ok(LZ_STMT(db, set, ST_TAG_UNLINK, LZ_I64(id))) == -1 ||
	    lz_run_ok(LZ_STMT(db, set, ST_TAG_CLICK_SUMS_DROP, LZ_I64(id))) ==
	    -1 || lz_run_ok(LZ_STMT(db, set, ST_TAG_CONV_SUMS_DROP,
	    LZ_I64(id))) == -1)
		return -1;
	return lz_run_ok(LZ_STMT(db, set, ST_TAG_DELETE, LZ_I64(id)));
}

long
store_link_tag_ids(struct lz_db *db, int64_t link_id, int64_t *ids,
    size_t max)
{
	struct lz_stmt	*st;
	size_t		 n = 0;
	int		 rc;

	if ((st = LZ_STMT(db, set, ST_LINK_TAG_IDS, LZ_I64(link_id))) == NULL)
		return -1;
	while ((rc = lz_step(st)) == 1)
		if (n < max)
			ids[n++] = lz_col_i64(st, 0);
	lz_reset(st);
	return rc == -1 ? -1 : (long)n;
}
