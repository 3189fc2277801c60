/*
 * pool.c -- supervisor and worker loop of a FastCGI pool.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fastcgi.h>
#include <fcgiapp.h>

#include "log.h"
#include "lztime.h"
#include "metrics.h"
#include "pool.h"
#include "req.h"
#include "serve.h"
#include "shm.h"
#include "util.h"

struct worker {
	pid_t	 pid;
	int	 gen;		/* generation; SIGHUP starts a new one */
	int	 slot;		/* its place in the metrics, for gauges */
	int64_t	 started;	/* lz_mono_us() */
};

static struct lz_metrics	*metrics;	/* NULL: none kept */

void
lz_pool_metrics(struct lz_metrics *m)
{
	metrics = m;
}

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
 * A worker keeps the connections nginx keeps (fastcgi_keep_conn on) and
 * serves whichever of them has a request, one request at a time: one
 * FCGX_Request per connection, waiting in ppoll() on all of them and on
 * the listening socket.  libfcgi stays the protocol: FCGX_Accept_r on a
 * slot whose connection is open reads that connection's next request
 * (and accepts a new connection only when the slot has none), and
 * FCGX_Finish_r leaves a kept connection open.  The listening socket is
 * non-blocking, so a worker that loses the race for a new connection gets
 * -EAGAIN instead of waiting in accept().
 *
 * Signals stay blocked except inside ppoll(), so nothing interrupts the
 * reading of a request (libfcgi treats EINTR in read(2) as a broken
 * connection).  ppoll() wakes at least once a second for the
 * application's tick().
 *
 * nginx owns a kept connection (FastCGI: "the Web server retains
 * responsibility for the connection"): it may write a new request on it
 * at any moment, and a request written onto a connection that was just
 * closed fails (nginx retries only idempotent ones).  So a worker never
 * closes a kept connection on its own; it hands the connection back
 * instead: it writes an empty FCGI_STDERR record on it.  nginx closes an
 * idle cached connection on which anything arrives, and skips an empty
 * stderr record in front of an answer, so either nginx closes the
 * connection (and the worker closes its end on the end of file) or a
 * request that crossed the record comes in and is served as usual.  A
 * connection is handed back when it was idle for KEEP_IDLE seconds;
 * before a slow step (lz_pool_slow), every one but the request's own;
 * and when the worker leaves (SIGTERM), every one of them: the leaving
 * worker accepts nothing new, serves what still comes in, and exits when
 * nginx has closed them all (after LEAVE_WAIT seconds it closes what is
 * left).
 *
 * A worker holds at most SLOTS connections.  With all slots taken and a
 * new connection waiting, it hands the connection idle the longest back
 * to nginx at once (never a new connection kept waiting for KEEP_IDLE),
 * and takes the new one when nginx has closed it; meanwhile it leaves
 * the listening socket to the others.  A handed-back connection that
 * neither closes nor brings a request within HANDBACK_WAIT is nginx's no
 * more: closed.
 *
 * A request's params and stdin must arrive within READ_DEADLINE seconds
 * in all, however they trickle (a timer interrupts the read in hand;
 * the request is dropped unanswered), and every single read after a
 * connection's first request is bounded by READ_TIMEOUT (SO_RCVTIMEO,
 * set on each new connection) besides (libfcgi itself drops a new
 * connection whose first byte takes over 2 s).  The stdin is read whole
 * before the handler runs (lz_req_read_body), so a handler never waits
 * on a client.
 */
#define SLOTS		128
#define READ_TIMEOUT	5	/* seconds */
#define READ_DEADLINE	5	/* seconds, params and stdin in all */
#define HANDBACK_WAIT	1	/* seconds */
#define KEEP_IDLE	75	/* seconds; nginx's keepalive_timeout is 60 */
#define LEAVE_WAIT	5	/* seconds */

struct slot {
	FCGX_Request	*f;		/* f->ipcFd < 0: free; never moves
					   while in use (libfcgi's streams
					   point at it) */
	int64_t		 idle_since;	/* lz_mono_us() of its last answer */
	int		 handed_back;	/* waiting for nginx to close it */
	int		 timed;		/* READ_TIMEOUT is set on f.ipcFd */
	int		 lent;		/* a detached answer's, until it
					   comes back (lz_pool_detach) */
};

