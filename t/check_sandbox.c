/*
 * check_sandbox.c -- the worker sandbox refuses what it must: exec, fork,
 * and (with Landlock) files outside the data directory; its seccomp
 * filter is an allow-list, so calls nobody listed (io_uring, pidfd_getfd,
 * process_madvise, a terminal ioctl) are refused too, while what a worker
 * does (threads, random bytes, sockets) still works.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "sandbox.h"

enum {
	R_SANDBOXED	= 0x01,
	R_EXEC_REFUSED	= 0x02,
	R_FORK_REFUSED	= 0x04,
	R_DATA_WRITABLE	= 0x08,
	R_OUTSIDE_REFUSED = 0x10,	/* only with Landlock */
	R_LANDLOCKED	= 0x20,
	R_SYSTEM_READABLE = 0x40,
	R_SETUID_REFUSED = 0x80,
	R_UNLISTED_REFUSED = 0x100,	/* io_uring, pidfd_getfd, ... */
	R_WORKER_CALLS	= 0x200,	/* threads, getrandom, sockets */
	R_TIOCSTI_REFUSED = 0x400,
};

static void *
nothing(void *arg)
{
	return arg;
}

/* Calls no worker makes and the deny-list let through: all refused. */
static int
unlisted_refused(void)
{
	long	 rc[4];

	rc[0] = syscall(SYS_io_uring_setup, 1, NULL);
	rc[1] = syscall(SYS_pidfd_getfd, -1, 0, 0);
	rc[2] = syscall(SYS_process_madvise, -1, NULL, 0, 0, 0);
	rc[3] = syscall(SYS_ptrace, 0, 0, NULL, NULL);
	for (size_t i = 0; i < 4; i++)
		if (rc[i] != -1 || errno != EPERM)
			return 0;
	return 1;
}

/* What workers do: a thread, random bytes, a socket pair. */
static int
worker_calls(void)
{
	pthread_t	 t;
	unsigned char	 b[8];
	int		 sv[2], n;

	if (pthread_create(&t, NULL, nothing, NULL) != 0 ||
	    pthread_join(t, NULL) != 0)
		return 0;
	if (syscall(SYS_getrandom, b, sizeof(b), 0) != (long)sizeof(b))
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		return 0;
	if (write(sv[0], "x", 1) != 1 || ioctl(sv[1], FIONREAD, &n) == -1 ||
	    n != 1)
		return 0;
	close(sv[0]);
	close(sv[1]);
	return 1;
}

static char	datadir[] = "/tmp/lz-check-sandbox-XXXXXX";

/* Runs in a child: applies the sandbox, tries things, reports bits. */
static int
probe(void)
{
	const char	*rw[] = { datadir, NULL };
	char		*argv[] = { "/bin/true", NULL }, path[256], err[256];
	int		 r = 0, fd, landlocked;
	pid_t		 pid;

	if (lz_sandbox(rw, NULL, &landlocked, err, sizeof(err)) == -1) {
		fprintf(stderr, "sandbox: %s\n", err);
		return 0;
	}
	r |= R_SANDBOXED;
	if (landlocked)
		r |= R_LANDLOCKED;
	if (execve("/bin/true", argv, NULL) == -1 && errno == EPERM)
		r |= R_EXEC_REFUSED;
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid == -1 && errno == EPERM)
		r |= R_FORK_REFUSED;
	snprintf(path, sizeof(path), "%s/db-wal", datadir);
	if ((fd = open(path, O_RDWR | O_CREAT, 0600)) != -1 &&
	    write(fd, "x", 1) == 1) {
		r |= R_DATA_WRITABLE;
		close(fd);
	}
	if (open("/etc/passwd", O_RDONLY) == -1 && errno == EACCES &&
	    open("/tmp/lz-check-sandbox-outside", O_RDWR | O_CREAT, 0600) ==
	    -1)
		r |= R_OUTSIDE_REFUSED;
	if ((fd = open("/etc/resolv.conf", O_RDONLY)) != -1 || errno ==
	    ENOENT) {
		r |= R_SYSTEM_READABLE;
		if (fd != -1)
			close(fd);
	}
	if (setuid(0) == -1 && errno == EPERM)
		r |= R_SETUID_REFUSED;
	if (unlisted_refused())
		r |= R_UNLISTED_REFUSED;
	if (worker_calls())
		r |= R_WORKER_CALLS;
	{
		char	 c = 'x';

		if (ioctl(0, TIOCSTI, &c) == -1 && errno == EPERM)
			r |= R_TIOCSTI_REFUSED;
	}
	return r;
}

START_TEST(refuses)
{
	pid_t	 pid;
	int	 status, r = 0, fds[2];

	ck_assert_ptr_nonnull(mkdtemp(datadir));
	ck_assert_int_eq(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		/* The bits, more than an exit status holds, on a pipe. */
		close(fds[0]);
		r = probe();
		_exit(write(fds[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &r, sizeof(r)), (int)sizeof(r));
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_msg(r & R_SANDBOXED, "sandbox not applied");
	ck_assert_msg(r & R_EXEC_REFUSED, "execve was not refused");
	ck_assert_msg(r & R_FORK_REFUSED, "fork was not refused");
	ck_assert_msg(r & R_DATA_WRITABLE, "data directory not writable");
	ck_assert_msg(r & R_SYSTEM_READABLE, "resolv.conf not readable");
	ck_assert_msg(r & R_SETUID_REFUSED, "setuid was not refused");
	ck_assert_msg(r & R_UNLISTED_REFUSED, "a call off the allow-list "
	    "(io_uring_setup, pidfd_getfd, process_madvise, ptrace) went "
	    "through");
	ck_assert_msg(r & R_WORKER_CALLS, "a thread, getrandom or a socket "
	    "pair was refused");
	ck_assert_msg(r & R_TIOCSTI_REFUSED, "ioctl TIOCSTI was not refused");
	if (r & R_LANDLOCKED)
		ck_assert_msg(r & R_OUTSIDE_REFUSED, "a file outside the data "
		    "directory could be opened");
	else
		fprintf(stderr, "check_sandbox: kernel without Landlock; only "
		    "the seccomp part was tested\n");
	unlink("/tmp/lz-check-sandbox-outside");
	{
		char	 p[300];

		snprintf(p, sizeof(p), "%s/db-wal", datadir);
		unlink(p);
		rmdir(datadir);
	}
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("sandbox");
	TCase	*t = tcase_create("all");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(t, refuses);
	suite_add_tcase(s, t);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
