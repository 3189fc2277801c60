/*
 * busy.h -- "the database was too busy", from where it happens to where
 * the answer is written (DESIGN 1, 3.1).
 *
 * Contention is not a fault of the service: a write that could not get
 * its turn in time (wqueue.h), a lock or serialization failure of
 * PostgreSQL.  The database layer notes it on the thread where it
 * happened; an error answer of that request that would have been a 500
 * is a 503 with Retry-After instead (resp.c), whichever handler wrote
 * it.  Per thread: the click mover's contention is no request's.
 */
#ifndef LZ_BUSY_H
#define LZ_BUSY_H

/* Notes contention on this thread. */
void	lz_busy_note(void);
/* 1 when contention was noted on this thread since the last call (which
 * it forgets), else 0. */
int	lz_busy_take(void);

#endif