struct loop {
	const struct lz_app	 *app;
	const struct lz_pool_opts *o;
	struct slot		 slots[SLOTS];
	struct slot		*current;	/* the slot being served */
	struct slot		*making_room;	/* handed back to take a new
						   connection, or NULL */
	int64_t			 room_since;	/* lz_mono_us() of that */
	int			 leaving;
	int			 lfd;		/* the listening socket */
	struct lz_req		*req;		/* the request in hand's; a
						   detached one takes it along */
	struct {				/* lz_pool_detach()'s */
		void		(*fn)(struct lz_req *, void *);
		void		 *arg;
		struct lz_req	 *r;
		int		  entry;
		int		  nice;
	}			 detach;
	int			 back[2];	/* a pipe: the slots detached
						   answers give back */
};

/* A slot whose kept connection is the worker's to watch and hand back:
 * open, and not lent to a detached answer. */
static int
kept(const struct slot *s)
{
	return s->f->ipcFd >= 0 && !s->lent;
}

/* The worker's deadline of a request's reading (READ_DEADLINE). */
static timer_t		 deadline_timer;
static int		 deadline_on;

/* SIGALRM: interrupts the read in hand (no SA_RESTART); nothing else. */
static void
on_alarm(int sig)
{
	(void)sig;
}

static void
deadline_init(void)
{
	struct sigaction	 sa;
	struct sigevent		 sev;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) == -1)
		return;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGALRM;
	sev._sigev_un._tid = gettid();	/* this thread alone */
	if (timer_create(CLOCK_MONOTONIC, &sev, &deadline_timer) == 0)
		deadline_on = 1;
	else
		lz_log(LZ_LOG_WARN, "timer_create: %s; requests have no "
		    "deadline but the read time-out", strerror(errno));
}

/* Arms (on) or disarms the deadline. */
static void
deadline(int on)
{
	struct itimerspec	 its;

	if (!deadline_on)
		return;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = on ? READ_DEADLINE : 0;
	(void)timer_settime(deadline_timer, 0, &its, NULL);
}

static struct loop	*worker_loop;	/* for lz_pool_slow() */
static pid_t		 worker_tid;	/* the thread that serves requests */

/*
 * Reads what is left of the request's stdin (nginx bounds a body by
 * client_max_body_size, READ_TIMEOUT bounds the time).  A kept
 * connection must be read to the end of each request: libfcgi reads the
 * next request from where this one stopped, and takes a stdin record
 * left over for a protocol error.
 */
static void
read_to_end(FCGX_Request *f)
{
	char	 buf[4096];

	while (!FCGX_HasSeenEOF(f->in))
		if (FCGX_GetStr(buf, sizeof(buf), f->in) <= 0)
			break;
}

/* Closes the slot's connection at once (no lingering close). */
static void
drop(struct slot *s)
{
	FCGX_Detach(s->f);
	FCGX_Free(s->f, 1);
	s->handed_back = 0;
}

