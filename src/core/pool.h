/*
 * pool.h -- the prefork FastCGI pool (DESIGN 1).
 *
 * A small supervisor binds the unix socket (or inherits it: fd 3 under
 * systemd socket activation, fd 0 under spawn-fcgi), drops root, forks N
 * workers and restarts any that die.  SIGTERM/SIGINT stop the pool
 * gracefully (workers finish the request in hand and hand their kept
 * connections back to nginx); SIGHUP re-reads the configuration and
 * replaces the workers one generation at a time.
 *
 * Each worker keeps the connections nginx keeps (fastcgi_keep_conn on)
 * and serves one request at a time from whichever of them, or of the
 * shared socket, has one (pool.c).  Signals are blocked except while a
 * worker waits, so a request is never cut short; the wait times out
 * every second so workers run the application's tick().
 */
#ifndef LZ_POOL_H
#define LZ_POOL_H

#include <sys/types.h>

#include <stdint.h>

#include "req.h"

struct lz_pool_opts {
	const char	*name;		/* program name, for logs */
	const char	*socket_path;
	int		 workers;
	unsigned	 socket_mode;
	const char	*socket_group;	/* "" keeps the default group */
	const char	*user;		/* "" keeps the current user */
	const char	*group;		/* "" means the user's group */
	int		 shutdown_timeout; /* seconds before SIGKILL */
	int		 access_log;
};

struct lz_app {
	/* Supervisor, before the first fork (shared memory). 0 or -1. */
	int	(*pre_fork)(void *arg);
	/* Worker, after fork and privilege drop. 0, or an exit status:
	 * LZ_EXIT_CONFIG stops the whole pool (nothing would work). */
	int	(*init)(void *arg);
	void	(*handle)(struct lz_req *, void *arg);
	/* Worker, about once a second, between requests. */
	void	(*tick)(void *arg);
	/* Worker, before a clean exit. */
	void	(*fini)(void *arg);
	/* Supervisor, on SIGHUP: reload settings into opts. 0 or -1. */
	int	(*reload)(struct lz_pool_opts *, void *arg);
	/* Supervisor, after a worker exited. */
	void	(*reaped)(pid_t pid, int status, void *arg);
	void	*arg;
};

#define LZ_EXIT_CONFIG	78	/* sysexits EX_CONFIG */

/* Runs the pool until SIGTERM/SIGINT.  Returns the process exit status. */
int	lz_pool_run(const struct lz_app *, struct lz_pool_opts *);

/*
 * Runs fn(arg), a step of the request in hand that is slow by nature (an
 * argon2id hash, see pwhash.h), so that no other request waits for it.
 * In a worker, the worker first hands its other kept connections back to
 * nginx (nginx sends it nothing more meanwhile), then runs fn on a thread
 * of its own at the lowest CPU priority and waits for it.  Elsewhere
 * (lzctl, tests) it calls fn(arg).
 */
void	lz_pool_slow(void (*fn)(void *), void *arg);

/*
 * The request in hand is about to wait for something it does not
 * control (the write turn behind another process, a lock): the worker
 * hands its other kept connections back to nginx, so that no request
 * queues behind the wait (nginx sends new ones to the other workers).
 * Nothing outside a worker's own thread (the mover, lzctl).
 */
void	lz_pool_stall(void);
#define LZ_POOL_STALL_MS	20	/* a wait that long calls it: longer
					   than a write */

/*
 * Hands the request in hand, r, to a thread of its own, for an answer
 * whose work grows with the data (an export, statistics): fn(r, arg)
 * runs there once the handler has returned, at CPU priority nice (0:
 * the worker's; 19: the lowest, for work that may wait, but a thread
 * that low holding a lock the worker needs -- SQLite's, the kernel's
 * for memory -- holds the worker up: bench/stats), then the request
 * ends there (access log, metrics) and its kept connection goes back
 * to the worker.  The worker serves its other requests meanwhile.
 * key says who may run one at a time (an account; LZ_DETACH_ANY: no
 * one), max how many the pool's workers run at once in all: of those
 * with a key, or of those without (the two count apart).
 *
 * LZ_DETACH_OK: r and arg are fn's now; the handler returns at once and
 * touches neither (r->app is cleared: it was on the handler's stack).
 * LZ_DETACH_MINE: key runs one already; LZ_DETACH_BUSY: max run: the
 * handler answers (429).  Outside a worker (lzctl, tests) fn runs at
 * once, and LZ_DETACH_OK.
 */
#define LZ_DETACH_ANY	INT64_MIN	/* key: any number at once */
#define LZ_DETACH_OK	0
#define LZ_DETACH_BUSY	(-1)
#define LZ_DETACH_MINE	(-2)
int	lz_pool_detach(struct lz_req *r, int64_t key, int max, int nice,
	    void (*fn)(struct lz_req *, void *), void *arg);

/* The pool's counters (metrics.h), made before the first fork (in the
 * application's pre_fork): its workers count every request there. */
struct lz_metrics;
void	lz_pool_metrics(struct lz_metrics *);

/* Drops root to user/group (names); returns 0 or -1 with err set. */
int	lz_drop_privileges(const char *user, const char *group, char *err,
	    size_t errlen);

#endif
