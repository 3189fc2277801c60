/*
 * cmd_import.c -- lzctl import: links moved in from another shortener
 * (lzctl(8) import, lz-links(8) "Importing").  The engine is
 * import/import.h's; this reads the options, shows progress on a
 * terminal, prints the summary and writes the report.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "conf.h"
#include "import/apis.h"
#include "import/import.h"
#include "lzctl.h"
#include "lztime.h"
#include "progress.h"
#include "store/accounts.h"
#include "util.h"
#include "visit/visitor.h"

enum { O_ACCOUNT, O_DOMAIN, O_CONFLICT, O_DRY, O_REPORT, O_NOCAP, O_FROM,
	O_PREFIX, O_TZ };
/* The APIs' options, after O_FROM (a command's options are one run of
 * its table). */
enum { O_KEY = O_FROM + 1, O_CACERT, O_GROUP, O_CLICKS };

/* What the report lists. */
struct report {
	json_t	*skipped;	/* [{id, line?, error, message}] */
	json_t	*renamed;	/* [{id, line?, slug}] */
};

/* The rows skipped, for the report. */
static void
skipped(long line, const char *id, const char *code, const char *msg,
    void *arg)
{
	json_t	*j;

	if (strcmp(code, "failed") == 0) {
		progress_break();
		ctl_err("%s", msg);	/* why the import stopped */
		return;
	}
	j = json_pack("{s:s, s:s, s:s}", "id", id, "error", code, "message",
	    msg);
	if (j == NULL)
		return;
	if (line > 0)
		json_object_set_new(j, "line", json_integer(line));
	json_array_append_new(((struct report *)arg)->skipped, j);
}

/* A link made under another slug, for the report. */
static void
renamed(long line, const char *id, const char *slug, void *arg)
{
	struct report	*rp = arg;
	json_t		*j;

	j = json_pack("{s:s, s:s}", "id", id, "slug", slug);
	if (j == NULL)
		return;
	if (line > 0)
		json_object_set_new(j, "line", json_integer(line));
	json_array_append_new(rp->renamed, j);
}

/* The options every source shares into o; an exit status, 0 to go on. */
static int
common_opts(struct ctl_args *a, struct import_opts *o, struct report *rp)
{
	struct account	 acct;

	memset(o, 0, sizeof(*o));
	if (a->opt[O_CONFLICT].set) {
		if (strcmp(a->opt[O_CONFLICT].s, "rename") == 0)
			o->rename = 1;
		else if (strcmp(a->opt[O_CONFLICT].s, "skip") != 0) {
			ctl_err("--on-conflict: skip or rename");
			return EXIT_USAGE;
		}
	}
	if ((o->account_id = ctl_account_id(a->opt[O_ACCOUNT].s)) == 0)
		return EXIT_NOTFOUND;
	if (store_account_get(&ctl_links_db, o->account_id, NULL, &acct) != 1)
		return 1;
	if (!a->opt[O_NOCAP].set && (o->plan = lz_conf_plan(ctl_conf,
	    acct.plan)) == NULL)
		o->plan = lz_conf_plan(ctl_conf, ctl_conf->default_plan);
	o->domain = a->opt[O_DOMAIN].set ? a->opt[O_DOMAIN].s : NULL;
	o->dry = a->opt[O_DRY].set;
	o->skipped = skipped;
	o->renamed = renamed;
	o->arg = rp;
	o->progress = progress;
	/* An import writes rows all over big tables (links, rollups): a
	 * page cache of 256 MiB instead of SQLite's 2 MiB keeps their upper
	 * pages in memory.  This connection's, for this run. */
	if (lz_db_is_sqlite(&ctl_links_db))
		(void)lz_db_exec(&ctl_links_db, "PRAGMA cache_size = -262144");
	rp->skipped = json_array();
	rp->renamed = json_array();
	return 0;
}

/* The summary, and the report (--report) or the first skips on stderr.
 * rc: the import's.  The exit status. */
static int
summary(struct ctl_args *a, const char *source, const char *from,
    const struct import_opts *o, const struct import_stats *st,
    struct report *rp, double t0, int rc)
{
	json_t	*report, *s;
	double	 secs = ((double)lz_now_ms() - t0) / 1000;
	size_t	 i;

