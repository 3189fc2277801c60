/*
 * api_openapi.c -- GET /api/v1/openapi.json: the hand-written OpenAPI 3.1
 * document of the link service's public API, src/links/openapi.json,
 * embedded at build time (build-aux/file2c.sh).  No key, no quota; served
 * as lz-prompts serves its own (lz_resp_openapi).
 */
#include "config.h"

#include <stddef.h>

#include "api.h"
#include "ctx.h"
#include "resp.h"
#include "serve.h"

extern const char	 lz_links_openapi[];
extern const size_t	 lz_links_openapi_len;

void
links_openapi(struct lz_req *r)
{
	lz_resp_openapi(r, lz_links_openapi, lz_links_openapi_len);
}
