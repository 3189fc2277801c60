/*
 * api_stats.c -- GET /api/v1/links/<id>/stats (DESIGN 3.2, 3.10): the
 * statistics of stats.h in a time range of whole hours, with a time
 * series by hour or day.  Times are UTC.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "api.h"
#include "ctx.h"
#include "link/link.h"
#include "lztime.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "stats/amount.h"
#include "stats/stats.h"

#define BUCKETS_HOUR	744	/* 31 days of hours */
#define BUCKETS_DAY	366
#define DEFAULT_HOURS	24
#define DEFAULT_DAYS	30

enum interval { I_HOUR, I_DAY };

static const char *const intervals[] = { "hour", "day", NULL };

void
api_links_stats(struct lz_req *r)
{
	enum { P_FROM, P_TO, P_INTERVAL, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_FROM] =	{ "from", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_TO] =	{ "to", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_INTERVAL] =	{ "interval", LZ_PT_ENUM, 0, 0, I_DAY,
				  intervals, 0 },
	};
	struct lz_pval		 v[P__MAX];
	struct stats_range	 range;
	struct link		 l;
	enum interval		 iv;
	int64_t			 id, nb;
	long long		 maxb;
	json_t			*j;

	if (api_path_id(r, "link", &id) == -1 ||
	    lz_req_params(r, params, P__MAX, v) == -1)
		return;
	iv = (enum interval)v[P_INTERVAL].i;
	range.bucket = iv == I_HOUR ? LZ_HOUR_MS : LZ_DAY_MS;
	maxb = iv == I_HOUR ? BUCKETS_HOUR : BUCKETS_DAY;
	/* 'to' is exclusive: by default the millisecond of the request is
	 * in the range, or a conversion recorded in the same millisecond
	 * just before this request would be left out. */
	range.to = r->now_ms + 1;
	if (api_time_param(r, &v[P_TO], "to", &range.to) == -1 ||
	    api_time_param(r, &v[P_FROM], "from", &range.from) == -1)
		return;
	/* By default the last DEFAULT_* buckets, the current one included. */
	if (!v[P_FROM].set)
		range.from = ((range.to - 1) / range.bucket - ((iv == I_HOUR ?
		    DEFAULT_HOURS : DEFAULT_DAYS) - 1)) * range.bucket;
	if (range.from < 0)
		range.from = 0;
	if (range.from >= range.to) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "'from' "
		    "must be before 'to'.");
		return;
	}
	nb = (range.to - 1) / range.bucket - range.from / range.bucket + 1;
	if (nb > maxb) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "With "
		    "interval=%s the range may span at most %lld %ss.",
		    intervals[iv], maxb, intervals[iv]);
		return;
	}

	if (api_links_load(r, id, &l) == -1)
		return;
	link_free(&l);

	j = json_object();
	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "link_id", json_integer(id));
	json_object_set_new(j, "from", stats_time(range.from));
	json_object_set_new(j, "to", stats_time(range.to));
	json_object_set_new(j, "interval", json_string(intervals[iv]));
	if (stats_add(j, &links.db, id, &range, amount_json) == -1) {
		json_decref(j);
		lz_resp_error(r, 500, "internal_error", NULL, "The statistics "
		    "could not be read.");
		return;
	}
	/* The range the figures are of: whole hours. */
	json_object_set_new(j, "from", stats_time(range.from));
	json_object_set_new(j, "to", stats_time(range.to));
	lz_resp_json(r, 200, j);
}