/* Hands a kept connection back to nginx (see above). */
static void
hand_back(struct slot *s)
{
	FCGI_Header	 h;

	if (s->handed_back)
		return;
	memset(&h, 0, sizeof(h));
	h.version = FCGI_VERSION_1;
	h.type = FCGI_STDERR;
	h.requestIdB1 = (unsigned char)(s->f->requestId >> 8);
	h.requestIdB0 = (unsigned char)s->f->requestId;
	if (write(s->f->ipcFd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		drop(s);		/* nginx is gone already */
		return;
	}
	s->handed_back = 1;
}

/* A slot's request object, for the connections it takes in turn. */
static FCGX_Request *
new_request(int lfd)
{
	FCGX_Request	*f = xcalloc(1, sizeof(*f));

	FCGX_InitRequest(f, lfd, 0);
	return f;
}

static void	detach_start(struct loop *, struct slot *);

/*
 * Serves the next request of slot s: a new connection's first request
 * when s is free, else the next request on its kept connection.
 */
static void
serve(struct loop *w, struct slot *s)
{
	const struct timeval	 tv = { READ_TIMEOUT, 0 };
	struct lz_req		*req;
	int			 rc, begun;

	if (s->f->ipcFd < 0)
		s->timed = 0;		/* a new connection comes */
	if (s == w->making_room)
		w->making_room = NULL;	/* it brought a request instead */
	deadline(1);
	if ((rc = FCGX_Accept_r(s->f)) < 0) {
		deadline(0);
		if (rc != -EAGAIN && rc != -EWOULDBLOCK &&
		    rc != -ECONNABORTED && rc != -EINTR && !w->leaving)
			lz_log(LZ_LOG_ERR, "accept: %s", strerror(-rc));
		s->handed_back = 0;
		return;
	}
	s->handed_back = 0;
	if (!s->timed) {
		(void)setsockopt(s->f->ipcFd, SOL_SOCKET, SO_RCVTIMEO, &tv,
		    sizeof(tv));
		s->timed = 1;
	}
	/* libfcgi returns a request whose params were cut short (a read
	 * error or time-out) as if they had ended: nothing to answer. */
	if (FCGX_GetError(s->f->in) != 0) {
		deadline(0);
		drop(s);
		return;
	}
	w->current = s;
	/* On the heap, made once: lz_pool_detach may hand it to a
	 * thread (detach_start makes the next). */
	req = w->req;
	begun = lz_req_begin(req, s->f) == 0;
	if (lz_req_read_body(req) == -1) {
		deadline(0);
		lz_log(LZ_LOG_WARN, "rid=%s %s %.200s: its body did not arrive "
		    "within %d s; dropped", req->request_id, req->method,
		    req->rawpath, READ_DEADLINE);
		lz_req_free(req);
		w->current = NULL;
		drop(s);
		return;
	}
	deadline(0);
	if (begun)
		w->app->handle(req, w->app->arg);
	w->current = NULL;
	if (w->detach.fn != NULL) {
		detach_start(w, s);	/* req and s->f are the thread's */
		return;
	}
	lz_req_end(req, w->o->access_log);
	lz_metrics_request(metrics, req->route, req->status, lz_mono_us() -
	    req->t0_us);
	/* Read to its end (or broken): a connection that closes closes at
	 * once, without libfcgi's lingering close, which waits for nginx
	 * and protects only an answer sent before its request was read. */
	read_to_end(s->f);
	FCGX_Detach(s->f);
	FCGX_Finish_r(s->f);
	s->idle_since = lz_mono_us();
	if (w->leaving && s->f->ipcFd >= 0)
		hand_back(s);
}

/* ---- long answers on threads of their own (lz_pool_detach) ---------- */

/*
 * Who runs a detached answer now, in all the pool's workers: a table in
 * memory shared from before the fork, under a robust process-shared
 * mutex (a worker killed holding it does not stop the others).  An
 * entry of a process that no longer lives is free.
 */
#define DETACH_CAP	96	/* exports_max (64) and STATS_THREADS */
#define DETACH_STALL	60	/* seconds a write may wait for nginx */

struct detach_table {
	pthread_mutex_t	 mu;
	struct {
		int64_t	 key;
		pid_t	 pid;		/* 0: free */
	} e[DETACH_CAP];
};

static struct detach_table	*detach_tab;
static _Atomic int		 detached_here;	/* this worker's running */

struct job {
	struct lz_req	 *r;
	FCGX_Request	 *f;
	struct slot	 *s;		/* f's, lent */
	int		  back;		/* the worker's pipe to give s back */
	void		(*fn)(struct lz_req *, void *);
	void		 *arg;
	int		  entry;	/* in detach_tab, or -1 */
	int		  nice;		/* the thread's (setpriority) */
	int		  access_log;
};

static int
detach_table_make(void)
{
	detach_tab = lz_shm_make(sizeof(*detach_tab), offsetof(struct
	    detach_table, mu), 1, 0);
	return detach_tab == NULL ? -1 : 0;
}

/* An entry a dead worker left is passed over (tab_claim): nothing to
 * repair. */
static int
tab_lock(void)
{
	return lz_shm_lock(&detach_tab->mu, "detached answers") == -1 ? -1 :
	    0;
}

/* An entry for key, unless key has one or max are taken: its index, or
 * LZ_DETACH_BUSY, LZ_DETACH_MINE. */
static int
tab_claim(int64_t key, int max)
{
	int	 i, n = 0, free_at = -1, rc;

	if (tab_lock() == -1)
		return LZ_DETACH_BUSY;
	for (i = 0; i < DETACH_CAP; i++) {
		if (detach_tab->e[i].pid != 0 && kill(detach_tab->e[i].pid,
		    0) == -1 && errno == ESRCH)
			detach_tab->e[i].pid = 0;	/* its worker died */
		if (detach_tab->e[i].pid == 0) {
			if (free_at == -1)
				free_at = i;
			continue;
		}
		/* Keyed answers (exports) and the others (statistics)
		 * count apart. */
		if ((detach_tab->e[i].key == LZ_DETACH_ANY) ==
		    (key == LZ_DETACH_ANY))
			n++;
		if (key != LZ_DETACH_ANY && detach_tab->e[i].key == key)
			break;
	}
	if (i < DETACH_CAP)
		rc = LZ_DETACH_MINE;
	else if (n >= max || free_at == -1)
		rc = LZ_DETACH_BUSY;
	else {
		detach_tab->e[free_at].key = key;
		detach_tab->e[free_at].pid = getpid();
		rc = free_at;
	}
	pthread_mutex_unlock(&detach_tab->mu);
	return rc;
}

static void
tab_release(int i)
{
	if (i < 0 || tab_lock() == -1)
		return;
	detach_tab->e[i].pid = 0;
	pthread_mutex_unlock(&detach_tab->mu);
}

/*
 * Ends a request as serve() does, its connection kept when nginx keeps
 * it, and gives the slot back to the worker, which watches it for the
 * next request from then on.  (Closing it instead raced with nginx:
 * nginx caches a connection as the answer ends, and a request it sent
 * on one the thread had just closed failed: test_load's 503s.)
 */
static void
job_end(struct job *j)
{
	/* The work is done: the account may start its next export while
	 * the last bytes of this one drain (its client, having read them,
	 * may ask at once). */
	tab_release(j->entry);
	lz_req_end(j->r, j->access_log);
	lz_metrics_request(metrics, j->r->route, j->r->status, lz_mono_us() -
	    j->r->t0_us);
	free(j->r);
	read_to_end(j->f);
	FCGX_Detach(j->f);
	FCGX_Finish_r(j->f);
	/* A pipe's write of a pointer is whole; a full pipe cannot be (it
	 * holds more than SLOTS). */
	if (write(j->back, &j->s, sizeof(j->s)) != (ssize_t)sizeof(j->s))
		lz_log(LZ_LOG_ERR, "a detached answer's slot: %s",
		    strerror(errno));
	free(j);
}

static void *
job_main(void *arg)
{
	const struct timeval	 tv = { DETACH_STALL, 0 };
	struct job		*j = arg;

	if (j->nice != 0)
		(void)setpriority(PRIO_PROCESS, (id_t)gettid(), j->nice);
	/* A reader that takes nothing for so long ends the answer. */
	(void)setsockopt(j->f->ipcFd, SOL_SOCKET, SO_SNDTIMEO, &tv,
	    sizeof(tv));
	j->fn(j->r, j->arg);
	job_end(j);
	return NULL;
}

int
lz_pool_detach(struct lz_req *r, int64_t key, int max, int nice,
    void (*fn)(struct lz_req *, void *), void *arg)
{
	struct loop	*w = worker_loop;
	int		 entry = -1;

	if (w == NULL || w->current == NULL || detach_tab == NULL) {
		fn(r, arg);		/* lzctl, tests: here and now */
		return LZ_DETACH_OK;
	}
	if ((entry = tab_claim(key, max)) < 0)
		return entry;
	r->app = NULL;			/* the handler's, on its stack */
	w->detach.fn = fn;
	w->detach.arg = arg;
	w->detach.r = r;
	w->detach.entry = entry;
	w->detach.nice = nice;
	return LZ_DETACH_OK;
}

/* Starts the thread of the request lz_pool_detach() took from slot s,
 * which gets a new request object (libfcgi's streams point at the
 * old). */
static void
detach_start(struct loop *w, struct slot *s)
{
	struct job	*j = xcalloc(1, sizeof(*j));
	pthread_attr_t	 at;
	pthread_t	 t;
	sigset_t	 all, old;
	int		 rc;

	j->r = w->detach.r;
	j->f = s->f;
	j->s = s;
	j->back = w->back[1];
	j->fn = w->detach.fn;
	j->arg = w->detach.arg;
	j->entry = w->detach.entry;
	j->nice = w->detach.nice;
	j->access_log = w->o->access_log;
	memset(&w->detach, 0, sizeof(w->detach));
	w->req = xmalloc(sizeof(*w->req));
	s->lent = 1;
	s->handed_back = 0;
	atomic_fetch_add(&detached_here, 1);
	sigfillset(&all);		/* signals are the worker's business */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &at, job_main, j);
	pthread_attr_destroy(&at);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		lz_log(LZ_LOG_ERR, "rid=%s: a thread for the answer: %s; "
		    "answered here", j->r->request_id, strerror(rc));
		j->fn(j->r, j->arg);
		job_end(j);
	}
}

