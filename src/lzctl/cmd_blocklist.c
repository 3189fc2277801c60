/*
 * cmd_blocklist.c -- lzctl blocklist: the local blocklists of the safety
 * scan (import, add, remove, list, check).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "link/link.h"
#include "lzctl.h"
#include "lztime.h"
#include "progress.h"
#include "req.h"
#include "safety/blocklist.h"
#include "safety/canon.h"
#include "safety/scan.h"
#include "store/safety.h"
#include "util.h"

#define SOURCE_MAX	64

static int
source_ok(const char *s)
{
	size_t	 n = strlen(s);

	return n >= 1 && n <= SOURCE_MAX && strspn(s,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
	    == n;
}

/* Scans the existing links again and reports what it flagged. */
static int
recheck(void)
{
	long	 checked, flagged;
	int	 rc;

	progress("re-checking the links", 0, 0);
	rc = safety_recheck(&ctl_links_db, lz_now_ms(), &checked, &flagged);
	progress_end(rc == 0 ? "links re-checked" : "re-check failed");
	if (rc == -1) {
		ctl_err("re-checking the links failed");
		return 1;
	}
	printf("re-checked %ld links: %ld flagged\n", checked, flagged);
	return 0;
}

enum { O_FORMAT, O_SOURCE, O_KEEP };

static int
bl_import_cmd(struct ctl_args *a)
{
	struct bl_stats	 st;
	const char	*source, *path = a->argv[0];
	char		 err[512];
	FILE		*f;
	int		 fmt, rc;

	if ((fmt = bl_format_parse(a->opt[O_FORMAT].s)) == -1) {
		ctl_err("--format: expected urlhaus-csv, phishtank-json, "
		    "phishtank-csv, openphish or hosts");
		return EXIT_USAGE;
	}
	source = a->opt[O_SOURCE].set ? a->opt[O_SOURCE].s :
	    bl_format_sources[fmt];
	if (!source_ok(source) || strcmp(source, "manual") == 0) {
		ctl_err("--source: 1-%d of A-Z a-z 0-9 _ . - (and not "
		    "'manual')", SOURCE_MAX);
		return EXIT_USAGE;
	}
	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "r")) == NULL) {
		ctl_err("%s: %s", path, strerror(errno));
		return 1;
	}
	ctl_links_open();
	rc = bl_import(&ctl_links_db, f, (enum bl_format)fmt, source,
	    a->opt[O_KEEP].set, lz_now_ms(), progress, &st, err, sizeof(err));
	progress_end(rc == 0 ? "imported" : "import failed");
	if (f != stdin)
		fclose(f);
	if (rc == -1) {
		ctl_err("%s: %s", path, err);
		return 1;
	}
	printf("%s: %ld records, %ld entries, %ld skipped; source %s: %ld "
	    "old entries dropped\n", path, st.records, st.entries, st.skipped,
	    source, st.pruned);
	return recheck();
}

/* The entry argv[0] names, into e; 0, or -1 (said). */
static int
entry_of(const char *s, struct bl_entry *e)
{
	if (bl_entry_from_text(s, e) == -1) {
		ctl_err("'%s' is neither a host name nor an http(s) URL", s);
		return -1;
	}
	return 0;
}

static int
bl_add_cmd(struct ctl_args *a)
{
	struct bl_entry	 e;
	int		 rc;

	if (entry_of(a->argv[0], &e) == -1)
		return 1;
	ctl_links_open();
	rc = store_bl_upsert(&ctl_links_db, e.kind, e.value, "manual",
	    a->opt[0].set ? a->opt[0].s : "", lz_now_ms());
	if (rc == 0)
		printf("added %s %s\n", e.kind, e.value);
	free(e.value);
	return rc == 0 ? recheck() : 1;
}

