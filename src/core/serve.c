/*
 * serve.c -- serving one request around its handler (serve.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "addr.h"
#include "busy.h"
#include "log.h"
#include "lztime.h"
#include "metrics.h"
#include "query.h"
#include "req.h"
#include "resp.h"
#include "serve.h"
#include "util.h"

int
lz_req_begin(struct lz_req *r, FCGX_Request *f)
{
	struct lz_verr	 e;

	(void)lz_busy_take();	/* what happened between requests */
	if (lz_req_fill(r, f, &e) == 0)
		return 0;
	lz_resp_verr(r, &e);
	return -1;
}

void
lz_req_end(struct lz_req *r, int access_log)
{
	int64_t	 us;

	if (r->status == 0)
		lz_resp_error(r, 500, "internal_error", NULL,
		    "The server could not answer this request.");
	if (access_log && lz_log_enabled(LZ_LOG_INFO)) {
		us = lz_mono_us() - r->t0_us;
		lz_log(LZ_LOG_INFO, "rid=%s %s %.200s %d %zu %lld.%03lldms%s%s",
		    r->request_id, r->method, r->rawpath, r->status,
		    r->bytes_out, (long long)(us / 1000),
		    (long long)(us % 1000), r->log_note ? " " : "",
		    r->log_note ? r->log_note : "");
	}
	lz_req_free(r);
}

const struct lz_query *
lz_req_query(struct lz_req *r)
{
	struct lz_verr	 e;

	if (r->q_state == 0) {
		if (lz_query_parse_all(r->query, &r->q, &e) == -1) {
			r->q_state = -1;
			lz_resp_verr(r, &e);
		} else
			r->q_state = 1;
	} else if (r->q_state == -1 && r->status == 0)
		lz_resp_error(r, 400, "invalid_query", NULL,
		    "The query string is malformed.");
	return r->q_state == 1 ? &r->q : NULL;
}

int
lz_req_params(struct lz_req *r, const struct lz_param *params, size_t n,
    struct lz_pval *v)
{
	const struct lz_query	*q;
	struct lz_verr		 e;

	if ((q = lz_req_query(r)) == NULL)
		return -1;
	if (lz_params(q, params, n, v, &e) == -1) {
		lz_resp_verr(r, &e);
		return -1;
	}
	return 0;
}

int
lz_req_body(struct lz_req *r)
{
	char	*buf;
	int	 n;
	size_t	 len = 0, want, max = r->body_max ? r->body_max : LZ_BODY_MAX;

	if (r->body_state == 1 && r->bodylen <= max)
		return 0;
	if (r->body_state == -1)
		return -1;
	if (r->body_state == 1 || r->body_state == 2 ||
	    r->content_length > (long long)max) {
		r->body_state = -1;
		lz_resp_error(r, 413, "body_too_large", NULL,
		    "The request body is larger than %zu bytes.", max);
		return -1;
	}
	want = r->content_length >= 0 ? (size_t)r->content_length : max + 1;
	buf = xmalloc(want + 1);
	while (len < want && r->fcgi != NULL) {
		n = FCGX_GetStr(buf + len, (int)(want - len), r->fcgi->in);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (len > max) {
		free(buf);
		r->body_state = -1;
		lz_resp_error(r, 413, "body_too_large", NULL,
		    "The request body is larger than %zu bytes.", max);
		return -1;
	}
	buf[len] = '\0';
	r->body = buf;
	r->bodylen = len;
	r->body_state = 1;
	return 0;
}

/* The media type want with optional parameters (charset=utf-8 only). */
static int
is_type(const char *ct, const char *want)
{
	const char	*p;
	size_t		 n = strlen(want);

	if (strncasecmp(ct, want, n) != 0)
		return 0;
	p = ct + n;
	while (*p == ' ')
		p++;
	if (*p == '\0')
		return 1;
	if (*p != ';')
		return 0;
	p++;
	while (*p == ' ')
		p++;
	return *p == '\0' || strncasecmp(p, "charset=utf-8", 13) == 0 ||
	    strncasecmp(p, "charset=\"utf-8\"", 15) == 0;
}

static json_t *
req_json(struct lz_req *r, int merge)
{
	json_error_t	 je;
	json_t		*j;

	if (!is_type(r->content_type, "application/json") && !(merge &&
	    is_type(r->content_type, "application/merge-patch+json"))) {
		lz_resp_error(r, 415, "unsupported_media_type", NULL,
		    "The request body must be JSON, sent with Content-Type: "
		    "application/json%s.", merge ? " or "
		    "application/merge-patch+json" : "");
		return NULL;
	}
	if (lz_req_body(r) == -1)
		return NULL;
	j = json_loadb(r->body, r->bodylen, JSON_REJECT_DUPLICATES, &je);
	if (j == NULL) {
		lz_resp_error(r, 400, "invalid_json", NULL,
		    "The request body is not valid JSON: %s (at byte %d).",
		    je.text, je.position);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		lz_resp_error(r, 400, "invalid_json", NULL,
		    "The request body must be a JSON object.");
		return NULL;
	}
	return j;
}

json_t *
lz_req_json(struct lz_req *r)
{
	return req_json(r, 0);
}

json_t *
lz_req_json_merge(struct lz_req *r)
{
	return req_json(r, 1);
}

void
lz_resp_openapi(struct lz_req *r, const char *doc, size_t len)
{
	/* Strict like every other path: no query parameter is taken. */
	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	/* Public, like the API's man page: any page may read it (lz-prompts
	 * says so on every answer already). */
	if (!lz_resp_has_header(r, "Access-Control-Allow-Origin"))
		lz_resp_header(r, "Access-Control-Allow-Origin", "*");
	lz_resp_cached(r, LZ_JSON_TYPE, doc, len,
	    "public, max-age=60");
}

void
lz_resp_metrics(struct lz_req *r, struct lz_metrics *m, const char *allow,
    void (*more)(struct lz_buf *, void *), void *arg)
{
	struct lz_buf	 b = LZ_BUF_INIT;

	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	if (!lz_addr_allowed(allow, r->remote_addr)) {
		lz_resp_error(r, 403, "forbidden", NULL, "The metrics are "
		    "for the addresses of metrics_allow (lz.conf).");
		return;
	}
	lz_metrics_write(m, &b);
	if (more != NULL)
		more(&b, arg);
	lz_resp_header(r, "Cache-Control", "no-store");
	lz_resp_send(r, 200, "text/plain; version=0.0.4; charset=utf-8",
	    b.p ? b.p : "", b.len);
	lz_buf_free(&b);
}
