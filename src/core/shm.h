/*
 * shm.h -- memory the pool's processes share: mapped by the supervisor
 * before the first fork (MAP_SHARED | MAP_ANONYMOUS, so a reload keeps
 * it and nothing on disk names it), and the locks in it: robust,
 * process-shared mutexes, so that a worker killed holding one stops
 * nobody (the next holder is told, and repairs what the dead one left).
 * The rate limits (ratelimit.h), the quota leases (links auth/quota.h)
 * and the detached answers' table (pool.c) live so.
 */
#ifndef LZ_SHM_H
#define LZ_SHM_H

#include <pthread.h>
#include <stddef.h>

/*
 * len zeroed bytes shared with the processes forked after, with n
 * robust process-shared mutexes in it, the first at offset at and the
 * others stride bytes apart.  NULL with errno.
 */
void	*lz_shm_make(size_t len, size_t at, size_t n, size_t stride);
void	 lz_shm_free(void *, size_t len);

/*
 * Locks mu: 0; 1 when its last holder died holding it (the lock is
 * taken and usable again: repair what the holder may have left half
 * done before unlocking); -1 when it cannot be taken (logged as what).
 */
int	 lz_shm_lock(pthread_mutex_t *mu, const char *what);

#endif
