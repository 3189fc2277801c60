/*
 * housekeep.c -- lz-hooks' housekeeping of the links database
 * (housekeep.h).
 */
#include "config.h"

#include <stdint.h>

#include "conf.h"
#include "db.h"
#include "housekeep.h"
#include "log.h"
#include "lztime.h"
#include "mailq.h"
#include "outbox.h"
#include "stats/rollup.h"
#include "store/audit.h"
#include "store/clicks.h"
#include "store/mails.h"
#include "store/store.h"
#include "store/wal.h"

/* Rows a pruning transaction deletes, and a run at most (the next run
 * goes on). */
#define PRUNE_BATCH		1000
#define PRUNE_MAX		200000

/*
 * Raw clicks past clicks_retention_days, whole UTC days of them, and the
 * visitors of days attribution no longer looks at (rollup.h: a day to
 * spare for the mover's clock); the rollups stay.  0 or -1.
 */
static int
prune_clicks(struct lz_db *db, const struct lz_conf *c, int64_t now)
{
	int64_t	 today = now / LZ_DAY_MS;
	long	 n;

	if (c->clicks_retention_days > 0) {
		if ((n = store_purge(db, store_click_prune, (today -
		    c->clicks_retention_days) * LZ_DAY_MS, PRUNE_BATCH,
		    PRUNE_MAX)) < 0)
			return -1;
		if (n > 0)
			lz_log(LZ_LOG_INFO, "pruned %ld clicks older than %lld "
			    "days (clicks_retention_days)", n,
			    c->clicks_retention_days);
	}
	return store_purge(db, store_visitor_prune, today - CLICK_VISITOR_DAYS,
	    PRUNE_BATCH, PRUNE_MAX) < 0 ? -1 : 0;
}

/*
 * The mail outbox: mails still queued when their invitations end are
 * given up (their sealed texts dropped; mail_command may be unset), and
 * the rows of mails sent or given up MAILQ_KEEP_DAYS ago deleted.  0 or
 * -1.
 */
static int
prune_mail(struct lz_db *db, int64_t now)
{
	long	 n;

	if ((n = store_mail_expire(db, now)) < 0)
		return -1;
	if (n > 0)
		lz_log(LZ_LOG_WARN, "%ld mails given up unsent: their "
		    "invitations ended (is lz-hooks run with mail_command?)",
		    n);
	if ((n = store_purge(db, store_mail_purge, now - MAILQ_KEEP_DAYS *
	    LZ_DAY_MS, PRUNE_BATCH, PRUNE_MAX)) < 0)
		return -1;
	if (n > 0)
		lz_log(LZ_LOG_INFO, "purged %ld mails finished more than %d "
		    "days ago", n, MAILQ_KEEP_DAYS);
	return 0;
}

int
housekeep_run(struct lz_db *db, const struct lz_conf *c,
    struct store_wal *wal)
{
	long	 purged;
	int	 rc = 0;

	if ((purged = outbox_purge(db, (int)c->webhook_log_days,
	    lz_now_ms())) < 0)
		rc = -1;
	else if (purged > 0)
		lz_log(LZ_LOG_INFO, "purged %ld deliveries finished more than "
		    "%lld days ago", purged, c->webhook_log_days);
	if (prune_clicks(db, c, lz_now_ms()) == -1)
		rc = -1;
	if ((purged = store_purge(db, store_audit_prune, lz_now_ms() -
	    c->audit_retention_days * LZ_DAY_MS, PRUNE_BATCH, PRUNE_MAX)) < 0)
		rc = -1;
	else if (purged > 0)
		lz_log(LZ_LOG_INFO, "pruned %ld audit log entries older than "
		    "%lld days (audit_retention_days)", purged,
		    c->audit_retention_days);
	if (prune_mail(db, lz_now_ms()) == -1)
		rc = -1;
	store_wal_checkpoint(db, wal);
	return rc;
}
