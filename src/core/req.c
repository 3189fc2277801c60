/*
 * req.c -- filling a request from FastCGI params; body and query access.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "addr.h"
#include "log.h"
#include "lztime.h"
#include "query.h"
#include "req.h"
#include "resp.h"
#include "utf8.h"
#include "util.h"

static struct lz_cidr	*proxies;
static size_t		 nproxies;

void
lz_verr_set(struct lz_verr *e, int status, const char *code,
    const char *param, const char *fmt, ...)
{
	va_list	 ap;

	e->status = status;
	snprintf(e->code, sizeof(e->code), "%s", code);
	snprintf(e->param, sizeof(e->param), "%s", param ? param : "");
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

int
lz_req_set_trusted_proxies(const char *list, char *err, size_t errlen)
{
	struct lz_cidr	*c;
	char		 bad[128];
	long		 n;

	if ((n = lz_cidr_list(list, &c, bad, sizeof(bad))) < 0) {
		snprintf(err, errlen, "trusted_proxies: bad address or "
		    "network '%s'", bad);
		return -1;
	}
	free(proxies);
	proxies = c;
	nproxies = (size_t)n;
	return 0;
}

static int
trusted(const char *s, size_t len)
{
	struct lz_addr	 a;
	char		 tmp[64];
	size_t		 i;

	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len == 0 || len >= sizeof(tmp))
		return 0;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (lz_addr_parse(tmp, &a) == -1)
		return 0;
	for (i = 0; i < nproxies; i++)
		if (lz_cidr_match(&proxies[i], &a))
			return 1;
	return 0;
}

/*
 * The client address: REMOTE_ADDR, unless that is a trusted proxy; then
 * the right-most X-Forwarded-For entry that is not itself a trusted proxy.
 */
static const char *
client_addr(struct lz_req *r, const char *remote)
{
	const char	*xff, *end, *start;
	struct lz_addr	 a;
	size_t		 len;

	if (nproxies == 0 || !trusted(remote, strlen(remote)))
		return remote;
	if ((xff = lz_req_param(r, "HTTP_X_FORWARDED_FOR")) == NULL)
		return remote;
	end = xff + strlen(xff);
	while (end > xff) {
		for (start = end; start > xff && start[-1] != ','; start--)
			continue;
		if (!trusted(start, (size_t)(end - start)) || start == xff) {
			while (start < end && (*start == ' ' || *start == '\t'))
				start++;
			len = (size_t)(end - start);
			while (len > 0 && (start[len - 1] == ' ' ||
			    start[len - 1] == '\t'))
				len--;
			if (len == 0 || len >= sizeof(r->addrbuf))
				return remote;
			memcpy(r->addrbuf, start, len);
			r->addrbuf[len] = '\0';
			if (lz_addr_parse(r->addrbuf, &a) == -1)
				return remote;
			return r->addrbuf;
		}
		end = start - 1;
	}
	return remote;
}

static unsigned
method_bit(const char *m)
{
	static const struct {
		const char	*name;
		unsigned	 bit;
	} tab[] = {
		{ "GET", LZ_M_GET }, { "HEAD", LZ_M_HEAD },
		{ "POST", LZ_M_POST }, { "PUT", LZ_M_PUT },
		{ "DELETE", LZ_M_DELETE }, { "PATCH", LZ_M_PATCH },
		{ "OPTIONS", LZ_M_OPTIONS },
	};
	size_t	 i;

	for (i = 0; i < LZ_NELEM(tab); i++)
		if (strcmp(m, tab[i].name) == 0)
			return tab[i].bit;
	return LZ_M_OTHER;
}

