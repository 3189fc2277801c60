/*
 * cmd_domains.c -- lzctl domain: add, list, set, remove (lz-links(8)
 * "Domains").  The rules are domain/domain.h's; this file only reads
 * arguments and prints.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "domain/host.h"
#include "lzctl.h"
#include "lztime.h"
#include "util.h"
#include "verr.h"

/* The options of the settings, in the order of domain_setting_names:
 * opt[1..3] of add (after --account: the URLs), opt[0..4] of set. */
#define ADD_URL(i)	(1 + (i))
#define SET_URL(i)	(i)

/* The live domain of the operand into d: 0, or an exit status. */
static int
domain_of(const char *arg, struct domain *d)
{
	char	 host[HOST_MAX + 1], why[128];
	int	 rc;

	if (host_parse(arg, host, sizeof(host), why, sizeof(why)) == -1) {
		ctl_err("'%s' %s", arg, why);
		return EXIT_USAGE;
	}
	ctl_links_open();
	if ((rc = store_domain_by_host(&ctl_links_db, host, d)) == 1)
		return 0;
	if (rc == 0)
		ctl_err("no domain %s (lzctl domain list)", host);
	return rc == 0 ? EXIT_NOTFOUND : 1;
}

static int
dom_add(struct ctl_args *a)
{
	const char	*urls[DOMAIN__URLS];
	struct domain	 d;
	struct lz_verr	 e;
	int64_t		 account = 0;
	int		 i;

	ctl_links_open();
	if (a->opt[0].set && (account = ctl_account_id(a->opt[0].s)) == 0)
		return EXIT_NOTFOUND;
	for (i = 0; i < DOMAIN__URLS; i++)
		urls[i] = a->opt[ADD_URL(i)].set ? a->opt[ADD_URL(i)].s : NULL;
	/* The admin's domains are verified by definition. */
	if (domain_add(&ctl_links_db, ctl_conf, a->argv[0], account, 1, urls,
	    lz_now_ms(), &d, &e) == -1) {
		ctl_err("%s", e.msg);
		return e.status == 409 ? 1 : e.status == 400 ? EXIT_USAGE : 1;
	}
	printf("added %s (%s)\n", d.host, account ? "account domain" :
	    "instance domain");
	printf("add it to the server_name of lz's server block in nginx, "
	    "and a certificate for it:\n    server_name %s;\n", d.host);
	store_domain_free(&d);
	return 0;
}

static const char *
or_dash(const char *s)
{
	return s != NULL ? s : "-";
}

static void
print_domain(const struct domain *d, void *arg)
{
	(void)arg;
	printf("%s\tno\t%s\t%lld\t%s\t%lld\t%s\t%s\t%s\n", d->host,
	    d->account_id ? "account" : "instance", (long long)d->account_id,
	    d->verified_at ? ctl_time(d->verified_at, 0, NULL) : "no",
	    store_domain_links(&ctl_links_db, d->id), or_dash(d->root_url),
	    or_dash(d->not_found_url), or_dash(d->expired_url));
}

static int
dom_list(struct ctl_args *a)
{
	char	 def[HOST_MAX + 1];

	(void)a;
	printf("HOST\tDEFAULT\tSCOPE\tACCOUNT\tVERIFIED\tLINKS\tROOT\t"
	    "NOT-FOUND\tEXPIRED\n");
	if (domain_default_host(ctl_conf, def, sizeof(def)) == 0)
		printf("%s\tyes\tinstance\t0\tyes\t-\t-\t-\t-\n", def);
	return store_domain_list(&ctl_links_db, 0, print_domain, NULL) < 0;
}

/*
 * The text of file path (a deep-link file) into *text: "" when path is
 * "" (clears it).  0, or -1 after saying why.
 */
