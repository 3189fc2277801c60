/*
 * rnd.c -- random strings from libsodium.
 */
#include "config.h"

#include <sodium.h>

#include "rnd.h"

const char lz_base62[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/*
 * One read of the CSPRNG for the whole string (libsodium makes a system
 * call per call): bytes of 248 and above are dropped so that byte % 62 is
 * uniform, and refilled in the rare case too many were dropped.
 */
void
lz_rnd_base62(char *out, size_t n)
{
	unsigned char	 buf[64];
	size_t		 i = 0, j = sizeof(buf);

	while (i < n) {
		if (j == sizeof(buf)) {
			randombytes_buf(buf, sizeof(buf));
			j = 0;
		}
		if (buf[j] < 248)
			out[i++] = lz_base62[buf[j] % 62];
		j++;
	}
	sodium_memzero(buf, sizeof(buf));
	out[n] = '\0';
}

void
lz_base62_fixed(uint64_t v, char *out, size_t n)
{
	while (n-- > 0) {
		out[n] = lz_base62[v % 62];
		v /= 62;
	}
}