	progress_end(rc == 0 ? "import done" : "import stopped");
	printf("%s%ld links imported (%ld under another slug), %ld imported "
	    "before, %ld skipped, of %ld read in %.1f s (%.0f links/s)\n",
	    o->dry ? "dry run: " : "", st->imported, st->renamed, st->already,
	    st->skipped, st->rows, secs, secs > 0 ? st->rows / secs : 0.0);
	if (st->links_history > 0 || st->clicks > 0)
		printf("%ld clicks of %ld links' histories moved in (%ld kept "
		    "as raw clicks, the older in the statistics only; %ld "
		    "bots'); %ld clicks of the source's counts have no "
		    "breakdown (beyond its log)\n", st->clicks,
		    st->links_history, st->clicks_raw, st->clicks_bots,
		    st->no_breakdown);
	if (st->imported == 0 && st->already > 0 && st->clicks == 0 &&
	    !o->dry && rc == 0)
		printf("nothing new: every link was imported before%s\n",
		    st->skipped > 0 ? " or is skipped again" : "");
	if (a->opt[O_REPORT].set) {
		report = json_pack("{s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I, "
		    "s:I, s:I, s:I, s:I, s:I, s:f, s:O, s:O}", "source", source,
		    "from", from, "dry_run", o->dry, "rows",
		    (json_int_t)st->rows, "imported", (json_int_t)st->imported,
		    "renamed", (json_int_t)st->renamed, "already_imported",
		    (json_int_t)st->already, "skipped", (json_int_t)st->skipped,
		    "links_with_history", (json_int_t)st->links_history,
		    "clicks", (json_int_t)st->clicks, "clicks_raw",
		    (json_int_t)st->clicks_raw, "clicks_bots",
		    (json_int_t)st->clicks_bots, "clicks_without_breakdown",
		    (json_int_t)st->no_breakdown, "seconds", secs,
		    "skipped_rows", rp->skipped, "renamed_links", rp->renamed);
		if (report == NULL || json_dump_file(report,
		    a->opt[O_REPORT].s, JSON_INDENT(1)) == -1) {
			ctl_err("%s: the report could not be written",
			    a->opt[O_REPORT].s);
			rc = -1;
		}
		json_decref(report);
	} else if (json_array_size(rp->skipped) > 0) {
		json_array_foreach(rp->skipped, i, s) {
			json_int_t line = json_integer_value(
			    json_object_get(s, "line"));

			if (i == 20)
				break;
			if (line > 0)
				fprintf(stderr, "line %lld: ", (long long)line);
			else
				fprintf(stderr, "%s: ", json_string_value(
				    json_object_get(s, "id")));
			fprintf(stderr, "%s: %s\n", json_string_value(
			    json_object_get(s, "error")), json_string_value(
			    json_object_get(s, "message")));
		}
		if (json_array_size(rp->skipped) > 20)
			fprintf(stderr, "... and %zu more (--report FILE "
			    "lists them all)\n",
			    json_array_size(rp->skipped) - 20);
	}
	json_decref(rp->skipped);
	json_decref(rp->renamed);
	return rc == 0 ? 0 : 1;
}

static int
import_csv_cmd(struct ctl_args *a)
{
	struct import_opts	 o;
	struct import_stats	 st;
	struct report		 rp = { NULL, NULL };
	const char		*path = a->argv[0];
	FILE			*in;
	double			 t0 = (double)lz_now_ms();
	int			 rc;

	if ((rc = common_opts(a, &o, &rp)) != 0) {
		json_decref(rp.skipped);
		json_decref(rp.renamed);
		return rc;
	}
	if (strcmp(path, "-") == 0)
		in = stdin;
	else if ((in = fopen(path, "r")) == NULL) {
		ctl_err("%s: %s", path, strerror(errno));
		json_decref(rp.skipped);
		json_decref(rp.renamed);
		return EXIT_NOTFOUND;
	}
	rc = import_csv(&ctl_links_db, ctl_conf, in, &o, &st);
	if (in != stdin)
		fclose(in);
	return summary(a, "csv", path, &o, &st, &rp, t0, rc);
}

