/*
 * metrics.c -- counters in shared memory, written for Prometheus
 * (metrics.h).
 */
#include "config.h"

#include <sys/mman.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "route.h"
#include "util.h"

/* The statuses lz answers, each counted apart; any other is "other". */
static const int statuses[] = {
	200, 201, 202, 204, 301, 302, 303, 304, 400, 401, 403, 404, 405,
	409, 410, 413, 414, 415, 429, 431, 500, 502, 503, 504,
};
#define NSTATUS		LZ_NELEM(statuses)

/* The upper bounds of the latency histogram's buckets, seconds. */
static const double le[] = {
	0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
	1, 2.5, 5, 10,
};
#define NLE		LZ_NELEM(le)

/* A route's counts: by status (the last: other), by bucket (the last:
 * over the last bound), and the sum of durations. */
struct route_counts {
	_Atomic uint64_t	 status[NSTATUS + 1];
	_Atomic uint64_t	 bucket[NLE + 1];
	_Atomic uint64_t	 sum_us;
};

struct shared {
	_Atomic int64_t		 workers;
	_Atomic uint64_t	 restarts;
	_Alignas(8) unsigned char data[]; /* the routes, then the defs' */
};

struct lz_metrics {
	struct shared		*sh;
	size_t			 maplen;
	const char		*service;
	char			**route;	/* "GET /api/v1/links" */
	size_t			 nroutes;	/* and one more: none */
	struct route_counts	*rc;		/* into sh */
	const struct lz_metric_def *defs;
	size_t			 ndefs;
	size_t			*at;		/* each def's first value */
	size_t			*nvals;
	int			 slot;		/* this worker's; -1 */
};

static size_t
nvalues(const struct lz_metric_def *d)
{
	size_t	 n = 0;

	if (d->values == NULL)
		return 1;
	while (d->values[n] != NULL)
		n++;
	return n;
}

/* "GET,POST /:slug" */
static char *
route_name(const struct lz_route *r)
{
	static const struct { unsigned bit; const char *name; } m[] = {
		{ LZ_M_GET, "GET" }, { LZ_M_POST, "POST" },
		{ LZ_M_PUT, "PUT" }, { LZ_M_PATCH, "PATCH" },
		{ LZ_M_DELETE, "DELETE" }, { LZ_M_OPTIONS, "OPTIONS" },
	};
	struct lz_buf	 b = LZ_BUF_INIT;
	size_t		 i;

	for (i = 0; i < LZ_NELEM(m); i++)
		if (r->methods & m[i].bit)
			lz_buf_printf(&b, "%s%s", b.len ? "," : "",
			    m[i].name);
	lz_buf_printf(&b, " %s", r->pattern);
	return lz_buf_detach(&b);
}

