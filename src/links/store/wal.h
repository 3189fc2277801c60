/*
 * store/wal.h -- SQLite's write-ahead log kept bounded: the one policy
 * over lz_db_checkpoint() (db.h) that the click mover and lz-hooks
 * follow (lz-links(8), "The WAL"; DESIGN 1: checkpoints belong to them,
 * never to a request).  On PostgreSQL none of it does anything.
 *
 * SQLite's automatic checkpoints copy the WAL back but start it over
 * only when no reader is in it, which under steady load never happens.
 * So the mover truncates it after its moves once it is past a few MiB
 * (store_wal_trim), and lz-hooks every minute whatever its size
 * (store_wal_checkpoint), saying so when a long read transaction keeps
 * it from being checkpointed.
 *
 * A struct store_wal is one caller's state of the policy, set to
 * STORE_WAL_INIT first.  The caller owns it and uses it on one thread at
 * a time, with one of the two functions, whose clock it keeps time by.
 */
#ifndef LZ_STORE_WAL_H
#define LZ_STORE_WAL_H

#include <stdint.h>

struct lz_db;

struct store_wal {
	long long size;		/* the WAL's at the last look */
	int64_t	 next_ms;	/* no try before then */
	int	 stuck;		/* busy tries in a row that copied no more */
	int	 copied;	/* frames the last busy try copied back, -1 */
};

#define STORE_WAL_INIT	{ 0, 0, 0, -1 }

/*
 * After a move of the click mover: the WAL back under 4 MiB, less often
 * while a long read transaction holds it (see wal.c).  Waits at most
 * 50 ms for the readers of the moment; writers wait meanwhile, in their
 * queue.  Returns 1 while the WAL grows or is over 4 MiB: the mover
 * comes back after its short pause, clicks or none (the API's writes
 * grow it too, and only the mover trims it between lz-hooks' runs);
 * 0 when it is small and still.
 */
int	store_wal_trim(struct lz_db *, struct store_wal *);

/*
 * lz-hooks, after a run: the WAL checkpointed and truncated once a
 * minute, waiting at most a second for readers, then left to the next
 * run; a warning when a reader keeps it from being checkpointed.
 */
void	store_wal_checkpoint(struct lz_db *, struct store_wal *);

/*
 * Leaves the checkpoints of this connection's commits to the mover and
 * lz-hooks: SQLite's automatic checkpoint off.  For the connections of
 * requests (the pools' workers, after store_open()), which should never
 * wait for the disk's copying.  0 or -1 (logged).
 */
int	store_wal_manual(struct lz_db *);

#endif