/* The URL with its password left out, for the report. */
static char *
url_shown(const char *url)
{
	const char	*at = strrchr(url, '@'), *p = strstr(url, "://");
	const char	*colon;

	if (at == NULL || p == NULL || (colon = strchr(p + 3, ':')) == NULL ||
	    colon > at)
		return xstrdup(url);
	return xasprintf("%.*s:***%s", (int)(colon - url), url, at);
}

static int
import_yourls_cmd(struct ctl_args *a)
{
	struct yourls_source	 src;
	struct import_opts	 o;
	struct import_stats	 st;
	struct report		 rp = { NULL, NULL };
	char			 err[256], *shown;
	double			 t0 = (double)lz_now_ms();
	int			 rc;

	if ((rc = common_opts(a, &o, &rp)) != 0) {
		json_decref(rp.skipped);
		json_decref(rp.renamed);
		return rc;
	}
	/* Visitor ids are lz's own, keyed by the instance's key file. */
	if (visitor_init(ctl_conf->key_file, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		json_decref(rp.skipped);
		json_decref(rp.renamed);
		return 1;
	}
	memset(&src, 0, sizeof(src));
	src.url = a->opt[O_FROM].s;
	src.prefix = a->opt[O_PREFIX].set ? a->opt[O_PREFIX].s : NULL;
	src.timezone = a->opt[O_TZ].set ? a->opt[O_TZ].s : NULL;
	rc = import_yourls(&ctl_links_db, ctl_conf, &src, &o, &st);
	shown = url_shown(src.url);
	rc = summary(a, "yourls", shown, &o, &st, &rp, t0, rc);
	free(shown);
	return rc;
}

/* Which API an import reads. */
enum api { API_SHLINK, API_KUTT, API_BITLY };

static int
import_api(struct ctl_args *a, enum api api)
{
	static const char *const names[] = { "shlink", "kutt", "bitly" };
	static const char *const envs[] = { "LZ_SHLINK_API_KEY",
	    "LZ_KUTT_API_KEY", "LZ_BITLY_TOKEN" };
	struct api_source	 src;
	struct import_opts	 o;
	struct import_stats	 st;
	struct report		 rp = { NULL, NULL };
	char			 err[256];
	double			 t0 = (double)lz_now_ms();
	int			 rc;

	memset(&src, 0, sizeof(src));
	src.base = a->opt[O_FROM].set ? a->opt[O_FROM].s : NULL;
	/* The key else from the environment: kept out of ps(1). */
	src.key = a->opt[O_KEY].set ? a->opt[O_KEY].s : getenv(envs[api]);
	if (src.key == NULL || *src.key == '\0') {
		ctl_err("%s or %s: the %s", api == API_BITLY ? "--token" :
		    "--api-key", envs[api], api == API_BITLY ?
		    "access token" : "API key");
		return EXIT_USAGE;
	}
	src.cacert = a->opt[O_CACERT].set ? a->opt[O_CACERT].s : NULL;
	if (api == API_BITLY) {
		src.group = a->opt[O_GROUP].set ? a->opt[O_GROUP].s : NULL;
		src.clicks = a->opt[O_CLICKS].set;
	}
	if ((rc = common_opts(a, &o, &rp)) != 0) {
		json_decref(rp.skipped);
		json_decref(rp.renamed);
		return rc;
	}
	/* Shlink's visits get lz's visitor ids (of the User-Agent only:
	 * Shlink gives no address). */
	if (api == API_SHLINK && visitor_init(ctl_conf->key_file, err,
	    sizeof(err)) == -1) {
		ctl_err("%s", err);
		json_decref(rp.skipped);
		json_decref(rp.renamed);
		return 1;
	}
	rc = api == API_SHLINK ? import_shlink(&ctl_links_db, ctl_conf, &src,
	    &o, &st) : api == API_KUTT ? import_kutt(&ctl_links_db, ctl_conf,
	    &src, &o, &st) : import_bitly(&ctl_links_db, ctl_conf, &src, &o,
	    &st);
	return summary(a, names[api], src.base ? src.base :
	    "https://api-ssl.bitly.com", &o, &st, &rp, t0, rc);
}

static int
import_shlink_cmd(struct ctl_args *a)
{
	return import_api(a, API_SHLINK);
}

static int
import_kutt_cmd(struct ctl_args *a)
{
	return import_api(a, API_KUTT);
}

static int
import_bitly_cmd(struct ctl_args *a)
{
	return import_api(a, API_BITLY);
}

#define COMMON_OPTS \
	[O_ACCOUNT] = { .name = "account", .ch = 'a', .type = CTL_STR, \
	    .required = 1 }, \
	[O_DOMAIN] = { .name = "domain", .ch = 'd', .type = CTL_STR }, \
	[O_CONFLICT] = { .name = "on-conflict", .ch = 'c', \
	    .type = CTL_STR }, \
	[O_DRY] = { .name = "dry-run", .ch = 'n', .type = CTL_FLAG }, \
	[O_REPORT] = { .name = "report", .ch = 'r', .type = CTL_STR }, \
	[O_NOCAP] = { .name = "ignore-cap", .ch = 'I', .type = CTL_FLAG }
#define COMMON_USAGE "--account EMAIL [--domain HOST] " \
	"[--on-conflict skip|rename] [--dry-run] [--report FILE.json] " \
	"[--ignore-cap]"

static const struct ctl_cmd import_cmds[] = {
	{ "csv", "FILE|- " COMMON_USAGE, 1, 1, CTL_DB, import_csv_cmd,
	  { COMMON_OPTS } },
	{ "yourls", "--from mysql://USER:PASS@HOST/DB [--prefix yourls_] "
	  "[--timezone ZONE] " COMMON_USAGE, 0, 0, CTL_DB, import_yourls_cmd,
	  { COMMON_OPTS,
	    [O_FROM] = { .name = "from", .ch = 'f', .type = CTL_STR,
	      .required = 1 },
	    [O_PREFIX] = { .name = "prefix", .ch = 'p', .type = CTL_STR },
	    [O_TZ] = { .name = "timezone", .ch = 'z', .type = CTL_STR } } },
	{ "shlink", "--from https://HOST --api-key KEY [--cacert FILE] "
	  COMMON_USAGE, 0, 0, CTL_DB, import_shlink_cmd,
	  { COMMON_OPTS,
	    [O_FROM] = { .name = "from", .ch = 'f', .type = CTL_STR,
	      .required = 1 },
	    [O_KEY] = { .name = "api-key", .ch = 'k', .type = CTL_STR },
	    [O_CACERT] = { .name = "cacert", .ch = 'C', .type = CTL_STR } } },
	{ "kutt", "--from https://HOST --api-key KEY [--cacert FILE] "
	  COMMON_USAGE, 0, 0, CTL_DB, import_kutt_cmd,
	  { COMMON_OPTS,
	    [O_FROM] = { .name = "from", .ch = 'f', .type = CTL_STR,
	      .required = 1 },
	    [O_KEY] = { .name = "api-key", .ch = 'k', .type = CTL_STR },
	    [O_CACERT] = { .name = "cacert", .ch = 'C', .type = CTL_STR } } },
	/* --from: Bitly's API elsewhere (a proxy, the tests' fixture). */
	{ "bitly", "--token TOKEN [--group GUID] [--clicks] [--from URL] "
	  "[--cacert FILE] " COMMON_USAGE, 0, 0, CTL_DB, import_bitly_cmd,
	  { COMMON_OPTS,
	    [O_FROM] = { .name = "from", .ch = 'f', .type = CTL_STR },
	    [O_KEY] = { .name = "token", .ch = 't', .type = CTL_STR },
	    [O_CACERT] = { .name = "cacert", .ch = 'C', .type = CTL_STR },
	    [O_GROUP] = { .name = "group", .ch = 'g', .type = CTL_STR },
	    [O_CLICKS] = { .name = "clicks", .ch = 'l', .type = CTL_FLAG } } },
};

const struct ctl_group ctl_import = CTL_GROUP("import", "links moved in from "
    "another shortener", import_cmds);
