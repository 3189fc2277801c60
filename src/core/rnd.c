/*
 * rnd.c -- random strings from libsodium.
 */
#include "config.h"

#include <sodium.h>

#include "rnd.h"

const char lz_base62[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void
lz_rnd_base62(char *out, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		out[i] = lz_base62[randombytes_uniform(62)];
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
