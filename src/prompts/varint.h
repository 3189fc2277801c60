/*
 * varint.h -- the LEB128 varints and little-endian words of the search
 * index's stored forms (grams.h), inline for its hot loops; for
 * grams.c and grams_build.c only.
 */
#ifndef LZ_VARINT_H
#define LZ_VARINT_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

static inline void
put_var(struct lz_buf *b, uint64_t v)
{
	uint8_t	 tmp[10];
	size_t	 n = 0;

	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v != 0)
			tmp[n] |= 0x80;
		n++;
	} while (v != 0);
	lz_buf_add(b, tmp, n);
}

/* The bytes of v as a varint. */
static inline size_t
var_len(uint64_t v)
{
	size_t	 n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Reads the varint at *p, before end, and moves *p past it; 0, or -1
 * when it runs past end or over 64 bits. */
static inline int
get_var(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t	*q = *p;
	uint64_t	 x = 0;
	unsigned	 sh;

	if (q < end && *q < 0x80) {		/* the common case */
		*v = *q;
		*p = q + 1;
		return 0;
	}
	for (sh = 0; sh < 64 && q < end; sh += 7) {
		x |= (uint64_t)(*q & 0x7f) << sh;
		if ((*q++ & 0x80) == 0) {
			*v = x;
			*p = q;
			return 0;
		}
	}
	return -1;
}

static inline uint64_t
load64(const uint8_t *p)
{
	uint64_t	 w;

	memcpy(&w, p, sizeof(w));
	return le64toh(w);
}

/* Bits set in x (the instruction where the compiler may use it, else
 * the usual adds, inline either way). */
static inline int
popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

#endif