/* Takes back the slots detached answers gave back (job_end). */
static void
take_back(struct loop *w)
{
	struct slot	*s[16];
	ssize_t		 n, i;

	while ((n = read(w->back[0], s, sizeof(s))) > 0) {
		for (i = 0; i < n / (ssize_t)sizeof(s[0]); i++) {
			s[i]->lent = 0;
			s[i]->timed = 0;
			s[i]->idle_since = lz_mono_us();
			atomic_fetch_sub(&detached_here, 1);
			if (w->leaving && s[i]->f->ipcFd >= 0)
				hand_back(s[i]);
		}
	}
}

static struct slot *
free_slot(struct loop *w)
{
	size_t	 i;

	for (i = 0; i < SLOTS; i++)
		if (w->slots[i].f->ipcFd < 0 && !w->slots[i].lent)
			return &w->slots[i];
	return NULL;
}

/*
 * All slots are taken and a new connection waits: hands back the kept
 * connection idle the longest (not one handed back already) and stops
 * taking connections until nginx closes it or HANDBACK_WAIT passes.
 */
static void
make_room(struct loop *w, int64_t now)
{
	struct slot	*s, *lru = NULL;
	size_t		 i;

	for (i = 0; i < SLOTS; i++) {
		s = &w->slots[i];
		if (!kept(s) || s == w->current)
			continue;
		if (s->handed_back) {
			if (lru == NULL || lru->handed_back)
				lru = s;	/* only if nothing better */
			continue;
		}
		if (lru == NULL || lru->handed_back ||
		    s->idle_since < lru->idle_since)
			lru = s;
	}
	if (lru == NULL)
		return;
	hand_back(lru);
	w->making_room = lru;
	w->room_since = now;
}

