/*
 * pool.c -- supervisor and worker loop of a FastCGI pool.
 */
#include "config.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "log.h"
#include "lztime.h"
#include "pool.h"
#include "req.h"
#include "util.h"

struct worker {
	pid_t	 pid;
	int	 gen;		/* generation; SIGHUP starts a new one */
	int64_t	 started;	/* lz_mono_us() */
};

static volatile sig_atomic_t	got_term, got_hup, got_chld;

static void
on_signal(int sig)
{
	switch (sig) {
	case SIGTERM:
	case SIGINT:
		got_term = 1;
		break;
	case SIGHUP:
		got_hup = 1;
		break;
	case SIGCHLD:
		got_chld = 1;
		break;
	}
}

static void
catch(int sig)
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: accept() must see EINTR */
	sigaction(sig, &sa, NULL);
}

static void
sigset_pool(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGTERM);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGHUP);
	sigaddset(s, SIGCHLD);
}

/* ---- the socket ------------------------------------------------------ */

static int
is_listening_socket(int fd)
{
	int		 val = 0;
	socklen_t	 len = sizeof(val);

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &val, &len) == -1)
		return 0;
	return val != 0;
}

/* The socket handed over by systemd (LISTEN_FDS) or spawn-fcgi (fd 0). */
static int
inherited_socket(void)
{
	const char	*pid, *fds;
	long long	 n;

	pid = getenv("LISTEN_PID");
	fds = getenv("LISTEN_FDS");
	if (pid && fds && lz_parse_ll(pid, 1, 1LL << 31, &n) == 0 &&
	    (pid_t)n == getpid() && lz_parse_ll(fds, 1, 1, &n) == 0 &&
	    is_listening_socket(3)) {
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDS");
		return 3;
	}
	if (is_listening_socket(0))
		return 0;
	return -1;
}

