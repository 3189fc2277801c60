/*
 * check_ratelimit.c -- the shared sliding-window limiter (ratelimit.c).
 */
#include "config.h"

#include <sys/wait.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "ratelimit.h"

#define MIN	60000

static struct lz_rl	*rl;

static void
setup(void)
{
	ck_assert_int_ge(sodium_init(), 0);
	rl = lz_rl_create(1024, 60);
	ck_assert_ptr_nonnull(rl);
}

static void
teardown(void)
{
	lz_rl_destroy(rl);
	rl = NULL;
}

static struct lz_rl_result
take(const char *key, unsigned limit, int64_t now)
{
	struct lz_rl_result	 r;

	ck_assert_int_eq(lz_rl_take(rl, key, strlen(key), limit, MIN, now,
	    &r), 0);
	return r;
}

START_TEST(limit_then_refuse)
{
	struct lz_rl_result	 r;
	int			 i;

	for (i = 0; i < 30; i++) {
		r = take("a", 30, 1000000 + i * 100);
		ck_assert_int_eq(r.allowed, 1);
		ck_assert_uint_eq(r.remaining, 29 - (unsigned)i);
		ck_assert_uint_eq(r.limit, 30);
	}
	/* The first request (t = 1000000) leaves the window at 1060000. */
	r = take("a", 30, 1003000);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 57);
	ck_assert_int_eq(r.reset, 57);
	ck_assert_uint_eq(r.remaining, 0);
	r = take("a", 30, 1059999);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 1);
	r = take("a", 30, 1060000);
	ck_assert_int_eq(r.allowed, 1);
	ck_assert_uint_eq(r.remaining, 0);
	/* The second one left at 1060100. */
	r = take("a", 30, 1060050);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 1);
}
END_TEST

START_TEST(sliding_not_fixed)
{
	struct lz_rl_result	 r;

	/* 3 per minute at 0 s, 20 s, 40 s: a fixed window would allow a
	 * fourth at 61 s minus epsilon; the sliding one waits for 0 + 60. */
	ck_assert_int_eq(take("s", 3, 0).allowed, 1);
	ck_assert_int_eq(take("s", 3, 20000).allowed, 1);
	ck_assert_int_eq(take("s", 3, 40000).allowed, 1);
	r = take("s", 3, 45000);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 15);
	r = take("s", 3, 60000);
	ck_assert_int_eq(r.allowed, 1);
	/* Now 20 s, 40 s, 60 s are in the window: next at 80 s. */
	r = take("s", 3, 60001);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 20);
	/* Refusals are not recorded: at 80 s one more fits. */
	ck_assert_int_eq(take("s", 3, 80000).allowed, 1);
}
END_TEST

START_TEST(remaining_and_reset)
{
	struct lz_rl_result	 r;

	r = take("r", 5, 10000);
	ck_assert_uint_eq(r.remaining, 4);
	ck_assert_int_eq(r.reset, 60);
	r = take("r", 5, 30500);
	ck_assert_uint_eq(r.remaining, 3);
	ck_assert_int_eq(r.reset, 40);	/* 10000 + 60000 - 30500 = 39.5 s */
	/* After the first left the window, only the second counts. */
	r = take("r", 5, 75000);
	ck_assert_uint_eq(r.remaining, 3);
	ck_assert_int_eq(r.reset, 16);
}
END_TEST

START_TEST(keys_independent)
{
	int	 i;

	for (i = 0; i < 2; i++)
		ck_assert_int_eq(take("k1", 2, 5000).allowed, 1);
	ck_assert_int_eq(take("k1", 2, 5000).allowed, 0);
	ck_assert_int_eq(take("k2", 2, 5000).allowed, 1);
	/* A bigger limit for the same key counts the same log. */
	ck_assert_int_eq(take("k1", 3, 5000).allowed, 1);
	ck_assert_int_eq(take("k1", 3, 5000).allowed, 0);
}
END_TEST

START_TEST(clock_backwards)
{
	struct lz_rl_result	 r;

	ck_assert_int_eq(take("c", 1, 100000).allowed, 1);
	/* An earlier clock reading (another process) counts as the latest
	 * time seen, so it cannot slip under the window. */
	r = take("c", 1, 50000);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 60);
}
END_TEST

/* Times are kept in 32 bits: still exact across the wrap of the ms
 * clock's low half (every 49.7 days) and after a long silence. */
START_TEST(clock_wraps)
{
	struct lz_rl_result	 r;
	int64_t			 t0 = ((int64_t)1 << 32) - 30000;
	int			 i;

	for (i = 0; i < 3; i++)
		ck_assert_int_eq(take("w", 3, t0 + i * 10000).allowed, 1);
	/* Past the wrap: the three are 40, 30 and 20 s old. */
	r = take("w", 3, t0 + 40000);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 20);
	ck_assert_int_eq(take("w", 3, t0 + 60000).allowed, 1);
	/* 2^32 ms later the stored stamps repeat; the log must not. */
	r = take("w", 3, t0 + 60000 + ((int64_t)1 << 32));
	ck_assert_int_eq(r.allowed, 1);
	ck_assert_uint_eq(r.remaining, 2);
}
END_TEST

START_TEST(bad_arguments)
{
	struct lz_rl_result	 r;

	/* Unusable arguments refuse: a limiter never fails open. */
	ck_assert_int_eq(lz_rl_take(rl, "x", 1, 0, MIN, 0, &r), -1);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(r.retry_after, 1);
	ck_assert_int_eq(lz_rl_take(rl, "x", 1, 61, MIN, 0, &r), -1);
	ck_assert_int_eq(r.allowed, 0);
	ck_assert_int_eq(lz_rl_take(rl, "x", 0, 1, MIN, 0, &r), -1);
	ck_assert_int_eq(lz_rl_take(rl, "x", LZ_RL_KEYMAX + 1, 1, MIN, 0, &r),
	    -1);
	ck_assert_int_eq(lz_rl_take(rl, "x", 1, 1, 0, 0, &r), -1);
	ck_assert_ptr_null(lz_rl_create(0, 10));
	ck_assert_ptr_null(lz_rl_create(10, 0));
}
END_TEST

