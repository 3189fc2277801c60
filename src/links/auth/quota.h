/*
 * quota.h -- the monthly quota of API calls (DESIGN 3.3) without a
 * write per call.
 *
 * The database counts, per account and UTC month, the calls leased to
 * hosts (usage.calls, store_usage_lease): a host takes a block at a time
 * -- an eighth of what is left, at most QUOTA_BLOCK, at least one -- and
 * its workers count the block out in memory they share.  A call writes
 * nothing while its host holds some of a block; a block is never more
 * than what is left of the quota, so the hosts together never serve
 * more calls than the quota, and as the month's end of the quota nears
 * the blocks shrink so that every host gets a share of it.  A worker
 * killed with a block leased forfeits what it did not use (the month's
 * count says those calls were made); no crash grants a call beyond the
 * quota.
 *
 * What a host tells a caller (X-RateLimit-Remaining) is the quota less
 * the calls leased in the database less what the host still holds:
 * exact with one host; with several, what another host holds counts as
 * used until it is (lz-cluster(7)).
 *
 * The table lives in one MAP_SHARED mapping made before the fork, like
 * the rate limits: a reload keeps it.  It is set-associative, keyed by
 * account and month; when a set is full the entry used least recently
 * is reused, forfeiting what it held.  It also remembers when each API
 * key was last noted as used, so that api_keys.last_used_at is written
 * at most once a minute per key and host.
 */
#ifndef LZ_QUOTA_H
#define LZ_QUOTA_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;
struct quota_table;

#define QUOTA_BLOCK	100	/* the most calls a lease takes */
#define QUOTA_TOUCH_MS	60000	/* a key's last use, written this often */

/*
 * A table for nslots accounts (and as many keys), made before fork.
 * NULL (errno set) on failure.
 */
struct quota_table *quota_create(size_t nslots);
void	quota_destroy(struct quota_table *);

struct quota_answer {
	int		 allowed;	/* 1: the call is counted */
	long long	 used;		/* calls of the month so far, as this
					   host knows them */
};

/*
 * Counts one call of account_id in month ("YYYY-MM") against quota,
 * leasing a block from db when the host holds none (its other calls
 * wait for the lease).  Returns 0 with *a, or -1 when the database
 * failed (logged).  Never call it inside a transaction.
 */
int	quota_take(struct quota_table *, struct lz_db *, int64_t account_id,
	    const char *month, long long quota, struct quota_answer *a);

/* The calls of account_id in month that this host leased and has not
 * counted out, for a reader of usage.calls (the dashboard). */
long long quota_held(struct quota_table *, int64_t account_id,
	    const char *month);

/* 1 when key_id's last use should be written at now (it was not in the
 * last QUOTA_TOUCH_MS on this host), and notes it so. */
int	quota_touch_due(struct quota_table *, int64_t key_id, int64_t now);

#endif
