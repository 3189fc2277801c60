/*
 * main.c -- lz-prompts: the prompt library API's FastCGI pool.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf.h"
#include "log.h"
#include "metrics.h"
#include "lztime.h"
#include "pool.h"
#include "prompts.h"
#include "ratelimit.h"
#include "resp.h"
#include "route.h"
#include "service.h"
#include "util.h"

#define L	(RF_LIST | RF_DATA)
#define D	(RF_DETAIL | RF_DATA)

/* How often a worker logs its answer cache's figures. */
#define CACHE_LOG_US	(300 * 1000000LL)

static const struct lz_route routes[] = {
	{ LZ_M_GET, "/api/v1/prompts",		 L, api_prompts_list },
	{ LZ_M_GET, "/api/v1/prompts/:slug",	 D, api_prompts_get },
	{ LZ_M_GET, "/api/v1/tags",		 L, api_tags_list },
	{ LZ_M_GET, "/api/v1/collections",	 L, api_collections_list },
	{ LZ_M_GET, "/api/v1/collections/:slug", D, api_collections_get },
	{ LZ_M_GET, "/api/v1/models",		 L, api_models_list },
	{ LZ_M_GET, "/api/v1/tools",		 L, api_tools_list },
	{ LZ_M_GET, "/api/v1/integrations",	 L, api_integrations_list },
	{ LZ_M_GET, "/api/v1/changelog",	 L, api_changelog },
	{ LZ_M_GET, "/api/v1/tutorials",	 L, api_tutorials_list },
	{ LZ_M_GET, "/api/v1/tutorials/:slug",	 D, api_tutorials_get },
	{ LZ_M_GET, "/api/v1/keywords",		 L, api_keywords_list },
	{ LZ_M_GET, "/api/v1/keywords/:slug",	 D, api_keywords_get },
	{ LZ_M_GET, "/api/v1/openapi.json",	 RF_DETAIL, api_openapi },
	/* Operations (DESIGN 8): no rate limit. */
	{ LZ_M_GET, "/healthz",			 0, ops_health },
	{ LZ_M_GET, "/metrics",			 0, ops_metrics_get },
};

/*
 * The per-IP limit of the route's tier (spec 8, DESIGN 4): RateLimit
 * headers on every answer, 429 with Retry-After when it is reached.
 */
static int
rate_limit(struct lz_req *r, unsigned flags)
{
	struct lz_rl_result	 res;
	unsigned char		 key[LZ_RL_KEYMAX];
	const char		*tier;
	unsigned		 limit;
	size_t			 klen;

	if (flags & RF_LIST) {
		tier = "list";
		limit = LIMIT_LIST;
	} else {
		tier = "detail";
		limit = LIMIT_DETAIL;
	}
	klen = lz_rl_addr_key(r->remote_addr, (unsigned char)(flags &
	    (RF_LIST | RF_DETAIL)), key);
	/* A limiter that cannot count refuses (res says so). */
	(void)lz_rl_take(prompts.rl, key, klen, limit, LIMIT_WINDOW_MS,
	    lz_mono_us() / 1000, &res);
	lz_resp_header(r, "RateLimit-Policy", "\"%s\";q=%u;w=%d", tier,
	    limit, LIMIT_WINDOW_MS / 1000);
	lz_resp_header(r, "RateLimit", "\"%s\";r=%u;t=%d", tier,
	    res.remaining, res.reset);
	if (res.allowed)
		return 0;
	lz_metrics_add(prompts.metrics, OPS_LIMITED, (flags & RF_LIST) ?
	    OPS_LIMIT_LIST : OPS_LIMIT_DETAIL, 1);
	lz_resp_header(r, "Retry-After", "%d", res.retry_after);
	lz_resp_error(r, 429, "rate_limited", NULL, "At most %u %s requests "
	    "a minute from one address; retry in %d s.", limit, tier,
	    res.retry_after);
	return -1;
}

static int
before(struct lz_req *r, const struct lz_route *route)
{
	if ((route->flags & (RF_LIST | RF_DETAIL)) &&
	    rate_limit(r, route->flags) == -1)
		return -1;
	if ((route->flags & RF_DATA) && data_ready() == -1) {
		lz_resp_header(r, "Retry-After", "10");
		lz_resp_error(r, 503, "data_unavailable", NULL, "The prompt "
		    "library is not available right now; retry shortly.");
		return -1;
	}
	return 0;
}

/* CORS preflight: the API is public and read-only. */
static void
options(struct lz_req *r, unsigned allow)
{
	(void)allow;
	lz_resp_header(r, "Access-Control-Allow-Methods", "GET, HEAD, "
	    "OPTIONS");
	lz_resp_header(r, "Access-Control-Allow-Headers", "If-None-Match");
	lz_resp_header(r, "Access-Control-Max-Age", "86400");
	lz_resp_empty(r, 204);
}

