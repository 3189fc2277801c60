/*
 * fcgi.c -- FastCGI requests made from fuzz input (fcgi.h).
 */
#include "config.h"

#include <sys/socket.h>

#include <dlfcn.h>
#include <ftw.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "fcgi.h"
#include "serve.h"

/* ---- no network -------------------------------------------------------- */

/*
 * A fuzzer sends nothing anywhere: host names (a webhook's receiving
 * URL, say) are not looked up in DNS; numeric hosts are parsed as the
 * resolver would.  This definition takes the place of libc's.
 */
int
getaddrinfo(const char *node, const char *service,
    const struct addrinfo *hints, struct addrinfo **res)
{
	static int	(*real)(const char *, const char *,
			    const struct addrinfo *, struct addrinfo **);
	struct addrinfo	 h;

	if (real == NULL &&
	    (*(void **)&real = dlsym(RTLD_NEXT, "getaddrinfo")) == NULL)
		return EAI_FAIL;
	if (hints != NULL)
		h = *hints;
	else {
		memset(&h, 0, sizeof(h));
		h.ai_family = AF_UNSPEC;
	}
	h.ai_flags |= AI_NUMERICHOST;
	return real(node, service, &h, res);
}

/* ---- streams over memory ------------------------------------------- */

/* The body is one buffer: once it is read, the stream is at its end. */
static void
in_fill(FCGX_Stream *s)
{
	s->isClosed = 1;
}

/* Output is kept whole in answer; the stream's buffer is outbuf. */
static void
out_empty(FCGX_Stream *s, int doclose)
{
	struct fcgi_fake	*f = s->data;

	lz_buf_add(&f->answer, f->outbuf, (size_t)(s->wrNext - f->outbuf));
	s->wrNext = f->outbuf;
	if (doclose)
		s->isClosed = 1;
}

static int
has_param(char *const *envp, size_t n, const char *kv)
{
	size_t	 len = strcspn(kv, "=") + 1, i;

	for (i = 0; i < n; i++)
		if (strncmp(envp[i], kv, len) == 0)
			return 1;
	return 0;
}

void
fcgi_make(struct fcgi_fake *f, const uint8_t *data, size_t size,
    const char *const *defaults)
{
	const uint8_t	*p = data, *end = data + size, *nl;
	char		*q;
	size_t		 n = 0, i;

	memset(f, 0, sizeof(*f));
	/* Params: lines up to an empty one (or the end). */
	f->params = xmalloc(size + 1);
	q = f->params;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (nl == p) {		/* the empty line: the body follows */
			p++;
			break;
		}
		/* "NAME=VALUE" with a name; a NUL cuts the value. */
		if (n < FCGI_MAXPARAMS && memchr(p, '=', (size_t)(nl - p)) !=
		    NULL && *p != '=') {
			memcpy(q, p, (size_t)(nl - p));
			q[nl - p] = '\0';
			f->envp[n++] = q;
			q += nl - p + 1;
		}
		p = nl < end ? nl + 1 : end;
	}
	for (i = 0; defaults != NULL && defaults[i] != NULL; i++)
		if (n < FCGI_MAXPARAMS && !has_param(f->envp, n, defaults[i]))
			f->envp[n++] = (char *)(uintptr_t)defaults[i];
	f->envp[n] = NULL;

	/* The body: exactly the rest, in its own buffer (no NUL after it),
	 * so ASan sees any read past its end. */
	f->bodylen = (size_t)(end - p);
	f->body = xmalloc(f->bodylen ? f->bodylen : 1);
	memcpy(f->body, p, f->bodylen);

	f->in.rdNext = f->body;
	f->in.stop = f->body + f->bodylen;
	f->in.stopUnget = f->body;
	f->in.wrNext = f->in.stop;
	f->in.isReader = 1;
	f->in.fillBuffProc = in_fill;
	f->in.data = f;

	f->out.wrNext = f->outbuf;
	f->out.stop = f->outbuf + sizeof(f->outbuf);
	f->out.rdNext = f->out.stop;
	f->out.isReader = 0;
	f->out.emptyBuffProc = out_empty;
	f->out.data = f;

	f->req.in = &f->in;
	f->req.out = &f->out;
	f->req.err = NULL;
	f->req.envp = f->envp;
	f->req.ipcFd = -1;
}

void
fcgi_serve(struct fcgi_fake *f, void (*handle)(struct lz_req *, void *))
{
	struct lz_req	 r;

	if (lz_req_begin(&r, &f->req) == 0)
		handle(&r, NULL);
	lz_req_end(&r, 0);
	out_empty(&f->out, 1);
	/* LZ_FUZZ_SHOW=1: each answer on stderr, to see where seeds go. */
	if (getenv("LZ_FUZZ_SHOW") != NULL)
		fprintf(stderr, "---- %s %s\n%.*s\n", r.method, r.rawpath,
		    (int)(f->answer.len < 600 ? f->answer.len : 600),
		    f->answer.p ? f->answer.p : "");
	fcgi_check(f, &r);
}

void
fcgi_free(struct fcgi_fake *f)
{
	free(f->params);
	free(f->body);
	lz_buf_free(&f->answer);
}

