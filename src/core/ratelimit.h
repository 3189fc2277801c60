/*
 * ratelimit.h -- exact sliding-window rate limits shared by all the
 * workers of a pool (DESIGN 4: not nginx's leaky bucket).
 *
 * The supervisor creates the table before it forks (the pool's pre_fork
 * hook); it lives in one MAP_SHARED anonymous region, so every worker sees
 * the same counts.  Each key (a client address and a tier, or anything
 * else of up to LZ_RL_KEYMAX bytes) keeps the times of its last requests;
 * a request is allowed when fewer than `limit' of them fall inside the
 * window ending now.  Refused requests are not recorded, so a client that
 * waits Retry-After seconds is served.
 *
 * The table is set-associative: a keyed hash picks a bucket of
 * LZ_RL_WAYS slots guarded by one process-shared robust mutex.  A slot
 * takes about 4 bytes per unit of maxlimit, as address space: its pages
 * are touched only when a key uses them.  A worker
 * killed while holding it costs nothing but that bucket's consistency
 * check.  When a bucket is full, the slot used least recently is reused;
 * size the table (nslots) above the number of distinct keys expected in
 * one window.
 */
#ifndef LZ_RATELIMIT_H
#define LZ_RATELIMIT_H

#include <stddef.h>
#include <stdint.h>

#define LZ_RL_KEYMAX	32	/* bytes of a key */
#define LZ_RL_WAYS	8	/* slots per bucket */

struct lz_rl;

struct lz_rl_result {
	int		 allowed;	/* 1 served, 0 refused */
	unsigned	 limit;
	unsigned	 remaining;	/* requests left in the window now */
	int		 reset;		/* seconds until the oldest counted
					   request leaves the window (>= 1
					   when one is counted, else 0) */
	int		 retry_after;	/* seconds (>= 1) when refused */
};

/*
 * Creates a table of at least nslots keys, each remembering up to
 * maxlimit request times.  Returns NULL (errno set) on failure.  Call
 * before fork; the children inherit the mapping.
 */
struct lz_rl	*lz_rl_create(size_t nslots, unsigned maxlimit);
void		 lz_rl_destroy(struct lz_rl *);

/*
 * Counts one request of key at now_ms (any clock that all processes
 * share, e.g. CLOCK_MONOTONIC) against limit requests per window_ms.
 * limit must be 1..maxlimit: size the table for the largest limit the
 * configuration allows, so that a reload cannot outgrow it.  Fills res;
 * returns 0, or -1 (logged) when the arguments are unusable or the table
 * cannot be locked -- res then refuses the request (allowed 0,
 * retry_after 1): a limiter never fails open.
 */
int	 lz_rl_take(struct lz_rl *, const void *key, size_t keylen,
	    unsigned limit, int64_t window_ms, int64_t now_ms,
	    struct lz_rl_result *res);

/*
 * The key of a client address for rate limits: a tag byte (e.g. the
 * tier), then the address -- IPv4 whole, IPv6 by its /64 prefix, since
 * one subscriber usually holds a whole /64.  An address that does not
 * parse is keyed by its text (cut to fit).  Returns the key length.
 */
size_t	 lz_rl_addr_key(const char *addr, unsigned char tag,
	    unsigned char key[LZ_RL_KEYMAX]);

/*
 * For tests: locks the bucket of key and returns without unlocking, as a
 * worker killed inside lz_rl_take would leave it.  Returns 0 or -1.
 */
int	 lz_rl_test_lock(struct lz_rl *, const void *key, size_t keylen);

#endif
