/*
 * links.c -- the SQL of links.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "link.h"
#include "store/links.h"
#include "store/store.h"
#include "util.h"

enum { ST_LINK_COUNT, ST_LINK_INSERT, ST_LINK_GET, ST_LINK_GET_ANY,
    ST_LINK_BY_ID, ST_LINK_BY_SLUG, ST_LINK_LIST, ST_LINK_LIST_ANY,
    ST_LINK_DELETE, ST_LINK_DELETE_ANY, ST_LINK_BY_IDS, ST__MAX };

/* A page: ids below $1 (0: from the newest), at most $2.  (The CAST
 * tells PostgreSQL $1 is a bigint, not the int of 0.) */
#define LINK_PAGE \
	"deleted_at IS NULL AND (CAST($1 AS bigint) = 0 OR " \
	"id < CAST($1 AS bigint)) ORDER BY id DESC LIMIT $2"

static const struct lz_sql sql[ST__MAX] = {
	[ST_LINK_COUNT] = { "link count",
	    "SELECT count(*) FROM links WHERE account_id = $1 AND "
	    "deleted_at IS NULL" },
	[ST_LINK_INSERT] = { "link insert",
	    "INSERT INTO links (account_id, slug, target_url, title, mode, "
	    "variants, redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, "
	    "pixel_tiktok, pixel_line, escape_inapp, expires_at, max_clicks, "
	    "utm, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, "
	    "$7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) "
	    "ON CONFLICT (slug) DO NOTHING RETURNING id" },
	[ST_LINK_GET] = STORE_LINK_SQL("link get",
	    "FROM links WHERE id = $1 AND account_id = $2 AND "
	    "deleted_at IS NULL"),
	[ST_LINK_GET_ANY] = STORE_LINK_SQL("link get (any account)",
	    "FROM links WHERE id = $1 AND deleted_at IS NULL"),
	[ST_LINK_BY_ID] = STORE_LINK_SQL("link by id",
	    "FROM links WHERE id = $1"),
	[ST_LINK_BY_SLUG] = STORE_LINK_SQL("link by slug",
	    "FROM links WHERE slug = $1"),
	[ST_LINK_LIST] = STORE_LINK_SQL("link list",
	    "FROM links WHERE account_id = $3 AND " LINK_PAGE),
	[ST_LINK_LIST_ANY] = STORE_LINK_SQL("link list (any account)",
	    "FROM links WHERE " LINK_PAGE),
	[ST_LINK_DELETE] = { "link delete",
	    "UPDATE links SET deleted_at = $1 WHERE id = $2 AND "
	    "account_id = $3 AND deleted_at IS NULL" },
	[ST_LINK_DELETE_ANY] = { "link delete (any account)",
	    "UPDATE links SET deleted_at = $1 WHERE id = $2 AND "
	    "deleted_at IS NULL" },
	/* The links whose ids $1 lists as a JSON array.  dialect: SQLite's
	 * json_each is json_array_elements_text in PostgreSQL. */
	[ST_LINK_BY_IDS] = { "links by ids",
	    "SELECT " STORE_LINK_COLS_AGG("json_group_object") " FROM links "
	    "WHERE id IN (SELECT value FROM json_each($1))",
	    "SELECT " STORE_LINK_COLS_AGG("json_object_agg") " FROM links "
	    "WHERE id IN (SELECT value::bigint FROM "
	    "json_array_elements_text($1::json))" },
};

struct lz_sqlset store_links_sql = LZ_SQLSET("links", sql);
static struct lz_sqlset *const set = &store_links_sql;

static json_t *
col_json(struct lz_stmt *st, int col)
{
	if (lz_col_null(st, col))
		return NULL;
	return json_loads(lz_col_text(st, col), 0, NULL);
}

static char *
col_strdup(struct lz_stmt *st, int col)
{
	const char	*s = lz_col_text_or_null(st, col);

	return s ? xstrdup(s) : NULL;
}

static void
row_link(struct lz_stmt *st, void *arg)
{
	struct link	*l = arg;
	const char	*mode;
	size_t		 i;

	memset(l, 0, sizeof(*l));
	l->id = lz_col_i64(st, 0);
	l->account_id = lz_col_i64(st, 1);
	l->slug = col_strdup(st, 2);
	l->target_url = col_strdup(st, 3);
	l->title = col_strdup(st, 4);
	mode = lz_col_text(st, 5);
	for (i = 0; link_mode_names[i]; i++)
		if (strcmp(mode, link_mode_names[i]) == 0)
			l->mode = (enum link_mode)i;
	l->variants = col_json(st, 6);
	l->redirect_type = lz_col_int(st, 7);
	l->og = col_json(st, 8);
	for (i = 0; i < PIXEL__MAX; i++)
		l->pixel[i] = col_strdup(st, 9 + (int)i);
	l->escape_inapp = lz_col_int(st, 14);
	l->expires_at = lz_col_i64(st, 15);
	l->max_clicks = lz_col_i64(st, 16);
	l->utm = col_json(st, 17);
	l->password_hash = col_strdup(st, 18);
	l->clicks = lz_col_i64(st, 19);
	l->created_at = lz_col_i64(st, 20);
	l->deleted_at = lz_col_i64(st, 21);
	l->flagged_at = lz_col_i64(st, 22);
	l->flag_reason = col_strdup(st, 23);
	l->conversions = lz_col_i64(st, 24);
	l->revenue = col_json(st, 25);
}

