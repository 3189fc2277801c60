/*
 * clicklog.h -- the click journal (DESIGN 1, 3.4).
 *
 * A served redirect's click must never be lost, yet a write transaction
 * per redirect would make every worker queue for SQLite's write lock.  So
 * each worker appends its clicks to a journal file of its own, one
 * pwrite(2) of a record before it answers: once the call returns the
 * record is in the page cache, which outlives the worker even under
 * SIGKILL.  A record is the click's fields cut after its referrer
 * (about 170 bytes without one, 1,024 at most), and none crosses a page.
 *
 * About once a second one worker's mover thread -- whichever takes the
 * mover's lock, a flock(2) on "mover.lock" -- moves the new records of
 * every journal into the clicks table, in short transactions each of
 * which also stores how far that journal has been moved; a crash at any
 * point neither loses nor repeats a click.  A worker holds an exclusive
 * flock on its own journal for its lifetime; the kernel drops it when
 * the worker dies, however it dies, and a journal nobody holds is moved
 * to its end and removed.  A worker that stops cleanly moves and removes
 * its own; one whose journal has grown big starts a new one and closes
 * the old, which is then moved to its end and removed like a dead one.
 *
 * Journal files are "w<pid>-<random>.j" in the journal directory;
 * records are in the host's byte order and never leave it.  Their
 * positions are kept under "host_id/" and that name: hosts that share a
 * PostgreSQL database each move their own (DESIGN 7).
 */
#ifndef LZ_CLICKLOG_H
#define LZ_CLICKLOG_H

#include <stddef.h>
#include <stdint.h>

struct click;
struct lz_db;

/*
 * Opens this worker's journal in dir (made when missing) and, unless
 * another worker is moving, moves the journals there.  host_id (lz.conf,
 * "" with SQLite) prefixes their names in the database.  0, or -1 with
 * err.
 */
int	clicklog_open(struct lz_db *, const char *dir, const char *host_id,
	    char *err, size_t errlen);

/*
 * Starts the mover thread, with a connection of its own to the database
 * at db_path.  Call it once the worker is confined (threads started
 * before do not inherit seccomp and Landlock).  Without it
 * clicklog_tick() moves.  0, or -1 with err.
 */
int	clicklog_start(const char *db_path, char *err, size_t errlen);

/*
 * Appends c to the journal.  0 once it is written; -1 when it could not
 * be (disk full, no journal): the caller stores the click itself.
 */
int	clicklog_append(const struct click *c);

/* Starts a new journal when this one is big; without the mover thread,
 * also moves (unless another worker is at it).  Call between requests. */
void	clicklog_tick(struct lz_db *);

/* Stops the mover thread, moves this worker's journal and removes it
 * (clean exit).  A journal that cannot be moved now stays for the next
 * worker. */
void	clicklog_close(struct lz_db *);

/*
 * Moves every journal in dir (the one clicklog_open() was given), waiting
 * for the mover's lock: live ones as far as they are written, dead ones
 * to the end, then removes those.  Returns the clicks moved, or -1 (also
 * while the mover thread runs).
 */
long	clicklog_collect(struct lz_db *, const char *dir);

/* The journal directory: dir if set, else "clicks" beside the database
 * (of PostgreSQL: in /var/lib/lz).  Caller frees. */
char	*clicklog_dir(const char *dir, const char *links_db);

#endif
