/*
 * tdb.c -- a throw-away links database for the Check suites.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "db.h"
#include "link/link.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/store.h"
#include "tdb.h"
#include "util.h"

void
tdb_open(struct tdb *t)
{
	struct lz_db	 db;
	char		 err[512];
	int		 from, to;

	/* The suites name any account's data, as lzctl does. */
	store_admin();
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/lz-check-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/links.db", t->dir);
	if (lz_db_open(&db, t->path, LZ_DB_CREATE, err, sizeof(err)) == -1 ||
	    lz_db_migrate(&db, lz_links_migrations, lz_links_nmigrations,
	    &from, &to, err, sizeof(err)) == -1)
		ck_abort_msg("%s", err);
	lz_db_close(&db);
	if (store_open(&t->db, t->path, err, sizeof(err)) == -1)
		ck_abort_msg("%s", err);
}

void
tdb_close(struct tdb *t)
{
	char	 p[160];

	lz_db_close(&t->db);
	unlink(t->path);
	snprintf(p, sizeof(p), "%s-wal", t->path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", t->path);
	unlink(p);
	rmdir(t->dir);
}

int64_t
tdb_account(struct tdb *t, const char *email)
{
	int64_t	 id;

	id = store_account_add(&t->db, email, "pro", NULL, 1000);
	ck_assert_int_gt(id, 0);
	return id;
}

int64_t
tdb_link(struct tdb *t, int64_t account, const char *slug,
    const char *target, int64_t now)
{
	struct link	 l;
	int64_t		 id;

	memset(&l, 0, sizeof(l));
	l.account_id = account;
	l.slug = xstrdup(slug);
	l.target_url = xstrdup(target);
	l.redirect_type = 302;
	l.created_at = now;
	ck_assert_int_eq(store_link_insert(&t->db, &l), 0);
	id = l.id;
	link_free(&l);
	return id;
}

void
tdb_exec(sqlite3 *h, const char *sql)
{
	char	*msg = NULL;

	if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK)
		ck_abort_msg("%s: %s", sql, msg);
}

int64_t
tdb_q1(sqlite3 *h, const char *sql)
{
	sqlite3_stmt	*st;
	int64_t		 v;

	ck_assert_msg(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK,
	    "%s: %s", sql, sqlite3_errmsg(h));
	ck_assert_msg(sqlite3_step(st) == SQLITE_ROW, "%s: no row", sql);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}
