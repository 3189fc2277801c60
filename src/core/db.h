/*
 * db.h -- SQLite access shared by every program: open with the pragmas
 * of DESIGN 1 (WAL, NORMAL sync, busy time-out), migrations from the
 * embedded sql/<service>/NNNN-name.sql files (PRAGMA user_version), and a
 * table of statements prepared once per process and indexed by an enum.
 */
#ifndef LZ_DB_H
#define LZ_DB_H

#include <stddef.h>

#include <sqlite3.h>

struct lz_migration {
	int		 version;	/* NNNN of the file name */
	const char	*name;		/* the file name */
	const char	*sql;
};

struct lz_db {
	sqlite3			 *h;
	sqlite3_stmt		**st;
	const char *const	 *sql;
	size_t			  nst;
	/* The statements lz_db_stmt handed out since the last
	 * lz_db_reset_all, so that only those are looked at. */
	size_t			 *used;
	size_t			  nused;
	unsigned char		 *inuse;
	char			 *path;
};

#define LZ_DB_BUSY_MS	5000	/* how long a statement waits for a lock */

#define LZ_DB_RO	0x01	/* read-only */
#define LZ_DB_CREATE	0x02	/* create if missing */
#define LZ_DB_IMMUTABLE	0x04	/* with LZ_DB_RO: a file nobody changes in
				   place (replaced by rename only), read
				   without locks or journals */

/* Opens path; returns 0, or -1 with a message in err. */
int	lz_db_open(struct lz_db *, const char *path, int flags, char *err,
	    size_t errlen);
void	lz_db_close(struct lz_db *);

/*
 * Checks the schema version against the newest migration: returns 0 when
 * equal, -1 with a message telling to run "lzctl migrate" otherwise.
 */
int	lz_db_check_version(struct lz_db *, const struct lz_migration *, size_t,
	    char *err, size_t errlen);
/*
 * Applies the migrations newer than the database's user_version, each in
 * one transaction, after switching the database to WAL (a persistent
 * setting).  Refuses a database newer than the newest migration without
 * changing a byte of it.
 * Returns 0 (with *from and *to) or -1 with err.
 */
int	lz_db_migrate(struct lz_db *, const struct lz_migration *, size_t,
	    int *from, int *to, char *err, size_t errlen);
int	lz_db_user_version(struct lz_db *);

/* Prepares sql[0..n) (persistent statements); 0 or -1 with err. */
int	lz_db_prepare(struct lz_db *, const char *const *sql, size_t n,
	    char *err, size_t errlen);
/* Statement i, reset and with bindings cleared. */
sqlite3_stmt *lz_db_stmt(struct lz_db *, size_t i);

/* Resets every prepared statement, ending any read transaction a
 * statement left open (call at the end of each request). */
void	lz_db_reset_all(struct lz_db *);

/*
 * Keeps the WAL bounded under load.  SQLite's automatic checkpoints copy
 * the WAL back into the database but can start it over only when no
 * reader is in it, which under steady load never happens (checkpoint
 * starvation): the WAL would grow without end.  When the WAL file is over
 * max_bytes, this checkpoints it and truncates it, waiting at most
 * wait_ms for the readers of the moment (new writers wait meanwhile).
 * Call it from one place, off the request path, about once a second.
 * Returns 1 truncated, 0 not over max_bytes, 2 readers stayed in it, -1
 * error (logged).  After 2, *copied is how many of its frames are copied
 * back: under load it moves on from one try to the next, while a long
 * read transaction (lz-hooks reports those) holds it where its snapshot
 * began.
 */
int	lz_db_wal_trim(struct lz_db *, long long max_bytes, int wait_ms,
	    int *copied);

/* Runs SQL without results; 0 or -1 (logged). */
int	lz_db_exec(struct lz_db *, const char *sql);
int	lz_db_begin(struct lz_db *);	/* BEGIN IMMEDIATE */
int	lz_db_commit(struct lz_db *);
void	lz_db_rollback(struct lz_db *);

/* Binds text or NULL. */
int	lz_db_bind_text(sqlite3_stmt *, int idx, const char *s);
/* Column text, "" for NULL (never NULL). */
const char *lz_db_text(sqlite3_stmt *, int col);

#endif
