/*
 * resp.h -- writing the one response of a request.
 *
 * Every response carries X-Request-Id.  Every error goes through
 * lz_resp_error(), which writes the DESIGN 3.1 body:
 *   {"ok":false,"error":CODE,"message":TEXT,"param":FIELD,"request_id":ID}
 * A second answer to the same request is ignored (and logged), so a
 * handler can never write two responses.
 */
#ifndef LZ_RESP_H
#define LZ_RESP_H

#include <stddef.h>

#include <jansson.h>

#include "req.h"

/* Adds a response header line; call before the answer. */
void	lz_resp_header(struct lz_req *, const char *name, const char *fmt, ...)
	    LZ_PRINTF(3, 4);

/* 1 when a header line called name was added already. */
int	lz_resp_has_header(const struct lz_req *, const char *name);
/* Takes the headers called name (in any case) out of the answer. */
void	lz_resp_header_drop(struct lz_req *, const char *name);

#define LZ_JSON_TYPE	"application/json; charset=utf-8"

/* Sends status, content type and body (no body for HEAD). */
void	lz_resp_send(struct lz_req *, int status, const char *ctype,
	    const void *body, size_t len);

/*
 * A body written in pieces (a long export): lz_resp_stream sends status,
 * content type and headers without a Content-Length (nginx passes the
 * body on chunked), then lz_resp_write sends each piece as it is made.
 * lz_resp_stream returns 1 when a body is to follow, 0 for HEAD (write
 * nothing), -1 when the request was answered already.  An error after
 * the first piece can no longer change the status: log it and stop.
 * lz_resp_write returns 0, or -1 once the connection has failed (nginx
 * gave up on the client): the writer stops making pieces.
 */
int	lz_resp_stream(struct lz_req *, int status, const char *ctype);
int	lz_resp_write(struct lz_req *, const void *, size_t);

/* Sends a JSON body; takes over the reference to j. */
void	lz_resp_json(struct lz_req *, int status, json_t *j);

/* Sends the DESIGN 3.1 error body.  param may be NULL. */
void	lz_resp_error(struct lz_req *, int status, const char *code,
	    const char *param, const char *fmt, ...) LZ_PRINTF(5, 6);
void	lz_resp_verr(struct lz_req *, const struct lz_verr *);

/* 200 with an ETag (a hash of body) and Cache-Control (unless one was
 * set already), or 304 when the request's If-None-Match names that
 * ETag. */
void	lz_resp_cached(struct lz_req *, const char *ctype, const char *body,
	    size_t len, const char *cache_control);
/* The same in two steps, for answers kept with their ETag: the ETag of
 * body (quoted, NUL-terminated), and the answer with an ETag made so. */
#define LZ_ETAG_SIZE	35
void	lz_resp_etag(const char *body, size_t len, char etag[LZ_ETAG_SIZE]);
void	lz_resp_tagged(struct lz_req *, const char *ctype, const char *body,
	    size_t len, const char *cache_control, const char *etag);
/* 204 No Content. */
void	lz_resp_empty(struct lz_req *, int status);
/*
 * A list that was read into arr by a store call that returned n: 200
 * {"ok": true, key: arr} when n >= 0, else 500 "The <what> could not be
 * read." (arr is dropped).  Takes over the reference to arr.
 */
void	lz_resp_list(struct lz_req *, long long n, const char *key,
	    json_t *arr, const char *what);

/* Reason phrase of an HTTP status. */
const char *lz_status_text(int status);

/* Serialises j compactly (UTF-8, 15 significant digits for reals so that
 * 5.3 stays 5.3).  Caller frees.  Any thread. */
char	*lz_json_dump(const json_t *j, size_t *len);
/* The same text in a buffer of the worker's, valid until the next call:
 * the worker's thread only (not the click mover's, nor a slow step's). */
const char *lz_json_text(const json_t *j, size_t *len);

#endif
