/*
 * mover.h -- the click mover (DESIGN 1, 3.4): the click journals
 * (journal.h) moved into the database.
 *
 * About once a second one worker's mover thread -- whichever takes the
 * mover's lock, a flock(2) on "mover.lock" in the journal directory --
 * moves the new records of every journal into the clicks table, in short
 * transactions each of which also stores how far that journal has been
 * moved; a crash at any point neither loses nor repeats a click.  A
 * journal nobody holds (its worker died, or replaced it when it grew big)
 * is moved to its end and removed.  A worker that stops cleanly moves and
 * removes its own.  After a move the mover keeps SQLite's WAL bounded
 * (store/wal.h).
 */
#ifndef LZ_MOVER_H
#define LZ_MOVER_H

#include <stddef.h>

struct lz_db;

/*
 * Opens this worker's journal in dir (made when missing) and, unless
 * another worker is moving, moves the journals there.  host_id (lz.conf,
 * "" with SQLite) prefixes their names in the database.  0, or -1 with
 * err.
 */
int	mover_open(struct lz_db *, const char *dir, const char *host_id,
	    char *err, size_t errlen);

/*
 * Starts the mover thread, with a connection of its own to the database
 * at db_path.  Call it once the worker is confined (threads started
 * before do not inherit seccomp and Landlock).  Without it mover_tick()
 * moves.  0, or -1 with err.
 */
int	mover_start(const char *db_path, char *err, size_t errlen);

/* Starts a new journal when this one is big; without the mover thread,
 * also moves (unless another worker is at it).  Call between requests. */
void	mover_tick(struct lz_db *);

/* Stops the mover thread, moves this worker's journal and removes it
 * (clean exit).  A journal that cannot be moved now stays for the next
 * worker. */
void	mover_close(struct lz_db *);

/*
 * fn(n, arg) after each move that left nothing behind, with the clicks
 * it moved (0 when none came): the pool's metrics of the mover, its
 * clicks moved and when it last caught up.  On whichever thread moves:
 * fn touches nothing of the worker's.
 */
void	mover_on_move(void (*fn)(long n, void *arg), void *arg);

/*
 * fn(db, arg) every every_ms milliseconds, on the mover thread's
 * connection (else on the worker's, from mover_tick): writes that need
 * no request, such as purging expired throttles, kept off the thread
 * that answers requests, which must never wait for the write turn
 * between requests.  Call before mover_start(); at most a few.
 */
void	mover_chore(void (*fn)(struct lz_db *, void *), void *arg,
	    int every_ms);

/*
 * Moves every journal in dir (the one mover_open() was given), waiting
 * for the mover's lock: live ones as far as they are written, dead ones
 * to the end, then removes those.  Returns the clicks moved, or -1 (also
 * while the mover thread runs).
 */
long	mover_collect(struct lz_db *, const char *dir);

#endif