static const struct lz_router router = {
	routes, LZ_NELEM(routes), before, options, NULL
};

static int
pool_pre_fork(void *arg)
{
	(void)arg;
	/* What the pool counts, for /metrics (kept by reloads). */
	if ((prompts.metrics = lz_metrics_create("lz-prompts", routes,
	    LZ_NELEM(routes), ops_metrics, OPS__MAX)) == NULL) {
		lz_log(LZ_LOG_ERR, "metrics: %s", strerror(errno));
		return -1;
	}
	lz_pool_metrics(prompts.metrics);
	/* Two tiers per address; the largest limit sizes each log. */
	prompts.rl = lz_rl_create((size_t)prompts.conf->prompts_ratelimit_slots,
	    LIMIT_DETAIL);
	if (prompts.rl == NULL) {
		lz_log(LZ_LOG_ERR, "cannot create the rate limit table: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* The answer cache's figures, since the worker started. */
static void
cache_log(void)
{
	struct cache_stats	 st;
	uint64_t		 n;

	cache_stats(&st);
	n = st.hits + st.misses;
	lz_log(LZ_LOG_INFO, "answer cache: %llu hits of %llu lookups "
	    "(%.1f%%), %zu answers in %zu of %zu bytes, %llu evicted, "
	    "%llu cleared", (unsigned long long)st.hits,
	    (unsigned long long)n, n ? 100.0 * (double)st.hits / (double)n :
	    0.0, st.entries, st.bytes, st.limit,
	    (unsigned long long)st.evicted, (unsigned long long)st.cleared);
}

static int
worker_init(void *arg)
{
	(void)arg;
	cache_limit((size_t)prompts.conf->prompts_cache_bytes);
	(void)data_ready();	/* logs when there is nothing to open */
	/* After the first open: confine the worker (see sandbox in
	 * lz.conf(5)).  It only ever reads, and only the directory of
	 * prompts_db, where the importer renames new databases into
	 * place. */
	return lz_service_sandbox(prompts.conf->sandbox,
	    prompts.conf->prompts_db, 0, NULL, NULL);
}

static void
worker_handle(struct lz_req *r, void *arg)
{
	(void)arg;
	lz_resp_header(r, "Access-Control-Allow-Origin", "*");
	lz_resp_header(r, "Access-Control-Expose-Headers", "ETag, "
	    "Retry-After, RateLimit, RateLimit-Policy, X-Request-Id");
	prompts.ckey_pending = 0;
	lz_route_dispatch(r, &router);
	if (prompts.db_open)
		lz_db_reset_all(&prompts.db);
	ops_cache_sync();
}

static void
worker_tick(void *arg)
{
	static int64_t	 next_log;
	int64_t		 now = lz_mono_us();

	(void)arg;
	(void)data_ready();
	if (next_log == 0)
		next_log = now + CACHE_LOG_US;
	else if (now >= next_log) {
		next_log = now + CACHE_LOG_US;
		cache_log();
	}
}

static void
worker_fini(void *arg)
{
	(void)arg;
	cache_log();
	data_close();
}

static int
setup(struct lz_conf *c, char *err, size_t errlen)
{
	char	*u = c->prompts_base_url;
	size_t	 len = strlen(u);

	if ((strncmp(u, "http://", 7) != 0 && strncmp(u, "https://", 8) != 0) ||
	    len < 9 || strpbrk(u, " \"<>\\^`{|}") != NULL) {
		snprintf(err, errlen, "prompts_base_url: expected an http:// "
		    "or https:// URL");
		return -1;
	}
	while (len > 0 && u[len - 1] == '/')
		u[--len] = '\0';
	return 0;
}

static void
reload(const struct lz_conf *old, const struct lz_conf *c)
{
	if (c->prompts_ratelimit_slots != old->prompts_ratelimit_slots)
		lz_log(LZ_LOG_WARN, "prompts_ratelimit_slots changed; restart "
		    "the pool to resize the table");
}

/* -t: the configuration and the data. */
static int
test(void)
{
	if (data_ready() == -1) {
		fprintf(stderr, "lz-prompts: configuration %s is ok, but the "
		    "data %s is not usable (see above)\n",
		    prompts.conf->path, prompts.conf->prompts_db);
		return -1;
	}
	data_close();
	printf("lz-prompts: configuration %s and data %s are ok\n",
	    prompts.conf->path, prompts.conf->prompts_db);
	return 0;
}

static struct lz_service service = {
	.name = "lz-prompts",
	.socket_key = "prompts_socket",
	.workers_key = "prompts_workers",
	.conf = &prompts.conf,
	.setup = setup,
	.test = test,
	.reload = reload,
	.app = {
		.pre_fork = pool_pre_fork,
		.init = worker_init,
		.handle = worker_handle,
		.tick = worker_tick,
		.fini = worker_fini,
	},
};

int
main(int argc, char *argv[])
{
	return lz_service_main(argc, argv, &service);
}
