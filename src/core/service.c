/*
 * service.c -- the main() of the FastCGI pools (service.h).
 */
#include "config.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sodium.h>

#include "conf.h"
#include "db.h"
#include "log.h"
#include "req.h"
#include "sandbox.h"
#include "service.h"
#include "util.h"

int
lz_service_opt(int ch, const char *name, const char **conffile)
{
	switch (ch) {
	case 'f':
		*conffile = optarg;
		return 1;
	case 'V':
		printf("%s %s\n", name, PACKAGE_VERSION);
		exit(0);
	}
	return 0;
}

struct lz_conf *
lz_service_start(const char *name, int curl, const char *conffile)
{
	struct lz_conf	*c;
	char		 err[512];

	lz_log_open(name, LZ_LOG_INFO);
	if (sodium_init() < 0 ||
	    (curl && curl_global_init(CURL_GLOBAL_DEFAULT) != 0)) {
		lz_log(LZ_LOG_ERR, "cannot initialise libsodium%s",
		    curl ? " or libcurl" : "");
		return NULL;
	}
	if ((c = lz_conf_load(conffile, err, sizeof(err))) == NULL) {
		lz_log(LZ_LOG_ERR, "%s", err);
		return NULL;
	}
	lz_log_level(c->loglevel);
	return c;
}

int
lz_service_sandbox(int on, const char *db, int writable, const char *also,
    const char *readable)
{
	const char	*rw[3] = { NULL }, *ro[3] = { NULL };
	char		*dup, err[512];
	int		 landlocked, nrw = 0, nro = 0, rc = 0;

	if (!on)
		return 0;
	dup = xstrdup(db);
	if (lz_db_is_uri(db))
		;	/* a server's: sockets, no files */
	else if (writable)
		rw[nrw++] = dirname(dup);
	else
		ro[nro++] = dirname(dup);
	if (also != NULL)
		rw[nrw++] = also;
	if (readable != NULL)
		ro[nro++] = readable;
	if (lz_sandbox(nrw ? rw : NULL, nro ? ro : NULL, &landlocked, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "sandbox: %s (set sandbox = no to run "
		    "without)", err);
		rc = LZ_EXIT_CONFIG;
	} else if (!landlocked)
		lz_log(LZ_LOG_DEBUG, "kernel without Landlock: seccomp only");
	free(dup);
	return rc;
}

/* The settings of c that every pool takes, and the service's own. */
static void
pool_opts(struct lz_service *sv, struct lz_pool_opts *o,
    const struct lz_conf *c)
{
	memset(o, 0, sizeof(*o));
	o->name = sv->name;
	o->socket_mode = c->sockmode;
	o->socket_group = c->socket_group;
	o->user = c->user;
	o->group = c->group;
	o->shutdown_timeout = (int)c->shutdown_timeout;
	o->access_log = c->access_log;
	o->socket_path = lz_conf_str(c, sv->socket_key);
	o->workers = (int)lz_conf_int(c, sv->workers_key);
}

int
lz_service_setup(struct lz_service *sv, struct lz_conf *c, char *err,
    size_t errlen)
{
	if (lz_req_set_trusted_proxies(c->trusted_proxies, err, errlen) == -1)
		return -1;
	return sv->setup ? sv->setup(c, err, errlen) : 0;
}

static int
reload(struct lz_pool_opts *o, void *arg)
{
	struct lz_service	*sv = arg;
	struct lz_pool_opts	 next;
	struct lz_conf		*c, *old = *sv->conf;
	char			 err[512];

	if ((c = lz_conf_load(old->path, err, sizeof(err))) == NULL ||
	    lz_service_setup(sv, c, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		lz_conf_free(c);
		return -1;
	}
	pool_opts(sv, &next, c);
	if (strcmp(next.socket_path, o->socket_path) != 0)
		lz_log(LZ_LOG_WARN, "%s changed; restart the pool to move the "
		    "socket", sv->socket_key);
	if (sv->reload != NULL)
		sv->reload(old, c);
	lz_conf_free(old);
	*sv->conf = c;
	lz_log_level(c->loglevel);
	*o = next;
	return 0;
}

static void
usage(const struct lz_service *sv)
{
	fprintf(stderr, "usage: %s [-tV] [-f lz.conf]\n", sv->name);
	exit(2);
}

int
lz_service_main(int argc, char *argv[], struct lz_service *sv)
{
	struct lz_pool_opts	 o;
	const char		*conffile = NULL;
	char			 err[512];
	int			 ch, test = 0;

	while ((ch = getopt(argc, argv, "f:tV")) != -1)
		if (ch == 't')
			test = 1;
		else if (!lz_service_opt(ch, sv->name, &conffile))
			usage(sv);
	if (optind != argc)
		usage(sv);

	if ((*sv->conf = lz_service_start(sv->name, sv->curl, conffile)) ==
	    NULL)
		return 1;
	if (lz_service_setup(sv, *sv->conf, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		return 1;
	}
	if (test)
		return sv->test() == 0 ? 0 : 1;
	sv->app.reload = reload;
	sv->app.arg = sv;
	pool_opts(sv, &o, *sv->conf);
	return lz_pool_run(&sv->app, &o);
}
