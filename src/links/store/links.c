/*
 * links.c -- the SQL of links.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "link/link.h"
#include "store/links.h"
#include "store/store.h"
#include "util.h"

/* The create fields and the password hash: $1 to $16 of link insert and
 * link update (write_link). */
#define LINK_NFIELDS	19

#include "links.sql.h"

struct lz_sqlset store_links_sql = LZ_SQLSET("links", sql);
static struct lz_sqlset *const set = &store_links_sql;

const struct store_read store_links_reads[] = {
	{ &store_links_sql, ST_LINK_GET, STORE_LINK_NCOLS },
	{ &store_links_sql, ST_LINK_GET_ANY, STORE_LINK_NCOLS },
	{ &store_links_sql, ST_LINK_BY_ID, STORE_LINK_NCOLS },
	{ &store_links_sql, ST_LINK_BY_SLUG, STORE_LINK_NCOLS },
	{ &store_links_sql, ST_LINK_LIST, STORE_LINK_NCOLS },
	{ &store_links_sql, ST_LINK_LIST_ANY, STORE_LINK_NCOLS },
	{ &store_links_sql, ST_LINK_BY_IDS, STORE_LINK_NCOLS },
	{ NULL, 0, 0 }
};

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

/* The STORE_LINK_NCOLS columns of STORE_LINK_COLS. */
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
	l->revision = lz_col_i64(st, 26);
	l->domain_id = lz_col_i64(st, 27);
	l->domain = col_strdup(st, 28);
	l->expired_url = col_strdup(st, 29);
	l->notes = col_strdup(st, 30);
	l->archived = lz_col_int(st, 31) != 0;
	l->tags = col_json(st, 32);
	if (l->tags != NULL && json_array_size(l->tags) == 0) {
		json_decref(l->tags);
		l->tags = NULL;
	}
}

LZ_EACH_ROW(each_link, , struct link, row_link, link_free);

long
store_link_each(struct lz_stmt *st, void (*fn)(struct link *, void *),
    void *arg)
{
	return each_link(st, fn, arg);
}

long long
store_link_count(struct lz_db *db, int64_t account_id)
{
	const struct lz_val	 v = LZ_I64(account_id);
	int64_t			 n;

	return lz_one_i64(lz_db_stmtv(db, set, ST_LINK_COUNT, &v, 1), &n) ==
	    1 ? n : -1;
}

int
store_link_slot(struct lz_db *db, int64_t account_id, long long cap)
{
	return lz_run_changed(LZ_STMT(db, set, ST_LINK_SLOT,
	    LZ_I64(account_id), LZ_I64(cap)));
}

int
store_link_unslot(struct lz_db *db, int64_t account_id)
{
	return lz_run_ok(LZ_STMT(db, set, ST_LINK_UNSLOT, LZ_I64(account_id)));
}

int
store_link_slots(struct lz_db *db, int64_t account_id, long long n,
    long long cap)
{
	return lz_run_changed(LZ_STMT(db, set, ST_LINK_SLOTS,
	    LZ_I64(account_id), LZ_I64(n), LZ_I64(cap)));
}

int
store_link_unslots(struct lz_db *db, int64_t account_id, long long n)
{
	if (n == 0)
		return 0;
	return lz_run_ok(LZ_STMT(db, set, ST_LINK_UNSLOTS,
	    LZ_I64(account_id), LZ_I64(n)));
}

/* j as compact JSON text, or NULL for none; caller frees. */
static char *
json_text(const json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT) : NULL;
}

/*
 * Writes l: its LINK_FIELDS as $1 to $19, then for an insert its account,
 * slug, creation time and domain (the answer as lz_one_i64's, into l->id), for
 * an update its id and revision and account_id as store_stmt_of binds
 * it (the answer as lz_run_changed's).
 */
