/*
 * db.c -- the database, whichever engine runs it: opening by path or
 * URI, migrations, transactions, and the parts of db.h's statement API
 * that do not depend on the engine (db_engine.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_engine.h"
#include "log.h"
#include "util.h"

/* Slots of the statement sets, handed out on first use (any thread). */
static size_t	 nslots;

#ifndef HAVE_POSTGRESQL
const struct lz_dbops *const lz_db_pg = NULL;	/* built without libpq */
#endif

int
lz_db_is_uri(const char *target)
{
	return strncmp(target, "postgresql://", 13) == 0 ||
	    strncmp(target, "postgres://", 11) == 0;
}

/* Copies s to b, each "password" (from its first character, pw, to
 * before end) written as "***". */
static void
hide(struct lz_buf *b, const char *s, const char *pw, const char *end)
{
	lz_buf_add(b, s, (size_t)(pw - s));
	lz_buf_puts(b, "***");
	lz_buf_puts(b, end);
}

char *
lz_db_display(const char *target)
{
	struct lz_buf	 b = LZ_BUF_INIT, c = LZ_BUF_INIT;
	const char	*auth, *at, *colon, *s, *pw;

	if (!lz_db_is_uri(target))
		return xstrdup(target);
	/* postgresql://user:password@host/db?password=...&... */
	auth = strstr(target, "://") + 3;
	at = auth + strcspn(auth, "@/?");
	colon = memchr(auth, ':', (size_t)(at - auth));
	if (*at == '@' && colon != NULL)
		hide(&b, target, colon + 1, at);
	else
		lz_buf_puts(&b, target);
	s = lz_buf_str(&b);
	for (pw = strchr(s, '?'); pw != NULL; pw = strchr(pw + 1, '&'))
		if (strncmp(pw + 1, "password=", 9) == 0) {
			hide(&c, s, pw + 10, pw + 10 + strcspn(pw + 10, "&"));
			lz_buf_free(&b);
			return lz_buf_detach(&c);
		}
	return lz_buf_detach(&b);
}

int
lz_db_have_pg(void)
{
	return lz_db_pg != NULL;
}

int
lz_db_open(struct lz_db *db, const char *path, int flags, char *err,
    size_t errlen)
{
	const struct lz_dbops	*ops = &lz_db_sqlite;

	memset(db, 0, sizeof(*db));
	if (lz_db_is_uri(path)) {
		if ((ops = lz_db_pg) == NULL) {
			snprintf(err, errlen, "links_db names a PostgreSQL "
			    "database, but lz was built without libpq "
			    "(configure --with-postgresql)");
			return -1;
		}
	}
	db->ops = ops;
	db->path = lz_db_display(path);
	if (ops->open(db, path, flags, err, errlen) == -1) {
		free(db->path);
		memset(db, 0, sizeof(*db));
		return -1;
	}
	return 0;
}

void
lz_db_close(struct lz_db *db)
{
	size_t	 i, k;

	if (db->ops == NULL)
		return;
	for (i = 0; i < db->nslots; i++) {
		if (db->slots[i] == NULL)
			continue;
		/* The set's size is not kept here: a slot's array ends
		 * with a statement whose db is NULL. */
		for (k = 0; db->slots[i][k].db != NULL; k++)
			if (db->slots[i][k].e != NULL)
				db->ops->finalize(&db->slots[i][k]);
		free(db->slots[i]);
	}
	free(db->slots);
	free(db->used.v);
	db->ops->close(db);
	free(db->path);
	memset(db, 0, sizeof(*db));
}

const char *
lz_db_engine(struct lz_db *db)
{
	return db->ops ? db->ops->name : "none";
}

int
lz_db_is_sqlite(struct lz_db *db)
{
	return db->ops == &lz_db_sqlite;
}

int
lz_db_exec(struct lz_db *db, const char *sql)
{
	return db->ops->exec(db, sql);
}

int
lz_db_begin(struct lz_db *db)
{
	return db->ops->begin(db, 1);
}

