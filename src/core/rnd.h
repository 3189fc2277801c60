/*
 * rnd.h -- randomness (libsodium's CSPRNG) and base62.
 */
#ifndef LZ_RND_H
#define LZ_RND_H

#include <stddef.h>
#include <stdint.h>

extern const char lz_base62[];

/* Writes n random base62 characters and a NUL to out (n + 1 bytes). */
void	lz_rnd_base62(char *out, size_t n);
/* Encodes v as exactly n base62 digits (most significant first). */
void	lz_base62_fixed(uint64_t v, char *out, size_t n);

#endif