static int
write_link(struct lz_db *db, struct link *l, int update, int64_t account_id)
{
	char		*json[] = { json_text(l->variants), json_text(l->og),
	    json_text(l->utm) };
	struct lz_val	 v[LINK_NFIELDS + 4] = {
	    LZ_TEXT(l->target_url), LZ_TEXT(l->title),
	    LZ_TEXT(link_mode_names[l->mode]), LZ_TEXT(json[0]),
	    LZ_I64(l->redirect_type), LZ_TEXT(json[1]),
	    LZ_TEXT(l->pixel[PIXEL_FB]), LZ_TEXT(l->pixel[PIXEL_GA]),
	    LZ_TEXT(l->pixel[PIXEL_GTM]), LZ_TEXT(l->pixel[PIXEL_TIKTOK]),
	    LZ_TEXT(l->pixel[PIXEL_LINE]), LZ_I64(l->escape_inapp),
	    LZ_I64_IF(l->expires_at != 0, l->expires_at),
	    LZ_I64(l->max_clicks), LZ_TEXT(json[2]),
	    LZ_TEXT(l->password_hash), LZ_TEXT(l->expired_url),
	    LZ_TEXT(l->notes), LZ_I64(l->archived != 0) };
	size_t		 i;
	int		 rc;

	if (update) {
		v[LINK_NFIELDS] = (struct lz_val)LZ_I64(l->id);
		v[LINK_NFIELDS + 1] = (struct lz_val)LZ_I64(l->revision);
		rc = lz_run_changed(store_stmt_of(db, set, ST_LINK_UPDATE,
		    ST_LINK_UPDATE_ANY, account_id, v, LINK_NFIELDS + 2));
	} else {
		v[LINK_NFIELDS] = (struct lz_val)LZ_I64(l->account_id);
		v[LINK_NFIELDS + 1] = (struct lz_val)LZ_TEXT(l->slug);
		v[LINK_NFIELDS + 2] = (struct lz_val)LZ_I64(l->created_at);
		v[LINK_NFIELDS + 3] = (struct lz_val)LZ_I64_IF(
		    l->domain_id != 0, l->domain_id);
		rc = lz_one_i64(lz_db_stmtv(db, set, ST_LINK_INSERT, v,
		    LZ_NELEM(v)), &l->id);
	}
	for (i = 0; i < LZ_NELEM(json); i++)
		free(json[i]);
	return rc;
}

int
store_link_insert(struct lz_db *db, struct link *l)
{
	int	 rc;

	rc = write_link(db, l, 0, 0);
	return rc == -1 ? -1 : rc == 0;
}

/* ---- links inserted in one statement (store_link_insert_many) ---- */

/* A text value of a row: the string, or null; 0, or -1 (not UTF-8). */
static int
put_text(json_t *row, const char *s)
{
	return json_array_append_new(row, s != NULL ? json_string(s) :
	    json_null());
}

static int
put_int(json_t *row, int present, int64_t v)
{
	return json_array_append_new(row, present ?
	    json_integer((json_int_t)v) : json_null());
}

/* l's row of ST_LINK_INSERT_MANY, stored as made at made (0: its
 * created_at); NULL when a text cannot go in JSON. */
