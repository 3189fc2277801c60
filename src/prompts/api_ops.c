/*
 * api_ops.c -- the prompt library for whoever runs it (DESIGN 8): GET
 * /healthz for balancers, GET /metrics for Prometheus.
 */
#include "config.h"

#include <jansson.h>

#include "cache.h"
#include "conf.h"
#include "metrics.h"
#include "prompts.h"
#include "resp.h"
#include "serve.h"

static const char *const tiers[] = { "list", "detail", NULL };

const struct lz_metric_def ops_metrics[OPS__MAX] = {
	[OPS_CACHE_HITS] = { "lz_answer_cache_hits_total", "Answers served "
	    "from the workers' answer caches.", LZ_METRIC_COUNTER, NULL,
	    NULL },
	[OPS_CACHE_MISSES] = { "lz_answer_cache_misses_total", "Answers "
	    "looked up in the caches and rendered anew.", LZ_METRIC_COUNTER,
	    NULL, NULL },
	[OPS_CACHE_BYTES] = { "lz_answer_cache_bytes", "Bytes the workers' "
	    "answer caches hold.", LZ_METRIC_WORKER_GAUGE, NULL, NULL },
	[OPS_LIMITED] = { "lz_limited_total", "Requests refused with 429, by "
	    "the tier of their limit.", LZ_METRIC_COUNTER, "limit", tiers },
};

void
ops_cache_sync(void)
{
	static struct cache_stats	 was;
	struct cache_stats		 st;

	cache_stats(&st);
	if (st.hits != was.hits)
		lz_metrics_add(prompts.metrics, OPS_CACHE_HITS, 0,
		    (int64_t)(st.hits - was.hits));
	if (st.misses != was.misses)
		lz_metrics_add(prompts.metrics, OPS_CACHE_MISSES, 0,
		    (int64_t)(st.misses - was.misses));
	if (st.bytes != was.bytes)
		lz_metrics_set(prompts.metrics, OPS_CACHE_BYTES, 0,
		    (int64_t)st.bytes);
	was = st;
}

void
ops_health(struct lz_req *r)
{
	struct lz_verr	 unhealthy, *e = &unhealthy;

	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	lz_resp_header(r, "Cache-Control", "no-store");
	if (data_ready() == -1) {
		lz_verr_set(e, 503, "unhealthy", NULL, "the prompt library's "
		    "data is not available");
		lz_resp_header(r, "Retry-After", "10");
		lz_resp_json(r, e->status, json_pack("{s:b, s:s, s:s, s:s, "
		    "s:[s]}", "ok", 0, "error", e->code, "message", e->msg,
		    "request_id", r->request_id, "reasons", e->msg));
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:s, s:s}", "ok", 1, "service",
	    "lz-prompts", "database", "ok"));
}

void
ops_metrics_get(struct lz_req *r)
{
	lz_resp_metrics(r, prompts.metrics, prompts.conf->metrics_allow, NULL,
	    NULL);
}
