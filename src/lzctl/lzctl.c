/*
 * lzctl.c -- the admin CLI: the groups of commands, and what every
 * command's row asks for (lzctl.h).
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sodium.h>

#include "conf.h"
#include "log.h"
#include "lzctl.h"
#include "lztime.h"
#include "progress.h"
#include "service.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/store.h"
#include "util.h"
#include "webhook/events.h"

struct lz_conf	*ctl_conf;
struct lz_db	 ctl_links_db;
const char	*ctl_progname = "lzctl";

static const struct ctl_group *const groups[] = {
	&ctl_init, &ctl_migrate, &ctl_account, &ctl_key, &ctl_link,
	&ctl_stats, &ctl_backup, &ctl_restore, &ctl_check, &ctl_db,
	&ctl_prompts, &ctl_webhook, &ctl_blocklist, &ctl_domain, &ctl_tag,
	&ctl_import, &ctl_member,
};

void
ctl_err(const char *fmt, ...)
{
	va_list	 ap;

	progress_break();	/* not on the end of a progress line */
	fprintf(stderr, "%s: ", ctl_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
ctl_links_open(void)
{
	char	 err[512];

	if (store_open(&ctl_links_db, ctl_conf->links_db, err, sizeof(err)) ==
	    -1) {
		ctl_err("%s", err);
		exit(1);
	}
	events_default_domain(ctl_conf->base_url);
}

int64_t
ctl_account_id(const char *s)
{
	struct account	 a;
	long long	 id = 0;
	int		 rc;

	if (strchr(s, '@') != NULL)
		rc = store_account_get(&ctl_links_db, 0, s, &a);
	else if (lz_parse_ll(s, 1, INT64_MAX, &id) == 0)
		rc = store_account_get(&ctl_links_db, id, NULL, &a);
	else {
		ctl_err("'%s' is neither an account id nor an e-mail address",
		    s);
		return 0;
	}
	if (rc != 1) {
		if (rc == 0)
			ctl_err("no account '%s'", s);
		return 0;
	}
	return a.id;
}

int
ctl_id(const char *s, const char *what, int64_t *id)
{
	long long	 n;

	if (lz_parse_ll(s, 1, INT64_MAX, &n) == -1) {
		ctl_err("'%s' is not a %s id (see lzctl %s list)", s, what,
		    what);
		return -1;
	}
	*id = n;
	return 0;
}

const char *
ctl_time(int64_t ms, int ms_too, const char *none)
{
	static char	 buf[CTL_TIMES][40];
	static size_t	 next;
	char		*s;

	if (ms == 0 && none != NULL)
		return none;
	s = buf[next++ % CTL_TIMES];
	lz_time_fmt_iso(ms, s, sizeof(buf[0]), ms_too);
	return s;
}

void
ctl_chown_to_user(const char *path)
{
	struct passwd	*pw;

	if (geteuid() != 0 || ctl_conf->user[0] == '\0' ||
	    strcmp(ctl_conf->user, "root") == 0)
		return;
	if ((pw = getpwnam(ctl_conf->user)) == NULL) {
		ctl_err("warning: no such user '%s'", ctl_conf->user);
		return;
	}
	if (chown(path, pw->pw_uid, pw->pw_gid) == -1 && errno != ENOENT)
		ctl_err("warning: chown %s: %s", path, strerror(errno));
}

int
ctl_socket_answers(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, ok;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return 0;
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return 0;
	ok = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return ok;
}

/* ---- the tables ------------------------------------------------------- */

static void
usage(void)
{
	const struct ctl_group	*g;
	struct lz_buf		 b = LZ_BUF_INIT;
	size_t			 i, k;

	fprintf(stderr, "usage: lzctl [-f lz.conf] command [arguments]\n\n"
	    "commands:\n");
	for (i = 0; i < LZ_NELEM(groups); i++) {
		g = groups[i];
		lz_buf_reset(&b);
		for (k = 0; k < g->ncmds && g->cmds[k].name; k++)
			lz_buf_printf(&b, "%s%s", k ? "|" : "",
			    g->cmds[k].name);
		if (g->what != NULL)
			lz_buf_printf(&b, "%s%s", b.len ? " " : "", g->what);
		fprintf(stderr, "  %-10s %s\n", g->name, lz_buf_str(&b));
	}
	lz_buf_free(&b);
	fprintf(stderr, "\nSee lzctl(8).\n");
	exit(EXIT_USAGE);
}

/* The usage of one command of g, or of all when c is NULL. */
static int
group_usage(const struct ctl_group *g, const struct ctl_cmd *c)
{
	const char	*lead = "usage:";
	size_t		 k;

	for (k = 0; k < g->ncmds; k++) {
		if (c != NULL && c != &g->cmds[k])
			continue;
		fprintf(stderr, "%-6s lzctl %s%s%s%s%s\n", lead, g->name,
		    g->cmds[k].name ? " " : "", g->cmds[k].name ?
		    g->cmds[k].name : "", *g->cmds[k].usage ? " " : "",
		    g->cmds[k].usage);
		lead = "";
	}
	return EXIT_USAGE;
}

/* Parses the options of c in argv into a; 0, or -1 (said). */
static int
options(const struct ctl_cmd *c, int argc, char **argv, struct ctl_args *a)
{
	struct option		 lo[CTL_OPTS_MAX + 1];
	const struct ctl_opt	*o;
	char			 so[CTL_OPTS_MAX * 2 + 1], *p = so;
	size_t			 n = 0, k;
	int64_t			 ms;
	int			 ch;

	memset(lo, 0, sizeof(lo));
	for (k = 0; k < CTL_OPTS_MAX && c->opts[k].ch; k++) {
		o = &c->opts[k];
		*p++ = (char)o->ch;
		if (o->type != CTL_FLAG)
			*p++ = ':';
		a->opt[k].i = o->def;
		if (o->name == NULL)
			continue;
		lo[n].name = o->name;
		lo[n].has_arg = o->type == CTL_FLAG ? no_argument :
		    required_argument;
		lo[n++].val = o->ch;
	}
	*p = '\0';
	optind = 0;	/* glibc: start over */
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		for (k = 0; k < CTL_OPTS_MAX && c->opts[k].ch; k++)
			if (c->opts[k].ch == ch)
				break;
		if (k == CTL_OPTS_MAX || c->opts[k].ch == 0)
			return -1;	/* getopt said why */
		o = &c->opts[k];
		if (o->type == CTL_LIST) {
			size_t	 used = strlen(a->opt[k].list);

			if (used + strlen(optarg) + 2 > sizeof(a->opt[k].list)) {
				ctl_err("--%s: too long", o->name);
				return -1;
			}
			snprintf(a->opt[k].list + used, sizeof(a->opt[k].list) -
			    used, "%s%s", used ? "," : "", optarg);
			optarg = a->opt[k].list;
		}
		a->opt[k].set = 1;
		a->opt[k].s = optarg;
		if (o->type == CTL_INT && lz_parse_ll(optarg, o->min, o->max,
		    &a->opt[k].i) == -1) {
			ctl_err("--%s: expected %lld-%lld", o->name, o->min,
			    o->max);
			return -1;
		}
		if (o->type == CTL_TIME) {
			if (lz_time_parse_iso(optarg, &ms) == -1) {
				ctl_err("--%s: expected an ISO 8601 time with "
				    "a time zone", o->name);
				return -1;
			}
			a->opt[k].i = ms;
		}
	}
	for (k = 0; k < CTL_OPTS_MAX && c->opts[k].ch; k++)
		if (c->opts[k].required && !a->opt[k].set)
			return -1;
	a->argc = argc - optind;
	a->argv = argv + optind;
	return 0;
}

