/*
 * fcgi.h -- a FastCGI request made from fuzz input, without a socket,
 * for the harnesses that drive a service's whole request path
 * (fuzz_fcgi_links.c, fuzz_fcgi_prompts.c): lz_req_begin(), the route
 * table, the flags' checks and the handlers, then lz_req_end().
 *
 * The input is what nginx would hand over: lines "NAME=VALUE" (the
 * FastCGI params: REQUEST_METHOD, REQUEST_URI, HTTP_COOKIE, ...) up to
 * an empty line, then the request body.  A NUL ends a value, as it
 * does in libfcgi's envp.  At most FCGI_MAXPARAMS params are taken.
 *
 * fcgi_check() holds the answer to the promises of resp.h: exactly one
 * answer, a status line, header lines without CR/LF or NUL inside, a
 * Content-Length that is the body's, a JSON body that parses (and for an
 * error is the DESIGN 3.1 body), and no 5xx -- bad input is the client's
 * fault.  It abort()s, so libFuzzer reports the input, when one is
 * broken.
 */
#ifndef LZ_FUZZ_FCGI_H
#define LZ_FUZZ_FCGI_H

#include <stddef.h>
#include <stdint.h>

#include <fcgiapp.h>

#include "req.h"
#include "util.h"

#define FCGI_MAXPARAMS	64

struct fcgi_fake {
	FCGX_Request	 req;
	FCGX_Stream	 in, out;
	char		*envp[FCGI_MAXPARAMS + 1];
	char		*params;	/* the copies envp points into */
	unsigned char	*body;
	size_t		 bodylen;
	unsigned char	 outbuf[4096];
	struct lz_buf	 answer;	/* all bytes written */
};

/*
 * Builds the request from data.  Params the input does not set are taken
 * from defaults (NULL-terminated "NAME=VALUE" strings).  Free with
 * fcgi_free().
 */
void	fcgi_make(struct fcgi_fake *, const uint8_t *data, size_t size,
	    const char *const *defaults);
/* The answer once the request ended; checks it (see above). */
void	fcgi_check(struct fcgi_fake *, const struct lz_req *);
void	fcgi_free(struct fcgi_fake *);

/* Runs one request the way the pool's worker loop does. */
void	fcgi_serve(struct fcgi_fake *, void (*handle)(struct lz_req *,
	    void *));

/* A directory for the harness's instance, removed at exit. */
char	*fcgi_tmpdir(const char *name);
/* Writes text to dir/name; aborts on failure. */
void	fcgi_write(const char *dir, const char *name, const char *text);

#endif
