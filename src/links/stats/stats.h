/*
 * stats.h -- the statistics of a link (DESIGN 3.2, 3.7): what
 * GET /api/v1/links/<id>/stats answers (api_stats.c) and lzctl link
 * stats prints, built once.
 *
 * Human clicks in a time range as totals, a time series by bucket and
 * breakdowns by country, device, os, browser, referrer host, suffix and
 * variant; bot visits counted apart; visitors as visitor-days (a
 * visitor counts once a UTC day, in the hour of the day's first click).
 * Conversions in the same range alongside: totals (count, revenue per
 * currency, conversion rate), per bucket of the series, and breakdowns
 * per suffix, currency and variant of the click each was attributed to
 * (conversion.h), with each variant's clicks and rate.
 *
 * All of it is read from the rollups (DESIGN 3.10, rollup.h), never from
 * the raw clicks: whole days from the rows of days, the hours at either
 * end from the rows of hours, so the cost follows the hours and days of
 * the range and the values of the breakdowns, not the clicks.
 */
#ifndef LZ_STATS_H
#define LZ_STATS_H

#include <stdint.h>

#include <jansson.h>

struct lz_db;
struct store_scope;

#define STATS_TOP	100	/* values per breakdown */

struct stats_range {
	int64_t	 from, to;	/* [from, to), ms */
	int64_t	 bucket;	/* of the series, ms; 0: no series */
};

/*
 * Adds "totals", "series" (with a bucket), "breakdowns" and
 * "conversion_breakdowns" of link id in r to j, amounts as money makes
 * them: amount_json for the API (numbers), json_integer to keep the
 * micro-units exact.  r is first widened to whole hours (from down, to
 * up): the range the figures are of.  0, or -1 on a database error.
 */
int	stats_add(json_t *j, struct lz_db *, int64_t id, struct stats_range *r,
	    json_t *(*money)(int64_t micros));

/* The same of a scope (store.h): an account's or a tag's links, of a
 * domain or all, summed (or a link's). */
int	stats_add_scope(json_t *j, struct lz_db *, const struct store_scope *,
	    struct stats_range *r, json_t *(*money)(int64_t micros));

/* A time of the statistics: ISO 8601 UTC, with milliseconds when it
 * has any. */
json_t	*stats_time(int64_t ms);

#endif
