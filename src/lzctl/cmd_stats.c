/*
 * cmd_stats.c -- lzctl stats rebuild: the statistics' rollups recomputed
 * from the raw clicks and conversions (rollup.h has how; this file reads
 * arguments and prints).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lzctl.h"
#include "lztime.h"
#include "progress.h"
#include "stats/rollup.h"

/* Where the rebuild is: kept for the summary, and the progress line. */
static void
watch(const struct rollup_progress *p, void *arg)
{
	struct rollup_progress	*last = arg;

	*last = *p;
	progress("rebuilding the rollups (link-days)", (uint64_t)p->days, 0);
}

/*
 * lzctl stats rebuild [--link ID]: every link-day that still has its raw
 * clicks (clicks_retention_days), one short transaction each, while the
 * pools serve.
 */
static int
stats_rebuild(struct ctl_args *a)
{
	struct rollup_progress	 p = { 0 };
	int64_t			 link = 0, now = lz_now_ms(), since = 0;
	int			 rc;

	if (a->opt[0].set && ctl_id(a->opt[0].s, "link", &link) == -1)
		return EXIT_USAGE;
	/* The oldest day retention may be pruning is left alone, with a
	 * day to spare for lz-hooks' clock. */
	if (ctl_conf->clicks_retention_days > 0)
		since = (now / LZ_DAY_MS - ctl_conf->clicks_retention_days +
		    1) * LZ_DAY_MS;
	rc = rollup_rebuild(&ctl_links_db, link, since, now, watch, &p);
	progress_end(rc == 0 ? "rebuilt" : "rebuild failed");
	if (rc == -1) {
		ctl_err("stats rebuild failed after %ld link-days", p.days);
		return 1;
	}
	printf("rebuilt %ld link-days of %ld links: %ld clicks, %ld "
	    "conversions\n", p.days, p.days ? p.links : 0, p.clicks,
	    p.conversions);
	return 0;
}

static const struct ctl_cmd stats_cmds[] = {
	{ "rebuild", "[--link ID]", 0, 0, CTL_DB, stats_rebuild,
	  { { .name = "link", .ch = 'l', .type = CTL_STR } } },
};

const struct ctl_group ctl_stats = CTL_GROUP("stats", "statistics",
    stats_cmds);
