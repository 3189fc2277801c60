/*
 * fuzz_path.c -- lz_path_decode(), the request path as every route sees
 * it: %-escapes decoded, and nothing but UTF-8 without controls let by.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "req.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s, *out;
	size_t	 n;

	/* Exact size, no NUL: the decoder must stay within len. */
	if ((s = malloc(size ? size : 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	if ((out = lz_path_decode(s, size)) != NULL) {
		n = strlen(out);
		if (n > size || lz_utf8_count(out, n, LZ_UTF8_NOCTRL) < 0 ||
		    (memchr(s, '%', size) == NULL && (n != size ||
		    memcmp(out, s, size) != 0)))
			abort();
		free(out);
	}
	free(s);
	return 0;
}
