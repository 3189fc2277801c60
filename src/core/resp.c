/*
 * resp.c -- the response of a request, written once.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "busy.h"
#include "log.h"
#include "resp.h"
#include "util.h"

const char *
lz_status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 202: return "Accepted";
	case 204: return "No Content";
	case 301: return "Moved Permanently";
	case 302: return "Found";
	case 303: return "See Other";
	case 304: return "Not Modified";
	case 307: return "Temporary Redirect";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 411: return "Length Required";
	case 413: return "Content Too Large";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	default:  return "Unknown";
	}
}

void
lz_resp_header(struct lz_req *r, const char *name, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 start, i;

	lz_buf_puts(&r->hdrs, name);
	lz_buf_puts(&r->hdrs, ": ");
	start = r->hdrs.len;
	va_start(ap, fmt);
	/* Most values are a string as it is (a redirect's are): no
	 * printf for them. */
	if (strcmp(fmt, "%s") == 0)
		lz_buf_puts(&r->hdrs, va_arg(ap, const char *));
	else if (strchr(fmt, '%') == NULL)
		lz_buf_puts(&r->hdrs, fmt);
	else
		lz_buf_vprintf(&r->hdrs, fmt, ap);
	va_end(ap);
	/* Header injection guard: no CR/LF from values ever. */
	for (i = start; i < r->hdrs.len; i++)
		if (r->hdrs.p[i] == '\r' || r->hdrs.p[i] == '\n')
			r->hdrs.p[i] = ' ';
	lz_buf_puts(&r->hdrs, "\r\n");
}

int
lz_resp_has_header(const struct lz_req *r, const char *name)
{
	const char	*p = lz_buf_str(&r->hdrs);
	size_t		 n = strlen(name);

	while (p != NULL && *p != '\0') {
		if (strncasecmp(p, name, n) == 0 && p[n] == ':')
			return 1;
		if ((p = strstr(p, "\r\n")) != NULL)
			p += 2;
	}
	return 0;
}

void
lz_resp_header_drop(struct lz_req *r, const char *name)
{
	size_t	 n = strlen(name), i = 0, end;
	char	*p;

	while (i < r->hdrs.len) {
		p = r->hdrs.p + i;
		for (end = i; end + 1 < r->hdrs.len && !(r->hdrs.p[end] ==
		    '\r' && r->hdrs.p[end + 1] == '\n'); end++)
			continue;
		end += 2;		/* past the CRLF */
		if (end > r->hdrs.len)
			end = r->hdrs.len;
		if (end - i > n && strncasecmp(p, name, n) == 0 &&
		    p[n] == ':') {
			memmove(p, r->hdrs.p + end, r->hdrs.len - end);
			r->hdrs.len -= end - i;
			continue;
		}
		i = end;
	}
	if (r->hdrs.p != NULL)
		r->hdrs.p[r->hdrs.len] = '\0';
}

/*
 * What a thread keeps from answer to answer, its own (a detached
 * answer's thread writes while the worker writes others): the header
 * block's buffer and the JSON text's (lz_json_text), grown, never
 * shrunk, and freed when the thread ends.
 */
struct scratch {
	struct lz_buf	 head;
	char		*text;
	size_t		 cap;
};

static pthread_key_t	scratch_key;
static pthread_once_t	scratch_once = PTHREAD_ONCE_INIT;

static void
scratch_free(void *p)
{
	struct scratch	*t = p;

	lz_buf_free(&t->head);
	free(t->text);
	free(t);
}

static void
scratch_init(void)
{
	if (pthread_key_create(&scratch_key, scratch_free) != 0)
		abort();
}

static struct scratch *
scratch(void)
{
	struct scratch	*t;

	(void)pthread_once(&scratch_once, scratch_init);
	if ((t = pthread_getspecific(scratch_key)) == NULL) {
		t = xcalloc(1, sizeof(*t));
		t->head = (struct lz_buf)LZ_BUF_INIT;
		if (pthread_setspecific(scratch_key, t) != 0)
			abort();
	}
	return t;
}

/*
 * Writes the status line and headers; len is the Content-Length, or -1
 * for none (a streamed body).  0, or -1 when the request was answered.
 * The header block goes through the thread's buffer, kept from request
 * to request: a response costs no allocation of its own.
 */
