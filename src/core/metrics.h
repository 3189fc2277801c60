/*
 * metrics.h -- what a pool counts, for Prometheus (DESIGN 8): counters
 * and gauges in memory the workers share, summed over them and never
 * reset by a reload, written out in the text exposition format (version
 * 0.0.4) at GET /metrics.
 *
 * Every pool counts its requests by route and status, and their
 * duration as a histogram (the pool does, in pool.c: no handler needs
 * to), its workers alive and how often one was started again.  A
 * service adds its own metrics as a table of definitions, each a
 * counter or a gauge with at most one label whose values are listed;
 * a gauge a worker holds of its own (the bytes of its answer cache) is
 * kept per worker and summed when written out, so a dead worker's part
 * goes with it.
 *
 * The table is made by the supervisor before the first fork
 * (lz_metrics_create) and handed to the pool (lz_pool_metrics); a
 * reload keeps it.  Adding is an atomic add, no lock.
 */
#ifndef LZ_METRICS_H
#define LZ_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct lz_buf;
struct lz_route;

#define LZ_METRICS_WORKERS	256	/* the most workers a pool has */

enum lz_metric_type {
	LZ_METRIC_COUNTER,	/* only grows */
	LZ_METRIC_GAUGE,	/* set or moved; one value */
	LZ_METRIC_WORKER_GAUGE	/* set by each worker; their sum */
};

struct lz_metric_def {
	const char		*name;	/* "lz_clicks_moved_total" */
	const char		*help;
	enum lz_metric_type	 type;
	const char		*label;	/* NULL: none */
	const char *const	*values; /* the label's, NULL-terminated */
};

struct lz_metrics;

/*
 * The table of service (its label on every metric), counting the
 * requests of the routes[0..nroutes) of its router and the metrics
 * defs[0..ndefs).  NULL (errno set) on failure.
 */
struct lz_metrics *lz_metrics_create(const char *service,
	    const struct lz_route *routes, size_t nroutes,
	    const struct lz_metric_def *defs, size_t ndefs);

/* A request of route (an index of routes; -1: none matched) answered
 * status after us microseconds. */
void	lz_metrics_request(struct lz_metrics *, int route, int status,
	    int64_t us);
/* Adds n to metric def (its label's value, 0 without a label). */
void	lz_metrics_add(struct lz_metrics *, size_t def, size_t value,
	    int64_t n);
/* Sets a gauge; a worker gauge as this worker's part. */
void	lz_metrics_set(struct lz_metrics *, size_t def, size_t value,
	    int64_t v);
/* A gauge's value (a worker gauge: the sum). */
int64_t	lz_metrics_get(struct lz_metrics *, size_t def, size_t value);

/* The pool's: this process is worker slot (0..LZ_METRICS_WORKERS); a
 * slot's worker died (its worker gauges go); the workers alive; one
 * was started again. */
void	lz_metrics_worker(struct lz_metrics *, int slot);
void	lz_metrics_worker_gone(struct lz_metrics *, int slot);
void	lz_metrics_workers(struct lz_metrics *, int alive);
void	lz_metrics_restarted(struct lz_metrics *);

/* Appends every metric to out in the text exposition format. */
void	lz_metrics_write(struct lz_metrics *, struct lz_buf *out);
/* One more gauge of the service, computed when written (from the
 * database): "# HELP", "# TYPE" and its value, with one label (NULL:
 * none). */
void	lz_metrics_line(struct lz_metrics *, struct lz_buf *out,
	    const char *name, const char *help, const char *label,
	    const char *value, double v);

#endif