/* Ends a pending make_room: the slot freed, or nginx kept it too long. */
static void
room_check(struct loop *w, int64_t now)
{
	struct slot	*s = w->making_room;

	if (s == NULL)
		return;
	if (s->f->ipcFd < 0 || !s->handed_back)
		w->making_room = NULL;
	else if (now - w->room_since >= (int64_t)HANDBACK_WAIT * 1000000) {
		drop(s);
		w->making_room = NULL;
	}
}

/*
 * Once a second: hands back the connections idle for KEEP_IDLE seconds,
 * and closes those still open KEEP_IDLE seconds after that (nginx
 * closes an idle connection handed back to it at once).  And has the
 * read time-out set again at each connection's next request: libfcgi
 * may have put a new connection in a slot (it accepts one when a kept
 * connection breaks before its next request begins).
 */
static void
tidy(struct loop *w, int64_t now)
{
	const int64_t	 limit = (int64_t)KEEP_IDLE * 1000000;
	struct slot	*s;
	size_t		 i;

	for (i = 0; i < SLOTS; i++) {
		s = &w->slots[i];
		if (!kept(s))
			continue;
		s->timed = 0;
		if (s->handed_back && now - s->idle_since > 2 * limit)
			drop(s);
		else if (now - s->idle_since > limit)
			hand_back(s);
	}
}

/* Stops taking connections and hands every kept one back. */
static void
leave(struct loop *w)
{
	size_t	 i;

	w->leaving = 1;
	FCGX_ShutdownPending();		/* libfcgi accepts nothing more */
	for (i = 0; i < SLOTS; i++)
		if (kept(&w->slots[i]))
			hand_back(&w->slots[i]);
}

