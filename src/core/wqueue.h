/*
 * wqueue.h -- the queue of an SQLite database's writers (DESIGN 1).
 *
 * SQLite lets one connection write at a time; the others wait in its
 * busy handler, which sleeps and tries again with growing pauses (1, 2,
 * 5, ... 100 ms), so that under contention a writer can lose the race
 * again and again: seconds of tail for a transaction of tens of
 * microseconds.  So every process that writes the links database --
 * the pools' workers and their click movers, lzctl, lz-hooks -- first
 * takes a ticket in a queue beside it and waits for its turn on a
 * futex, woken the moment the writer before it is done: writers go in
 * the order they asked, and a wait costs no polling.  SQLite's busy
 * handler stays as the fallback for writers outside the queue (the
 * sqlite3 shell, a backup).
 *
 * The queue is a ticket lock in a small file mapped by every process,
 * "DATABASE-wq" beside the database (like SQLite's own -shm): a counter
 * of tickets handed out, the ticket being served, and per ticket the
 * process that holds it.  A process that dies holding the turn (or
 * waiting for it) is noticed by the waiters, which check after a pause
 * without progress whether the pid of the turn still lives and pass
 * over it if not; a waiter that gives up marks its ticket abandoned and
 * is passed over at once.  The file is made anew after a reboot (the
 * kernel's boot id is in it).
 */
#ifndef LZ_WQUEUE_H
#define LZ_WQUEUE_H

#include <stddef.h>
#include <stdint.h>

struct lz_wqueue;

/* A long wait: logged, and counted apart. */
#define LZ_WQUEUE_LONG_MS	100

struct lz_wqueue_stats {
	uint64_t	 turns;		/* locks taken */
	uint64_t	 waited;	/* of them, after waiting */
	uint64_t	 wait_us;	/* the time waited, in all */
	uint64_t	 long_waits;	/* waits of LZ_WQUEUE_LONG_MS and more */
	uint64_t	 timeouts;	/* waits given up */
	uint64_t	 dead;		/* turns of dead processes passed over */
	uint32_t	 queued;	/* tickets out now, the turn's included */
	uint64_t	 stalled_us;	/* with writers out, how long since a
					   write was last done or the first of
					   them came (0: none out) */
};

/*
 * The queue of the SQLite database at dbpath: its file mapped, made
 * (with the owner of the database when run as root) when missing.
 * Returns NULL with err when it cannot be: the connection then writes
 * as SQLite alone lets it.
 */
struct lz_wqueue *lz_wqueue_open(const char *dbpath, char *err,
	    size_t errlen);
void	lz_wqueue_close(struct lz_wqueue *);

/*
 * Takes the turn: waits for the writers before this one, at most
 * timeout_ms.  0, or -1 when the wait was given up (logged).  Waits of
 * LZ_WQUEUE_LONG_MS and more are logged.  One turn per struct at a
 * time; each connection has its own.
 */
int	lz_wqueue_lock(struct lz_wqueue *, int timeout_ms);
/* Ends the turn taken; the next writer goes at once. */
void	lz_wqueue_unlock(struct lz_wqueue *);
/* Says a write was done (a commit): the queue moves. */
void	lz_wqueue_progress(struct lz_wqueue *);
/* 1 while this struct holds the turn. */
int	lz_wqueue_held(const struct lz_wqueue *);

/* The queue's counts, summed over every process that used it since the
 * file was made. */
void	lz_wqueue_stats(const struct lz_wqueue *, struct lz_wqueue_stats *);

#endif
