/*
 * api_stats.c -- GET /api/v1/links/<id>/stats (DESIGN 3.2): a link's
 * human clicks in a time range, as totals, a time series by hour or day
 * and breakdowns by country, device, os, browser, referrer host, suffix
 * and variant.  Bot visits are counted apart.  Times are UTC.
 *
 * Conversions in the same range come alongside: totals (count, revenue
 * per currency, conversion rate), per bucket of the series, and
 * breakdowns per suffix, currency and A/B (or device, geo) variant of the
 * click each was attributed to (conversion.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "amount.h"
#include "conversion.h"
#include "link.h"
#include "ctx.h"
#include "lztime.h"
#include "query.h"
#include "resp.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/links.h"

#define BUCKETS_HOUR	744	/* 31 days of hours */
#define BUCKETS_DAY	366
#define DEFAULT_HOURS	24
#define DEFAULT_DAYS	30
#define TOP		100	/* values per breakdown */
#define VARIANTS_MAX	1000	/* more than a link can have (geo: 250) */

static const char *const intervals[] = { "hour", "day", NULL };

static const char *const conv_dim_names[CONV_DIM__MAX] = {
	[CONV_BY_SUFFIX] = "suffix",
	[CONV_BY_CURRENCY] = "currency",
	[CONV_BY_VARIANT] = "variant",
};

static const char *const dim_names[STATS_DIM__MAX] = {
	[STATS_COUNTRY] = "country",
	[STATS_DEVICE] = "device",
	[STATS_OS] = "os",
	[STATS_BROWSER] = "browser",
	[STATS_REFERRER_HOST] = "referrer_host",
	[STATS_SUFFIX] = "suffix",
	[STATS_VARIANT] = "variant",
};

/* An ISO 8601 time with offset, or a date (midnight UTC). */
static int
parse_time(const char *s, int64_t *ms)
{
	char	 buf[32];

	if (strlen(s) == 10 && s[4] == '-' && s[7] == '-') {
		snprintf(buf, sizeof(buf), "%sT00:00:00Z", s);
		return lz_time_parse_iso(buf, ms);
	}
	return lz_time_parse_iso(s, ms);
}

static json_t *
time_json(int64_t ms)
{
	char	 buf[40];

	lz_time_fmt_iso(ms, buf, sizeof(buf), ms % 1000 != 0);
	return json_string(buf);
}

struct series {
	json_t	*arr;
	int64_t	 first;		/* bucket number of arr[0] */
};

static void
series_one(int64_t bucket, int64_t clicks, void *arg)
{
	struct series	*s = arg;
	json_t		*item;

	item = json_array_get(s->arr, (size_t)(bucket - s->first));
	if (item != NULL)
		json_object_set_new(item, "clicks", json_integer(clicks));
}

static void
breakdown_one(const char *key, int64_t clicks, void *arg)
{
	json_array_append_new(arg, json_pack("{s:s, s:I}", "key", key,
	    "clicks", (json_int_t)clicks));
}

/* Conversion totals: the count, and revenue per currency as a JSON
 * number and in exact micro-units. */
struct conv_totals {
	int64_t	 n;
	json_t	*revenue;
	json_t	*micros;
};

static void
totals_one(const char *currency, int64_t n, int has_rev, int64_t micros,
    void *arg)
{
	struct conv_totals	*t = arg;

	t->n += n;
	if (has_rev) {
		json_object_set_new(t->revenue, currency, amount_json(micros));
		json_object_set_new(t->micros, currency, json_integer(micros));
	}
}

static void
series_conv(int64_t bucket, const char *currency, int64_t n, int has_rev,
    int64_t micros, void *arg)
{
	struct series	*s = arg;
	json_t		*item, *c;

	if ((item = json_array_get(s->arr, (size_t)(bucket - s->first))) ==
	    NULL)
		return;
	c = json_object_get(item, "conversions");
	json_object_set_new(item, "conversions",
	    json_integer(json_integer_value(c) + n));
	if (has_rev)
		json_object_set_new(json_object_get(item, "revenue"), currency,
		    amount_json(micros));
}

