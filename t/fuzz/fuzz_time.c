/*
 * fuzz_time.c -- lz_time_parse_iso() (expires_at and the like): any
 * accepted time formats back to a string that parses to the same time.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lztime.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s, buf[64];
	int64_t	 ms, again;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (lz_time_parse_iso(s, &ms) == 0) {
		if (ms < 0)
			abort();
		lz_time_fmt_iso(ms, buf, sizeof(buf), 1);
		if (lz_time_parse_iso(buf, &again) != 0 || again != ms)
			abort();
	}
	free(s);
	return 0;
}
