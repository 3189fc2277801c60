/*
 * sandbox.c -- seccomp and Landlock for pool workers.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <termios.h>
#include <sched.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/landlock.h>
#include <seccomp.h>

#include "sandbox.h"
#include "util.h"

/* Read-only system paths: name resolution, TLS roots, shared libraries
 * loaded late (NSS modules), time zones. */
static const char *const system_ro[] = {
	"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf",
	"/etc/host.conf", "/etc/gai.conf", "/etc/ssl", "/etc/ca-certificates",
	"/usr/share/ca-certificates", "/usr/lib", "/lib", "/usr/share/zoneinfo",
	"/etc/localtime", "/dev/urandom", "/dev/null", "/proc/self",
	NULL
};

/*
 * The system calls a confined process (a pool's worker and its threads,
 * lz-hooks) may make; every other one is refused with EPERM.  Made from
 * what the whole end-to-end suite saw the programs call on both engines
 * (LZ_STRACE, t/e2e/lzenv.py; HACKING.md "The sandbox"), and kept to
 * that with what glibc, SQLite, libpq, libcurl, c-ares, OpenSSL,
 * libsodium and ASan's runtime reach for on paths the suite does not
 * walk (an error, a resolver fallback).  Left out on purpose: exec and
 * fork (clone without CLONE_THREAD, below), ptrace and the other
 * process_vm/pidfd calls, io_uring, module, mount and namespace calls,
 * keyrings, bpf and perf, set*id.  Names this architecture lacks are
 * skipped.
 */
static const char *const allowed[] = {
	/* files */
	"read", "write", "readv", "writev", "pread64", "pwrite64", "preadv",
	"pwritev", "preadv2", "pwritev2", "lseek", "open", "openat",
	"close", "close_range", "stat", "fstat", "lstat", "newfstatat",
	"statx", "statfs", "fstatfs", "access", "faccessat", "faccessat2",
	"readlink", "readlinkat", "getdents64", "getcwd", "fcntl", "flock",
	"fsync", "fdatasync", "ftruncate", "fallocate", "fadvise64",
	"unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir",
	"mkdirat", "fchmod", "fchown", "utimensat", "dup", "dup2", "dup3",
	"pipe", "pipe2", "eventfd2",
	/* memory */
	"brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mlock",
	"mlock2", "munlock",
	/* sockets: FastCGI, PostgreSQL, webhooks, name servers */
	"socket", "socketpair", "connect", "accept", "accept4", "sendto",
	"recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "shutdown",
	"getsockname", "getpeername", "getsockopt", "setsockopt",
	"poll", "ppoll", "select", "pselect6", "epoll_create1", "epoll_ctl",
	"epoll_wait", "epoll_pwait",
	/* threads, signals, time */
	"futex", "set_robust_list", "get_robust_list", "rseq",
	"set_tid_address", "sched_yield", "sched_getaffinity", "getcpu",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigsuspend",
	"rt_sigtimedwait", "rt_sigpending", "sigaltstack", "restart_syscall",
	"kill", "tgkill", "tkill", "exit", "exit_group",
	"clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep",
	"gettimeofday", "time", "timer_create", "timer_settime",
	"timer_gettime", "timer_delete", "getitimer", "setitimer",
	/* the process */
	"getpid", "getppid", "gettid", "getuid", "geteuid", "getgid",
	"getegid", "getresuid", "getresgid", "getgroups", "getrandom",
	"uname", "sysinfo", "getrusage", "times", "getrlimit", "prlimit64",
	"getpriority", "setpriority", "prctl", "arch_prctl",
};

/* ioctl: only what stdio and sockets ask (no TIOCSTI into a terminal). */
static const unsigned long ioctls[] = { TCGETS, FIONREAD, FIONBIO };

