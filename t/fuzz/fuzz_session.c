/*
 * fuzz_session.c -- libFuzzer harness for the dashboard's parsers of
 * untrusted headers (session.c): the Cookie header, session tokens and
 * the Origin check.
 *
 * The input is split at its first NUL byte (if any): the first part is
 * the header value, the second the base_url the Origin is checked
 * against.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "auth/session.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*hdr, *base, out[SESSION_TOKEN_LEN + 2];
	const uint8_t	*nul;
	size_t		 n;
	int		 rc;

	nul = memchr(data, '\0', size);
	n = nul ? (size_t)(nul - data) : size;
	hdr = malloc(n + 1);
	memcpy(hdr, data, n);
	hdr[n] = '\0';
	if (nul != NULL) {
		base = malloc(size - n);
		memcpy(base, nul + 1, size - n - 1);
		base[size - n - 1] = '\0';
	} else
		base = strdup("http://127.0.0.1:8080");

	rc = session_cookie_find(hdr, "lz_session", out, sizeof(out));
	if (rc == 1) {
		if (strlen(out) >= sizeof(out))
			abort();
		(void)session_token_wellformed(out);
	} else if (rc != 0 && rc != -1)
		abort();
	rc = session_origin_ok(hdr, NULL, base, hdr, 0);
	if (rc != 0 && rc != 1)
		abort();
	/* An origin equal to base_url's own is always accepted. */
	if (strncmp(base, "http://", 7) == 0 && strlen(base) > 7 &&
	    strlen(base) < 200 && strspn(base + 7, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") == strlen(base + 7) &&
	    session_origin_ok(base, NULL, base, NULL, 0) != 1)
		abort();
	free(hdr);
	free(base);
	return 0;
}