START_TEST(address_keys)
{
	unsigned char	 a[LZ_RL_KEYMAX], b[LZ_RL_KEYMAX];
	size_t		 la, lb;

	/* One /64 is one client. */
	la = lz_rl_addr_key("2001:db8:1:2:aaaa::1", 1, a);
	lb = lz_rl_addr_key("2001:db8:1:2:ffff:1:2:3", 1, b);
	ck_assert_uint_eq(la, lb);
	ck_assert_int_eq(memcmp(a, b, la), 0);
	lb = lz_rl_addr_key("2001:db8:1:3::1", 1, b);
	ck_assert(la != lb || memcmp(a, b, la) != 0);
	/* The tier is part of the key. */
	lb = lz_rl_addr_key("2001:db8:1:2:aaaa::1", 2, b);
	ck_assert(memcmp(a, b, la) != 0);
	/* IPv4 whole, and the same in its mapped IPv6 form. */
	la = lz_rl_addr_key("192.0.2.1", 1, a);
	lb = lz_rl_addr_key("::ffff:192.0.2.1", 1, b);
	ck_assert_uint_eq(la, lb);
	ck_assert_int_eq(memcmp(a, b, la), 0);
	lb = lz_rl_addr_key("192.0.2.2", 1, b);
	ck_assert(memcmp(a, b, la) != 0);
	/* Not an address: keyed by its text, cut to fit. */
	la = lz_rl_addr_key("unix:", 1, a);
	ck_assert_uint_eq(la, 7);
	la = lz_rl_addr_key("a-very-long-string-that-is-not-an-address-at-all",
	    1, a);
	ck_assert_uint_eq(la, LZ_RL_KEYMAX);
}
END_TEST

START_TEST(lru_eviction)
{
	struct lz_rl	*small;
	struct lz_rl_result r;
	char		 key[8];
	int		 i;

	/* One bucket: LZ_RL_WAYS keys fit, the next evicts the oldest. */
	small = lz_rl_create(1, 1);
	ck_assert_ptr_nonnull(small);
	for (i = 0; i <= LZ_RL_WAYS; i++) {
		key[0] = (char)('a' + i);
		ck_assert_int_eq(lz_rl_take(small, key, 1, 1, MIN, 1000 + i,
		    &r), 0);
		ck_assert_int_eq(r.allowed, 1);
	}
	/* 'b' .. kept its log; 'a' was evicted and starts over. */
	key[0] = 'b';
	ck_assert_int_eq(lz_rl_take(small, key, 1, 1, MIN, 2000, &r), 0);
	ck_assert_int_eq(r.allowed, 0);
	key[0] = 'a' + LZ_RL_WAYS;
	ck_assert_int_eq(lz_rl_take(small, key, 1, 1, MIN, 2000, &r), 0);
	ck_assert_int_eq(r.allowed, 0);
	key[0] = 'a';
	ck_assert_int_eq(lz_rl_take(small, key, 1, 1, MIN, 2000, &r), 0);
	ck_assert_int_eq(r.allowed, 1);
	lz_rl_destroy(small);
}
END_TEST

/* Many processes on one key never get more than the limit in total. */
START_TEST(exact_across_processes)
{
	enum { PROCS = 8, TRIES = 40, LIMIT = 60 };
	pid_t		 pids[PROCS];
	int		 i, j, status, total = 0;

	for (i = 0; i < PROCS; i++) {
		if ((pids[i] = fork()) == 0) {
			struct lz_rl_result	 r;
			int			 got = 0;

			for (j = 0; j < TRIES; j++)
				if (lz_rl_take(rl, "shared", 6, LIMIT, MIN,
				    5000 + j, &r) == 0 && r.allowed)
					got++;
			_exit(got);
		}
		ck_assert_int_gt(pids[i], 0);
	}
	for (i = 0; i < PROCS; i++) {
		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert(WIFEXITED(status));
		total += WEXITSTATUS(status);
	}
	ck_assert_int_eq(total, LIMIT);
}
END_TEST

/* A process killed while holding a bucket lock does not wedge the rest. */
START_TEST(owner_died)
{
	struct lz_rl_result	 r;
	pid_t			 pid;
	int			 status;

	ck_assert_int_eq(take("dead", 2, 1000).allowed, 1);
	if ((pid = fork()) == 0) {
		if (lz_rl_test_lock(rl, "dead", 4) == -1)
			_exit(1);
		_exit(0);		/* dies holding the lock */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	r = take("dead", 2, 1001);
	ck_assert_int_eq(r.allowed, 1);
	ck_assert_uint_eq(r.remaining, 0);
	r = take("dead", 2, 1002);
	ck_assert_int_eq(r.allowed, 0);
	/* And the lock works again afterwards. */
	r = take("dead", 2, 61000);
	ck_assert_int_eq(r.allowed, 1);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("ratelimit");
	TCase	*tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, limit_then_refuse);
	tcase_add_test(tc, sliding_not_fixed);
	tcase_add_test(tc, remaining_and_reset);
	tcase_add_test(tc, keys_independent);
	tcase_add_test(tc, clock_backwards);
	tcase_add_test(tc, clock_wraps);
	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, address_keys);
	tcase_add_test(tc, lru_eviction);
	tcase_add_test(tc, exact_across_processes);
	tcase_add_test(tc, owner_died);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr = srunner_create(suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
