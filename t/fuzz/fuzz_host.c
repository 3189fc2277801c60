/*
 * fuzz_host.c -- host names of short domains (src/links/domain/host.h):
 * host_parse (what admins and accounts type, IDN through ICU) and
 * host_of_header (a request's Host).  Besides memory errors and
 * undefined behaviour it checks that
 *  - an accepted name is 1 to HOST_MAX characters of a-z, 0-9, '-' and
 *    '.', without an empty label, a label over 63, or '-' at a label's
 *    end;
 *  - both functions give an accepted name back unchanged (a domain
 *    stored is the domain its requests find), and a port or a trailing
 *    dot on the header changes nothing.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/host.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_name(const char *s)
{
	size_t	 len = strlen(s), i, label = 0;

	if (len == 0 || len > HOST_MAX)
		abort();
	for (i = 0; i <= len; i++) {
		if (i == len || s[i] == '.') {
			if (label == 0 || label > 63 || s[i - 1] == '-' ||
			    s[i - label] == '-')
				abort();
			label = 0;
			continue;
		}
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			abort();
		label++;
	}
}

static void
same_again(const char *s)
{
	char	 out[HOST_MAX + 1], why[128], hdr[HOST_MAX + 16];

	if (host_parse(s, out, sizeof(out), why, sizeof(why)) != 0 ||
	    strcmp(out, s) != 0)
		abort();
	if (host_of_header(s, out, sizeof(out)) != 0 || strcmp(out, s) != 0)
		abort();
	snprintf(hdr, sizeof(hdr), "%s.:8080", s);
	if (host_of_header(hdr, out, sizeof(out)) != 0 || strcmp(out, s) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s, out[HOST_MAX + 1], why[128];

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (host_parse(s, out, sizeof(out), why, sizeof(why)) == 0) {
		check_name(out);
		same_again(out);
	}
	if (host_of_header(s, out, sizeof(out)) == 0) {
		check_name(out);
		same_again(out);
	}
	free(s);
	return 0;
}
