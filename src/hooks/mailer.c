/*
 * mailer.c -- running mail_command (mailer.h).
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "lztime.h"
#include "mail/message.h"
#include "mailer.h"
#include "util.h"

/* How long lz-hooks waits for the mailer's answer beyond the command's
 * own timeout: killing and reaping it. */
#define ANSWER_SLACK_MS	10000
/* How often a run looks whether the command has exited. */
#define TICK_MS		20

struct mailer {
	int	 fd;		/* the socket to the mailer */
	int	 timeout_ms;
};

/* ---- one run of the command ----------------------------------------- */

/* In the forked child: the command with in as its standard input and
 * out as its standard output and error.  Does not return. */
static void
child(char *const argv[], int in, int out)
{
	sigset_t	 none;

	/* A group of its own, so that a timeout kills what it started. */
	(void)setpgid(0, 0);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(out, 2) == -1)
		_exit(127);
	/* None of lz-hooks' other files; its ignored SIGPIPE and blocked
	 * signals would outlive execv. */
	(void)close_range(3, ~0U, 0);
	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGTERM, SIG_DFL);
	(void)signal(SIGINT, SIG_DFL);
	(void)signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	execv(argv[0], argv);
	dprintf(2, "%s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* What a run of the command said (its output's start), kept for the
 * error. */
struct said {
	char	 buf[MAILER_ERR_LEN];
	size_t	 len;
};

/* Reads what fd has now into s: 0 while it is open, -1 at its end. */
static int
drain(int fd, struct said *s)
{
	char	 buf[512];
	ssize_t	 n;
	size_t	 k;

	for (;;) {
		if ((n = read(fd, buf, sizeof(buf))) == -1)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		if (n == 0)
			return -1;
		k = sizeof(s->buf) - 1 - s->len;
		if ((size_t)n < k)
			k = (size_t)n;
		memcpy(s->buf + s->len, buf, k);
		s->len += k;
		s->buf[s->len] = '\0';
	}
}

/* The first line of what the command said, for an error. */
static const char *
first_line(struct said *s)
{
	s->buf[s->len] = '\0';
	s->buf[strcspn(s->buf, "\r\n")] = '\0';
	return s->buf;
}

/*
 * Writes msg to the command and reads what it says until it exits or
 * the deadline passes.  1 when it exited (its status into *status), 0
 * on the deadline.
 */
static int
feed(pid_t pid, int in, int out, const char *msg, size_t len,
    int64_t deadline, struct said *s, int *status)
{
	struct pollfd	 pfd[2];
	size_t		 off = 0;
	ssize_t		 n;
	int64_t		 left;
	pid_t		 r;
	int		 npfd, wait_ms;

	if (len == 0) {
		close(in);
		in = -1;
	}
	for (;;) {
		if ((r = waitpid(pid, status, WNOHANG)) == pid)
			break;
		if (r == -1 && errno == ECHILD) {
			/* Reaped by someone else: its status is lost. */
			*status = -1;
			break;
		}
		if ((left = deadline - lz_mono_us()) <= 0)
			goto late;
		wait_ms = left / 1000 < TICK_MS ? (int)(left / 1000) + 1 :
		    TICK_MS;
		npfd = 0;
		if (in != -1)
			pfd[npfd++] = (struct pollfd){ in, POLLOUT, 0 };
		if (out != -1)
			pfd[npfd++] = (struct pollfd){ out, POLLIN, 0 };
		if (poll(pfd, (nfds_t)npfd, wait_ms) <= 0)
			continue;
		if (in != -1 && pfd[0].revents != 0) {
			n = write(in, msg + off, len - off);
			if (n > 0)
				off += (size_t)n;
			/* Done, or the command stopped reading (EPIPE): its
			 * status says what that meant. */
			if (off == len || (n == -1 && errno != EAGAIN &&
			    errno != EINTR)) {
				close(in);
				in = -1;
			}
		}
		if (out != -1 && pfd[npfd - 1].fd == out &&
		    pfd[npfd - 1].revents != 0 && drain(out, s) == -1) {
			close(out);
			out = -1;
		}
	}
	if (out != -1)
		(void)drain(out, s);
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	return 1;
late:
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	return 0;
}

/* The status of a run that failed: err, with the start of what it said. */
static void
failed(char *const argv[], int status, struct said *s, char *err,
    size_t errlen)
{
	const char	*line = first_line(s);
	const char	*sep = *line != '\0' ? ": " : "";

	if (status == -1)
		snprintf(err, errlen, "%s: its status was lost%s%s", argv[0],
		    sep, line);
	else if (WIFEXITED(status))
		snprintf(err, errlen, "%s: exit status %d%s%s", argv[0],
		    WEXITSTATUS(status), sep, line);
	else
		snprintf(err, errlen, "%s: killed by signal %d%s%s", argv[0],
		    WIFSIGNALED(status) ? WTERMSIG(status) : 0, sep, line);
}

/* One run, SIGPIPE ignored by the caller. */
static int
run(char *const argv[], int timeout_ms, const char *msg, size_t len,
    char *err, size_t errlen)
{
	struct said	 s;
	int		 in[2], out[2], status, rc = -1;
	pid_t		 pid;

	memset(&s, 0, sizeof(s));
	if (pipe2(in, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		return -1;
	}
	if ((pid = fork()) == -1) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return -1;
	}
	if (pid == 0)
		child(argv, in[0], out[1]);
	(void)setpgid(pid, pid);	/* before a kill, whoever runs first */
	close(in[0]);
	close(out[1]);
	(void)fcntl(in[1], F_SETFL, O_NONBLOCK);
	(void)fcntl(out[0], F_SETFL, O_NONBLOCK);
	if (!feed(pid, in[1], out[0], msg, len, lz_mono_us() +
	    (int64_t)timeout_ms * 1000, &s, &status)) {
		(void)kill(-pid, SIGKILL);
		(void)kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
		snprintf(err, errlen, "%s: killed after %d s", argv[0],
		    (timeout_ms + 999) / 1000);
	} else if (status != -1 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0)
		rc = 0;
	else
		failed(argv, status, &s, err, errlen);
	return rc;
}

int
mailer_run(char *const argv[], int timeout_ms, const char *msg, size_t len,
    char *err, size_t errlen)
{
	struct sigaction	 ign, old;
	int			 rc;

	/* A command that stops reading is an answer, not a signal. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	(void)sigaction(SIGPIPE, &ign, &old);
	rc = run(argv, timeout_ms, msg, len, err, errlen);
	(void)sigaction(SIGPIPE, &old, NULL);
	return rc;
}

/* ---- the mailer process ---------------------------------------------- */

/* All of buf[0..len) through socket fd: 0, or -1 (the other end is
 * gone: an error, never SIGPIPE). */
static int
write_all(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		if ((n = send(fd, p, len, MSG_NOSIGNAL)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* All of buf[0..len) from fd, each read waiting at most wait_ms (-1:
 * for ever): 1, 0 at its end before the first byte, -1. */
static int
read_all(int fd, void *buf, size_t len, int wait_ms)
{
	struct pollfd	 pfd = { fd, POLLIN, 0 };
	char		*p = buf;
	size_t		 got = 0;
	ssize_t		 n;
	int		 r;

	while (got < len) {
		if ((r = poll(&pfd, 1, wait_ms)) == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if ((n = read(fd, p + got, len - got)) == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (n == 0)
			return got == 0 ? 0 : -1;
		got += (size_t)n;
	}
	return 1;
}

/* The mailer's loop: a message in, the command run, its answer out,
 * until lz-hooks closes the socket. */
static void
serve(int fd, char *const argv[], int timeout_ms)
{
	char		 err[MAILER_ERR_LEN], *msg;
	uint32_t	 len, elen;
	int32_t		 rc;

	for (;;) {
		if (read_all(fd, &len, sizeof(len), -1) != 1 ||
		    len > MAILER_MSG_MAX)
			return;
		msg = xmalloc(len + 1);
		if (read_all(fd, msg, len, -1) != 1) {
			free(msg);
			return;
		}
		err[0] = '\0';
		rc = mailer_run(argv, timeout_ms, msg, len, err, sizeof(err));
		/* It holds a one-time URL. */
		sodium_memzero(msg, len);
		free(msg);
		elen = (uint32_t)strlen(err);
		if (write_all(fd, &rc, sizeof(rc)) == -1 ||
		    write_all(fd, &elen, sizeof(elen)) == -1 ||
		    write_all(fd, err, elen) == -1)
			return;
	}
}

struct mailer *
mailer_start(const char *command, int timeout_ms, char *err, size_t errlen)
{
	struct mailer	*m;
	char		**argv;
	int		  sv[2];
	pid_t		  pid;

	if ((argv = mail_argv(command)) == NULL) {
		snprintf(err, errlen, "mail_command: expected an absolute path "
		    "and at most %d words, such as /usr/sbin/sendmail -t -i",
		    MAIL_ARGS_MAX);
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1) {
		snprintf(err, errlen, "mailer: socketpair: %s",
		    strerror(errno));
		mail_argv_free(argv);
		return NULL;
	}
	if ((pid = fork()) == -1) {
		snprintf(err, errlen, "mailer: fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		mail_argv_free(argv);
		return NULL;
	}
	if (pid == 0) {
		close(sv[0]);
		/* The mailer outlives a command that stops reading, and
		 * reaps its commands itself. */
		(void)signal(SIGPIPE, SIG_IGN);
		(void)signal(SIGCHLD, SIG_DFL);
		serve(sv[1], argv, timeout_ms);
		_exit(0);
	}
	close(sv[1]);
	mail_argv_free(argv);
	m = xcalloc(1, sizeof(*m));
	m->fd = sv[0];
	m->timeout_ms = timeout_ms;
	return m;
}

int
mailer_send(struct mailer *m, const char *msg, size_t len, char *err,
    size_t errlen)
{
	char		 buf[MAILER_ERR_LEN];
	uint32_t	 n = (uint32_t)len, elen;
	int32_t		 rc;

	if (m->fd == -1 || len > MAILER_MSG_MAX) {
		snprintf(err, errlen, m->fd == -1 ? "the mailer is gone" :
		    "the message is too long");
		return m->fd == -1 ? -2 : -1;
	}
	if (write_all(m->fd, &n, sizeof(n)) == -1 ||
	    write_all(m->fd, msg, len) == -1 ||
	    read_all(m->fd, &rc, sizeof(rc), m->timeout_ms +
	    ANSWER_SLACK_MS) != 1 ||
	    read_all(m->fd, &elen, sizeof(elen), ANSWER_SLACK_MS) != 1 ||
	    elen >= sizeof(buf) ||
	    (elen > 0 && read_all(m->fd, buf, elen, ANSWER_SLACK_MS) != 1)) {
		close(m->fd);
		m->fd = -1;
		snprintf(err, errlen, "the mailer is gone");
		return -2;
	}
	buf[elen] = '\0';
	snprintf(err, errlen, "%s", buf);
	return rc == 0 ? 0 : -1;
}

void
mailer_stop(struct mailer *m)
{
	if (m == NULL)
		return;
	if (m->fd != -1)
		close(m->fd);
	free(m);
}