static json_t *
insert_row(const struct link *l, int64_t made)
{
	char	*json[] = { json_text(l->variants), json_text(l->og),
	    json_text(l->utm) };
	json_t	*row = json_array();
	size_t	 i;
	int	 bad;

	bad = put_text(row, l->target_url) | put_text(row, l->title) |
	    put_text(row, link_mode_names[l->mode]) | put_text(row, json[0]) |
	    put_int(row, 1, l->redirect_type) | put_text(row, json[1]) |
	    put_text(row, l->pixel[PIXEL_FB]) |
	    put_text(row, l->pixel[PIXEL_GA]) |
	    put_text(row, l->pixel[PIXEL_GTM]) |
	    put_text(row, l->pixel[PIXEL_TIKTOK]) |
	    put_text(row, l->pixel[PIXEL_LINE]) |
	    put_int(row, 1, l->escape_inapp) |
	    put_int(row, l->expires_at != 0, l->expires_at) |
	    put_int(row, 1, l->max_clicks) | put_text(row, json[2]) |
	    put_text(row, l->password_hash) | put_text(row, l->expired_url) |
	    put_text(row, l->notes) | put_int(row, 1, l->archived != 0) |
	    put_int(row, 1, l->account_id) | put_text(row, l->slug) |
	    put_int(row, 1, made != 0 ? made : l->created_at) |
	    put_int(row, l->domain_id != 0, l->domain_id);
	for (i = 0; i < LZ_NELEM(json); i++)
		free(json[i]);
	if (bad) {
		json_decref(row);
		return NULL;
	}
	return row;
}

/* Links ordered by domain and slug. */
static int
by_place(const void *a, const void *b)
{
	const struct link *x = *(struct link *const *)a;
	const struct link *y = *(struct link *const *)b;

	if (x->domain_id != y->domain_id)
		return x->domain_id < y->domain_id ? -1 : 1;
	return strcmp(x->slug, y->slug);
}

/* by_place, and of one place in the order of the batch (the first one
 * is the one inserted, as one by one). */
static int
by_place_then_index(const void *a, const void *b)
{
	const struct link *x = *(struct link *const *)a;
	const struct link *y = *(struct link *const *)b;
	int	 c = by_place(a, b);

	return c != 0 ? c : x < y ? -1 : x > y;
}

int
store_link_insert_many(struct lz_db *db, struct link *ls,
    const char *take, const int64_t *made, size_t n)
{
	struct link	**sorted, key, *kp = &key, **hit;
	struct lz_stmt	*st;
	json_t		*rows = json_array(), *row;
	char		*list = NULL;
	size_t		 i, j, k = 0, nls = n;
	char		*in;
	int		 rc;

	/* Each row's place once: a second of one domain and slug is left
	 * to the caller (slug taken, or another random one). */
	sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	in = xcalloc(n ? n : 1, 1);
	for (i = 0; i < n; i++)
		if (take[i]) {
			ls[i].id = 0;
			sorted[k++] = &ls[i];
		}
	n = k;
	k = 0;
	qsort(sorted, n, sizeof(*sorted), by_place_then_index);
	for (i = 0; i < n; i++) {
		if (i > 0 && by_place(&sorted[i - 1], &sorted[i]) == 0)
			continue;	/* not in this statement */
		in[sorted[i] - ls] = 1;
		sorted[k++] = sorted[i];
	}
	/* The rows in the batch's order: ids given in it, as one by one. */
	for (i = 0; i < nls; i++)
		if (in[i] && ((row = insert_row(&ls[i], made != NULL ? made[i] :
		    0)) == NULL || json_array_append_new(rows, row) == -1))
			in[i] = 0;
	for (i = j = 0; i < k; i++)
		if (in[sorted[i] - ls])
			sorted[j++] = sorted[i];
	k = j;
	rc = 0;
	if (k == 0)
		goto done;
	if ((list = json_dumps(rows, JSON_COMPACT)) == NULL) {
		rc = -1;
		goto done;
	}
	st = LZ_STMT(db, set, ST_LINK_INSERT_MANY, LZ_TEXT(list));
	while ((rc = lz_step(st)) == 1) {
		key.domain_id = lz_col_i64(st, 2);
		key.slug = xstrdup(lz_col_text(st, 1));
		if ((hit = bsearch(&kp, sorted, k, sizeof(*sorted),
		    by_place)) != NULL)
			(*hit)->id = lz_col_i64(st, 0);
		free(key.slug);
	}
	lz_reset(st);
	rc = rc == -1 ? -1 : 0;
done:
	json_decref(rows);
	free(list);
	free(sorted);
	free(in);
	return rc;
}

