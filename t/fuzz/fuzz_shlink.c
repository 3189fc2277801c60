/*
 * fuzz_shlink.c -- the parsers of Shlink's pages (lzctl import shlink:
 * src/links/import/apis.h), the short URLs' and the visits'.  Besides
 * memory errors and undefined behaviour: every item as fuzz_apis.h
 * wants it, as many items as the page's count, a page's place that
 * makes sense, visits of no negative time.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "fuzz_apis.h"
#include "import/apis.h"
#include "import/history.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shlink_visits	 sv;
	struct api_page		 pg;
	char			 err[300];
	long			 n = 0;
	size_t			 i;

	if (shlink_links((const char *)data, size, size % 2 ? "d.example" :
	    NULL, fuzz_api_item, &n, &pg, err, sizeof(err)) == 0) {
		if (pg.page < 1 || pg.pages < 0 || pg.count != n)
			abort();
	} else if (n != 0 || err[0] == '\0')
		abort();
	if (shlink_visits((const char *)data, size, &sv, err,
	    sizeof(err)) == 0) {
		if (sv.pg.page < 1 || sv.pg.count != (long)sv.n)
			abort();
		for (i = 0; i < sv.n; i++)
			if (sv.v[i].at < 0 || sv.v[i].addr != NULL)
				abort();
	}
	shlink_visits_free(&sv);
	return 0;
}
