/*
 * lzctl.c -- the admin CLI: option parsing and the command table.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sodium.h>

#include "conf.h"
#include "ctx.h"
#include "log.h"
#include "lzctl.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/store.h"
#include "util.h"

struct lz_conf	*ctl_conf;
const char	*ctl_progname = "lzctl";

static const struct {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*help;
} cmds[] = {
	{ "init",	cmd_init,	"create the key file and databases" },
	{ "migrate",	cmd_migrate,	"upgrade the databases in place" },
	{ "account",	cmd_account,	"add|list|show|plan|password|disable|enable" },
	{ "key",	cmd_key,	"create|list|revoke API keys" },
	{ "link",	cmd_link,	"list|show|stats|delete links" },
	{ "backup",	cmd_backup,	"copy the links database, online" },
	{ "restore",	cmd_restore,	"put a backup back" },
	{ "check",	cmd_check,	"integrity, config, sockets, nginx" },
	{ "prompts",	cmd_prompts,	"import the prompt library's data" },
	{ "webhook",	cmd_webhook,	"add|list|rotate|disable|test|deliveries" },
	{ "blocklist",	cmd_blocklist,	"import|add|remove|list|check" },
};

void
ctl_err(const char *fmt, ...)
{
	va_list	 ap;

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

	if (store_open(&links.db, ctl_conf->links_db, err, sizeof(err)) ==
	    -1) {
		ctl_err("%s", err);
		exit(1);
	}
}

int64_t
ctl_account_id(const char *s)
{
	struct account	 a;
	long long	 id = 0;
	int		 rc;

	if (strchr(s, '@') != NULL)
		rc = store_account_get(&links.db, 0, s, &a);
	else if (lz_parse_ll(s, 1, INT64_MAX, &id) == 0)
		rc = store_account_get(&links.db, id, NULL, &a);
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

static void
usage(void)
{
	size_t	 i;

	fprintf(stderr, "usage: lzctl [-f lz.conf] command [arguments]\n\n"
	    "commands:\n");
	for (i = 0; i < LZ_NELEM(cmds); i++)
		fprintf(stderr, "  %-10s %s\n", cmds[i].name, cmds[i].help);
	fprintf(stderr, "\nSee lzctl(8).\n");
	exit(EXIT_USAGE);
}

int
main(int argc, char *argv[])
{
	const char	*conffile = NULL;
	char		 err[512];
	size_t		 i;
	int		 ch, rc;

	while ((ch = getopt(argc, argv, "+f:hV")) != -1)
		switch (ch) {
		case 'f':
			conffile = optarg;
			break;
		case 'V':
			printf("lzctl %s\n", PACKAGE_VERSION);
			return 0;
		default:
			usage();
		}
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
	for (i = 0; i < LZ_NELEM(cmds); i++)
		if (strcmp(argv[0], cmds[i].name) == 0)
			break;
	if (i == LZ_NELEM(cmds)) {
		ctl_err("unknown command '%s'", argv[0]);
		usage();
	}
	if ((ctl_conf = lz_conf_load(conffile, err, sizeof(err))) == NULL) {
		ctl_err("%s", err);
		return 1;
	}
	links.conf = ctl_conf;
	optind = 0;	/* glibc: re-initialise getopt for the subcommand */
	rc = cmds[i].fn(argc, argv);
	lz_db_close(&links.db);
	lz_conf_free(ctl_conf);
	curl_global_cleanup();
	return rc;
}
