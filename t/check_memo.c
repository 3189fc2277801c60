/*
 * check_memo.c -- answers kept while the database is unchanged
 * (src/core/memo.h): a commit of another connection, this connection's
 * own change, a deadline and a reopened connection each end an entry;
 * nothing else does, and a request reads others' commits once.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "memo.h"

static char	 dir[] = "/tmp/lz-check-memo-XXXXXX";
static char	 path[300];
static struct lz_db	 a, b;		/* two connections to one file */

static void
open_db(struct lz_db *db)
{
	char	 err[256];

	ck_assert_msg(lz_db_open(db, path, LZ_DB_CREATE, err,
	    sizeof(err)) == 0, "%s", err);
}

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.db", dir);
	open_db(&a);
	ck_assert_int_eq(lz_db_exec(&a, "PRAGMA journal_mode=WAL;"
	    "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1);"), 0);
	open_db(&b);
}

static void
teardown(void)
{
	char	 cmd[400];

	lz_db_close(&a);
	lz_db_close(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

/* Keeps "one" under "k" read on a, as a request would. */
static void
keep(struct lz_memo *m, int64_t until)
{
	struct lz_memo_ver	 ver;

	lz_memo_begin(&a, &ver);
	ck_assert_int_eq(ver.ok, 1);
	lz_memo_put(m, &ver, "k", 1, "one", 3, until);
}

static int
kept(struct lz_memo *m, int64_t now)
{
	size_t		 len = 0;
	const void	*v;

	lz_db_reset_all(&a);		/* a new request */
	v = lz_memo_get(m, &a, "k", 1, now, &len);
	if (v != NULL)
		ck_assert(len == 3 && memcmp(v, "one", 3) == 0);
	return v != NULL;
}

START_TEST(unchanged_kept)
{
	struct lz_memo	*m = lz_memo_new(8);

	keep(m, INT64_MAX);
	ck_assert(kept(m, 1000));
	ck_assert(kept(m, 2000));
	/* A read of another connection changes nothing. */
	ck_assert_int_eq(lz_db_exec(&b, "SELECT * FROM t"), 0);
	ck_assert(kept(m, 3000));
	/* Another key, same slot or not, is not this one. */
	ck_assert_ptr_null(lz_memo_get(m, &a, "j", 1, 0, &(size_t){0}));
	lz_memo_free(m);
}
END_TEST

START_TEST(others_commit_ends)
{
	struct lz_memo	*m = lz_memo_new(8);

	keep(m, INT64_MAX);
	ck_assert_int_eq(lz_db_exec(&b, "UPDATE t SET v = 2"), 0);
	ck_assert(!kept(m, 1000));
	/* Gone for good, even read again. */
	ck_assert(!kept(m, 1000));
	lz_memo_free(m);
}
END_TEST

START_TEST(own_change_ends)
{
	struct lz_memo	*m = lz_memo_new(8);

	keep(m, INT64_MAX);
	ck_assert_int_eq(lz_db_exec(&a, "UPDATE t SET v = 3"), 0);
	ck_assert(!kept(m, 1000));
	lz_memo_free(m);
}
END_TEST

START_TEST(within_request_once)
{
	struct lz_memo	*m = lz_memo_new(8);
	size_t		 len;

	keep(m, INT64_MAX);
	lz_db_reset_all(&a);
	ck_assert_ptr_nonnull(lz_memo_get(m, &a, "k", 1, 0, &len));
	/* Another's commit within the request: answered as of its start;
	 * the next request sees it. */
	ck_assert_int_eq(lz_db_exec(&b, "UPDATE t SET v = 4"), 0);
	ck_assert_ptr_nonnull(lz_memo_get(m, &a, "k", 1, 0, &len));
	ck_assert(!kept(m, 0));
	lz_memo_free(m);
}
END_TEST

START_TEST(deadline_ends)
{
	struct lz_memo	*m = lz_memo_new(8);

	keep(m, 5000);
	ck_assert(kept(m, 4999));
	ck_assert(!kept(m, 5000));
	lz_memo_free(m);
}
END_TEST

START_TEST(reopened_ends)
{
	struct lz_memo	*m = lz_memo_new(8);

	keep(m, INT64_MAX);
	lz_db_close(&a);
	open_db(&a);
	ck_assert(!kept(m, 0));
	lz_memo_clear(m);
	keep(m, INT64_MAX);
	lz_memo_clear(m);
	ck_assert(!kept(m, 0));
	lz_memo_free(m);
}
END_TEST

START_TEST(newer_takes_slot)
{
	struct lz_memo		*m = lz_memo_new(1);	/* one slot */
	struct lz_memo_ver	 ver;
	size_t			 len;
	const char		*v;
	char			 big[1000];

	keep(m, INT64_MAX);
	memset(big, 'x', sizeof(big));
	lz_memo_begin(&a, &ver);
	lz_memo_put(m, &ver, "long key", 8, big, sizeof(big), INT64_MAX);
	ck_assert(!kept(m, 0));
	v = lz_memo_get(m, &a, "long key", 8, 0, &len);
	ck_assert(v != NULL && len == sizeof(big) && v[999] == 'x');
	/* Keys longer than LZ_MEMO_KEY are never kept. */
	lz_memo_put(m, &ver, big, LZ_MEMO_KEY + 1, "v", 1, INT64_MAX);
	ck_assert_ptr_null(lz_memo_get(m, &a, big, LZ_MEMO_KEY + 1, 0, &len));
	lz_memo_free(m);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("memo");
	TCase	*tc = tcase_create("memo");
	SRunner	*sr;
	int	 failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, unchanged_kept);
	tcase_add_test(tc, others_commit_ends);
	tcase_add_test(tc, own_change_ends);
	tcase_add_test(tc, within_request_once);
	tcase_add_test(tc, deadline_ends);
	tcase_add_test(tc, reopened_ends);
	tcase_add_test(tc, newer_takes_slot);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
