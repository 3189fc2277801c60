/*
 * wal.c -- the WAL policy of the mover and lz-hooks (store/wal.h).
 */
#include "config.h"

#include <unistd.h>

#include "db.h"
#include "log.h"
#include "lztime.h"
#include "store/wal.h"

/*
 * The mover's (store_wal_trim): over SQLite's automatic checkpoint size
 * (1000 pages) the WAL is truncated.  Tries fail now and then under load
 * (a reader still in the WAL after WAL_TRIM_WAIT_MS), but each copies
 * more of the WAL back than the one before.  WAL_TRIM_FAILS failed tries
 * in a row that copied back no more mean a long read transaction (an
 * admin's sqlite3 shell): then the mover tries only every
 * WAL_TRIM_BACKOFF_MS, since each try holds writers back for up to
 * WAL_TRIM_WAIT_MS.  Otherwise at most every WAL_TRIM_EVERY_MS, however
 * often the mover moves: each truncation holds writers back while it
 * copies, and checkpoints of their own (lz-hooks') must find it idle
 * most of the time -- unless the WAL is past WAL_TRIM_HIGH_BYTES and the
 * last try was not busy: then at every move.  A heavy write load
 * (test_load: 15-29 MiB a second) would otherwise take the WAL to 4 MiB
 * plus a second of writes between truncations.
 */
#define WAL_TRIM_BYTES		(4 * 1024 * 1024)
#define WAL_TRIM_HIGH_BYTES	(4 * 1024 * 1024)
#define WAL_TRIM_WAIT_MS	500
#define WAL_TRIM_FAILS		3
#define WAL_TRIM_BACKOFF_MS	(30 * 1000)
#define WAL_TRIM_EVERY_MS	1000

/* lz-hooks' (store_wal_checkpoint). */
#define CHECKPOINT_EVERY_MS	(60 * 1000)
#define CHECKPOINT_BUSY_MS	1000

/* On the monotonic clock: a move is no time of day. */
int
store_wal_trim(struct lz_db *db, struct store_wal *w)
{
	int64_t		 now = lz_mono_us() / 1000;
	long long	 size;
	int		 frames, copied, rc, grew;

	size = lz_db_wal_bytes(db);
	grew = size != w->size;
	w->size = size;
	if (size <= WAL_TRIM_BYTES) {
		w->stuck = 0;	/* truncated meanwhile (lz-hooks) */
		w->copied = -1;
		return grew;
	}
	if (now < w->next_ms && (w->stuck > 0 || size <= WAL_TRIM_HIGH_BYTES))
		return 1;
	/*
	 * 0: another connection held the checkpoint lock, so this try did
	 * not run, cost nothing and says nothing of readers; the next move
	 * tries again.  (Counted as a failed try, three of these -- frequent
	 * under a heavy write load -- once took a busy moment for a long
	 * reader and stopped trimming for 30 s.)
	 */
	if ((rc = lz_db_checkpoint(db, WAL_TRIM_WAIT_MS, &frames,
	    &copied)) == 0)
		return 1;
	w->next_ms = now + WAL_TRIM_EVERY_MS;
	if (rc != 2) {
		if (rc == 1)
			lz_log(LZ_LOG_DEBUG, "WAL of %lld bytes checkpointed "
			    "and truncated in %lld ms", size,
			    (long long)(lz_mono_us() / 1000 - now));
		w->size = 0;
		w->stuck = 0;
		w->copied = -1;
		return 1;
	}
	if (copied == w->copied && ++w->stuck >= WAL_TRIM_FAILS)
		w->next_ms = now + WAL_TRIM_BACKOFF_MS;
	else if (copied != w->copied)
		w->stuck = 1;
	lz_log(LZ_LOG_DEBUG, "WAL trim busy: %d frames copied back (%d), "
	    "try %d, next in %lld ms", copied, w->copied, w->stuck,
	    (long long)(w->next_ms - now));
	w->copied = copied;
	return 1;
}

/*
 * Folds the write-ahead log back into the database and truncates it, when
 * nobody is in the middle of a transaction.  Waits at most
 * CHECKPOINT_BUSY_MS for that, then leaves it to the next run.  On the
 * clock of the day, as lz-hooks' runs are.
 */
void
store_wal_checkpoint(struct lz_db *db, struct store_wal *w)
{
	int	 frames, copied, rc, tries = 0;

	if (lz_now_ms() < w->next_ms)
		return;
	/* 0: another connection was checkpointing (a commit's automatic
	 * checkpoint, the click mover's), so this one did not run at all;
	 * it runs when that one is done. */
	while ((rc = lz_db_checkpoint(db, CHECKPOINT_BUSY_MS, &frames,
	    &copied)) == 0 && ++tries < 20)
		usleep(50000);
	switch (rc) {
	case 1:
		lz_log(LZ_LOG_DEBUG, "wal checkpoint: %d frames, truncated",
		    copied);
		break;
	case 0:
		lz_log(LZ_LOG_DEBUG, "wal checkpoint: database busy; next run");
		break;
	case 2:
		if (frames <= 0) {
			lz_log(LZ_LOG_DEBUG, "wal checkpoint: database busy; "
			    "next run");
			break;
		}
		/*
		 * Waited CHECKPOINT_BUSY_MS for readers and one is still in
		 * the WAL: a read transaction open that long is none of
		 * lz's (requests, moves and batches take milliseconds) but
		 * an admin's sqlite3 shell or a backup.  Nothing can be
		 * checkpointed past its snapshot, so the WAL grows by every
		 * write until it ends (lz-links(8), "The WAL").
		 */
		lz_log(LZ_LOG_WARN, "wal checkpoint: a reader keeps the WAL "
		    "from being checkpointed (%d frames, %.1f MiB, %d copied "
		    "back); it grows with every write until that read "
		    "transaction ends", frames,
		    (double)lz_db_wal_bytes(db) / (1024 * 1024), copied);
		break;
	}
	w->next_ms = lz_now_ms() + CHECKPOINT_EVERY_MS;
}

int
store_wal_manual(struct lz_db *db)
{
	if (!lz_db_is_sqlite(db))
		return 0;
	return lz_db_exec(db, "PRAGMA wal_autocheckpoint=0");
}