int
lz_db_begin_read(struct lz_db *db)
{
	if (lz_db_in_txn(db))
		return 0;
	return db->ops->begin(db, 0) == 0 ? 1 : -1;
}

int
lz_db_commit(struct lz_db *db)
{
	if (db->ops->bulk_flush(db) == -1) {
		db->ops->rollback(db);
		return -1;
	}
	return db->ops->commit(db);
}

void
lz_db_rollback(struct lz_db *db)
{
	if (lz_db_in_txn(db))
		db->ops->rollback(db);
}

int
lz_db_in_txn(struct lz_db *db)
{
	return db->ops->in_txn(db);
}

const char *
lz_db_error(struct lz_db *db)
{
	return db->ops ? db->ops->error(db) : "no database";
}

int
lz_db_health(struct lz_db *db, char *why, size_t len)
{
	if (db->ops == NULL) {
		snprintf(why, len, "no database");
		return -1;
	}
	return db->ops->health(db, why, len);
}

int
lz_db_data_version(struct lz_db *db, uint64_t v[3])
{
	if (db->ops == NULL || db->ops->data_version == NULL)
		return -1;
	if (db->ops->data_version(db, v, !db->dv_known) == -1)
		return -1;
	db->dv_known = 1;
	return 0;
}

int
lz_db_user_version(struct lz_db *db)
{
	return db->ops->version(db);
}

static int
newest(const struct lz_migration *m, size_t n)
{
	return n ? m[n - 1].version : 0;
}

int
lz_db_check_version(struct lz_db *db, const struct lz_migration *m, size_t n,
    char *err, size_t errlen)
{
	int	 v = lz_db_user_version(db), want = newest(m, n);

	if (v == want)
		return 0;
	if (v < 0)
		snprintf(err, errlen, "%s: cannot read the schema version: %s",
		    db->path, lz_db_error(db));
	else if (v == 0)
		snprintf(err, errlen, "%s: database not initialised; run "
		    "'lzctl init'", db->path);
	else if (v < want)
		snprintf(err, errlen, "%s: schema version %d is older than "
		    "this program's %d; run 'lzctl migrate'", db->path, v,
		    want);
	else
		snprintf(err, errlen, "%s: schema version %d is newer than "
		    "this program's %d; upgrade lz", db->path, v, want);
	return -1;
}

/* Applies m in its own transaction unless the version has reached it
 * meanwhile (another process migrating too).  0 or -1. */
static int
migrate_one(struct lz_db *db, const struct lz_migration *m, int *to)
{
	const char	*sql = lz_db_is_sqlite(db) ? m->sql : m->pg;
	int		 v;

	if (sql == NULL) {
		lz_log(LZ_LOG_ERR, "%s: migration %s has no %s text",
		    db->path, m->name, lz_db_engine(db));
		return -1;
	}
	if (lz_db_begin(db) == -1 || db->ops->lock_schema(db) == -1 ||
	    (v = lz_db_user_version(db)) < 0)
		return -1;
	if (v < m->version && lz_db_exec(db, sql) == -1)
		return -1;
	if (v < m->version && db->ops->migrated != NULL &&
	    db->ops->migrated(db) != 1) {
		lz_log(LZ_LOG_ERR, "%s: migration %s leaves rows whose foreign "
		    "keys match nothing", db->path, m->name);
		return -1;
	}
	if (v < m->version && db->ops->set_version(db, m->version) == -1)
		return -1;
	if (lz_db_commit(db) == -1)
		return -1;
	if (v < m->version)
		*to = m->version;
	return 0;
}

