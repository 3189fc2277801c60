/*
 * journal.h -- the click journal (DESIGN 1, 3.4): this worker's file of
 * clicks, and the journal files of the directory as the mover takes them.
 *
 * A served redirect's click must never be lost, yet a write transaction
 * per redirect would make every worker queue for SQLite's write lock.  So
 * each worker appends its clicks to a journal file of its own, one
 * pwrite(2) of a record before it answers: once the call returns the
 * record is in the page cache, which outlives the worker even under
 * SIGKILL.  A record is the click's fields cut after its referrer
 * (about 170 bytes without one, 1,024 at most), and none crosses a page
 * (clickrec.h).  The mover (mover.h) moves the records into the database.
 *
 * A worker holds an exclusive flock on its own journal for its lifetime;
 * the kernel drops it when the worker dies, however it dies, so a journal
 * nobody holds is a finished one.  One whose journal has grown big starts
 * a new one and closes the old.
 *
 * Journal files are "w<pid>-<random>.j" in the journal directory;
 * records are in the host's byte order and never leave it.  Their
 * positions are kept under "host_id/" and that name: hosts that share a
 * PostgreSQL database each move their own (DESIGN 7).
 */
#ifndef LZ_JOURNAL_H
#define LZ_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"

struct click;
struct lz_db;

/* The journal directory: dir if set, else "clicks" beside the database
 * (of PostgreSQL: in /var/lib/lz).  Caller frees. */
char	*journal_dir(const char *dir, const char *links_db);

/*
 * Appends c to this worker's journal.  0 once it is written; -1 when it
 * could not be (disk full, no journal): the caller stores the click
 * itself.
 */
int	journal_append(const struct click *c);

/* ---- for the mover (mover.c) ----------------------------------------- */

#define JOURNAL_NAME_MAX	64
/* Its name in click_journals: "host_id/" and the file's name. */
#define JOURNAL_KEY_MAX		(LZ_HOST_ID_MAX + 1 + JOURNAL_NAME_MAX)

/* A journal file: this worker's own, or another's taken to be moved. */
struct journal {
	int	 fd;
	char	 name[JOURNAL_NAME_MAX];	/* of the file */
	char	 key[JOURNAL_KEY_MAX];		/* in the database */
	char	*path;
	int64_t	 size;		/* bytes written (own) or complete */
};

/*
 * Makes dir when missing and this worker's journal in it, locked.
 * host_id (lz.conf, "" with SQLite) prefixes the journals' names in the
 * database.  0, or -1 with err.
 */
int	journal_open(const char *dir, const char *host_id, char *err,
	    size_t errlen);
/* 1 when dir is the directory journal_open() was given. */
int	journal_in(const char *dir);

/* This worker's journal; its fd is -1 when none is open.  The worker's
 * thread's alone. */
struct journal *journal_own(void);

/* Starts a new journal of this worker once this one is big, and closes
 * the old one, which is then finished (no flock held). */
void	journal_rotate(void);

/* Calls fn with the name of each journal file in the directory, but this
 * worker's own when skip_own.  0, or -1 (logged) when it cannot be read. */
int	journal_each(int skip_own, void (*fn)(const char *name, void *arg),
	    void *arg);

/*
 * Opens the journal file name of the directory into j, read-only, as far
 * as it is written: *dead when its worker is gone (nobody holds its
 * flock; it is locked now).  0, or -1 when it is gone (retired just now).
 */
int	journal_take(struct journal *j, const char *name, int *dead);
/* Closes j (taken, or own: where it is, for the next mover). */
void	journal_release(struct journal *j);

/* Removes j, whose every record is in the database, with its position,
 * and closes it. */
void	journal_retire(struct lz_db *, struct journal *j);

/* Forgets the positions of this host's journals whose files are gone (a
 * worker died between removing its journal and forgetting them). */
void	journal_forget_gone(struct lz_db *);

#endif
