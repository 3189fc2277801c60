/*
 * stats.c -- the statistics of a link, built once for the API and lzctl
 * (stats.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lztime.h"
#include "stats/amount.h"
#include "stats/conversion.h"
#include "stats/stats.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/store.h"

#define VARIANTS_MAX	1000	/* more than a link can have (geo: 250) */

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

/* What the callbacks of one build share. */
struct build {
	json_t		*(*money)(int64_t);
	json_t		*series;	/* every bucket, or NULL */
	int64_t		 first;		/* bucket number of series[0] */
	json_t		*arr;		/* the breakdown being read */
	/* conversion totals: the count, revenue per currency as money and
	 * in exact micro-units */
	int64_t		 convs;
	json_t		*revenue, *micros;
};

json_t *
stats_time(int64_t ms)
{
	char	 buf[40];

	lz_time_fmt_iso(ms, buf, sizeof(buf), ms % 1000 != 0);
	return json_string(buf);
}

static void
series_one(int64_t bucket, int64_t clicks, int64_t visitors, void *arg)
{
	struct build	*b = arg;
	json_t		*item;

	item = json_array_get(b->series, (size_t)(bucket - b->first));
	if (item == NULL)
		return;
	json_object_set_new(item, "clicks", json_integer(clicks));
	json_object_set_new(item, "visitors", json_integer(visitors));
}

static void
breakdown_one(const char *key, int64_t clicks, void *arg)
{
	json_array_append_new(arg, json_pack("{s:s, s:I}", "key", key,
	    "clicks", (json_int_t)clicks));
}

static void
totals_one(const char *currency, int64_t n, int has_rev, int64_t micros,
    void *arg)
{
	struct build	*b = arg;

	b->convs += n;
	if (has_rev) {
		json_object_set_new(b->revenue, currency, b->money(micros));
		json_object_set_new(b->micros, currency, json_integer(micros));
	}
}

static void
series_conv(int64_t bucket, const char *currency, int64_t n, int has_rev,
    int64_t micros, void *arg)
{
	struct build	*b = arg;
	json_t		*item, *c;

	if ((item = json_array_get(b->series, (size_t)(bucket - b->first))) ==
	    NULL)
		return;
	c = json_object_get(item, "conversions");
	json_object_set_new(item, "conversions",
	    json_integer(json_integer_value(c) + n));
	if (has_rev)
		json_object_set_new(json_object_get(item, "revenue"), currency,
		    b->money(micros));
}

/* A row per key: the rows of one key arrive together. */
static void
conv_breakdown_one(const char *key, int64_t key_n, const char *currency,
    int64_t n, int has_rev, int64_t micros, void *arg)
{
	struct build	*b = arg;
	json_t		*row, *k;
	size_t		 len = json_array_size(b->arr);

	(void)n;
	k = key ? json_string(key) : json_null();
	row = len ? json_array_get(b->arr, len - 1) : NULL;
	if (row == NULL || !json_equal(json_object_get(row, "key"), k)) {
		row = json_pack("{s:O, s:I, s:{}}", "key", k, "conversions",
		    (json_int_t)key_n, "revenue");
		json_array_append_new(b->arr, row);
	}
	json_decref(k);
	if (has_rev)
		json_object_set_new(json_object_get(row, "revenue"), currency,
		    b->money(micros));
}

static void
variant_clicks_one(const char *key, int64_t clicks, void *arg)
{
	json_object_set_new(arg, key, json_integer(clicks));
}