static int
apply_seccomp(char *err, size_t errlen)
{
	scmp_filter_ctx	 ctx;
	size_t		 i;
	int		 nr, rc;

	if ((ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM))) == NULL) {
		snprintf(err, errlen, "seccomp_init failed");
		return -1;
	}
	/*
	 * A binary tree of the allowed calls rather than a list: every
	 * call a worker makes (read, write, pwrite of each redirect) would
	 * otherwise be compared with each of them in turn.  Older
	 * libseccomp lacks it; the list works the same, slower.
	 */
	(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (i = 0; i < LZ_NELEM(allowed); i++) {
		if ((nr = seccomp_syscall_resolve_name(allowed[i])) < 0)
			continue;	/* not on this architecture */
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0)) < 0) {
			snprintf(err, errlen, "seccomp rule %s: %s",
			    allowed[i], strerror(-rc));
			goto fail;
		}
	}
	for (i = 0; i < LZ_NELEM(ioctls); i++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl),
		    1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffUL,
		    ioctls[i]))) < 0) {
			snprintf(err, errlen, "seccomp rule ioctl: %s",
			    strerror(-rc));
			goto fail;
		}
	/*
	 * Threads (the click mover, exports, libcurl's resolver), not
	 * processes: glibc's fork() is clone() without CLONE_THREAD.
	 * clone3 passes its flags in memory a filter cannot read, so it
	 * answers ENOSYS and glibc falls back to clone.
	 */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
	    SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD))) < 0 ||
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SCMP_SYS(clone3), 0)) < 0) {
		snprintf(err, errlen, "seccomp rule clone: %s", strerror(-rc));
		goto fail;
	}
	if ((rc = seccomp_load(ctx)) < 0) {
		snprintf(err, errlen, "seccomp_load: %s", strerror(-rc));
		goto fail;
	}
	seccomp_release(ctx);
	return 0;
fail:
	seccomp_release(ctx);
	return -1;
}

#define FS_READ	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_ALL_V1 (LANDLOCK_ACCESS_FS_EXECUTE | \
	LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
	LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | \
	LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | \
	LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG | \
	LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | \
	LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM)
#define FS_RW_V1 (LANDLOCK_ACCESS_FS_WRITE_FILE | \
	LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | \
	LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_REG)

/* Adds a rule for path (a file or a directory); a missing path is fine. */
static int
add_path(int rs, const char *path, uint64_t access, uint64_t handled)
{
	struct landlock_path_beneath_attr	 pb;
	struct stat				 st;
	int					 fd, rc;

	if ((fd = open(path, O_PATH | O_CLOEXEC)) == -1)
		return errno == ENOENT || errno == EACCES ? 0 : -1;
	/* Directory-only rights cannot be granted on a file. */
	if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
		access &= LANDLOCK_ACCESS_FS_READ_FILE |
		    LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
	pb.allowed_access = access & handled;
	pb.parent_fd = fd;
	rc = (int)syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0);
	close(fd);
	return rc;
}

/* 1 applied, 0 Landlock not available, -1 error. */
static int
apply_landlock(const char *const *rw, const char *const *ro, char *err,
    size_t errlen)
{
	struct landlock_ruleset_attr	 attr;
	uint64_t			 handled = FS_ALL_V1, rwmask = FS_RW_V1;
	long				 abi;
	int				 rs;
	size_t				 i;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1)
		return 0;
#ifdef LANDLOCK_ACCESS_FS_REFER
	if (abi >= 2)
		handled |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
	if (abi >= 3) {
		handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
		rwmask |= LANDLOCK_ACCESS_FS_TRUNCATE;
	}
#endif
	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = handled;
	if ((rs = (int)syscall(SYS_landlock_create_ruleset, &attr,
	    sizeof(attr), 0)) == -1) {
		snprintf(err, errlen, "landlock_create_ruleset: %s",
		    strerror(errno));
		return -1;
	}
	for (i = 0; rw && rw[i]; i++)
		if (add_path(rs, rw[i], rwmask, handled) == -1)
			goto fail;
	for (i = 0; ro && ro[i]; i++)
		if (add_path(rs, ro[i], FS_READ, handled) == -1)
			goto fail;
	for (i = 0; system_ro[i]; i++)
		if (add_path(rs, system_ro[i], FS_READ, handled) == -1)
			goto fail;
	if (syscall(SYS_landlock_restrict_self, rs, 0) == -1) {
		snprintf(err, errlen, "landlock_restrict_self: %s",
		    strerror(errno));
		close(rs);
		return -1;
	}
	close(rs);
	return 1;
fail:
	snprintf(err, errlen, "landlock rule: %s", strerror(errno));
	close(rs);
	return -1;
}

int
lz_sandbox(const char *const *rw, const char *const *ro, int *landlocked,
    char *err, size_t errlen)
{
	int	 rc;

	*landlocked = 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		snprintf(err, errlen, "PR_SET_NO_NEW_PRIVS: %s",
		    strerror(errno));
		return -1;
	}
	if ((rc = apply_landlock(rw, ro, err, errlen)) == -1)
		return -1;
	*landlocked = rc == 1;
	return apply_seccomp(err, errlen);
}