static int
send_head(struct lz_req *r, int status, const char *ctype, long long len)
{
	struct lz_buf	*hb = &scratch()->head;

	if (r->status != 0) {
		lz_log(LZ_LOG_WARN, "rid=%s: second answer (%d after %d) "
		    "dropped", r->request_id, status, r->status);
		return -1;
	}
	r->status = status;
	lz_buf_reset(hb);
	lz_buf_puts(hb, "Status: ");
	lz_buf_putll(hb, status);
	lz_buf_putc(hb, ' ');
	lz_buf_puts(hb, lz_status_text(status));
	lz_buf_puts(hb, "\r\n");
	if (ctype != NULL) {
		lz_buf_puts(hb, "Content-Type: ");
		lz_buf_puts(hb, ctype);
		lz_buf_puts(hb, "\r\n");
	}
	if (status != 204 && status != 304 && len >= 0) {
		lz_buf_puts(hb, "Content-Length: ");
		lz_buf_putll(hb, len);
		lz_buf_puts(hb, "\r\n");
	}
	lz_buf_puts(hb, "X-Request-Id: ");
	lz_buf_puts(hb, r->request_id);
	lz_buf_puts(hb, "\r\n");
	if (r->hdrs.len)
		lz_buf_add(hb, r->hdrs.p, r->hdrs.len);
	lz_buf_puts(hb, "\r\n");
	if (r->fcgi != NULL)
		FCGX_PutStr(hb->p, (int)hb->len, r->fcgi->out);
	return 0;
}

void
lz_resp_send(struct lz_req *r, int status, const char *ctype,
    const void *body, size_t len)
{
	if (send_head(r, status, ctype, (long long)len) == -1)
		return;
	if (r->fcgi != NULL && len && r->meth != LZ_M_HEAD && status != 204 &&
	    status != 304)
		FCGX_PutStr(body, (int)len, r->fcgi->out);
	r->bytes_out = len;
}

int
lz_resp_stream(struct lz_req *r, int status, const char *ctype)
{
	if (send_head(r, status, ctype, -1) == -1)
		return -1;
	return r->meth == LZ_M_HEAD ? 0 : 1;
}

int
lz_resp_write(struct lz_req *r, const void *p, size_t len)
{
	if (r->fcgi != NULL && len && r->meth != LZ_M_HEAD &&
	    FCGX_PutStr(p, (int)len, r->fcgi->out) != (int)len)
		return -1;
	r->bytes_out += len;
	return 0;
}

/*
 * Does the If-None-Match list name etag?  Weak comparison (RFC 9110
 * 13.1.2): W/ prefixes are ignored, so the weak tags nginx makes of ours
 * when it compresses a response still match.
 */
static int
etag_matches(const char *list, const char *etag)
{
	const char	*p = list, *end;
	size_t		 len = strlen(etag);

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (*p != '"')
			return 0;
		if ((end = strchr(p + 1, '"')) == NULL)
			return 0;
		if ((size_t)(end + 1 - p) == len && memcmp(p, etag, len) == 0)
			return 1;
		p = end + 1;
	}
	return 0;
}

void
lz_resp_etag(const char *body, size_t len, char etag[LZ_ETAG_SIZE])
{
	unsigned char	 h[16];
	char		 hex[33];

	crypto_generichash(h, sizeof(h), (const unsigned char *)body, len,
	    NULL, 0);
	sodium_bin2hex(hex, sizeof(hex), h, sizeof(h));
	snprintf(etag, LZ_ETAG_SIZE, "\"%s\"", hex);
}

void
lz_resp_tagged(struct lz_req *r, const char *ctype, const char *body,
    size_t len, const char *cache_control, const char *etag)
{
	const char	*inm;

	lz_resp_header(r, "ETag", "%s", etag);
	if (!lz_resp_has_header(r, "Cache-Control"))
		lz_resp_header(r, "Cache-Control", "%s", cache_control);
	if ((inm = lz_req_param(r, "HTTP_IF_NONE_MATCH")) != NULL &&
	    etag_matches(inm, etag))
		lz_resp_send(r, 304, NULL, NULL, 0);
	else
		lz_resp_send(r, 200, ctype, body, len);
}

void
lz_resp_cached(struct lz_req *r, const char *ctype, const char *body,
    size_t len, const char *cache_control)
{
	char	 etag[LZ_ETAG_SIZE];

	lz_resp_etag(body, len, etag);
	lz_resp_tagged(r, ctype, body, len, cache_control, etag);
}