/* A row per key: the rows of one key arrive together. */
static void
conv_breakdown_one(const char *key, int64_t key_n, const char *currency,
    int64_t n, int has_rev, int64_t micros, void *arg)
{
	json_t	*arr = arg, *row, *k;
	size_t	 len = json_array_size(arr);

	(void)n;
	k = key ? json_string(key) : json_null();
	row = len ? json_array_get(arr, len - 1) : NULL;
	if (row == NULL || !json_equal(json_object_get(row, "key"), k)) {
		row = json_pack("{s:O, s:I, s:{}}", "key", k, "conversions",
		    (json_int_t)key_n, "revenue");
		json_array_append_new(arr, row);
	}
	json_decref(k);
	if (has_rev)
		json_object_set_new(json_object_get(row, "revenue"), currency,
		    amount_json(micros));
}

static void
variant_clicks_one(const char *key, int64_t clicks, void *arg)
{
	json_object_set_new(arg, key, json_integer(clicks));
}

/*
 * Conversions of the link in [from, to): the totals into totals, the
 * series' buckets, and the breakdowns.  0 or -1.
 */
static int
add_conversions(int64_t id, int64_t from, int64_t to, int64_t bucket,
    int64_t clicks, json_t *totals, struct series *s, json_t *j)
{
	struct conv_totals	 t;
	json_t			*bd, *arr, *vclicks, *row, *c;
	size_t			 i, k;
	int64_t			 n, vc;
	int			 rc = -1;

	t.n = 0;
	t.revenue = json_object();
	t.micros = json_object();
	vclicks = json_object();
	if (store_conv_totals(&links.db, id, from, to, totals_one, &t) == -1)
		goto out;
	json_object_set_new(totals, "conversions", json_integer(t.n));
	json_object_set(totals, "revenue", t.revenue);
	json_object_set(totals, "revenue_micros", t.micros);
	json_object_set_new(totals, "conversion_rate",
	    json_real(conv_rate(t.n, clicks)));

	for (i = 0; i < json_array_size(s->arr); i++)
		json_object_set_new(json_array_get(s->arr, i), "revenue",
		    json_object());
	if (store_conv_series(&links.db, id, from, to, bucket, series_conv,
	    s) == -1)
		goto out;

	bd = json_object();
	json_object_set_new(j, "conversion_breakdowns", bd);
	for (i = 0; i < CONV_DIM__MAX; i++) {
		arr = json_array();
		json_object_set_new(bd, conv_dim_names[i], arr);
		if (store_conv_breakdown(&links.db, (enum conv_dim)i, id, from,
		    to, TOP, conv_breakdown_one, arr) == -1)
			goto out;
	}
	/* Per variant, its clicks and rate too: the A/B comparison. */
	if (store_stats_breakdown(&links.db, STATS_VARIANT, id, from, to,
	    VARIANTS_MAX, variant_clicks_one, vclicks) == -1)
		goto out;
	json_array_foreach(json_object_get(bd, "variant"), k, row) {
		if (json_is_null(json_object_get(row, "key"))) {
			json_object_set_new(row, "clicks", json_null());
			json_object_set_new(row, "conversion_rate",
			    json_null());
			continue;
		}
		c = json_object_get(vclicks, json_string_value(
		    json_object_get(row, "key")));
		vc = c ? json_integer_value(c) : 0;
		n = json_integer_value(json_object_get(row, "conversions"));
		json_object_set_new(row, "clicks", json_integer(vc));
		json_object_set_new(row, "conversion_rate",
		    json_real(conv_rate(n, vc)));
	}
	rc = 0;
out:
	json_decref(t.revenue);
	json_decref(t.micros);
	json_decref(vclicks);
	return rc;
}

