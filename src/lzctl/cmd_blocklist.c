/*
 * cmd_blocklist.c -- lzctl blocklist: the local blocklists of the safety
 * scan (import, add, remove, list, check).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/blocklist.h"
#include "safety/canon.h"
#include "db.h"
#include "link.h"
#include "ctx.h"
#include "lzctl.h"
#include "lztime.h"
#include "req.h"
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

	if (safety_recheck(&links.db, lz_now_ms(), &checked, &flagged) ==
	    -1) {
		ctl_err("re-checking the links failed");
		return 1;
	}
	printf("re-checked %ld links: %ld flagged\n", checked, flagged);
	return 0;
}

static int
bl_import_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "source", required_argument, NULL, 's' },
		{ "keep", no_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 }
	};
	struct bl_stats	 st;
	const char	*source = NULL, *path;
	char		 err[512];
	FILE		*f;
	int		 ch, fmt = -1, keep = 0, rc;

	while ((ch = getopt_long(argc, argv, "F:s:k", opts, NULL)) != -1)
		switch (ch) {
		case 'F':
			if ((fmt = bl_format_parse(optarg)) == -1) {
				ctl_err("--format: expected urlhaus-csv, "
				    "phishtank-json, phishtank-csv, openphish "
				    "or hosts");
				return EXIT_USAGE;
			}
			break;
		case 's':
			source = optarg;
			break;
		case 'k':
			keep = 1;
			break;
		default:
			return EXIT_USAGE;
		}
	if (fmt == -1 || argc - optind != 1) {
		fprintf(stderr, "usage: lzctl blocklist import --format "
		    "urlhaus-csv|phishtank-json|phishtank-csv|openphish|hosts\n"
		    "           [--source NAME] [--keep] FILE\n");
		return EXIT_USAGE;
	}
	if (source == NULL)
		source = bl_format_sources[fmt];
	if (!source_ok(source) || strcmp(source, "manual") == 0) {
		ctl_err("--source: 1-%d of A-Z a-z 0-9 _ . - (and not "
		    "'manual')", SOURCE_MAX);
		return EXIT_USAGE;
	}
	path = argv[optind];
	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "r")) == NULL) {
		ctl_err("%s: %s", path, strerror(errno));
		return 1;
	}
	ctl_links_open();
	rc = bl_import(&links.db, f, (enum bl_format)fmt, source, keep,
	    lz_now_ms(), &st, err, sizeof(err));
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

static int
bl_add_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reason", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct bl_entry	 e;
	const char	*reason = "";
	int		 ch, rc;

	while ((ch = getopt_long(argc, argv, "r:", opts, NULL)) != -1)
		switch (ch) {
		case 'r':
			reason = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: lzctl blocklist add HOST|URL "
		    "[--reason TEXT]\n");
		return EXIT_USAGE;
	}
	if (bl_entry_from_text(argv[optind], &e) == -1) {
		ctl_err("'%s' is neither a host name nor an http(s) URL",
		    argv[optind]);
		return 1;
	}
	ctl_links_open();
	rc = store_bl_upsert(&links.db, e.kind, e.value, "manual", reason,
	    lz_now_ms());
	if (rc == 0)
		printf("added %s %s\n", e.kind, e.value);
	free(e.value);
	return rc == 0 ? recheck() : 1;
}

static int
bl_remove_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct bl_entry	 e;
	const char	*source = NULL;
	long		 n;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "s:", opts, NULL)) != -1)
		switch (ch) {
		case 's':
			source = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: lzctl blocklist remove HOST|URL "
		    "[--source NAME]\n");
		return EXIT_USAGE;
	}
	if (bl_entry_from_text(argv[optind], &e) == -1) {
		ctl_err("'%s' is neither a host name nor an http(s) URL",
		    argv[optind]);
		return 1;
	}
	ctl_links_open();
	n = store_bl_remove(&links.db, e.kind, e.value, source);
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
	char	 ts[32];

	(void)arg;
	lz_time_fmt_iso(r->added_at, ts, sizeof(ts), 0);
	printf("%s\t%s\t%s\t%s\t%s\n", r->kind, r->value, r->source, ts,
	    r->reason);
}

static void
print_count(const char *source, long long entries, int64_t seen_at,
    void *arg)
{
	char	 ts[32];

	(void)arg;
	lz_time_fmt_iso(seen_at, ts, sizeof(ts), 0);
	printf("%s\t%lld\t%s\n", source, entries, ts);
}

static int
bl_list_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'n' },
		{ "count", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*source = NULL;
	long long	 limit = 100;
	int		 ch, count = 0;

	while ((ch = getopt_long(argc, argv, "s:n:c", opts, NULL)) != -1)
		switch (ch) {
		case 's':
			source = optarg;
			break;
		case 'n':
			if (lz_parse_ll(optarg, 1, 100000000, &limit) == -1) {
				ctl_err("--limit: expected 1-100000000");
				return EXIT_USAGE;
			}
			break;
		case 'c':
			count = 1;
			break;
		default:
			return EXIT_USAGE;
		}
	if (optind != argc) {
		fprintf(stderr, "usage: lzctl blocklist list [--source NAME] "
		    "[--limit N] [--count]\n");
		return EXIT_USAGE;
	}
	ctl_links_open();
	if (count) {
		printf("SOURCE\tENTRIES\tLAST IMPORT\n");
		return store_bl_count(&links.db, print_count, NULL) < 0;
	}
	printf("KIND\tVALUE\tSOURCE\tADDED\tREASON\n");
	return store_bl_list(&links.db, source, (long)limit, print_entry,
	    NULL) < 0;
}

static int
bl_check_cmd(int argc, char **argv)
{
	struct lz_verr	 e;
	struct canon	 c;
	struct link	 l;
	const char	*url;
	char		 why[512];
	int		 rc;

	if (argc != 2) {
		fprintf(stderr, "usage: lzctl blocklist check URL\n");
		return EXIT_USAGE;
	}
	url = argv[1];
	ctl_links_open();
	if (canon_url(url, strlen(url), &c) == 0) {
		printf("canonical: %s\n", c.url);
		canon_free(&c);
	}
	rc = safety_scan(ctl_conf, &links.db, url, why, sizeof(why));
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

int
cmd_blocklist(int argc, char **argv)
{
	const char	*sub = argc > 1 ? argv[1] : "";

	if (strcmp(sub, "import") == 0)
		return bl_import_cmd(argc - 1, argv + 1);
	if (strcmp(sub, "add") == 0)
		return bl_add_cmd(argc - 1, argv + 1);
	if (strcmp(sub, "remove") == 0)
		return bl_remove_cmd(argc - 1, argv + 1);
	if (strcmp(sub, "list") == 0)
		return bl_list_cmd(argc - 1, argv + 1);
	if (strcmp(sub, "check") == 0)
		return bl_check_cmd(argc - 1, argv + 1);
	fprintf(stderr, "usage: lzctl blocklist import --format "
	    "urlhaus-csv|phishtank-json|phishtank-csv|openphish|hosts\n"
	    "           [--source NAME] [--keep] FILE\n"
	    "       lzctl blocklist add HOST|URL [--reason TEXT]\n"
	    "       lzctl blocklist remove HOST|URL [--source NAME]\n"
	    "       lzctl blocklist list [--source NAME] [--limit N] "
	    "[--count]\n"
	    "       lzctl blocklist check URL\n");
	return EXIT_USAGE;
}
