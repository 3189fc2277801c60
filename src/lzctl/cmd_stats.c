/*
 * cmd_stats.c -- lzctl stats rebuild: the statistics' rollups recomputed
 * from the raw clicks and conversions (rollup.h has how; this file reads
 * arguments and prints).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ctx.h"
#include "lzctl.h"
#include "lztime.h"
#include "rollup.h"

/* Where the rebuild is; on a terminal, a line rewritten at most every
 * 200 ms. */
struct watch {
	struct rollup_progress	 p;
	int64_t			 shown;
	int			 tty;
};

static void
watch(const struct rollup_progress *p, void *arg)
{
	struct watch	*w = arg;
	char		 day[32];
	int64_t		 now = lz_mono_us();

	w->p = *p;
	if (!w->tty || now - w->shown < 200000)
		return;
	w->shown = now;
	lz_time_fmt_iso(p->day, day, sizeof(day), 0);
	fprintf(stderr, "\rstats rebuild: link %lld, %.10s; %ld link-days, "
	    "%ld clicks, %ld conversions ", (long long)p->link_id, day,
	    p->days, p->clicks, p->conversions);
}

/*
 * lzctl stats rebuild [--link ID]: every link-day that still has its raw
 * clicks (clicks_retention_days), one short transaction each, while the
 * pools serve.
 */
static int
stats_rebuild(struct ctl_args *a)
{
	struct watch	 w = { { 0 }, 0, 0 };
	int64_t		 link = 0, now = lz_now_ms(), since = 0;
	int		 rc;

	if (a->opt[0].set && ctl_id(a->opt[0].s, "link", &link) == -1)
		return EXIT_USAGE;
	/* The oldest day retention may be pruning is left alone, with a
	 * day to spare for lz-hooks' clock. */
	if (ctl_conf->clicks_retention_days > 0)
		since = (now / LZ_DAY_MS - ctl_conf->clicks_retention_days +
		    1) * LZ_DAY_MS;
	w.tty = isatty(STDERR_FILENO);
	rc = rollup_rebuild(&links.db, link, since, now, watch, &w);
	if (w.tty && w.p.days > 0)
		fputc('\n', stderr);
	if (rc == -1) {
		ctl_err("stats rebuild failed after %ld link-days", w.p.days);
		return 1;
	}
	printf("rebuilt %ld link-days of %ld links: %ld clicks, %ld "
	    "conversions\n", w.p.days, w.p.days ? w.p.links : 0, w.p.clicks,
	    w.p.conversions);
	return 0;
}

static const struct ctl_cmd stats_cmds[] = {
	{ "rebuild", "[--link ID]", 0, 0, CTL_DB, stats_rebuild,
	  { { .name = "link", .ch = 'l', .type = CTL_STR } } },
};

const struct ctl_group ctl_stats = CTL_GROUP("stats", "statistics",
    stats_cmds);
