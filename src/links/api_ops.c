/*
 * api_ops.c -- the link service for whoever runs it (DESIGN 8): GET
 * /healthz, which a load balancer may ask every second, and GET
 * /metrics, Prometheus's text exposition of what the pool counts.
 */
#include "config.h"

#include <string.h>

#include <jansson.h>

#include "api.h"
#include "conf.h"
#include "ctx.h"
#include "lztime.h"
#include "metrics.h"
#include "resp.h"
#include "serve.h"
#include "store/webhooks.h"
#include "util.h"

static const char *const limits[OPS_LIMIT__MAX + 1] = {
	[OPS_LIMIT_QUOTA] = "quota",
	[OPS_LIMIT_CONVERSIONS] = "conversions",
	[OPS_LIMIT_WEBHOOKS] = "webhooks",
	[OPS_LIMIT_SIGN_IN] = "sign_in",
	[OPS_LIMIT_LINK_PASSWORD] = "link_password",
	[OPS_LIMIT_EXPORTS] = "exports",
};

const struct lz_metric_def ops_metrics[OPS__MAX] = {
	[OPS_JOURNALED] = { "lz_clicks_journaled_total", "Clicks written "
	    "to the workers' click journals.", LZ_METRIC_COUNTER, NULL,
	    NULL },
	[OPS_MOVED] = { "lz_clicks_moved_total", "Clicks moved from the "
	    "journals into the database.", LZ_METRIC_COUNTER, NULL, NULL },
	[OPS_CAUGHT_UP] = { "lz_mover_caught_up_timestamp_seconds", "When "
	    "a move of the click mover last left no click behind (Unix "
	    "time).", LZ_METRIC_GAUGE, NULL, NULL },
	[OPS_LIMITED] = { "lz_limited_total", "Requests refused with 429, "
	    "by the limit they ran into.", LZ_METRIC_COUNTER, "limit",
	    limits },
};

void
ops_limited(int limit)
{
	lz_metrics_add(links.metrics, OPS_LIMITED, (size_t)limit, 1);
}

/* Seconds the mover is behind: since it last caught up (to the
 * second). */
static double
mover_lag(int64_t now)
{
	int64_t	 at = lz_metrics_get(links.metrics, OPS_CAUGHT_UP, 0);

	return at == 0 || now / 1000 < at ? 0 : (double)(now / 1000 - at);
}

void
ops_health(struct lz_req *r)
{
	const struct lz_conf	*c = links.conf;
	long long		 pending, failed;
	int64_t			 due, now = lz_now_ms();
	double			 lag = mover_lag(now), overdue = 0;
	struct lz_verr		 unhealthy, *e = &unhealthy;
	json_t			*j, *why;
	char			 dbwhy[256];

	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	why = json_array();
	if (lz_db_health(&links.db, dbwhy, sizeof(dbwhy)) == -1)
		json_array_append_new(why, json_string(dbwhy));
	else if (store_outbox(&links.db, now - LZ_DAY_MS, &pending, &due,
	    &failed) == -1)
		json_array_append_new(why, json_string("the database does not "
		    "answer"));
	else if (due != 0 && due < now)
		overdue = (double)(now - due) / 1000;
	if (lag > (double)c->health_mover_lag)
		json_array_append_new(why, json_sprintf("the click mover is "
		    "%.0f s behind", lag));
	if (overdue > (double)c->health_outbox_lag)
		json_array_append_new(why, json_sprintf("webhook deliveries "
		    "are %.0f s overdue (is lz-hooks running?)", overdue));
	lz_resp_header(r, "Cache-Control", "no-store");
	if (json_array_size(why) > 0) {
		lz_verr_set(e, 503, "unhealthy", NULL, "%s",
		    json_string_value(json_array_get(why, 0)));
		j = json_pack("{s:b, s:s, s:s, s:s, s:o}", "ok", 0, "error",
		    e->code, "message", e->msg, "request_id", r->request_id,
		    "reasons", why);
		lz_resp_header(r, "Retry-After", "5");
		lz_resp_json(r, e->status, j);
		return;
	}
	json_decref(why);
	lz_resp_json(r, 200, json_pack("{s:b, s:s, s:s, s:f, s:f}", "ok", 1,
	    "service", "lz-links", "database", "ok", "mover_lag_seconds", lag,
	    "outbox_overdue_seconds", overdue));
}

/* The metrics read from the database and the mover's lag. */
static void
more(struct lz_buf *b, void *arg)
{
	long long	 pending = 0, failed = 0;
	int64_t		 due = 0, now = lz_now_ms();

	(void)arg;
	lz_metrics_line(links.metrics, b, "lz_mover_lag_seconds", "Seconds "
	    "since the click mover last left no click behind.", NULL, NULL,
	    mover_lag(now));
	if (store_outbox(&links.db, now - LZ_DAY_MS, &pending, &due,
	    &failed) == -1)
		return;
	lz_metrics_line(links.metrics, b, "lz_outbox_pending", "Webhook "
	    "deliveries waiting to be sent.", NULL, NULL, (double)pending);
	lz_metrics_line(links.metrics, b, "lz_outbox_overdue_seconds", "How "
	    "long the most overdue delivery has been due.", NULL, NULL,
	    due != 0 && due < now ? (double)(now - due) / 1000 : 0);
	lz_metrics_line(links.metrics, b, "lz_outbox_failed", "Webhook "
	    "deliveries that failed for good in the last 24 hours.", NULL,
	    NULL, (double)failed);
}

void
ops_metrics_get(struct lz_req *r)
{
	lz_resp_metrics(r, links.metrics, links.conf->metrics_allow, more,
	    NULL);
}