static int
read_setting(const char *path, char **text)
{
	FILE	*f;
	size_t	 n;

	if (*path == '\0') {
		*text = xstrdup("");
		return 0;
	}
	if ((f = fopen(path, "r")) == NULL) {
		ctl_err("%s: %s", path, strerror(errno));
		return -1;
	}
	*text = xmalloc(DOMAIN_DEEPLINK_MAX + 2);
	n = fread(*text, 1, DOMAIN_DEEPLINK_MAX + 1, f);
	(*text)[n] = '\0';
	if (ferror(f) || n > DOMAIN_DEEPLINK_MAX) {
		ctl_err("%s: %s", path, ferror(f) ? strerror(errno) :
		    "longer than 65536 bytes");
		fclose(f);
		free(*text);
		*text = NULL;
		return -1;
	}
	fclose(f);
	return 0;
}

static int
dom_set(struct ctl_args *a)
{
	const char	*v[DOMAIN__SETTINGS];
	char		*file[DOMAIN__SETTINGS] = { NULL };
	struct domain	 d;
	struct lz_verr	 e;
	int		 set[DOMAIN__SETTINGS], i, any = 0, rc = 0;

	for (i = 0; i < DOMAIN__SETTINGS; i++) {
		set[i] = a->opt[SET_URL(i)].set;
		v[i] = set[i] ? a->opt[SET_URL(i)].s : NULL;
		if (set[i] && i >= DOMAIN__URLS && rc == 0 &&
		    (rc = read_setting(v[i], &file[i])) == 0)
			v[i] = file[i];
		any |= set[i];
	}
	if (rc == 0 && !any) {
		ctl_err("nothing to set: give --root-url, --not-found-url, "
		    "--expired-url, --aasa or --assetlinks (an empty value "
		    "clears)");
		rc = EXIT_USAGE;
	} else if (rc == -1)
		rc = 1;
	if (rc == 0 && (rc = domain_of(a->argv[0], &d)) == 0) {
		if (domain_set(&ctl_links_db, ctl_conf, &d, set, v, &e) ==
		    -1) {
			ctl_err("%s", e.msg);
			rc = e.status == 400 ? EXIT_USAGE : 1;
		}
		store_domain_free(&d);
	}
	for (i = 0; i < DOMAIN__SETTINGS; i++)
		free(file[i]);
	return rc;
}

static int
dom_remove(struct ctl_args *a)
{
	struct domain	 d;
	struct lz_verr	 e;
	int		 rc;

	if ((rc = domain_of(a->argv[0], &d)) != 0)
		return rc;
	if ((rc = domain_remove(&ctl_links_db, &d, lz_now_ms(), &e)) == -1)
		ctl_err("%s", e.msg);
	else
		printf("removed %s (take it out of nginx's server_name)\n",
		    d.host);
	store_domain_free(&d);
	return rc == -1 ? 1 : 0;
}

#define URL_OPTS \
	{ .name = "root-url", .ch = 'r', .type = CTL_STR }, \
	{ .name = "not-found-url", .ch = 'n', .type = CTL_STR }, \
	{ .name = "expired-url", .ch = 'x', .type = CTL_STR }
/* The deep-link files, after the URLs (domain_setting_names' order). */
#define FILE_OPTS \
	{ .name = "aasa", .ch = 'A', .type = CTL_STR }, \
	{ .name = "assetlinks", .ch = 'L', .type = CTL_STR }

static const struct ctl_cmd domain_cmds[] = {
	{ "add", "HOST [--account EMAIL] [--root-url URL] "
	  "[--not-found-url URL] [--expired-url URL]", 1, 1, 0, dom_add,
	  { { .name = "account", .ch = 'a', .type = CTL_STR }, URL_OPTS } },
	{ "list", "", 0, 0, CTL_DB, dom_list, { { 0 } } },
	{ "set", "HOST [--root-url URL] [--not-found-url URL] "
	  "[--expired-url URL] [--aasa FILE] [--assetlinks FILE]", 1, 1, 0,
	  dom_set, { URL_OPTS, FILE_OPTS } },
	{ "remove", "HOST", 1, 1, 0, dom_remove, { { 0 } } },
};

const struct ctl_group ctl_domain = CTL_GROUP("domain", NULL, domain_cmds);