/*
 * The worker's thread for slow steps (lz_pool_slow), started at the
 * first, at nice 19: an argon2id check takes the CPU from nothing more
 * urgent, and the worker waits for it without running.
 */
static struct {
	pthread_mutex_t	  mx;
	pthread_cond_t	  cv;
	void		(*fn)(void *);	/* the step to run, NULL when done */
	void		 *arg;
	int		  started;
} slow = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL,
    0 };

static void *
slow_main(void *unused)
{
	void	(*fn)(void *);

	(void)unused;
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	pthread_mutex_lock(&slow.mx);
	for (;;) {
		while ((fn = slow.fn) == NULL)
			pthread_cond_wait(&slow.cv, &slow.mx);
		pthread_mutex_unlock(&slow.mx);
		fn(slow.arg);
		pthread_mutex_lock(&slow.mx);
		slow.fn = NULL;
		pthread_cond_broadcast(&slow.cv);
	}
	return NULL;
}

void
lz_pool_stall(void)
{
	struct loop	*w = worker_loop;
	size_t		 i;

	if (w == NULL || w->current == NULL || gettid() != worker_tid)
		return;		/* not the request's thread (the mover's) */
	for (i = 0; i < SLOTS; i++)
		if (kept(&w->slots[i]) && &w->slots[i] != w->current)
			hand_back(&w->slots[i]);
}

void
lz_pool_slow(void (*fn)(void *), void *arg)
{
	struct loop	*w = worker_loop;
	pthread_t	 t;
	sigset_t	 all, old;

	if (w == NULL) {
		fn(arg);
		return;
	}
	lz_pool_stall();
	if (!slow.started) {
		sigfillset(&all);	/* signals are the worker's business */
		pthread_sigmask(SIG_SETMASK, &all, &old);
		slow.started = pthread_create(&t, NULL, slow_main, NULL) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!slow.started) {
			fn(arg);
			return;
		}
	}
	pthread_mutex_lock(&slow.mx);
	slow.fn = fn;
	slow.arg = arg;
	pthread_cond_broadcast(&slow.cv);
	while (slow.fn != NULL)
		pthread_cond_wait(&slow.cv, &slow.mx);
	pthread_mutex_unlock(&slow.mx);
}