/* Per variant its clicks and rate too: the A/B comparison. */
static void
variant_rates(json_t *rows, json_t *vclicks)
{
	json_t	*row, *c;
	size_t	 k;
	int64_t	 n, vc;

	json_array_foreach(rows, k, row) {
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
}

/*
 * Conversions of the link in r: the totals into totals, the series'
 * buckets, and the breakdowns into j.  0 or -1.
 */
static int
add_conversions(json_t *j, struct lz_db *db, const struct store_scope *sc,
    const struct stats_range *r, const struct store_range *sr,
    const struct store_range *ser, int64_t clicks, json_t *totals,
    struct build *b)
{
	json_t	*bd, *vclicks;
	size_t	 i;
	int	 rc = -1;

	b->revenue = json_object();
	b->micros = json_object();
	vclicks = json_object();
	if (store_conv_totals(db, sc, sr, totals_one, b) == -1)
		goto out;
	json_object_set_new(totals, "conversions", json_integer(b->convs));
	json_object_set(totals, "revenue", b->revenue);
	json_object_set(totals, "revenue_micros", b->micros);
	json_object_set_new(totals, "conversion_rate",
	    json_real(conv_rate(b->convs, clicks)));

	if (b->series != NULL) {
		for (i = 0; i < json_array_size(b->series); i++)
			json_object_set_new(json_array_get(b->series, i),
			    "revenue", json_object());
		if (store_conv_series(db, sc, ser, r->bucket, series_conv,
		    b) == -1)
			goto out;
	}

	bd = json_object();
	json_object_set_new(j, "conversion_breakdowns", bd);
	for (i = 0; i < CONV_DIM__MAX; i++) {
		b->arr = json_array();
		json_object_set_new(bd, conv_dim_names[i], b->arr);
		if (store_conv_breakdown(db, (enum conv_dim)i, sc, sr,
		    STATS_TOP, conv_breakdown_one, b) == -1)
			goto out;
	}
	if (store_stats_breakdown(db, STATS_VARIANT, sc, sr, VARIANTS_MAX,
	    variant_clicks_one, vclicks) == -1)
		goto out;
	variant_rates(json_object_get(bd, "variant"), vclicks);
	rc = 0;
out:
	json_decref(b->revenue);
	json_decref(b->micros);
	json_decref(vclicks);
	return rc;
}

int
stats_add(json_t *j, struct lz_db *db, int64_t id, struct stats_range *r,
    json_t *(*money)(int64_t))
{
	const struct store_scope	 sc = { STORE_SCOPE_LINK, id, -1 };

	return stats_add_scope(j, db, &sc, r, money);
}

int
stats_add_scope(json_t *j, struct lz_db *db, const struct store_scope *sc,
    struct stats_range *r, json_t *(*money)(int64_t))
{
	struct store_range	 sr, ser;
	struct build		 b;
	json_t			*totals, *bd, *arr;
	int64_t			 clicks, bots, visitors, k, nb;
	size_t			 i;

	/* Whole hours, as the rollups hold them; a series by hour reads
	 * hours alone. */
	r->from = r->from / LZ_HOUR_MS * LZ_HOUR_MS;
	r->to = (r->to + LZ_HOUR_MS - 1) / LZ_HOUR_MS * LZ_HOUR_MS;
	store_range(r->from, r->to, 1, &sr);
	store_range(r->from, r->to, r->bucket % LZ_DAY_MS == 0, &ser);
	memset(&b, 0, sizeof(b));
	b.money = money;
	if (store_stats_totals(db, sc, &sr, &clicks, &bots, &visitors) == -1)
		return -1;
	totals = json_pack("{s:I, s:I, s:I}", "clicks", (json_int_t)clicks,
	    "bots", (json_int_t)bots, "visitors", (json_int_t)visitors);
	json_object_set_new(j, "totals", totals);

	/* Every bucket, empty ones too, so charts need no gap filling. */
	if (r->bucket > 0) {
		b.series = json_array();
		b.first = r->from / r->bucket;
		nb = (r->to - 1) / r->bucket - b.first + 1;
		for (k = b.first; k < b.first + nb; k++)
			json_array_append_new(b.series, json_pack("{s:o, s:i, "
			    "s:i, s:i}", "t", stats_time(k * r->bucket),
			    "clicks", 0, "visitors", 0, "conversions", 0));
		json_object_set_new(j, "series", b.series);
		if (store_stats_series(db, sc, &ser, r->bucket, series_one,
		    &b) == -1)
			return -1;
	}

	bd = json_object();
	json_object_set_new(j, "breakdowns", bd);
	for (i = 0; i < STATS_DIM__MAX; i++) {
		arr = json_array();
		json_object_set_new(bd, dim_names[i], arr);
		if (store_stats_breakdown(db, (enum stats_dim)i, sc, &sr,
		    STATS_TOP, breakdown_one, arr) == -1)
			return -1;
	}
	return add_conversions(j, db, sc, r, &sr, &ser, clicks, totals, &b);
}
