/*
 * req.h -- one FastCGI request: what came in, what goes out.
 *
 * A worker owns one struct lz_req at a time.  lz_req_begin() fills it from
 * the FastCGI params; handlers read it and answer through resp.h exactly
 * once; lz_req_end() logs the request and frees everything the request
 * allocated.
 */
#ifndef LZ_REQ_H
#define LZ_REQ_H

#include <stddef.h>
#include <stdint.h>

#include <fcgiapp.h>
#include <jansson.h>

#include "query.h"
#include "util.h"

/* Request methods, as bits so a route can accept several. */
enum {
	LZ_M_GET	= 0x01,
	LZ_M_HEAD	= 0x02,
	LZ_M_POST	= 0x04,
	LZ_M_PUT	= 0x08,
	LZ_M_DELETE	= 0x10,
	LZ_M_PATCH	= 0x20,
	LZ_M_OPTIONS	= 0x40,
	LZ_M_OTHER	= 0x80
};

#define LZ_REQ_MAXARGS	4
#define LZ_BODY_MAX	(64 * 1024)	/* DESIGN 3.1 */

/*
 * A validation failure, filled by the pure parsers (query.c, jbody.c and
 * the applications' validators) and turned into the DESIGN 3.1 error body
 * by lz_resp_verr().
 */
struct lz_verr {
	int	 status;		/* HTTP status, normally 400 */
	char	 code[48];		/* snake_case error code */
	char	 param[128];		/* the field at fault, or "" */
	char	 msg[256];		/* a human sentence */
};

void	lz_verr_set(struct lz_verr *, int status, const char *code,
	    const char *param, const char *fmt, ...) LZ_PRINTF(5, 6);

#define LZ_REQ_COMMON	14	/* parameters found in one pass */

struct lz_req {
	FCGX_Request	*fcgi;		/* NULL in unit tests */
	unsigned	 meth;		/* one LZ_M_* bit */
	const char	*method;	/* REQUEST_METHOD as sent */
	char		*path;		/* percent-decoded path, no query */
	const char	*rawpath;	/* the path as sent (REQUEST_URI) */
	const char	*query;		/* raw query string, "" if none */
	const char	*request_id;	/* nginx $request_id, or made up */
	const char	*remote_addr;	/* the client: REMOTE_ADDR, or the
					   X-Forwarded-For entry a trusted
					   proxy vouches for */
	const char	*user_agent;	/* "" if none */
	const char	*content_type;	/* "" if none */
	long long	 content_length; /* -1 if none */
	char		*args[LZ_REQ_MAXARGS];	/* route captures (own) */
	size_t		 nargs;
	struct lz_query	 q;		/* parsed query, see lz_req_query */
	int		 q_state;	/* 0 unparsed, 1 ok, -1 invalid */
	char		*body;		/* request body, see lz_req_body */
	size_t		 bodylen;
	int		 body_state;	/* 0 unread, 1 read, -1 refused */

	int		 status;	/* 0 until answered */
	size_t		 bytes_out;
	struct lz_buf	 hdrs;		/* extra response header lines */
	int64_t		 t0_us;		/* lz_mono_us() at begin */
	int64_t		 now_ms;	/* lz_now_ms() at begin */
	const char	*log_note;	/* short text for the access log */
	void		*app;		/* the application's per-request data */
	char		 ridbuf[40];
	char		 addrbuf[64];
	const char	*common[LZ_REQ_COMMON];	/* see lz_req_param */
};

/* Trusted proxies (CIDR list) for the client address, set once. */
int	 lz_req_set_trusted_proxies(const char *list, char *err, size_t);

/* Fills req from a freshly accepted FastCGI request.  Returns 0, or -1
 * after answering 400 for a request line that cannot be parsed. */
int	 lz_req_begin(struct lz_req *, FCGX_Request *);
/* Answers 500 if nothing answered, logs, frees per-request memory. */
void	 lz_req_end(struct lz_req *, int access_log);

/* A FastCGI param ("HTTP_AUTHORIZATION", "REMOTE_ADDR"), or NULL. */
const char *lz_req_param(const struct lz_req *, const char *name);

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
struct lz_param;
struct lz_pval;
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

/* Percent-decodes a path; returns NULL for %00, bad escapes, controls or
 * invalid UTF-8.  Caller frees. */
char	*lz_path_decode(const char *s, size_t len);

#endif
