/*
 * route.c -- matching a request path against the route table.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "resp.h"
#include "route.h"
#include "util.h"

/*
 * Matches path against pattern segment by segment.  Captures are noted as
 * offsets and copied into req->args only after a full match.
 */
static int
match(struct lz_req *r, const char *pattern)
{
	const char	*p = pattern, *s = r->path;
	size_t		 off[LZ_REQ_MAXARGS], len[LZ_REQ_MAXARGS], n = 0, i;
	size_t		 plen, slen;

	for (;;) {
		if (*p != '/' || *s != '/')
			return 0;
		p++;
		s++;
		plen = strcspn(p, "/");
		slen = strcspn(s, "/");
		if (*p == ':') {
			if (slen == 0 || n == LZ_REQ_MAXARGS)
				return 0;
			off[n] = (size_t)(s - r->path);
			len[n++] = slen;
		} else if (plen != slen || memcmp(p, s, plen) != 0)
			return 0;
		p += plen;
		s += slen;
		if (*p == '\0' && *s == '\0')
			break;
		if (*p == '\0' || *s == '\0')
			return 0;
	}
	/* Matched: copy the captures out (the path stays whole). */
	for (i = 0; i < n; i++)
		r->args[i] = xstrndup(r->path + off[i], len[i]);
	r->nargs = n;
	return 1;
}

static void
free_args(struct lz_req *r)
{
	size_t	 i;

	for (i = 0; i < r->nargs; i++)
		free(r->args[i]);
	r->nargs = 0;
}

const struct lz_route *
lz_route_find(struct lz_req *r, const struct lz_route *routes, size_t n,
    unsigned *allow)
{
	const struct lz_route	*hit = NULL;
	unsigned		 m;
	size_t			 i;
	int			 literal = 0;

	*allow = 0;
	for (i = 0; i < n; i++) {
		free_args(r);
		/* A path a literal pattern matched is that route's alone:
		 * "POST /healthz" is no slug's. */
		if (literal && strchr(routes[i].pattern, ':') != NULL)
			continue;
		if (!match(r, routes[i].pattern))
			continue;
		if (strchr(routes[i].pattern, ':') == NULL)
			literal = 1;
		m = routes[i].methods;
		if (m & LZ_M_GET)
			m |= LZ_M_HEAD;
		if (m & r->meth) {
			hit = &routes[i];
			break;
		}
		*allow |= m;
	}
	if (hit == NULL)
		free_args(r);
	return hit;
}

void
lz_route_allow_str(unsigned allow, char *buf, size_t len)
{
	static const struct lz_bitname	 tab[] = {
		{ LZ_M_GET, "GET" }, { LZ_M_HEAD, "HEAD" },
		{ LZ_M_POST, "POST" }, { LZ_M_PUT, "PUT" },
		{ LZ_M_PATCH, "PATCH" }, { LZ_M_DELETE, "DELETE" },
		{ LZ_M_OPTIONS, "OPTIONS" },
	};

	lz_bits_str(allow, tab, LZ_NELEM(tab), ", ", buf, len);
}

void
lz_route_dispatch(struct lz_req *r, const struct lz_router *rt)
{
	const struct lz_route	*route;
	unsigned		 allow;
	char			 allowstr[80];

	route = lz_route_find(r, rt->routes, rt->nroutes, &allow);
	if (route == NULL) {
		if (allow == 0) {
			if (rt->notfound)
				rt->notfound(r);
			else
				lz_resp_error(r, 404, "not_found", NULL,
				    "There is nothing at this path.");
		} else {
			allow |= LZ_M_OPTIONS;
			lz_route_allow_str(allow, allowstr, sizeof(allowstr));
			lz_resp_header(r, "Allow", "%s", allowstr);
			if (r->meth == LZ_M_OPTIONS) {
				if (rt->options)
					rt->options(r, allow);
				else
					lz_resp_empty(r, 204);
			} else
				lz_resp_error(r, 405, "method_not_allowed",
				    NULL, "This path does not accept %.16s; "
				    "it accepts %s.", r->method, allowstr);
		}
		goto out;
	}
	r->route = (int)(route - rt->routes);
	if (rt->before && rt->before(r, route) == -1)
		goto out;
	route->handler(r);
out:
	free_args(r);
}