struct lz_metrics *
lz_metrics_create(const char *service, const struct lz_route *routes,
    size_t nroutes, const struct lz_metric_def *defs, size_t ndefs)
{
	struct lz_metrics	*m;
	size_t			 i, n = 0, rcs;
	void			*p;

	m = xcalloc(1, sizeof(*m));
	m->service = service;
	m->nroutes = nroutes;
	m->route = xcalloc(nroutes + 1, sizeof(*m->route));
	for (i = 0; i < nroutes; i++)
		m->route[i] = route_name(&routes[i]);
	m->route[nroutes] = xstrdup("none");
	m->defs = defs;
	m->ndefs = ndefs;
	m->at = xcalloc(ndefs + 1, sizeof(*m->at));
	m->nvals = xcalloc(ndefs + 1, sizeof(*m->nvals));
	for (i = 0; i < ndefs; i++) {
		m->at[i] = n;
		m->nvals[i] = nvalues(&defs[i]);
		n += m->nvals[i] * (defs[i].type == LZ_METRIC_WORKER_GAUGE ?
		    LZ_METRICS_WORKERS : 1);
	}
	rcs = (nroutes + 1) * sizeof(struct route_counts);
	m->maplen = sizeof(struct shared) + rcs + n * sizeof(int64_t);
	p = mmap(NULL, m->maplen, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		for (i = 0; i <= nroutes; i++)
			free(m->route[i]);
		free(m->route);
		free(m->at);
		free(m->nvals);
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->sh = p;
	m->rc = (struct route_counts *)(void *)m->sh->data;
	m->slot = -1;
	return m;
}

static _Atomic int64_t *
val(struct lz_metrics *m, size_t def, size_t value, int worker)
{
	size_t	 rcs = (m->nroutes + 1) * sizeof(struct route_counts);
	size_t	 i;

	if (def >= m->ndefs || value >= m->nvals[def])
		return NULL;
	i = m->at[def] + value * (m->defs[def].type ==
	    LZ_METRIC_WORKER_GAUGE ? LZ_METRICS_WORKERS : 1) +
	    (worker >= 0 ? (size_t)worker : 0);
	return (_Atomic int64_t *)(void *)(m->sh->data + rcs) + i;
}

void
lz_metrics_request(struct lz_metrics *m, int route, int status, int64_t us)
{
	struct route_counts	*c;
	size_t			 i, r;

	if (m == NULL)
		return;
	r = route < 0 || (size_t)route >= m->nroutes ? m->nroutes :
	    (size_t)route;
	c = &m->rc[r];
	for (i = 0; i < NSTATUS && statuses[i] != status; i++)
		continue;
	atomic_fetch_add(&c->status[i], 1);
	for (i = 0; i < NLE && (double)us / 1e6 > le[i]; i++)
		continue;
	atomic_fetch_add(&c->bucket[i], 1);
	atomic_fetch_add(&c->sum_us, (uint64_t)(us > 0 ? us : 0));
}

/* The value this process counts on of def (its own for a worker
 * gauge), or NULL. */
static _Atomic int64_t *
own(struct lz_metrics *m, size_t def, size_t value)
{
	return m == NULL ? NULL : val(m, def, value, m->defs[def].type ==
	    LZ_METRIC_WORKER_GAUGE ? m->slot : -1);
}

void
lz_metrics_add(struct lz_metrics *m, size_t def, size_t value, int64_t n)
{
	_Atomic int64_t	*v = own(m, def, value);

	if (v != NULL)
		atomic_fetch_add(v, n);
}

void
lz_metrics_set(struct lz_metrics *m, size_t def, size_t value, int64_t n)
{
	_Atomic int64_t	*v = own(m, def, value);

	if (v != NULL)
		atomic_store(v, n);
}

int64_t
lz_metrics_get(struct lz_metrics *m, size_t def, size_t value)
{
	_Atomic int64_t	*v;
	int64_t		 sum = 0;
	int		 w;

	if (m == NULL || (v = val(m, def, value, 0)) == NULL)
		return 0;
	if (m->defs[def].type != LZ_METRIC_WORKER_GAUGE)
		return atomic_load(v);
	for (w = 0; w < LZ_METRICS_WORKERS; w++)
		sum += atomic_load(&v[w]);
	return sum;
}

void
lz_metrics_worker(struct lz_metrics *m, int slot)
{
	if (m != NULL)
		m->slot = slot >= 0 && slot < LZ_METRICS_WORKERS ? slot : -1;
}

void
lz_metrics_worker_gone(struct lz_metrics *m, int slot)
{
	size_t	 d, i;

	if (m == NULL || slot < 0 || slot >= LZ_METRICS_WORKERS)
		return;
	for (d = 0; d < m->ndefs; d++)
		if (m->defs[d].type == LZ_METRIC_WORKER_GAUGE)
			for (i = 0; i < m->nvals[d]; i++)
				atomic_store(val(m, d, i, slot), 0);
}

void
lz_metrics_workers(struct lz_metrics *m, int alive)
{
	if (m != NULL)
		atomic_store(&m->sh->workers, alive);
}

void
lz_metrics_restarted(struct lz_metrics *m)
{
	if (m != NULL)
		atomic_fetch_add(&m->sh->restarts, 1);
}

static void
head(struct lz_buf *b, const char *name, const char *help, const char *type)
{
	lz_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
	    type);
}

