/*
 * req.h -- one FastCGI request: what came in, what goes out.
 *
 * A worker owns one struct lz_req at a time.  lz_req_fill() fills it from
 * the FastCGI params; handlers read it and answer through resp.h exactly
 * once; lz_req_free() frees everything the request allocated.  What
 * answers around that -- a request line that cannot be parsed, a query
 * or body that does not fit, a request nobody answered -- is serve.h's.
 */
#ifndef LZ_REQ_H
#define LZ_REQ_H

#include <stddef.h>
#include <stdint.h>

#include <fcgiapp.h>
#include <jansson.h>

#include "query.h"
#include "util.h"
#include "verr.h"

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
/* What a route may take instead (lz_req_body_max: the bulk calls), and
 * so what the pool keeps of a body before the route is known. */
#define LZ_BODY_BULK_MAX (1024 * 1024)

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
	int		 body_state;	/* 0 unread, 1 read, -1 refused,
					   2 read but too large */
	size_t		 body_max;	/* 0: LZ_BODY_MAX */

	int		 status;	/* 0 until answered */
	size_t		 bytes_out;
	struct lz_buf	 hdrs;		/* extra response header lines */
	int64_t		 t0_us;		/* lz_mono_us() at begin */
	int64_t		 now_ms;	/* lz_now_ms() at begin */
	const char	*log_note;	/* short text for the access log */
	void		*app;		/* the application's per-request data */
	int		 route;		/* the router's: the index of the route
					   that matched, -1 none */
	char		 ridbuf[40];
	char		 addrbuf[64];
	const char	*common[LZ_REQ_COMMON];	/* see lz_req_param */
};

/* Trusted proxies (CIDR list) for the client address, set once. */
int	 lz_req_set_trusted_proxies(const char *list, char *err, size_t);

/*
 * Fills req from a freshly accepted FastCGI request (f NULL: an empty
 * one, for unit tests).  Returns 0, or -1 with e filled when the
 * request line cannot be parsed (req then has a path of "/" to answer
 * on).  serve.h's lz_req_begin() is this with the answer.
 */
int	 lz_req_fill(struct lz_req *, FCGX_Request *f, struct lz_verr *e);
/* Frees what the request allocated. */
void	 lz_req_free(struct lz_req *);

/*
 * Reads the request's stdin to its end, before its handler runs (the
 * pool does, within the request's deadline): the first LZ_BODY_BULK_MAX
 * bytes kept for lz_req_body() (serve.h), more only noted (a 413 when
 * the handler asks for the body; beyond the route's own limit too).  0, or -1 when stdin broke off (a read
 * error, or the deadline): the request is dropped unanswered.
 */
int	 lz_req_read_body(struct lz_req *);
/* The body request r's handler takes: up to max bytes (at most
 * LZ_BODY_BULK_MAX) instead of LZ_BODY_MAX.  Before lz_req_body. */
void	 lz_req_body_max(struct lz_req *, size_t max);

/* A FastCGI param ("HTTP_AUTHORIZATION", "REMOTE_ADDR"), or NULL. */
const char *lz_req_param(const struct lz_req *, const char *name);

/* Percent-decodes a path; returns NULL for %00, bad escapes, controls or
 * invalid UTF-8.  Caller frees. */
char	*lz_path_decode(const char *s, size_t len);

#endif