int
store_link_update(struct lz_db *db, struct link *l, int64_t account_id)
{
	return write_link(db, l, 1, account_id);
}

int
store_link_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct link *l)
{
	return store_get_of(db, set, ST_LINK_GET, ST_LINK_GET_ANY, id,
	    account_id, row_link, l);
}

int
store_link_by_id(struct lz_db *db, int64_t id, struct link *l)
{
	const struct lz_val	 v = LZ_I64(id);

	return (int)lz_each(lz_db_stmtv(db, set, ST_LINK_BY_ID, &v, 1),
	    row_link, l);
}

int
store_link_by_clicks(struct lz_db *db, int64_t account_id, int64_t domain,
    int64_t tag, int (*fn)(int64_t, int64_t, void *), void *arg)
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_LINK_BY_CLICKS, LZ_I64(account_id),
	    LZ_I64(domain), LZ_I64(tag));
	while ((rc = lz_step(st)) == 1)
		if (fn(lz_col_i64(st, 0), lz_col_i64(st, 1), arg) == 0)
			break;
	lz_reset(st);
	return rc == -1 ? -1 : 0;
}

int
store_import_seen(struct lz_db *db, int64_t account_id, const char *source,
    const char *original_id)
{
	int64_t	 n;

	if (lz_one_i64(LZ_STMT(db, set, ST_IMPORT_SEEN, LZ_I64(account_id),
	    LZ_TEXT(source), LZ_TEXT(original_id)), &n) != 1)
		return -1;
	return n > 0;
}

int
store_import_add(struct lz_db *db, int64_t link_id, int64_t account_id,
    const char *source, const char *original_id, int64_t total_clicks,
    int history, int64_t now)
{
	return lz_run_ok(LZ_STMT(db, set, ST_IMPORT_ADD, LZ_I64(link_id),
	    LZ_I64(account_id), LZ_TEXT(source), LZ_TEXT(original_id),
	    LZ_I64(now), LZ_I64(history ? 0 : -1), LZ_I64(total_clicks)));
}

int
store_import_pending(struct lz_db *db, int64_t account_id,
    const char *source, int (*fn)(const struct store_import_pending *,
    void *), void *arg)
{
	struct store_import_pending	 p;
	struct lz_stmt			*st;
	int				 rc;

	if ((st = LZ_STMT(db, set, ST_IMPORT_PENDING, LZ_I64(account_id),
	    LZ_TEXT(source))) == NULL)
		return -1;
	while ((rc = lz_step(st)) == 1) {
		p.link_id = lz_col_i64(st, 0);
		p.id = lz_col_text(st, 1);
		p.pos = lz_col_i64(st, 2);
		p.counted = lz_col_i64(st, 3);
		p.total = lz_col_i64(st, 4);
		if (fn(&p, arg) == 0)
			break;
	}
	lz_reset(st);
	return rc == -1 ? -1 : 0;
}

int
store_import_progress(struct lz_db *db, int64_t link_id, int64_t pos,
    int64_t counted)
{
	return lz_run_ok(LZ_STMT(db, set, ST_IMPORT_PROGRESS, LZ_I64(link_id),
	    LZ_I64(pos), LZ_I64(counted)));
}

struct seen_fn {
	void	(*fn)(const char *, void *);
	void	*arg;
};

static void
seen_row(struct lz_stmt *st, void *arg)
{
	struct seen_fn	*f = arg;

	f->fn(lz_col_text(st, 0), f->arg);
}

long
store_import_seen_many(struct lz_db *db, int64_t account_id,
    const char *source, const json_t *ids,
    void (*fn)(const char *, void *), void *arg)
{
	struct seen_fn	 f = { fn, arg };
	char		*list = json_dumps(ids, JSON_COMPACT);
	long		 rc;

	if (list == NULL)
		return -1;
	rc = lz_each(LZ_STMT(db, set, ST_IMPORT_SEEN_MANY, LZ_I64(account_id),
	    LZ_TEXT(source), LZ_TEXT(list)), seen_row, &f);
	free(list);
	return rc;
}

