/*
 * req.c -- filling a request from FastCGI params (req.h).
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
#include "utf8.h"
#include "util.h"

static struct lz_cidr	*proxies;
static size_t		 nproxies;

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
lz_req_fill(struct lz_req *r, FCGX_Request *f, struct lz_verr *e)
{
	const char	*uri, *qmark, *v;
	unsigned char	 rnd[8];
	long long	 cl;

	memset(r, 0, sizeof(*r));
	r->route = -1;
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
			lz_verr_set(e, 400, "bad_request", NULL,
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
		lz_verr_set(e, 400, "invalid_path", NULL, "The request path "
		    "has a malformed %%-escape, %%00, a control character or "
		    "invalid UTF-8.");
		return -1;
	}
	return 0;
}

void
lz_req_free(struct lz_req *r)
{
	lz_query_free(&r->q);
	free(r->path);
	free(r->body);
	lz_buf_free(&r->hdrs);
	r->path = NULL;
	r->body = NULL;
}

void
lz_req_body_max(struct lz_req *r, size_t max)
{
	r->body_max = max < LZ_BODY_BULK_MAX ? max : LZ_BODY_BULK_MAX;
}

int
lz_req_read_body(struct lz_req *r)
{
	char	 chunk[4096];
	size_t	 len = 0, cap = 0;
	int	 n, over = 0;

	if (r->fcgi == NULL || r->body_state != 0)
		return 0;
	/* Read in chunks; the first LZ_BODY_BULK_MAX + 1 bytes kept, so
	 * that one more tells a body too large for any route (the route's
	 * own limit is lz_req_body's). */
	while ((n = FCGX_GetStr(chunk, sizeof(chunk), r->fcgi->in)) > 0) {
		if (len > LZ_BODY_BULK_MAX) {
			over = 1;
			continue;
		}
		if (len + (size_t)n + 1 > cap) {
			cap = cap ? cap * 2 : (size_t)n + 1;
			if (r->content_length > 0 && (size_t)r->content_length <
			    LZ_BODY_BULK_MAX && cap < (size_t)r->content_length +
			    1)
				cap = (size_t)r->content_length + 1;
			while (cap < len + (size_t)n + 1)
				cap *= 2;
			r->body = xrealloc(r->body, cap);
		}
		memcpy(r->body + len, chunk, (size_t)n);
		len += (size_t)n;
	}
	if (FCGX_GetError(r->fcgi->in) != 0)
		return -1;
	if (over || len > LZ_BODY_BULK_MAX || r->content_length >
	    LZ_BODY_BULK_MAX) {
		free(r->body);
		r->body = NULL;
		r->bodylen = 0;
		r->body_state = 2;
		return 0;
	}
	if (r->body == NULL)
		return 0;	/* none: lz_req_body makes an empty one */
	r->body[len] = '\0';
	r->bodylen = len;
	r->body_state = 1;
	return 0;
}