char *
lz_path_decode(const char *s, size_t len)
{
	char	*out;
	long	 n;

	out = xmalloc(len + 1);
	if ((n = lz_pct_decode(s, len, 0, out)) < 0 ||
	    lz_utf8_count(out, (size_t)n, LZ_UTF8_NOCTRL) < 0) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * The parameters every request reads, found in one pass over the
 * environment by lz_req_begin (FCGX_GetParam scans it for each name:
 * a dozen scans of some 30 strings a request).
 */
#define COMMON(s)	{ s, sizeof(s) - 1 }
static const struct {
	const char	*name;
	size_t		 len;
} common[LZ_REQ_COMMON] = {
	COMMON("REQUEST_ID"), COMMON("REQUEST_METHOD"), COMMON("REMOTE_ADDR"),
	COMMON("HTTP_USER_AGENT"), COMMON("CONTENT_TYPE"),
	COMMON("CONTENT_LENGTH"), COMMON("REQUEST_URI"),
	COMMON("DOCUMENT_URI"), COMMON("QUERY_STRING"),
	COMMON("HTTP_X_FORWARDED_FOR"), COMMON("HTTP_REFERER"),
	COMMON("HTTP_COOKIE"), COMMON("HTTP_IF_NONE_MATCH"),
	COMMON("HTTP_HOST"),
};
#undef COMMON

/* Fills r->common[]; the first of a name sent twice wins, as it does in
 * FCGX_GetParam. */
static void
find_common(struct lz_req *r)
{
	char	**e;
	size_t	  i, n;

	for (e = r->fcgi->envp; *e != NULL; e++) {
		n = strcspn(*e, "=");
		if ((*e)[n] != '=')
			continue;
		for (i = 0; i < LZ_NELEM(common); i++)
			if (common[i].len == n && r->common[i] == NULL &&
			    memcmp(*e, common[i].name, n) == 0) {
				r->common[i] = *e + n + 1;
				break;
			}
	}
}

const char *
lz_req_param(const struct lz_req *r, const char *name)
{
	size_t	 i;

	if (r->fcgi == NULL)
		return NULL;
	for (i = 0; i < LZ_NELEM(common); i++)
		if (strcmp(name, common[i].name) == 0)
			return r->common[i];
	return FCGX_GetParam(name, r->fcgi->envp);
}

int
lz_req_begin(struct lz_req *r, FCGX_Request *f)
{
	const char	*uri, *qmark, *v;
	unsigned char	 rnd[8];
	long long	 cl;

	memset(r, 0, sizeof(*r));
	r->fcgi = f;
	if (f != NULL)
		find_common(r);
	r->t0_us = lz_mono_us();
	r->now_ms = lz_now_ms();
	r->content_length = -1;

	if ((v = lz_req_param(r, "REQUEST_ID")) != NULL && *v != '\0' &&
	    strlen(v) < sizeof(r->ridbuf) && strspn(v,
	    "0123456789abcdefABCDEF-") == strlen(v))
		snprintf(r->ridbuf, sizeof(r->ridbuf), "%s", v);
	else {
		randombytes_buf(rnd, sizeof(rnd));
		sodium_bin2hex(r->ridbuf, sizeof(r->ridbuf), rnd, sizeof(rnd));
	}
	r->request_id = r->ridbuf;

	r->method = (v = lz_req_param(r, "REQUEST_METHOD")) ? v : "GET";
	r->meth = method_bit(r->method);
	v = lz_req_param(r, "REMOTE_ADDR");
	r->remote_addr = client_addr(r, v ? v : "");
	r->user_agent = (v = lz_req_param(r, "HTTP_USER_AGENT")) ? v : "";
	r->content_type = (v = lz_req_param(r, "CONTENT_TYPE")) ? v : "";
	if ((v = lz_req_param(r, "CONTENT_LENGTH")) != NULL && *v != '\0') {
		if (lz_parse_ll(v, 0, (long long)1 << 50, &cl) == -1) {
			r->path = xstrdup("/");
			r->query = "";
			r->rawpath = "/";
			lz_resp_error(r, 400, "bad_request", NULL,
			    "The Content-Length header is not a number.");
			return -1;
		}
		r->content_length = cl;
	}

	if ((uri = lz_req_param(r, "REQUEST_URI")) == NULL || uri[0] != '/') {
		v = lz_req_param(r, "DOCUMENT_URI");
		uri = v ? v : "/";
	}
	r->rawpath = uri;
	qmark = strchr(uri, '?');
	r->query = qmark ? qmark + 1 : "";
	if ((v = lz_req_param(r, "QUERY_STRING")) != NULL && qmark == NULL)
		r->query = v;
	r->path = lz_path_decode(uri, qmark ? (size_t)(qmark - uri) :
	    strlen(uri));
	if (r->path == NULL) {
		r->path = xstrdup("/");
		lz_resp_error(r, 400, "invalid_path", NULL, "The request path "
		    "has a malformed %%-escape, %%00, a control character or "
		    "invalid UTF-8.");
		return -1;
	}
	return 0;
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
	lz_query_free(&r->q);
	free(r->path);
	free(r->body);
	lz_buf_free(&r->hdrs);
	r->path = NULL;
	r->body = NULL;
}

const struct lz_query *
lz_req_query(struct lz_req *r)
{
	struct lz_verr	 e;

	if (r->q_state == 0) {
		if (lz_query_parse(r->query, &r->q, &e) == -1) {
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
	size_t	 len = 0, want;

	if (r->body_state != 0)
		return r->body_state == 1 ? 0 : -1;
	if (r->content_length > LZ_BODY_MAX) {
		r->body_state = -1;
		lz_resp_error(r, 413, "body_too_large", NULL,
		    "The request body is larger than %d bytes.", LZ_BODY_MAX);
		return -1;
	}
	want = r->content_length >= 0 ? (size_t)r->content_length :
	    LZ_BODY_MAX + 1;
	buf = xmalloc(want + 1);
	while (len < want && r->fcgi != NULL) {
		n = FCGX_GetStr(buf + len, (int)(want - len), r->fcgi->in);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (len > LZ_BODY_MAX) {
		free(buf);
		r->body_state = -1;
		lz_resp_error(r, 413, "body_too_large", NULL,
		    "The request body is larger than %d bytes.", LZ_BODY_MAX);
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
