/*
 * tags.c -- the SQL of tags.
 */
#include "config.h"

#include "db.h"
#include "link/tag.h"
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
	char	 name[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128];
	json_t	*v;
	size_t	 i;
	int64_t	 tag;

	if (lz_run_ok(LZ_STMT(db, set, ST_LINK_TAGS_CLEAR, LZ_I64(link_id))) ==
	    -1)
		return -1;
	json_array_foreach(names, i, v) {
		if (tag_parse(json_string_value(v), name, fold, why,
		    sizeof(why)) == -1)
			return -1;	/* checked when parsed: not here */
		if (lz_one_i64(LZ_STMT(db, set, ST_TAG_UPSERT,
		    LZ_I64(account_id), LZ_TEXT(name), LZ_TEXT(fold)), &tag) !=
		    1 || lz_run_ok(LZ_STMT(db, set, ST_LINK_TAG_ADD,
		    LZ_I64(link_id), LZ_I64(tag))) == -1)
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
	if (lz_run_ok(LZ_STMT(db, set, ST_TAG_UNLINK, LZ_I64(id))) == -1)
		return -1;
	return lz_run_ok(LZ_STMT(db, set, ST_TAG_DELETE, LZ_I64(id)));
}