/* Runs command argv[0] of g (a subcommand in argv[1] when g has them). */
static int
run(const struct ctl_group *g, int argc, char **argv)
{
	const struct ctl_cmd	*c = &g->cmds[0];
	struct ctl_args		 a;
	size_t			 k;

	if (c->name != NULL) {
		for (k = 0; argc > 1 && k < g->ncmds; k++)
			if (strcmp(argv[1], g->cmds[k].name) == 0)
				break;
		if (argc < 2 || k == g->ncmds)
			return group_usage(g, NULL);
		c = &g->cmds[k];
		argc--;
		argv++;
	}
	memset(&a, 0, sizeof(a));
	a.cmd = c;
	if (options(c, argc, argv, &a) == -1 || a.argc < c->min ||
	    a.argc > c->max)
		return group_usage(g, c);
	if (c->flags & CTL_DB)
		ctl_links_open();
	return c->fn(&a);
}

int
main(int argc, char *argv[])
{
	const char	*conffile = NULL;
	char		 err[512];
	size_t		 i;
	int		 ch, rc;

	while ((ch = getopt(argc, argv, "+f:hV")) != -1)
		if (!lz_service_opt(ch, "lzctl", &conffile))
			usage();
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();

	lz_log_open("lzctl", LZ_LOG_WARN);
	store_admin();		/* lzctl may name any account's data */
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
		ctl_err("cannot initialise libsodium or libcurl");
		return 1;
	}
	for (i = 0; i < LZ_NELEM(groups); i++)
		if (strcmp(argv[0], groups[i]->name) == 0)
			break;
	if (i == LZ_NELEM(groups)) {
		ctl_err("unknown command '%s'", argv[0]);
		usage();
	}
	if ((ctl_conf = lz_conf_load(conffile, err, sizeof(err))) == NULL) {
		ctl_err("%s", err);
		return 1;
	}
	rc = run(groups[i], argc, argv);
	lz_db_close(&ctl_links_db);
	lz_conf_free(ctl_conf);
	curl_global_cleanup();
	return rc;
}