void
lz_metrics_line(struct lz_metrics *m, struct lz_buf *b, const char *name,
    const char *help, const char *label, const char *value, double v)
{
	head(b, name, help, "gauge");
	if (label != NULL)
		lz_buf_printf(b, "%s{service=\"%s\",%s=\"%s\"} %.17g\n", name,
		    m->service, label, value, v);
	else
		lz_buf_printf(b, "%s{service=\"%s\"} %.17g\n", name,
		    m->service, v);
}

/* A sample of route r with one more label, key="v". */
static void
route_line(struct lz_buf *b, const struct lz_metrics *m, const char *name,
    size_t r, const char *key, const char *v, uint64_t n)
{
	lz_buf_printf(b, "%s{service=\"%s\",route=\"%s\",%s=\"%s\"} %llu\n",
	    name, m->service, m->route[r], key, v, (unsigned long long)n);
}

static void
requests(struct lz_metrics *m, struct lz_buf *b)
{
	struct route_counts	*c;
	uint64_t		 n, cum;
	size_t			 r, i;
	char			 v[32];

	head(b, "lz_requests_total", "Requests answered, by route and "
	    "status.", "counter");
	for (r = 0; r <= m->nroutes; r++)
		for (i = 0; i <= NSTATUS; i++)
			if ((n = atomic_load(&m->rc[r].status[i])) > 0) {
				if (i < NSTATUS)
					snprintf(v, sizeof(v), "%d",
					    statuses[i]);
				else
					snprintf(v, sizeof(v), "other");
				route_line(b, m, "lz_requests_total", r,
				    "status", v, n);
			}
	head(b, "lz_request_duration_seconds", "Time from a request's "
	    "parameters read to its answer written, by route.", "histogram");
	for (r = 0; r <= m->nroutes; r++) {
		c = &m->rc[r];
		for (i = 0, cum = 0; i <= NLE; i++)
			cum += atomic_load(&c->bucket[i]);
		if (cum == 0)
			continue;
		for (i = 0, cum = 0; i <= NLE; i++) {
			cum += atomic_load(&c->bucket[i]);
			if (i < NLE)
				snprintf(v, sizeof(v), "%g", le[i]);
			else
				snprintf(v, sizeof(v), "+Inf");
			route_line(b, m, "lz_request_duration_seconds_bucket",
			    r, "le", v, cum);
		}
		lz_buf_printf(b, "lz_request_duration_seconds_sum{service="
		    "\"%s\",route=\"%s\"} %.6f\n", m->service, m->route[r],
		    (double)atomic_load(&c->sum_us) / 1e6);
		lz_buf_printf(b, "lz_request_duration_seconds_count{service="
		    "\"%s\",route=\"%s\"} %llu\n", m->service, m->route[r],
		    (unsigned long long)cum);
	}
}

void
lz_metrics_write(struct lz_metrics *m, struct lz_buf *b)
{
	const struct lz_metric_def	*d;
	size_t				 i, k;

	requests(m, b);
	head(b, "lz_workers", "Workers of the pool alive.", "gauge");
	lz_buf_printf(b, "lz_workers{service=\"%s\"} %lld\n", m->service,
	    (long long)atomic_load(&m->sh->workers));
	head(b, "lz_worker_restarts_total", "Workers started again after "
	    "one died.", "counter");
	lz_buf_printf(b, "lz_worker_restarts_total{service=\"%s\"} %llu\n",
	    m->service, (unsigned long long)atomic_load(&m->sh->restarts));
	for (i = 0; i < m->ndefs; i++) {
		d = &m->defs[i];
		head(b, d->name, d->help, d->type == LZ_METRIC_COUNTER ?
		    "counter" : "gauge");
		for (k = 0; k < m->nvals[i]; k++) {
			lz_buf_printf(b, "%s{service=\"%s\"", d->name,
			    m->service);
			if (d->label != NULL)
				lz_buf_printf(b, ",%s=\"%s\"", d->label,
				    d->values[k]);
			lz_buf_printf(b, "} %lld\n",
			    (long long)lz_metrics_get(m, i, k));
		}
	}
}
