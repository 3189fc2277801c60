/*
 * fuzz_scope.c -- the scopes of API keys (src/links/auth/scope.h):
 * scope_parse_list (what lzctl key create --scope takes) and
 * scope_by_name (each name of the dashboard's "scopes" array).  Besides
 * memory errors and undefined behaviour it checks that
 *  - an accepted list sets only known bits, at least one, and
 *    scope_list() writes it back as a list that parses to the same bits;
 *  - a refused list names its offending item in bad, a C string;
 *  - scope_by_name answers a scope only for its exact name.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "auth/scope.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*s, bad[40], back[SC__MAX * SCOPE_NAME_MAX];
	unsigned	 bits, again;
	int		 sc;

	if (size > 4096)
		return 0;
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(bad, 'x', sizeof(bad));
	if (scope_parse_list(s, &bits, bad, sizeof(bad)) == 0) {
		if (bits == 0 || (bits & ~SCOPES_ALL) != 0)
			abort();
		scope_list(bits, back, sizeof(back));
		if (scope_parse_list(back, &again, bad, sizeof(bad)) != 0 ||
		    again != bits)
			abort();
	} else if (memchr(bad, '\0', sizeof(bad)) == NULL)
		abort();
	if ((sc = scope_by_name(s)) != -1 &&
	    (sc >= SC__MAX || strcmp(scope_names[sc], s) != 0))
		abort();
	free(s);
	return 0;
}
