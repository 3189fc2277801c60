/*
 * fuzz_link.c -- the link create body as POST /api/v1/links sees it:
 * json_loadb() as lz_req_json() calls it, then link_parse(), and for a
 * valid link its representation, link_json().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "link/link.h"
#include "req.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NOW_MS	1795000000000LL	/* a fixed "now": 2026-11-18 */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t		*body, *rep;
	json_error_t	 je;
	struct link	 l;
	struct lz_verr	 e;
	char		*out;

	body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &je);
	if (body == NULL)
		return 0;
	if (json_is_object(body)) {
		memset(&l, 0, sizeof(l));
		memset(&e, 0, sizeof(e));
		if (link_parse(body, NOW_MS, &l, &e) == 0) {
			if (l.target_url == NULL || (l.redirect_type != 301 &&
			    l.redirect_type != 302))
				abort();
			if ((rep = link_json(&l, "https://s.example", NOW_MS))
			    == NULL)
				abort();
			if ((out = json_dumps(rep, JSON_COMPACT)) == NULL)
				abort();
			free(out);
			json_decref(rep);
		} else if (e.status < 400 || e.status > 499 ||
		    e.code[0] == '\0')
			abort();
		link_free(&l);
	}
	json_decref(body);
	return 0;
}
