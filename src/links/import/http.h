/*
 * http.h -- the GET requests of the importers that read another
 * shortener's HTTP API (src_shlink.c, src_kutt.c, src_bitly.c; lzctl(8)
 * import), through one blocking libcurl handle: lzctl does one thing at
 * a time, and a source pages through its API in order anyway.
 *
 * HTTPS only, the peer's certificate and name always verified (a
 * private CA is given as a file, never a switch to turn checks off):
 * the requests carry the source's API key.  An answer is at most
 * HTTP_BODY_MAX bytes.  A 429 waits as its Retry-After says (at most
 * HTTP_WAIT_MAX seconds), a 5xx or a network error waits longer each
 * time, a few times over; then the request fails with why.
 */
#ifndef LZ_IMPORT_HTTP_H
#define LZ_IMPORT_HTTP_H

#include <stddef.h>

#define HTTP_BODY_MAX	(32 * 1024 * 1024)
#define HTTP_WAIT_MAX	60	/* seconds, of a Retry-After */
#define HTTP_TRIES	6	/* a request, with its retries */

/* How a GET failed. */
#define HTTP_FAIL	-1	/* the network, the server, a bad answer */
#define HTTP_DENIED	-2	/* 401 or 403: the key or token refused */
#define HTTP_NOTFOUND	-3	/* 404 */

struct http;

/* A client trusting cacert's CAs (PEM; NULL: the system's). */
struct http	*http_new(const char *cacert);
void		 http_free(struct http *);

/*
 * GETs url with the headers hdrs ("Name: value", NULL-terminated).  0
 * with the body of a 2xx answer that is JSON's text (an object or an
 * array at least by its first byte) in *body (NUL-terminated, the
 * caller frees) and its length in *len; else HTTP_FAIL, HTTP_DENIED or
 * HTTP_NOTFOUND with why in err (never a header's value).
 */
int		 http_get(struct http *, const char *url,
		    const char *const *hdrs, char **body, size_t *len,
		    char *err, size_t errlen);

/* s escaped as one segment of a URL's path or a query's value (the
 * caller frees). */
char		*http_escape(struct http *, const char *s);

/* A base URL as given (--from): https:// and a host, a trailing '/'
 * taken off; NULL when it is not one, why in err. */
char		*http_base(const char *url, char *err, size_t errlen);

#endif
