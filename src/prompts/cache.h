/*
 * cache.h -- the answers of a worker, kept by canonical request
 * (lz-prompts(8), "Answer cache").
 *
 * A key is made of bytes (the route and the validated parameter values,
 * see out_cached() in out.c); the value is an answer's body with its
 * ETag.  The cache holds at most a byte bound of keys, bodies and entry
 * headers, dropping the least recently used; cache_clear() drops
 * everything at once (a new database, a scheduled prompt now visible).
 * One cache per process: a worker's requests are one at a time.
 */
#ifndef LZ_PROMPTS_CACHE_H
#define LZ_PROMPTS_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "resp.h"

struct cache_hit {
	const char	*body;
	size_t		 len;
	const char	*etag;
};

struct cache_stats {
	uint64_t	 hits, misses, stored, evicted, cleared;
	size_t		 entries, bytes, limit;
};

/* The byte bound (0: keep nothing); entries over a new bound go. */
void	cache_limit(size_t bytes);
/* The answer stored under key: 1 (and *hit, valid until the next call
 * into the cache), or 0 (counted as a miss). */
int	cache_get(const void *key, size_t keylen, struct cache_hit *hit);
/* Stores body and its ETag under key (not there yet); an answer larger
 * than the bound is not kept. */
void	cache_put(const void *key, size_t keylen, const char *body,
	    size_t len, const char *etag);
void	cache_clear(void);
void	cache_stats(struct cache_stats *);

#endif
