/*
 * api_openapi.c -- GET /api/v1/openapi.json: the hand-written OpenAPI 3.1
 * document of the link service's public API, src/links/openapi.json,
 * embedded at build time (build-aux/file2c.sh).  No key, no quota.
 */
#include "config.h"

#include <stddef.h>

#include "ctx.h"
#include "query.h"
#include "resp.h"

extern const char	 lz_links_openapi[];
extern const size_t	 lz_links_openapi_len;

void
links_openapi(struct lz_req *r)
{
	/* Strict like every other path: no query parameter is taken. */
	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	/* As lz-prompts serves its document: cacheable for a minute, with
	 * an ETag (304 when it did not change). */
	lz_resp_header(r, "Access-Control-Allow-Origin", "*");
	lz_resp_cached(r, "application/json; charset=utf-8",
	    lz_links_openapi, lz_links_openapi_len, "public, max-age=60");
}
