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
lz_shm_make(size_t len, size_t at, size_t n, size_t stride)
{
	pthread_mutexattr_t	 ma;
	size_t			 i;
	char			*p;
	int			 rc = 0;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0);		/* zero-filled */
	if (p == MAP_FAILED)
		return NULL;
	if (pthread_mutexattr_init(&ma) != 0)
		rc = -1;
	else {
		if (pthread_mutexattr_setpshared(&ma,
		    PTHREAD_PROCESS_SHARED) != 0 ||
		    pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST) != 0)
			rc = -1;
		for (i = 0; rc == 0 && i < n; i++)
			if (pthread_mutex_init((pthread_mutex_t *)(void *)
			    (p + at + i * stride), &ma) != 0)
				rc = -1;
		pthread_mutexattr_destroy(&ma);
	}
	if (rc == 0)
		return p;
	munmap(p, len);
	errno = ENOMEM;
	return NULL;
}

void
lz_shm_free(void *p, size_t len)
{
	if (p != NULL)
		munmap(p, len);
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
