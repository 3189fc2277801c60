/*
 * check_sandbox.c -- the worker sandbox refuses what it must: exec, fork,
 * and (with Landlock) files outside the data directory.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
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
};

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
	return r;
}

START_TEST(refuses)
{
	pid_t	 pid;
	int	 status, r;

	ck_assert_ptr_nonnull(mkdtemp(datadir));
	if ((pid = fork()) == 0)
		_exit(probe());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	r = WEXITSTATUS(status);
	ck_assert_msg(r & R_SANDBOXED, "sandbox not applied");
	ck_assert_msg(r & R_EXEC_REFUSED, "execve was not refused");
	ck_assert_msg(r & R_FORK_REFUSED, "fork was not refused");
	ck_assert_msg(r & R_DATA_WRITABLE, "data directory not writable");
	ck_assert_msg(r & R_SYSTEM_READABLE, "resolv.conf not readable");
	ck_assert_msg(r & R_SETUID_REFUSED, "setuid was not refused");
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