static int
bind_socket(const struct lz_pool_opts *o)
{
	struct sockaddr_un	 sun;
	struct stat		 st;
	struct group		*gr;
	mode_t			 old;
	int			 fd, probe;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(o->socket_path) >= sizeof(sun.sun_path)) {
		lz_log(LZ_LOG_ERR, "socket path too long: %s", o->socket_path);
		return -1;
	}
	strcpy(sun.sun_path, o->socket_path);
	if (lstat(o->socket_path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			lz_log(LZ_LOG_ERR, "%s exists and is not a socket",
			    o->socket_path);
			return -1;
		}
		/* A socket someone still answers on is a running pool. */
		probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe != -1 && connect(probe, (struct sockaddr *)&sun,
		    sizeof(sun)) == 0) {
			close(probe);
			lz_log(LZ_LOG_ERR, "%s: another pool is listening",
			    o->socket_path);
			return -1;
		}
		if (probe != -1)
			close(probe);
		unlink(o->socket_path);
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		lz_log(LZ_LOG_ERR, "socket: %s", strerror(errno));
		return -1;
	}
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		umask(old);
		lz_log(LZ_LOG_ERR, "bind %s: %s", o->socket_path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	umask(old);
	if (o->socket_group && *o->socket_group) {
		if ((gr = getgrnam(o->socket_group)) == NULL ||
		    chown(o->socket_path, (uid_t)-1, gr->gr_gid) == -1) {
			lz_log(LZ_LOG_ERR, "socket group %s: %s",
			    o->socket_group, gr ? strerror(errno) :
			    "no such group");
			close(fd);
			return -1;
		}
	}
	/* Owned by the user the workers run as, so a restart can replace it. */
	if (geteuid() == 0 && o->user && *o->user && strcmp(o->user, "root")) {
		struct passwd	*pw = getpwnam(o->user);

		if (pw != NULL)
			(void)!chown(o->socket_path, pw->pw_uid, (gid_t)-1);
	}
	if (chmod(o->socket_path, (mode_t)o->socket_mode) == -1) {
		lz_log(LZ_LOG_ERR, "chmod %s: %s", o->socket_path,
		    strerror(errno));
		close(fd);
		return -1;
	}
	if (listen(fd, 1024) == -1) {
		lz_log(LZ_LOG_ERR, "listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
lz_drop_privileges(const char *user, const char *group, char *err,
    size_t errlen)
{
	struct passwd	*pw;
	struct group	*gr;
	gid_t		 gid;

	if (geteuid() != 0)
		return 0;
	if (user == NULL || *user == '\0') {
		snprintf(err, errlen, "started as root but no 'user' is set "
		    "in lz.conf (set user = root to really run as root)");
		return -1;
	}
	if (strcmp(user, "root") == 0) {
		lz_log(LZ_LOG_WARN, "running as root (user = root)");
		return 0;
	}
	if ((pw = getpwnam(user)) == NULL) {
		snprintf(err, errlen, "no such user: %s", user);
		return -1;
	}
	gid = pw->pw_gid;
	if (group && *group) {
		if ((gr = getgrnam(group)) == NULL) {
			snprintf(err, errlen, "no such group: %s", group);
			return -1;
		}
		gid = gr->gr_gid;
	}
	if (setgroups(1, &gid) == -1 || setresgid(gid, gid, gid) == -1 ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) == -1) {
		snprintf(err, errlen, "dropping privileges to %s: %s", user,
		    strerror(errno));
		return -1;
	}
	if (setuid(0) != -1) {
		snprintf(err, errlen, "still root after dropping privileges");
		return -1;
	}
	return 0;
}

/* ---- the worker ------------------------------------------------------ */

/*
 * The accept loop.  Signals stay blocked except inside epoll_pwait(), so
 * neither a stop request nor anything else ever interrupts the reading of
 * a request (libfcgi treats EINTR in read(2) as a broken connection and
 * drops it).  The listening socket is non-blocking: the workers woken for
 * one connection race for it, and the losers' FCGX_Accept_r returns
 * -EAGAIN instead of blocking.  EPOLLEXCLUSIVE keeps that herd small.
 *
 * A busy worker accepts first and waits only when nothing is queued: an
 * epoll_pwait() per request costs as much as the request's own reading.
 * It still passes through epoll_pwait() (without waiting) every
 * SIGNAL_EVERY requests, so a SIGTERM under constant load is seen.
 */
#define SIGNAL_EVERY	16

/*
 * Reads what is left of the request's stdin when that is little; 1 when
 * the request was read to its end.  libfcgi closes a connection with
 * shutdown(2) and then waits for the web server to close its side
 * ("lingering close", so unread input cannot turn into a reset that
 * destroys the answer); that wait is a round trip to nginx per request.
 * When nothing is left unread the wait protects nothing, and with
 * close_at_once the connection is closed at once (FCGX_Detach).
 */
static int
read_to_end(FCGX_Request *f, const struct lz_req *r)
{
	char	 buf[4096];
	size_t	 left = 65536;
	int	 n;

	if (r->content_length > (long long)left)
		return 0;
	while (!FCGX_HasSeenEOF(f->in)) {
		if ((n = FCGX_GetStr(buf, sizeof(buf), f->in)) <= 0)
			break;
		if ((size_t)n > left)
			return 0;
		left -= (size_t)n;
	}
	return FCGX_HasSeenEOF(f->in) && FCGX_GetError(f->in) == 0;
}

static void LZ_NORETURN
worker_main(const struct lz_app *app, const struct lz_pool_opts *o, int lfd,
    pid_t parent)
{
	FCGX_Request		 f;
	struct lz_req		 req;
	struct epoll_event	 ev;
	sigset_t		 none;
	int64_t			 next_tick;
	int			 ep, rc, n, queued = 0, streak = 0;

#ifdef HAVE_SYS_PRCTL_H
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	if (getppid() != parent)	/* the supervisor died before prctl */
		_exit(0);
	got_term = got_hup = got_chld = 0;
	signal(SIGCHLD, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&none);

	if (app->init && (rc = app->init(app->arg)) != 0)
		_exit(rc);

	FCGX_Init();
	if (FCGX_InitRequest(&f, lfd, 0) != 0) {
		lz_log(LZ_LOG_ERR, "FCGX_InitRequest failed");
		_exit(1);
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1 ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) == -1) {
		lz_log(LZ_LOG_ERR, "epoll: %s", strerror(errno));
		_exit(1);
	}
	next_tick = lz_mono_us() + 1000000;

	while (!got_term) {
		if (!queued || streak >= SIGNAL_EVERY) {
			streak = 0;
			n = epoll_pwait(ep, &ev, 1, queued ? 0 : 1000, &none);
			if (n == -1 && errno != EINTR) {
				lz_log(LZ_LOG_ERR, "epoll_pwait: %s",
				    strerror(errno));
				sleep(1);
			}
			if (got_term)
				break;
		}
		if ((rc = FCGX_Accept_r(&f)) >= 0) {
			if (lz_req_begin(&req, &f) == 0)
				app->handle(&req, app->arg);
			lz_req_end(&req, o->access_log);
			if (o->close_at_once && read_to_end(&f, &req))
				FCGX_Detach(&f);
			FCGX_Finish_r(&f);
			queued = 1;
			streak++;
		} else {
			queued = 0;
			if (rc != -EAGAIN && rc != -EWOULDBLOCK &&
			    rc != -ECONNABORTED && rc != -EINTR) {
				lz_log(LZ_LOG_ERR, "accept: %s",
				    strerror(-rc));
				sleep(1);
			}
		}
		if (app->tick && lz_mono_us() >= next_tick) {
			next_tick = lz_mono_us() + 1000000;
			app->tick(app->arg);
		}
	}
	if (app->fini)
		app->fini(app->arg);
	_exit(0);
}

/* ---- the supervisor -------------------------------------------------- */

static struct worker	*workers;
static size_t		 nworkers;

static pid_t
spawn(const struct lz_app *app, const struct lz_pool_opts *o, int lfd,
    int gen)
{
	pid_t	 pid, parent = getpid();

	if ((pid = fork()) == -1) {
		lz_log(LZ_LOG_ERR, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		worker_main(app, o, lfd, parent);
	workers = xreallocarray(workers, nworkers + 1, sizeof(*workers));
	workers[nworkers].pid = pid;
	workers[nworkers].gen = gen;
	workers[nworkers].started = lz_mono_us();
	nworkers++;
	return pid;
}

static int
count_gen(int gen)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < nworkers; i++)
		if (workers[i].gen == gen)
			n++;
	return n;
}

static void
signal_all(int sig)
{
	size_t	 i;

	for (i = 0; i < nworkers; i++)
		kill(workers[i].pid, sig);
}

/* Reaps exited workers; returns how many died with LZ_EXIT_CONFIG. */
static int
reap(const struct lz_app *app, int *quick_deaths)
{
	pid_t	 pid;
	int	 status, fatal = 0;
	size_t	 i;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < nworkers; i++)
			if (workers[i].pid == pid)
				break;
		if (i == nworkers)
			continue;
		if (WIFEXITED(status) && WEXITSTATUS(status) == LZ_EXIT_CONFIG)
			fatal++;
		else if (WIFSIGNALED(status) || (WIFEXITED(status) &&
		    WEXITSTATUS(status) != 0)) {
			lz_log(LZ_LOG_WARN, "worker %ld %s %d", (long)pid,
			    WIFSIGNALED(status) ? "killed by signal" :
			    "exited with status", WIFSIGNALED(status) ?
			    WTERMSIG(status) : WEXITSTATUS(status));
			if (lz_mono_us() - workers[i].started < 1000000)
				(*quick_deaths)++;
			else
				*quick_deaths = 0;
		}
		if (app->reaped)
			app->reaped(pid, status, app->arg);
		workers[i] = workers[--nworkers];
	}
	return fatal;
}

