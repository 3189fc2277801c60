/*
 * api_openapi.c -- /api/v1/openapi.json (spec 4.12): the hand-written
 * OpenAPI 3.1 document src/prompts/openapi.json, embedded at build time.
 */
#include "config.h"

#include "prompts.h"
#include "resp.h"
#include "serve.h"

extern const char	 lz_prompts_openapi[];
extern const size_t	 lz_prompts_openapi_len;

void
api_openapi(struct lz_req *r)
{
	lz_resp_openapi(r, lz_prompts_openapi, lz_prompts_openapi_len);
}