/* ---- the answer ----------------------------------------------------- */

#define BROKEN(...) do {						\
	fprintf(stderr, "fcgi: " __VA_ARGS__);				\
	fprintf(stderr, "\n");						\
	abort();							\
} while (0)

/* A CSV body (RFC 4180) of rows of CSV_FIELDS fields, each ending in
 * CRLF. */
#define CSV_FIELDS	9

static void
csv_check(const char *p, size_t len)
{
	const char	*end = p + len;
	int		 quoted = 0, commas = 0;

	for (; p < end; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (quoted)
			continue;
		else if (*p == ',')
			commas++;
		else if (*p == '\r') {
			if (p + 1 == end || p[1] != '\n')
				BROKEN("CSV: a CR outside quotes and not "
				    "a line end");
			if (commas != CSV_FIELDS - 1)
				BROKEN("CSV: a row of %d fields", commas + 1);
			commas = 0;
			p++;
		} else if (*p == '\n')
			BROKEN("CSV: a LF outside quotes");
	}
	if (quoted || commas != 0 || len < 2 || end[-1] != '\n')
		BROKEN("CSV: the last row does not end");
}

void
fcgi_check(struct fcgi_fake *f, const struct lz_req *r)
{
	const char	*a = f->answer.p, *end, *line, *eol, *body;
	const char	*ctype = NULL, *clen = NULL;
	json_error_t	 je;
	json_t		*j, *v;
	size_t		 len = f->answer.len, bodylen;
	int		 status;

	if (len == 0 || a == NULL)
		BROKEN("no answer");
	end = a + len;
	if (len < 12 || memcmp(a, "Status: ", 8) != 0)
		BROKEN("no status line first");
	status = atoi(a + 8);
	if (status != r->status || status < 200 || status > 599)
		BROKEN("status %d, request says %d", status, r->status);
	if (status >= 500)
		BROKEN("a 5xx (%d) answers bad input", status);

	/* Header lines: "Name: value\r\n" up to an empty one. */
	for (line = a; ; line = eol + 2) {
		eol = memmem(line, (size_t)(end - line), "\r\n", 2);
		if (eol == NULL)
			BROKEN("headers do not end");
		if (eol == line)
			break;
		if (memchr(line, '\n', (size_t)(eol - line)) != NULL ||
		    memchr(line, '\r', (size_t)(eol - line)) != NULL ||
		    memchr(line, '\0', (size_t)(eol - line)) != NULL)
			BROKEN("CR, LF or NUL inside a header line");
		if (memchr(line, ':', (size_t)(eol - line)) == NULL)
			BROKEN("a header line without a colon");
		if (strncasecmp(line, "Content-Type: ", 14) == 0)
			ctype = line + 14;
		else if (strncasecmp(line, "Content-Length: ", 16) == 0)
			clen = line + 16;
		if (strncasecmp(line, "Status: ", 8) == 0 && line != a)
			BROKEN("a second status line");
	}
	body = eol + 2;
	bodylen = (size_t)(end - body);
	if (r->meth == LZ_M_HEAD || status == 204 || status == 304) {
		if (bodylen != 0)
			BROKEN("a body on HEAD, 204 or 304");
		return;
	}
	if (clen == NULL) {
		/* Only the clicks' CSV export streams its body. */
		if (ctype == NULL || strncmp(ctype, "text/csv", 8) != 0)
			BROKEN("no Content-Length");
		csv_check(body, bodylen);
	} else if (strtoull(clen, NULL, 10) != bodylen)
		BROKEN("Content-Length is not the body's %zu", bodylen);
	if (ctype != NULL && strncmp(ctype, "application/json", 16) == 0) {
		if ((j = json_loadb(body, bodylen, JSON_REJECT_DUPLICATES,
		    &je)) == NULL)
			BROKEN("JSON body does not parse: %s", je.text);
		if (!json_is_object(j))
			BROKEN("JSON body is not an object");
		if (status >= 400) {
			if ((v = json_object_get(j, "ok")) == NULL ||
			    !json_is_false(v) ||
			    !json_is_string(json_object_get(j, "error")) ||
			    !json_is_string(json_object_get(j, "message")) ||
			    !json_is_string(json_object_get(j,
			    "request_id")))
				BROKEN("error body is not DESIGN 3.1's");
		}
		json_decref(j);
	}
}

/* ---- the instance's directory --------------------------------------- */

static char	*tmpdir;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_tmpdir(void)
{
	if (tmpdir != NULL)
		(void)nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *
fcgi_tmpdir(const char *name)
{
	const char	*t = getenv("TMPDIR");

	tmpdir = xasprintf("%s/lz-%s-XXXXXX", t && *t ? t : "/tmp", name);
	if (mkdtemp(tmpdir) == NULL) {
		perror(tmpdir);
		abort();
	}
	atexit(rm_tmpdir);
	return tmpdir;
}

void
fcgi_write(const char *dir, const char *name, const char *text)
{
	char	*path = xasprintf("%s/%s", dir, name);
	FILE	*fp;

	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) == EOF ||
	    fclose(fp) == EOF) {
		perror(path);
		abort();
	}
	free(path);
}
