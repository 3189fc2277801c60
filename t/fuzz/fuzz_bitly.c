/*
 * fuzz_bitly.c -- the parsers of Bitly's answers (lzctl import bitly:
 * src/links/import/apis.h): groups, pages of bitlinks, click summaries.
 * Besides memory errors and undefined behaviour: every item as
 * fuzz_apis.h wants it, at least one a bitlink, groups with a GUID, a
 * total of no less than nothing.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_apis.h"
#include "import/apis.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
group(const char *guid, void *arg)
{
	if (guid == NULL || *guid == '\0')
		abort();
	(*(long *)arg)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct api_page	 pg;
	char		 err[300];
	int64_t		 total = -5;
	long		 n = 0;

	if (bitly_links((const char *)data, size, size % 2 ? "d.example" :
	    NULL, fuzz_api_item, &n, &pg, err, sizeof(err)) == 0) {
		/* A custom bitlink is one item more of its bitlink. */
		if (n < pg.count || strlen(pg.next) >= sizeof(pg.next))
			abort();
	} else if (n != 0 || err[0] == '\0')
		abort();
	n = 0;
	(void)bitly_groups((const char *)data, size, group, &n, err,
	    sizeof(err));
	if (bitly_clicks((const char *)data, size, &total, err,
	    sizeof(err)) == 0 && total < 0)
		abort();
	return 0;
}