void
api_links_stats(struct lz_req *r)
{
	static const struct lz_param params[] = {
		{ "from", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		{ "to", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		{ "interval", LZ_PT_ENUM, 0, 0, 1, intervals, 0 },
	};
	struct links_req	*lr = r->app;
	const struct lz_query	*q;
	struct lz_pval		 v[LZ_NELEM(params)];
	struct lz_verr		 e;
	struct link		 l;
	struct series		 s;
	int64_t			 id, from, to, bucket, clicks, bots, b, nb;
	long long		 maxb;
	json_t			*j, *totals, *bd, *arr;
	size_t			 i;
	int			 rc;

	if (api_links_path_id(r, &id) == -1 || (q = lz_req_query(r)) == NULL)
		return;
	if (lz_params(q, params, LZ_NELEM(params), v, &e) == -1) {
		lz_resp_verr(r, &e);
		return;
	}
	bucket = v[2].i == 0 ? LZ_HOUR_MS : LZ_DAY_MS;
	maxb = v[2].i == 0 ? BUCKETS_HOUR : BUCKETS_DAY;
	/* 'to' is exclusive: by default the millisecond of the request is
	 * in the range, or a conversion recorded in the same millisecond
	 * just before this request would be left out. */
	to = r->now_ms + 1;
	if (v[1].set && parse_time(v[1].s, &to) == -1) {
		lz_resp_error(r, 400, "invalid_parameter", "to", "'to' must be "
		    "an ISO 8601 time with a time zone (2030-01-31T12:00:00Z) "
		    "or a date (2030-01-31).");
		return;
	}
	if (v[0].set) {
		if (parse_time(v[0].s, &from) == -1) {
			lz_resp_error(r, 400, "invalid_parameter", "from",
			    "'from' must be an ISO 8601 time with a time zone "
			    "(2030-01-31T12:00:00Z) or a date (2030-01-31).");
			return;
		}
	} else	/* the last DEFAULT_* buckets, the current one included */
		from = ((to - 1) / bucket - ((v[2].i == 0 ? DEFAULT_HOURS :
		    DEFAULT_DAYS) - 1)) * bucket;
	if (from < 0)
		from = 0;
	if (from >= to) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "'from' "
		    "must be before 'to'.");
		return;
	}
	nb = (to - 1) / bucket - from / bucket + 1;
	if (nb > maxb) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "With "
		    "interval=%s the range may span at most %lld %ss.",
		    intervals[v[2].i], maxb, intervals[v[2].i]);
		return;
	}

	rc = store_link_get(&links.db, id, lr->account_id, &l);
	if (rc != 1) {
		if (rc == 0)
			lz_resp_error(r, 404, "not_found", "id", "There is no "
			    "link with this id.");
		else
			lz_resp_error(r, 500, "internal_error", NULL, "The "
			    "link could not be read.");
		return;
	}
	link_free(&l);

	j = json_object();
	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "link_id", json_integer(id));
	json_object_set_new(j, "from", time_json(from));
	json_object_set_new(j, "to", time_json(to));
	json_object_set_new(j, "interval", json_string(intervals[v[2].i]));

	if (store_stats_totals(&links.db, id, from, to, &clicks, &bots) == -1)
		goto fail;
	totals = json_pack("{s:I, s:I}", "clicks", (json_int_t)clicks,
	    "bots", (json_int_t)bots);
	json_object_set_new(j, "totals", totals);

	/* Every bucket, empty ones too, so charts need no gap filling. */
	s.arr = json_array();
	s.first = from / bucket;
	for (b = s.first; b < s.first + nb; b++)
		json_array_append_new(s.arr, json_pack("{s:o, s:i, s:i}", "t",
		    time_json(b * bucket), "clicks", 0, "conversions", 0));
	json_object_set_new(j, "series", s.arr);
	if (store_stats_series(&links.db, id, from, to, bucket, series_one,
	    &s) == -1)
		goto fail;

	bd = json_object();
	json_object_set_new(j, "breakdowns", bd);
	for (i = 0; i < STATS_DIM__MAX; i++) {
		arr = json_array();
		json_object_set_new(bd, dim_names[i], arr);
		if (store_stats_breakdown(&links.db, (enum stats_dim)i, id,
		    from, to, TOP, breakdown_one, arr) == -1)
			goto fail;
	}
	if (add_conversions(id, from, to, bucket, clicks, totals, &s, j) == -1)
		goto fail;
	lz_resp_json(r, 200, j);
	return;
fail:
	json_decref(j);
	lz_resp_error(r, 500, "internal_error", NULL, "The statistics could "
	    "not be read.");
}
