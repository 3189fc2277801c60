/*
 * store/throttles.h -- the SQL of the password throttles
 * (auth/throttle.h has the rules; these are only the statements).
 */
#ifndef LZ_STORE_THROTTLES_H
#define LZ_STORE_THROTTLES_H

#include <stdint.h>

struct lz_db;

/*
 * Takes one try of scope at now unless limit were taken in its window,
 * which is window ms long, or twice as long as the last one (up to
 * longest) after a full one.  1 taken, 0 refused (with *until the end
 * of the full window), -1 on error.
 */
int	store_throttle_take(struct lz_db *, const char *scope, int64_t now,
	    int64_t window, long long limit, int64_t longest, int64_t *until);
/* Gives a try of scope back.  0 or -1. */
int	store_throttle_give_back(struct lz_db *, const char *scope);
/* Forgets scope's tries.  0 or -1. */
int	store_throttle_clear(struct lz_db *, const char *scope);
/* Forgets windows that ended a window's length before now.  0 or -1. */
int	store_throttle_purge(struct lz_db *, int64_t now);

#endif