#define JSON_FLAGS	(JSON_COMPACT | JSON_REAL_PRECISION(15))
#define JSON_FAILED	"{\"ok\":false,\"error\":\"internal_error\"}"

/*
 * json_dumps() grows its buffer from 16 bytes by doubling and the caller
 * then measures the string; json_dumpb() into a buffer the thread keeps
 * writes the text once, in place.  The buffer only grows (to the largest
 * answer, a few hundred KiB at most: pages are at most 100 items).  It is
 * the calling thread's own (scratch): the click mover's thread writes
 * click events too (lz_json_dump), and a buffer both wrote once mixed an
 * answer into a webhook's body.
 */
const char *
lz_json_text(const json_t *j, size_t *len)
{
	struct scratch	*t = scratch();
	size_t		 n;

	for (;;) {
		if ((n = json_dumpb(j, t->text, t->cap, JSON_FLAGS)) == 0) {
			*len = sizeof(JSON_FAILED) - 1;
			return JSON_FAILED;
		}
		if (n <= t->cap)
			break;
		t->cap = n < 16384 ? 16384 : n + n / 2;
		t->text = xrealloc(t->text, t->cap);
	}
	*len = n;
	return t->text;
}

/* Any thread: measured, then written into a string of its own. */
char *
lz_json_dump(const json_t *j, size_t *len)
{
	size_t	 n;
	char	*s;

	if ((n = json_dumpb(j, NULL, 0, JSON_FLAGS)) == 0) {
		s = xstrdup(JSON_FAILED);
		n = sizeof(JSON_FAILED) - 1;
	} else {
		s = xmalloc(n + 1);
		if (json_dumpb(j, s, n, JSON_FLAGS) != n) {
			free(s);
			s = xstrdup(JSON_FAILED);
			n = sizeof(JSON_FAILED) - 1;
		} else
			s[n] = '\0';
	}
	if (len)
		*len = n;
	return s;
}

void
lz_resp_json(struct lz_req *r, int status, json_t *j)
{
	const char	*s;
	size_t		 len;

	s = lz_json_text(j, &len);
	lz_resp_send(r, status, LZ_JSON_TYPE, s, len);
	json_decref(j);
}

void
lz_resp_verr(struct lz_req *r, const struct lz_verr *e)
{
	struct lz_verr	 busy, *b = &busy;
	json_t		*j, *v;

	/* A failure of the database's contention is a moment's: 503, and
	 * when to try again (busy.h). */
	if (e->status == 500 && lz_busy_take()) {
		lz_verr_set(b, 503, "busy", NULL, "The service is busy; try "
		    "again in a second.");
		lz_resp_header(r, "Retry-After", "1");
		e = b;
	}
	j = json_object();
	json_object_set_new(j, "ok", json_false());
	json_object_set_new(j, "error", json_string(e->code));
	/* Messages may quote user input cut at a byte limit; json_string
	 * refuses invalid UTF-8, so fall back to a plain sentence. */
	if ((v = json_string(e->msg)) == NULL)
		v = json_string("The request is invalid.");
	json_object_set_new(j, "message", v);
	if (e->param[0] != '\0' && (v = json_string(e->param)) != NULL)
		json_object_set_new(j, "param", v);
	json_object_set_new(j, "request_id", json_string(r->request_id));
	if (e->status >= 400 && !lz_resp_has_header(r, "Cache-Control"))
		lz_resp_header(r, "Cache-Control", "no-store");
	lz_resp_json(r, e->status, j);
}

void
lz_resp_error(struct lz_req *r, int status, const char *code,
    const char *param, const char *fmt, ...)
{
	struct lz_verr	 e;
	va_list		 ap;

	e.status = status;
	snprintf(e.code, sizeof(e.code), "%s", code);
	snprintf(e.param, sizeof(e.param), "%s", param ? param : "");
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	lz_resp_verr(r, &e);
}

void
lz_resp_empty(struct lz_req *r, int status)
{
	lz_resp_send(r, status, NULL, NULL, 0);
}

void
lz_resp_list(struct lz_req *r, long long n, const char *key, json_t *arr,
    const char *what)
{
	if (n < 0) {
		json_decref(arr);
		lz_resp_error(r, 500, "internal_error", NULL, "The %s could "
		    "not be read.", what);
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:o}", "ok", 1, key, arr));
}