static int
bl_remove_cmd(struct ctl_args *a)
{
	struct bl_entry	 e;
	const char	*source = a->opt[0].s;
	long		 n;

	if (entry_of(a->argv[0], &e) == -1)
		return 1;
	ctl_links_open();
	n = store_bl_remove(&ctl_links_db, e.kind, e.value, source);
	if (n == 0)
		ctl_err("no %s entry %s%s%s", e.kind, e.value,
		    source ? " from source " : "", source ? source : "");
	else if (n > 0)
		printf("removed %s %s (%ld entr%s)\n", e.kind, e.value, n,
		    n == 1 ? "y" : "ies");
	free(e.value);
	return n > 0 ? 0 : n == 0 ? EXIT_NOTFOUND : 1;
}

static void
print_entry(const struct bl_row *r, void *arg)
{
	(void)arg;
	printf("%s\t%s\t%s\t%s\t%s\n", r->kind, r->value, r->source,
	    ctl_time(r->added_at, 0, NULL), r->reason);
}

static void
print_count(const char *source, long long entries, int64_t seen_at,
    void *arg)
{
	(void)arg;
	printf("%s\t%lld\t%s\n", source, entries, ctl_time(seen_at, 0, NULL));
}

enum { O_LSOURCE, O_LIMIT, O_COUNT };

static int
bl_list_cmd(struct ctl_args *a)
{
	if (a->opt[O_COUNT].set) {
		printf("SOURCE\tENTRIES\tLAST IMPORT\n");
		return store_bl_count(&ctl_links_db, print_count, NULL) < 0;
	}
	printf("KIND\tVALUE\tSOURCE\tADDED\tREASON\n");
	return store_bl_list(&ctl_links_db, a->opt[O_LSOURCE].s,
	    (long)a->opt[O_LIMIT].i, print_entry, NULL) < 0;
}

static int
bl_check_cmd(struct ctl_args *a)
{
	struct lz_verr	 e;
	struct canon	 c;
	struct link	 l;
	const char	*url = a->argv[0];
	char		 why[512];
	int		 rc;

	if (canon_url(url, strlen(url), &c) == 0) {
		printf("canonical: %s\n", c.url);
		canon_free(&c);
	}
	rc = safety_scan(ctl_conf, &ctl_links_db, url, why, sizeof(why));
	if (rc == 0) {
		memset(&l, 0, sizeof(l));
		l.target_url = (char *)(uintptr_t)url;
		if (safety_remote(ctl_conf, &l, &e) == -1) {
			printf("unsafe: %s\n", e.msg);
			return 1;
		}
		printf("safe\n");
		return 0;
	}
	if (rc == 1) {
		printf("unsafe: %s\n", why);
		return 1;
	}
	ctl_err("%s", why);
	return 1;
}

static const struct ctl_cmd blocklist_cmds[] = {
	{ "import", "--format "
	  "urlhaus-csv|phishtank-json|phishtank-csv|openphish|hosts\n"
	  "           [--source NAME] [--keep] FILE", 1, 1, 0, bl_import_cmd,
	  { [O_FORMAT] = { .name = "format", .ch = 'F', .type = CTL_STR,
	      .required = 1 },
	    [O_SOURCE] = { .name = "source", .ch = 's', .type = CTL_STR },
	    [O_KEEP] = { .name = "keep", .ch = 'k', .type = CTL_FLAG } } },
	{ "add", "HOST|URL [--reason TEXT]", 1, 1, 0, bl_add_cmd,
	  { { .name = "reason", .ch = 'r', .type = CTL_STR } } },
	{ "remove", "HOST|URL [--source NAME]", 1, 1, 0, bl_remove_cmd,
	  { { .name = "source", .ch = 's', .type = CTL_STR } } },
	{ "list", "[--source NAME] [--limit N] [--count]", 0, 0, CTL_DB,
	  bl_list_cmd,
	  { [O_LSOURCE] = { .name = "source", .ch = 's', .type = CTL_STR },
	    [O_LIMIT] = { .name = "limit", .ch = 'n', .type = CTL_INT, .min = 1,
	        .max = 100000000, .def = 100 },
	    [O_COUNT] = { .name = "count", .ch = 'c', .type = CTL_FLAG } } },
	{ "check", "URL", 1, 1, CTL_DB, bl_check_cmd, { { 0 } } },
};

const struct ctl_group ctl_blocklist = CTL_GROUP("blocklist", NULL,
    blocklist_cmds);
