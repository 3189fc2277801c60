/*
 * fuzz_kutt.c -- the parser of Kutt's pages of links (lzctl import
 * kutt: src/links/import/apis.h).  Besides memory errors and undefined
 * behaviour: every item as fuzz_apis.h wants it, as many as the page's
 * count, a total of no less than nothing.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "fuzz_apis.h"
#include "import/apis.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct api_page	 pg;
	char		 err[300];
	long		 n = 0;

	if (kutt_links((const char *)data, size, size % 2 ? "d.example" :
	    NULL, fuzz_api_item, &n, &pg, err, sizeof(err)) == 0) {
		if (pg.total < 0 || pg.count != n)
			abort();
	} else if (n != 0 || err[0] == '\0')
		abort();
	return 0;
}
