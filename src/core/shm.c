/*
 * shm.c -- memory the pool's processes share, and its robust locks.
 */
#include "config.h"

#include <sys/mman.h>

#include <errno.h>
#include <string.h>

#include "log.h"
#include "shm.h"

void *
lz_shm_map(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;	/* zero-filled */
}

int
lz_shm_mutexes(void *first, size_t n, size_t stride)
{
	pthread_mutexattr_t	 ma;
	size_t			 i;
	int			 rc = 0;

	if (pthread_mutexattr_init(&ma) != 0)
		goto fail;
	if (pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED) != 0 ||
	    pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST) != 0)
		rc = -1;
	for (i = 0; rc == 0 && i < n; i++)
		if (pthread_mutex_init((pthread_mutex_t *)(void *)
		    ((char *)first + i * stride), &ma) != 0)
			rc = -1;
	pthread_mutexattr_destroy(&ma);
	if (rc == 0)
		return 0;
fail:
	errno = ENOMEM;
	return -1;
}

int
lz_shm_lock(pthread_mutex_t *mu, const char *what)
{
	int	 rc;

	if ((rc = pthread_mutex_lock(mu)) == 0)
		return 0;
	if (rc == EOWNERDEAD) {
		if (pthread_mutex_consistent(mu) == 0)
			return 1;
		pthread_mutex_unlock(mu);
		lz_log(LZ_LOG_ERR, "%s: a lock its dead holder left could not "
		    "be taken", what);
		return -1;
	}
	lz_log(LZ_LOG_ERR, "%s: lock: %s", what, strerror(rc));
	return -1;
}
