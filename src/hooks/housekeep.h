/*
 * housekeep.h -- what an lz-hooks run does to the links database after
 * sending (lz-hooks(8), "Housekeeping"): old delivery logs purged, raw
 * clicks past clicks_retention_days and the visitors of days attribution
 * no longer looks at pruned (the rollups stay), a bounded number of rows
 * a run, and the WAL checkpointed by the policy of store/wal.h.
 */
#ifndef LZ_HOUSEKEEP_H
#define LZ_HOUSEKEEP_H

struct lz_conf;
struct lz_db;
struct store_wal;

/* One run's housekeeping, as c says; wal is the run loop's checkpoint
 * state.  0, or -1 when some of it failed (logged); the next run goes on
 * where it stopped. */
int	housekeep_run(struct lz_db *, const struct lz_conf *c,
	    struct store_wal *wal);

#endif