static void LZ_NORETURN
worker_main(const struct lz_app *app, const struct lz_pool_opts *o, int lfd,
    pid_t parent, int slot)
{
	struct loop		*w;
	struct pollfd		 pfd[SLOTS + 2];
	struct slot		*who[SLOTS + 2], *s;
	struct timespec		 ts;
	sigset_t		 none;
	int64_t			 now, wait, next_tick, until = 0;
	size_t			 i;
	int			 rc, n, nready;

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

	lz_metrics_worker(metrics, slot);
	if (app->init && (rc = app->init(app->arg)) != 0)
		_exit(rc);

	FCGX_Init();
	deadline_init();
	w = xcalloc(1, sizeof(*w));
	w->app = app;
	w->o = o;
	w->lfd = lfd;
	w->req = xmalloc(sizeof(*w->req));
	worker_loop = w;
	worker_tid = gettid();
	for (i = 0; i < SLOTS; i++)
		w->slots[i].f = new_request(lfd);
	if (pipe2(w->back, O_NONBLOCK | O_CLOEXEC) == -1) {
		lz_log(LZ_LOG_ERR, "pipe: %s", strerror(errno));
		_exit(1);
	}
	next_tick = lz_mono_us() + 1000000;

	for (;;) {
		n = 0;
		if (!w->leaving && w->making_room == NULL) {
			pfd[n].fd = lfd;
			pfd[n].events = POLLIN;
			who[n++] = NULL;
		}
		for (i = 0; i < SLOTS; i++) {
			if (!kept(&w->slots[i]))
				continue;
			pfd[n].fd = w->slots[i].f->ipcFd;
			pfd[n].events = POLLIN;
			who[n++] = &w->slots[i];
		}
		if (w->leaving && n == 0 && atomic_load(&detached_here) == 0)
			break;
		pfd[n].fd = w->back[0];		/* last: who[n] is not read */
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		now = lz_mono_us();
		wait = next_tick > now ? next_tick - now : 0;
		if (w->making_room != NULL && w->room_since + (int64_t)
		    HANDBACK_WAIT * 1000000 - now < wait)
			wait = w->room_since + (int64_t)HANDBACK_WAIT *
			    1000000 - now;
		if (wait < 0)
			wait = 0;
		ts.tv_sec = (time_t)(wait / 1000000);
		ts.tv_nsec = (long)(wait % 1000000) * 1000;
		nready = ppoll(pfd, (nfds_t)n + 1, &ts, &none);
		if (nready == -1 && errno != EINTR) {
			lz_log(LZ_LOG_ERR, "ppoll: %s", strerror(errno));
			sleep(1);
		}
		if (got_term && !w->leaving) {
			leave(w);
			until = lz_mono_us() + (int64_t)LEAVE_WAIT * 1000000;
			continue;
		}
		for (i = 0; nready > 0 && i < (size_t)n; i++) {
			if (pfd[i].revents == 0)
				continue;
			if ((s = who[i]) == NULL) {
				if ((s = free_slot(w)) != NULL)
					serve(w, s);
				else if (w->making_room == NULL)
					make_room(w, lz_mono_us());
			} else if (pfd[i].revents & (POLLHUP | POLLERR |
			    POLLNVAL))
				drop(s);	/* nginx closed it */
			else
				serve(w, s);
		}
		if (nready > 0 && pfd[n].revents != 0)
			take_back(w);
		now = lz_mono_us();
		room_check(w, now);
		if (now >= next_tick) {
			next_tick = now + 1000000;
			if (app->tick)
				app->tick(app->arg);
			tidy(w, now);
		}
		if (w->leaving && until != 0 && now >= until) {
			for (i = 0, n = 0; i < SLOTS; i++)
				if (kept(&w->slots[i])) {
					drop(&w->slots[i]);
					n++;
				}
			if (n > 0)
				lz_log(LZ_LOG_WARN, "closed %d kept connections "
				    "nginx did not close in %d s", n, LEAVE_WAIT);
			/* Detached answers run to their end (the
			 * supervisor's shutdown_timeout bounds them). */
			until = 0;
			if (atomic_load(&detached_here) == 0)
				break;
		}
	}
	if (app->fini)
		app->fini(app->arg);
	_exit(0);
}

/* ---- the supervisor -------------------------------------------------- */

static struct worker	*workers;
static size_t		 nworkers;

/* The lowest metrics slot no live worker holds. */
static int
free_metrics_slot(void)
{
	size_t	 i;
	int	 slot;

	for (slot = 0; slot < LZ_METRICS_WORKERS; slot++) {
		for (i = 0; i < nworkers && workers[i].slot != slot; i++)
			continue;
		if (i == nworkers)
			return slot;
	}
	return -1;
}

static pid_t
spawn(const struct lz_app *app, const struct lz_pool_opts *o, int lfd,
    int gen)
{
	pid_t	 pid, parent = getpid();
	int	 slot = free_metrics_slot();

	if ((pid = fork()) == -1) {
		lz_log(LZ_LOG_ERR, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		worker_main(app, o, lfd, parent, slot);
	workers = xreallocarray(workers, nworkers + 1, sizeof(*workers));
	workers[nworkers].pid = pid;
	workers[nworkers].gen = gen;
	workers[nworkers].slot = slot;
	workers[nworkers].started = lz_mono_us();
	nworkers++;
	lz_metrics_workers(metrics, (int)nworkers);
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
			lz_metrics_restarted(metrics);
			if (lz_mono_us() - workers[i].started < 1000000)
				(*quick_deaths)++;
			else
				*quick_deaths = 0;
		}
		if (app->reaped)
			app->reaped(pid, status, app->arg);
		lz_metrics_worker_gone(metrics, workers[i].slot);
		workers[i] = workers[--nworkers];
		lz_metrics_workers(metrics, (int)nworkers);
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
	if (detach_table_make() == -1)
		lz_log(LZ_LOG_WARN, "the table of detached answers: %s; long "
		    "answers run on the workers' threads", strerror(errno));
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