int
store_import_add_many(struct lz_db *db, int64_t account_id, int64_t now,
    const json_t *rows)
{
	char	*list;
	int	 rc;

	if (json_array_size(rows) == 0)
		return 0;
	if ((list = json_dumps(rows, JSON_COMPACT)) == NULL)
		return -1;
	rc = lz_run_ok(LZ_STMT(db, set, ST_IMPORT_ADD_MANY, LZ_I64(account_id),
	    LZ_I64(now), LZ_TEXT(list)));
	free(list);
	return rc;
}

int
store_link_set_created(struct lz_db *db, int64_t id, int64_t at)
{
	return lz_run_ok(LZ_STMT(db, set, ST_LINK_SET_CREATED, LZ_I64(id),
	    LZ_I64(at)));
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
store_link_by_slug(struct lz_db *db, int64_t domain, const char *slug,
    struct link *l)
{
	return (int)lz_each(LZ_STMT(db, set, ST_LINK_BY_SLUG, LZ_TEXT(slug),
	    LZ_I64(domain)), row_link, l);
}

/*
 * The LIKE pattern of a search for q (a new string): %q%, with q's A-Z
 * folded as lower() folds them (and nothing else) and its backslashes,
 * % and _ escaped, so that they are plain characters.
 */
static char *
link_pattern(const char *q)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	const char	*p;

	lz_buf_putc(&b, '%');
	for (p = q; *p != '\0'; p++) {
		if (*p == '\\' || *p == '%' || *p == '_')
			lz_buf_putc(&b, '\\');
		lz_buf_putc(&b, *p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	}
	lz_buf_putc(&b, '%');
	return lz_buf_detach(&b);
}

long
store_link_list(struct lz_db *db, int64_t account_id, int64_t before,
    long limit, const struct link_filter *f,
    void (*fn)(struct link *, void *), void *arg)
{
	char		*pattern = f && f->q ? link_pattern(f->q) : NULL;
	struct lz_val	 v[] = { LZ_I64(before), LZ_I64(limit),
	    LZ_TEXT(pattern), LZ_I64(f ? f->status : -1), LZ_I64(f ? f->now :
	    0), LZ_I64(f && f->by_domain ? f->domain : -1),
	    LZ_TEXT(f ? f->tags : NULL), LZ_I64(f ? f->archived : 0) };
	struct lz_stmt	*st;
	long		 n = -1;

	if ((st = store_stmt_of(db, set, ST_LINK_LIST, ST_LINK_LIST_ANY,
	    account_id, v, LZ_NELEM(v))) != NULL)
		n = store_link_each(st, fn, arg);
	free(pattern);
	return n;
}

int
store_link_delete(struct lz_db *db, int64_t id, int64_t account_id,
    int64_t now, char *slug, int64_t *owner, int64_t *domain)
{
	const struct lz_val	 v[] = { LZ_I64(now), LZ_I64(id) };
	struct lz_stmt		*st;
	int			 rc, archived;

	st = store_stmt_of(db, set, ST_LINK_DELETE, ST_LINK_DELETE_ANY,
	    account_id, v, LZ_NELEM(v));
	if (st == NULL || (rc = lz_row(st)) != 1)
		return st == NULL ? -1 : rc;
	lz_col_copy(st, 0, slug, SLUG_MAX + 1);
	*owner = lz_col_i64(st, 1);
	*domain = lz_col_i64(st, 2);
	archived = lz_col_int(st, 3);
	lz_reset(st);
	/* One live link fewer in its account's count (an archived one
	 * held no place). */
	if (archived)
		return 1;
	return lz_run_ok(LZ_STMT(db, set, ST_LINK_UNSLOT, LZ_I64(*owner))) ==
	    -1 ? -1 : 1;
}