struct link_fn {
	void	(*fn)(struct link *, void *);
	void	*arg;
};

static void
each_link(struct lz_stmt *st, void *arg)
{
	struct link_fn	*f = arg;
	struct link	 l;

	row_link(st, &l);
	f->fn(&l, f->arg);
	link_free(&l);
}

long
store_link_each(struct lz_stmt *st, void (*fn)(struct link *, void *),
    void *arg)
{
	struct link_fn	 f = { fn, arg };

	return lz_each(st, each_link, &f);
}

long long
store_link_count(struct lz_db *db, int64_t account_id)
{
	const struct lz_val	 v = LZ_I64(account_id);
	int64_t			 n;

	return lz_one_i64(lz_db_stmtv(db, set, ST_LINK_COUNT, &v, 1), &n) ==
	    1 ? n : -1;
}

/* Inserts l with its JSON members as texts (json: variants, og, utm). */
static int
insert(struct lz_db *db, struct link *l, char *const json[3])
{
	const struct lz_val	 v[] = { LZ_I64(l->account_id),
	    LZ_TEXT(l->slug), LZ_TEXT(l->target_url), LZ_TEXT(l->title),
	    LZ_TEXT(link_mode_names[l->mode]), LZ_TEXT(json[0]),
	    LZ_I64(l->redirect_type), LZ_TEXT(json[1]),
	    LZ_TEXT(l->pixel[PIXEL_FB]), LZ_TEXT(l->pixel[PIXEL_GA]),
	    LZ_TEXT(l->pixel[PIXEL_GTM]), LZ_TEXT(l->pixel[PIXEL_TIKTOK]),
	    LZ_TEXT(l->pixel[PIXEL_LINE]), LZ_I64(l->escape_inapp),
	    LZ_I64_IF(l->expires_at != 0, l->expires_at),
	    LZ_I64(l->max_clicks), LZ_TEXT(json[2]), LZ_TEXT(l->password_hash),
	    LZ_I64(l->created_at) };

	return lz_one_i64(lz_db_stmtv(db, set, ST_LINK_INSERT, v,
	    LZ_NELEM(v)), &l->id);
}

int
store_link_insert(struct lz_db *db, struct link *l)
{
	char	*json[3];
	size_t	 i;
	int	 rc;

	json[0] = l->variants ? json_dumps(l->variants, JSON_COMPACT) : NULL;
	json[1] = l->og ? json_dumps(l->og, JSON_COMPACT) : NULL;
	json[2] = l->utm ? json_dumps(l->utm, JSON_COMPACT) : NULL;
	rc = insert(db, l, json);
	for (i = 0; i < LZ_NELEM(json); i++)
		free(json[i]);
	return rc == -1 ? -1 : rc == 0;
}

int
store_link_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct link *l)
{
	const struct lz_val	 v = LZ_I64(id);
	struct lz_stmt		*st;

	if ((st = store_stmt_of(db, set, ST_LINK_GET, ST_LINK_GET_ANY,
	    account_id, &v, 1)) == NULL)
		return -1;
	return (int)lz_each(st, row_link, l);
}

int
store_link_by_id(struct lz_db *db, int64_t id, struct link *l)
{
	const struct lz_val	 v = LZ_I64(id);

	return (int)lz_each(lz_db_stmtv(db, set, ST_LINK_BY_ID, &v, 1),
	    row_link, l);
}

long
store_link_by_ids(struct lz_db *db, const int64_t *ids, size_t n,
    void (*fn)(struct link *, void *), void *arg)
{
	char			*list = store_json_ids(ids, n);
	const struct lz_val	 v = LZ_TEXT(list);
	long			 rc;

	rc = store_link_each(lz_db_stmtv(db, set, ST_LINK_BY_IDS, &v, 1), fn,
	    arg);
	free(list);
	return rc;
}

int
store_link_by_slug(struct lz_db *db, const char *slug, struct link *l)
{
	const struct lz_val	 v = LZ_TEXT(slug);

	return (int)lz_each(lz_db_stmtv(db, set, ST_LINK_BY_SLUG, &v, 1),
	    row_link, l);
}

long
store_link_list(struct lz_db *db, int64_t account_id, int64_t before,
    long limit, void (*fn)(struct link *, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(before), LZ_I64(limit) };
	struct lz_stmt		*st;

	if ((st = store_stmt_of(db, set, ST_LINK_LIST, ST_LINK_LIST_ANY,
	    account_id, v, LZ_NELEM(v))) == NULL)
		return -1;
	return store_link_each(st, fn, arg);
}

int
store_link_delete(struct lz_db *db, int64_t id, int64_t account_id,
    int64_t now)
{
	const struct lz_val	 v[] = { LZ_I64(now), LZ_I64(id) };

	return lz_run_changed(store_stmt_of(db, set, ST_LINK_DELETE,
	    ST_LINK_DELETE_ANY, account_id, v, LZ_NELEM(v)));
}
