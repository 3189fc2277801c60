/*
 * check_wqueue.c -- the writers' queue (src/core/wqueue.h): one writer at
 * a time, in the order they asked, past the dead and the impatient; and
 * SQLite's writers through it, never busy.
 */
#include "config.h"

#include <sys/mman.h>
#include <sys/wait.h>

#include <check.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "log.h"
#include "lztime.h"
#include "wqueue.h"

static char	 dir[] = "/tmp/lz-check-wqueue-XXXXXX";
static char	 path[300];

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/w.db", dir);
}

static void
teardown(void)
{
	char	 cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
}

static struct lz_wqueue *
open_q(void)
{
	struct lz_wqueue	*q;
	char			 err[256];

	q = lz_wqueue_open(path, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	return q;
}

static void *
shared(size_t n)
{
	void	*p = mmap(NULL, n, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static uint32_t
queued(struct lz_wqueue *q)
{
	struct lz_wqueue_stats	 st;

	lz_wqueue_stats(q, &st);
	return st.queued;
}

static void
wait_queued(struct lz_wqueue *q, uint32_t n)
{
	int	 i;

	for (i = 0; i < 5000 && queued(q) != n; i++)
		usleep(1000);
	ck_assert_uint_eq(queued(q), n);
}

static int
reap(pid_t pid)
{
	int	 st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Several processes at once: never two in the turn, no turn lost. */
START_TEST(one_at_a_time)
{
	struct { int inside, most; long total; } *s = shared(sizeof(*s));
	pid_t	 kids[6];
	int	 k, i;

	for (k = 0; k < 6; k++) {
		if ((kids[k] = fork()) == 0) {
			struct lz_wqueue *q = open_q();

			for (i = 0; i < 300; i++) {
				if (lz_wqueue_lock(q, 10000) != 0)
					_exit(1);
				int in = ++s->inside;
				if (in > s->most)
					s->most = in;
				long t = s->total;	/* not atomic: the
							   queue's to keep */
				if (i % 50 == 0)
					usleep(200);
				s->total = t + 1;
				s->inside--;
				lz_wqueue_unlock(q);
			}
			lz_wqueue_close(q);
			_exit(0);
		}
	}
	for (k = 0; k < 6; k++)
		ck_assert_int_eq(reap(kids[k]), 0);
	ck_assert_int_eq(s->most, 1);
	ck_assert_int_eq(s->total, 6 * 300);
}
END_TEST

/* Waiters go in the order they asked. */
START_TEST(in_arrival_order)
{
	struct { _Atomic int n; int order[8]; } *s = shared(sizeof(*s));
	struct lz_wqueue	*q = open_q();
	pid_t			 kids[8];
	int			 k;

	ck_assert_int_eq(lz_wqueue_lock(q, 1000), 0);
	for (k = 0; k < 8; k++) {
		if ((kids[k] = fork()) == 0) {
			struct lz_wqueue *c = open_q();

			if (lz_wqueue_lock(c, 10000) != 0)
				_exit(1);
			s->order[atomic_fetch_add(&s->n, 1)] = k;
			lz_wqueue_unlock(c);
			_exit(0);
		}
		/* The next asks only once this one is in line. */
		wait_queued(q, (uint32_t)k + 2);
	}
	lz_wqueue_unlock(q);
	for (k = 0; k < 8; k++)
		ck_assert_int_eq(reap(kids[k]), 0);
	for (k = 0; k < 8; k++)
		ck_assert_int_eq(s->order[k], k);
	lz_wqueue_close(q);
}
END_TEST

/* A process killed in its turn is passed over within moments. */
START_TEST(dead_holder_passed_over)
{
	struct lz_wqueue	*q = open_q();
	struct lz_wqueue_stats	 st;
	int			 p[2];
	int64_t			 t0;
	pid_t			 kid;
	char			 c;

	ck_assert_int_eq(pipe(p), 0);
	if ((kid = fork()) == 0) {
		struct lz_wqueue *c2 = open_q();

		if (lz_wqueue_lock(c2, 1000) != 0)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	kill(kid, SIGKILL);
	ck_assert_int_eq(reap(kid), 128 + SIGKILL);
	t0 = lz_mono_us();
	ck_assert_int_eq(lz_wqueue_lock(q, 5000), 0);
	ck_assert_int_lt(lz_mono_us() - t0, 1000 * 1000);
	lz_wqueue_unlock(q);
	lz_wqueue_stats(q, &st);
	ck_assert_uint_eq(st.dead, 1);
	ck_assert_uint_eq(st.queued, 0);
	lz_wqueue_close(q);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* A waiter that gives up costs the ones after it nothing. */
START_TEST(impatient_waiter)
{
	struct lz_wqueue	*q = open_q();
	struct lz_wqueue_stats	 st;
	pid_t			 kid;
	int64_t			 t0;

	ck_assert_int_eq(lz_wqueue_lock(q, 1000), 0);
	if ((kid = fork()) == 0) {
		struct lz_wqueue *c = open_q();

		_exit(lz_wqueue_lock(c, 50) == -1 ? 0 : 1);
	}
	ck_assert_int_eq(reap(kid), 0);
	lz_wqueue_unlock(q);
	t0 = lz_mono_us();
	ck_assert_int_eq(lz_wqueue_lock(q, 1000), 0);
	ck_assert_int_lt(lz_mono_us() - t0, 5 * 1000);
	lz_wqueue_unlock(q);
	lz_wqueue_stats(q, &st);
	ck_assert_uint_eq(st.timeouts, 1);
	ck_assert_uint_eq(st.queued, 0);
	lz_wqueue_close(q);
}
END_TEST

/* A file of something else is made anew. */
START_TEST(foreign_file_made_anew)
{
	struct lz_wqueue	*q;
	char			 wq[320];
	FILE			*f;

	snprintf(wq, sizeof(wq), "%s-wq", path);
	ck_assert_ptr_nonnull(f = fopen(wq, "w"));
	fputs("not a queue, and long enough to look like one..........", f);
	fclose(f);
	q = open_q();
	ck_assert_uint_eq(queued(q), 0);
	ck_assert_int_eq(lz_wqueue_lock(q, 100), 0);
	lz_wqueue_unlock(q);
	lz_wqueue_close(q);
}
END_TEST

/*
 * SQLite's writers through the queue: processes each committing small
 * write transactions and writes on their own, at once, without one
 * failure, every row there.
 */
START_TEST(sqlite_writers_never_busy)
{
	struct lz_db	 db;
	char		 err[256];
	pid_t		 kids[4];
	int64_t		 n = 0;
	int		 k, i;

	ck_assert_int_eq(lz_db_open(&db, path, LZ_DB_CREATE, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(lz_db_exec(&db, "PRAGMA journal_mode=WAL; "
	    "CREATE TABLE t (k INTEGER, i INTEGER)"), 0);
	lz_db_close(&db);
	for (k = 0; k < 4; k++) {
		if ((kids[k] = fork()) == 0) {
			static const struct lz_sql q[] = {
				{ "add", "INSERT INTO t (k, i) VALUES ($1, $2)",
				  NULL },
			};
			struct lz_sqlset set = LZ_SQLSET("t", q);
			struct lz_db d;

			if (lz_db_open(&d, path, 0, err, sizeof(err)) == -1)
				_exit(2);
			for (i = 0; i < 400; i++) {
				if (i % 2 == 0 && lz_db_begin(&d) == -1)
					_exit(3);
				if (lz_run_ok(LZ_STMT(&d, &set, 0,
				    LZ_I64(k), LZ_I64(i))) == -1)
					_exit(4);
				if (i % 2 == 0 && lz_db_commit(&d) == -1)
					_exit(5);
				lz_db_reset_all(&d);
			}
			lz_db_close(&d);
			_exit(0);
		}
	}
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(reap(kids[k]), 0);
	ck_assert_int_eq(lz_db_open(&db, path, 0, err, sizeof(err)), 0);
	{
		static const struct lz_sql q[] = {
			{ "count", "SELECT count(*) FROM t", NULL },
		};
		struct lz_sqlset set = LZ_SQLSET("c", q);

		ck_assert_int_eq(lz_one_i64(lz_db_stmt(&db, &set, 0), &n), 1);
	}
	ck_assert_int_eq(n, 4 * 400);
	lz_db_close(&db);
}
END_TEST

static Suite *
wqueue_suite(void)
{
	Suite	*s = suite_create("wqueue");
	TCase	*tc = tcase_create("queue");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, one_at_a_time);
	tcase_add_test(tc, in_arrival_order);
	tcase_add_test(tc, dead_holder_passed_over);
	tcase_add_test(tc, impatient_waiter);
	tcase_add_test(tc, foreign_file_made_anew);
	tcase_add_test(tc, sqlite_writers_never_busy);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr = srunner_create(wqueue_suite());
	int	 failed;

	lz_log_open("check_wqueue", LZ_LOG_WARN);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
