/*
 * src_kutt.c -- the Kutt source of an import (apis.h, lzctl(8) import
 * kutt): its API v2's links, skip by skip.  Kutt gives a link's count
 * of visits and no visit itself: each link's count is set once the
 * links are in (api_counts(), the history of none).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "import/apis.h"
#include "import/http.h"
#include "import/import.h"
#include "import/src_api.h"
#include "util.h"

#define LINKS_PAGE	100	/* links asked a page */

/* The links, page by page.  0, or -1. */
static int
links(struct api_run *x)
{
	struct api_page	 pg;
	char		*path, *body, err[300], what[64];
	size_t		 len;
	long		 skip = 0;
	int		 rc;

	for (;;) {
		path = xasprintf("/api/v2/links?skip=%ld&limit=%d", skip,
		    LINKS_PAGE);
		snprintf(what, sizeof(what), "the links from %ld", skip);
		body = api_get(x, path, what, &len);
		free(path);
		if (body == NULL)
			return -1;
		rc = kutt_links(body, len, x->o->domain, api_item, x, &pg,
		    err, sizeof(err));
		free(body);
		if (rc == -1) {
			import_fail(x->run, -2, "Kutt, %s: %s", what, err);
			return -1;
		}
		if (import_failed(x->run))
			return -1;
		skip += pg.count;
		if (pg.count == 0 || skip >= pg.total)
			break;
	}
	return 0;
}

int
import_kutt(struct lz_db *db, const struct lz_conf *conf,
    const struct api_source *src, const struct import_opts *o,
    struct import_stats *st)
{
	struct api_run	 x;

	if (api_begin(&x, db, conf, "kutt", "Kutt", "API key", src, NULL,
	    "X-API-KEY: %s", o, st) == 0 && links(&x) == 0) {
		import_drain(x.run);
		if (!import_failed(x.run) && !o->dry)
			api_counts(&x);
	}
	return api_end(&x);
}
