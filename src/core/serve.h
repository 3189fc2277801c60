/*
 * serve.h -- serving one request around its handler: what answers when
 * the request itself does not fit, so that handlers see only what does.
 *
 * lz_req_begin() fills the request (req.h) and answers 400 for a request
 * line that cannot be parsed; lz_req_end() answers 500 when nothing did,
 * writes the access log line and frees the request.  Between the two a
 * handler reads its query and body through the functions below, each of
 * which answers the DESIGN 3.1 error itself when what came does not fit
 * (resp.h), so a handler only returns on -1 or NULL.
 */
#ifndef LZ_SERVE_H
#define LZ_SERVE_H

#include <stddef.h>

#include <fcgiapp.h>
#include <jansson.h>

struct lz_param;
struct lz_pval;
struct lz_query;
struct lz_req;

/* Fills req from a freshly accepted FastCGI request.  Returns 0, or -1
 * after answering 400 for a request line that cannot be parsed. */
int	 lz_req_begin(struct lz_req *, FCGX_Request *);
/* Answers 500 if nothing answered, logs (access_log), frees
 * per-request memory. */
void	 lz_req_end(struct lz_req *, int access_log);

/*
 * The parsed query string.  Returns NULL after answering 400 when the
 * query string is malformed (bad escapes, %00, controls, bad UTF-8,
 * repeated names).
 */
const struct lz_query *lz_req_query(struct lz_req *);
/*
 * Checks the query against the table params[0..n) (lz_params) into v,
 * answering 400 when it does not fit.  0, or -1 after answering.
 */
int	 lz_req_params(struct lz_req *, const struct lz_param *, size_t n,
	    struct lz_pval *v);

/*
 * Reads the request body (at most LZ_BODY_MAX bytes).  Returns 0, or -1
 * after answering 413.
 */
int	 lz_req_body(struct lz_req *);

/*
 * Reads the body as a JSON object: answers 415 when the content type is
 * not application/json, 413 when too large, 400 invalid_json when it does
 * not parse or is not an object (duplicate keys included).  Returns a new
 * reference, or NULL after answering.
 */
json_t	*lz_req_json(struct lz_req *);
/* lz_req_json for a JSON merge patch (RFC 7396): the content type may
 * also be application/merge-patch+json.  A patch that is not an object
 * is refused too (400 invalid_json): what it would do to a resource is
 * replace it whole. */
json_t	*lz_req_json_merge(struct lz_req *);

/* GET of a service's OpenAPI document (embedded at build): no query
 * parameter, CORS open, cached for a minute with an ETag. */
void	 lz_resp_openapi(struct lz_req *, const char *doc, size_t len);

/*
 * GET /metrics (metrics.h): no query parameter; 403 unless the client's
 * address is in the CIDR list allow (lz.conf metrics_allow); else the
 * text exposition of m, then what more(out, arg) appends (NULL: none).
 */
struct lz_buf;
struct lz_metrics;
void	 lz_resp_metrics(struct lz_req *, struct lz_metrics *m,
	    const char *allow, void (*more)(struct lz_buf *, void *),
	    void *arg);

#endif