int
lz_db_migrate(struct lz_db *db, const struct lz_migration *m, size_t n,
    int *from, int *to, char *err, size_t errlen)
{
	int	 v, rc = 0;
	size_t	 i;

	if ((v = lz_db_user_version(db)) < 0) {
		snprintf(err, errlen, "%s: %s", db->path, lz_db_error(db));
		return -1;
	}
	*from = *to = v;
	if (v > newest(m, n)) {
		snprintf(err, errlen, "%s: schema version %d is newer than "
		    "this program's %d; refusing to touch it", db->path, v,
		    newest(m, n));
		return -1;
	}
	if (v < newest(m, n) && db->ops->premigrate(db, v, err, errlen) ==
	    -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		if (m[i].version <= v)
			continue;
		if (migrate_one(db, &m[i], to) == -1) {
			snprintf(err, errlen, "%s: migration %s failed: %s",
			    db->path, m[i].name, lz_db_error(db));
			lz_db_rollback(db);
			rc = -1;
		}
	}
	if (v < newest(m, n) && db->ops->postmigrate != NULL)
		db->ops->postmigrate(db);
	return rc;
}

/* ---- statements ------------------------------------------------------ */

static size_t
set_slot(struct lz_sqlset *set)
{
	size_t	 slot, none = 0;

	if ((slot = __atomic_load_n(&set->slot, __ATOMIC_ACQUIRE)) != 0)
		return slot - 1;
	slot = __atomic_add_fetch(&nslots, 1, __ATOMIC_ACQ_REL);
	if (!__atomic_compare_exchange_n(&set->slot, &none, slot, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		slot = none;	/* another thread was first */
	return slot - 1;
}

/* The statements of set on db, allocated on first use. */
static struct lz_stmt *
set_stmts(struct lz_db *db, struct lz_sqlset *set)
{
	size_t	 slot = set_slot(set), k;

	if (slot >= db->nslots) {
		db->slots = xreallocarray(db->slots, slot + 1,
		    sizeof(*db->slots));
		memset(db->slots + db->nslots, 0, (slot + 1 - db->nslots) *
		    sizeof(*db->slots));
		db->nslots = slot + 1;
	}
	if (db->slots[slot] == NULL) {
		/* One more, whose db stays NULL, ends the array. */
		db->slots[slot] = xcalloc(set->n + 1, sizeof(struct lz_stmt));
		for (k = 0; k < set->n; k++) {
			db->slots[slot][k].db = db;
			db->slots[slot][k].sql = &set->sql[k];
		}
	}
	return db->slots[slot];
}

/* 0 for a statement that is PostgreSQL's alone on SQLite (db.h). */
static int
engine_has(struct lz_db *db, const struct lz_sql *q)
{
	return q->sql != NULL || !lz_db_is_sqlite(db);
}

/* Prepares s unless it is; 0, or -1 with err (tried again next time). */
static int
stmt_ready(struct lz_stmt *s, char *err, size_t errlen)
{
	if (s->e != NULL)
		return 0;
	if (!engine_has(s->db, s->sql)) {
		snprintf(err, errlen, "%s: PostgreSQL's alone", s->sql->name);
		return -1;
	}
	return s->db->ops->prepare(s, err, errlen);
}

void
lz_stmts_add(struct lz_stmts *l, struct lz_stmt *s, int *on)
{
	if (*on)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = s;
	*on = 1;
}

struct lz_stmt *
lz_db_stmt(struct lz_db *db, struct lz_sqlset *set, size_t i)
{
	struct lz_stmt	*s = &set_stmts(db, set)[i];
	char		 err[512];

	lz_stmts_add(&db->used, s, &s->used);
	if (stmt_ready(s, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s: %s", db->ops->name, err);
		s->bad = 1;	/* its steps fail */
		return s;
	}
	db->ops->reset(s, 1);
	s->bad = 0;
	return s;
}

int
lz_db_prepare_all(struct lz_db *db, struct lz_sqlset *const *sets, char *err,
    size_t errlen)
{
	struct lz_stmt	*v;
	size_t		 k, i;

	for (k = 0; sets[k] != NULL; k++) {
		v = set_stmts(db, sets[k]);
		for (i = 0; i < sets[k]->n; i++)
			if (engine_has(db, &sets[k]->sql[i]) &&
			    stmt_ready(&v[i], err, errlen) == -1)
				return -1;
	}
	return 0;
}

void
lz_db_reset_all(struct lz_db *db)
{
	struct lz_stmt	*s;
	size_t		 k;

	/* Only a statement stepped but not run to its end holds anything,
	 * and only those used since the last call can be. */
	for (k = 0; k < db->used.n; k++) {
		s = db->used.v[k];
		s->used = 0;
		if (s->e != NULL && db->ops->busy(s))
			db->ops->reset(s, 0);
	}
	db->used.n = 0;
	db->dv_known = 0;
	lz_db_rollback(db);
}

/* Binds v to $n unless the statement went bad. */
static void
bind(struct lz_stmt *s, int n, const struct lz_val *v)
{
	if (s->bad)
		return;
	if (n < 1 || n > LZ_SQL_PARAMS || s->db->ops->bind(s, n, v) == -1)
		s->bad = 1;
}

void
lz_bind_i64(struct lz_stmt *s, int n, int64_t x)
{
	const struct lz_val	 v = LZ_I64(x);

	bind(s, n, &v);
}

void
lz_bind_int(struct lz_stmt *s, int n, int x)
{
	lz_bind_i64(s, n, x);
}

void
lz_bind_double(struct lz_stmt *s, int n, double x)
{
	const struct lz_val	 v = LZ_DOUBLE(x);

	bind(s, n, &v);
}

void
lz_bind_text(struct lz_stmt *s, int n, const char *x)
{
	const struct lz_val	 v = LZ_TEXT(x);

	bind(s, n, &v);
}

void
lz_bind_textn(struct lz_stmt *s, int n, const char *x, size_t len)
{
	const struct lz_val	 v = LZ_TEXTN(x, len);

	bind(s, n, &v);
}

void
lz_bind_blob(struct lz_stmt *s, int n, const void *x, size_t len)
{
	/* A NULL pointer would bind NULL, not an empty blob. */
	const struct lz_val	 v = LZ_BLOB(x != NULL ? x : "", len);

	bind(s, n, &v);
}

void
lz_bind_null(struct lz_stmt *s, int n)
{
	const struct lz_val	 v = LZ_NULLV;

	bind(s, n, &v);
}

void
lz_bind_vals(struct lz_stmt *s, const struct lz_val *v, size_t n)
{
	size_t	 k;

	for (k = 0; k < n; k++)
		bind(s, (int)k + 1, &v[k]);
}

struct lz_stmt *
lz_db_stmtv(struct lz_db *db, struct lz_sqlset *set, size_t i,
    const struct lz_val *v, size_t n)
{
	struct lz_stmt	*s = lz_db_stmt(db, set, i);

	lz_bind_vals(s, v, n);
	return s;
}

int
lz_bulk_row(struct lz_db *db, struct lz_sqlset *set, size_t i,
    const struct lz_val *v, size_t n)
{
	struct lz_stmt	*s;

	if (db->ops->bulk_row == NULL)
		return lz_run_ok(lz_db_stmtv(db, set, i, v, n));
	s = lz_db_stmt(db, set, i);
	if (s->bad)
		return -1;
	return db->ops->bulk_row(s, v, n);
}

int
lz_bulk_flush(struct lz_db *db)
{
	return db->ops->bulk_flush(db);
}

int
lz_step(struct lz_stmt *s)
{
	if (s->bad) {
		if (s->e != NULL)
			s->db->ops->reset(s, 0);
		return -1;	/* logged where it went bad */
	}
	return s->db->ops->step(s);
}

long long
lz_run(struct lz_stmt *s)
{
	int	 rc;

	while ((rc = lz_step(s)) == 1)
		;
	return rc == -1 ? -1 : s->db->ops->changes(s);
}

int
lz_run_ok(struct lz_stmt *s)
{
	return s != NULL && lz_run(s) >= 0 ? 0 : -1;
}

int
lz_run_changed(struct lz_stmt *s)
{
	long long	 n = s != NULL ? lz_run(s) : -1;

	return n < 0 ? -1 : n > 0;
}

int64_t
lz_run_id(struct lz_stmt *s)
{
	int64_t	 id;

	return s != NULL && lz_one_i64(s, &id) == 1 ? id : -1;
}

int
lz_row(struct lz_stmt *s)
{
	return lz_step(s);
}

void
lz_reset(struct lz_stmt *s)
{
	if (s->e != NULL)
		s->db->ops->reset(s, 0);
}

long
lz_each(struct lz_stmt *s, void (*fn)(struct lz_stmt *, void *), void *arg)
{
	long	 n = 0;
	int	 rc;

	while ((rc = lz_step(s)) == 1) {
		fn(s, arg);
		n++;
	}
	return rc == -1 ? -1 : n;
}

int
lz_one_i64(struct lz_stmt *s, int64_t *v)
{
	int	 rc;

	if ((rc = lz_step(s)) == 1) {
		*v = lz_col_i64(s, 0);
		lz_reset(s);
	}
	return rc;
}

int64_t
lz_col_i64(struct lz_stmt *s, int col)
{
	return s->db->ops->col_i64(s, col);
}

int
lz_col_int(struct lz_stmt *s, int col)
{
	return (int)lz_col_i64(s, col);
}

double
lz_col_double(struct lz_stmt *s, int col)
{
	return s->db->ops->col_double(s, col);
}

int
lz_col_null(struct lz_stmt *s, int col)
{
	return s->db->ops->col_null(s, col);
}

const char *
lz_col_text(struct lz_stmt *s, int col)
{
	const char	*t = lz_col_text_or_null(s, col);

	return t ? t : "";
}

const char *
lz_col_text_or_null(struct lz_stmt *s, int col)
{
	size_t	 len;

	return s->db->ops->col_text(s, col, &len);
}

const char *
lz_col_textn(struct lz_stmt *s, int col, size_t *len)
{
	const char	*t = s->db->ops->col_text(s, col, len);

	if (t == NULL) {
		*len = 0;
		return "";
	}
	return t;
}

const void *
lz_col_blob(struct lz_stmt *s, int col, size_t *len)
{
	return s->db->ops->col_blob(s, col, len);
}

void
lz_col_copy(struct lz_stmt *s, int col, char *buf, size_t len)
{
	snprintf(buf, len, "%s", lz_col_text(s, col));
}

void
lz_cols(struct lz_stmt *s, const struct lz_col *cols, size_t n, void *row)
{
	char	*f;
	size_t	 i;
	int	 c;

	for (i = 0; i < n; i++) {
		f = (char *)row + cols[i].off;
		c = (int)i;
		switch (cols[i].type) {
		case LZ_C_I64:
			*(int64_t *)(void *)f = lz_col_i64(s, c);
			break;
		case LZ_C_LL:
			*(long long *)(void *)f = lz_col_i64(s, c);
			break;
		case LZ_C_INT:
			*(int *)(void *)f = lz_col_int(s, c);
			break;
		case LZ_C_DOUBLE:
			*(double *)(void *)f = lz_col_double(s, c);
			break;
		case LZ_C_TEXT:
			*(const char **)(void *)f = lz_col_text(s, c);
			break;
		case LZ_C_TEXT_OR_NULL:
			*(const char **)(void *)f = lz_col_text_or_null(s, c);
			break;
		case LZ_C_COPY:
			lz_col_copy(s, c, f, cols[i].size);
			break;
		}
	}
}

int
lz_col_count(struct lz_stmt *s)
{
	return s->db->ops->col_count(s);
}

void
lz_col_val(struct lz_stmt *s, int col, struct lz_val *v)
{
	memset(v, 0, sizeof(*v));
	v->type = (enum lz_vtype)s->db->ops->col_type(s, col);
	switch (v->type) {
	case LZ_V_NULL:
		break;
	case LZ_V_I64:
		v->i = lz_col_i64(s, col);
		break;
	case LZ_V_DOUBLE:
		v->d = lz_col_double(s, col);
		break;
	case LZ_V_TEXT:
		v->p = lz_col_textn(s, col, &v->len);
		break;
	case LZ_V_BLOB:
		/* Read as a blob, an empty one is NULL: keep it empty. */
		if ((v->p = lz_col_blob(s, col, &v->len)) == NULL)
			v->p = "";
		break;
	}
}
