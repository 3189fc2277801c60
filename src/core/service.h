/*
 * service.h -- the main() of the FastCGI pools (lz-links, lz-prompts):
 * options, start-up, the configuration and its reload on SIGHUP, around
 * lz_pool_run() (pool.h).  A service is a table of what differs.
 */
#ifndef LZ_SERVICE_H
#define LZ_SERVICE_H

#include <stddef.h>

#include "pool.h"

struct lz_conf;

struct lz_service {
	const char	*name;		/* "lz-links", in logs and -V */
	int		 curl;		/* initialise libcurl too */
	/* The keys in lz.conf of its socket and of its number of workers,
	 * the pool options that are the service's own; the rest are the
	 * same for all. */
	const char	*socket_key;
	const char	*workers_key;
	struct lz_conf	**conf;		/* where the service keeps it */
	/* Checks and completes a configuration just read (the trusted
	 * proxies are set already); 0, or -1 with err. */
	int	(*setup)(struct lz_conf *, char *err, size_t errlen);
	/* -t: checks what a worker would open, says so on stdout or
	 * stderr; 0 or -1. */
	int	(*test)(void);
	/* SIGHUP, before new replaces old: what the supervisor reloads
	 * itself, or warns needs a restart.  May be NULL. */
	void	(*reload)(const struct lz_conf *old, const struct lz_conf *new);
	/* The pool's hooks (pool.h); reload is the service's own. */
	struct lz_app	 app;
};

/*
 * The options every lz program takes, for its getopt() loop: -f lz.conf
 * sets *conffile, -V prints name and the version and exits 0.  Returns
 * 1 when ch was one of them, else 0 (the program's own, or a usage
 * error).
 */
int	lz_service_opt(int ch, const char *name, const char **conffile);

/*
 * Opens the log as name, initialises libsodium (and libcurl with curl)
 * and loads the configuration (conffile NULL: the default).  Returns it,
 * or NULL after logging why.
 */
struct lz_conf *lz_service_start(const char *name, int curl,
	    const char *conffile);

/* Checks and completes a configuration just read: the trusted proxies,
 * then the service's setup; 0, or -1 with err. */
int	lz_service_setup(struct lz_service *, struct lz_conf *, char *err,
	    size_t errlen);

/*
 * Confines the process, when on (lz.conf sandbox): seccomp, and Landlock
 * where the kernel has it, with files only under the directory of its
 * database db (writable or read-only; none for a PostgreSQL URI, whose
 * connections, made again after a lost one, need no file), the
 * directory also (writable, when not NULL) and the file or directory
 * readable (read-only, when not NULL).  0, or LZ_EXIT_CONFIG after
 * logging why.
 */
int	lz_service_sandbox(int on, const char *db, int writable,
	    const char *also, const char *readable);

/* main() of a pool program: [-tV] [-f lz.conf].  Returns the exit
 * status. */
int	lz_service_main(int argc, char *argv[], struct lz_service *);

#endif