static void
stop_all(const struct lz_app *app, int timeout)
{
	int64_t	 deadline;
	int	 quick = 0;

	signal_all(SIGTERM);
	deadline = lz_mono_us() + (int64_t)timeout * 1000000;
	while (nworkers > 0 && lz_mono_us() < deadline) {
		reap(app, &quick);
		if (nworkers > 0)
			usleep(20000);
	}
	if (nworkers > 0) {
		lz_log(LZ_LOG_WARN, "%zu workers did not stop in %d s; killing",
		    nworkers, timeout);
		signal_all(SIGKILL);
		while (nworkers > 0) {
			reap(app, &quick);
			if (nworkers > 0)
				usleep(20000);
		}
	}
}

int
lz_pool_run(const struct lz_app *app, struct lz_pool_opts *o)
{
	sigset_t	 pool, none;
	char		 err[256];
	int		 lfd, bound = 0, gen = 0, quick = 0, i, rc = 0;
	size_t		 k;

	sigset_pool(&pool);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &pool, NULL);
	catch(SIGTERM);
	catch(SIGINT);
	catch(SIGHUP);
	catch(SIGCHLD);
	signal(SIGPIPE, SIG_IGN);

	if ((lfd = inherited_socket()) == -1) {
		if ((lfd = bind_socket(o)) == -1)
			return 1;
		bound = 1;
	} else
		lz_log(LZ_LOG_INFO, "using inherited socket on fd %d", lfd);
	/* Non-blocking: see worker_main.  Shared by every worker (and by
	 * whoever handed the socket over, who does not accept on it). */
	if (fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK) == -1) {
		lz_log(LZ_LOG_ERR, "fcntl O_NONBLOCK: %s", strerror(errno));
		rc = 1;
		goto out;
	}
	if (lz_drop_privileges(o->user, o->group, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		rc = 1;
		goto out;
	}
	if (app->pre_fork && app->pre_fork(app->arg) == -1) {
		rc = 1;
		goto out;
	}
	lz_log(LZ_LOG_INFO, "listening on %s with %d workers",
	    bound ? o->socket_path : "inherited socket", o->workers);
	for (i = 0; i < o->workers; i++)
		spawn(app, o, lfd, gen);

	for (;;) {
		while (!got_term && !got_hup && !got_chld)
			sigsuspend(&none);
		if (got_term)
			break;
		if (got_chld) {
			got_chld = 0;
			if (reap(app, &quick) > 0) {
				lz_log(LZ_LOG_ERR, "a worker could not start "
				    "(see above); stopping the pool");
				rc = 1;
				break;
			}
		}
		if (got_hup) {
			got_hup = 0;
			if (app->reload && app->reload(o, app->arg) == -1)
				lz_log(LZ_LOG_ERR, "reload failed; keeping the "
				    "running configuration");
			else {
				lz_log(LZ_LOG_INFO, "reloaded; replacing %zu "
				    "workers", nworkers);
				for (k = 0; k < nworkers; k++)
					kill(workers[k].pid, SIGTERM);
				gen++;
			}
		}
		/* Keep the current generation at strength. */
		if (quick > 5) {
			lz_log(LZ_LOG_ERR, "workers keep dying at start; "
			    "waiting a second");
			sleep(1);
			quick = 0;
		}
		while (count_gen(gen) < o->workers && !got_term)
			if (spawn(app, o, lfd, gen) == -1) {
				sleep(1);
				break;
			}
	}
	lz_log(LZ_LOG_INFO, "stopping %zu workers", nworkers);
	stop_all(app, o->shutdown_timeout);
out:
	if (bound)
		unlink(o->socket_path);
	close(lfd);
	free(workers);
	workers = NULL;
	nworkers = 0;
	lz_log(LZ_LOG_INFO, "stopped");
	return rc;
}
