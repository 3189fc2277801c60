/*
 * route.h -- the table-driven dispatcher (kcgi sample.c, cgit cmd.c).
 *
 * An application lists its routes once:
 *
 *	static const struct lz_route routes[] = {
 *	    { LZ_M_GET, "/api/v1/links/:id", F_AUTH, h_link_get },
 *	    ...
 *	};
 *
 * A pattern is a '/'-separated path; a segment ":name" captures one
 * non-empty segment into req->args[].  A route accepting GET also accepts
 * HEAD.  lz_route_dispatch() answers 404 (no pattern matched), 405 with
 * Allow (pattern matched, method did not) and OPTIONS (204 with Allow)
 * itself, runs the application's check of the route flags once, then the
 * handler.
 */
#ifndef LZ_ROUTE_H
#define LZ_ROUTE_H

#include <stddef.h>

#include "req.h"

/* What answers a route: an application declares its handlers with it
 * ("lz_handler api_links_get, api_links_list;"). */
typedef void lz_handler(struct lz_req *);

struct lz_route {
	unsigned	  methods;	/* LZ_M_* bits */
	const char	 *pattern;
	unsigned	  flags;	/* the application's */
	lz_handler	 *handler;
};

struct lz_router {
	const struct lz_route	*routes;
	size_t			 nroutes;
	/* Runs before the handler; returns -1 after answering. May be NULL. */
	int			(*before)(struct lz_req *, const struct lz_route *);
	/* Answers OPTIONS (after Allow is set); NULL: plain 204. */
	void			(*options)(struct lz_req *, unsigned allow);
	/* Answers when no route matched; NULL: JSON 404. */
	void			(*notfound)(struct lz_req *);
};

/*
 * Finds the route for req; captures go to req->args.  Returns NULL when
 * none fits, with *allow the methods of routes whose pattern matched (0
 * when none did).  A path a literal pattern (no ':') matches belongs to
 * the literal routes alone: no later pattern with captures is tried.
 */
const struct lz_route *lz_route_find(struct lz_req *, const struct lz_route *,
	    size_t, unsigned *allow);
void	lz_route_dispatch(struct lz_req *, const struct lz_router *);
/* Writes "GET, HEAD, POST" for a method mask. */
void	lz_route_allow_str(unsigned allow, char *buf, size_t len);

#endif
