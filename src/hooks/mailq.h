/*
 * mailq.h -- the mail outbox sent (lz-hooks(8) "Mail"): each mail due is
 * claimed under a lease by one run, its sealed text opened, written
 * under its headers (mail/message.h) and handed to the mailer
 * (mailer.h); then sent, or retried on the schedule below, or given up.
 * Sent or given up, its text is dropped from the database.
 */
#ifndef LZ_HOOKS_MAILQ_H
#define LZ_HOOKS_MAILQ_H

#include <signal.h>
#include <stdint.h>

struct lz_db;
struct mailer;

/* Attempts in all: the first and 4 retries. */
#define MAILQ_ATTEMPTS	5
/* Days a sent or given-up mail's row is kept (housekeep.c). */
#define MAILQ_KEEP_DAYS	30

/*
 * When the attempts-th attempt (1 for the first) has failed at now: the
 * time of the next one -- 1 m, 10 m, 1 h and 6 h after the first to
 * fourth failure -- or 0 when the mail is given up.
 */
int64_t	mailq_retry_at(int attempts, int64_t now);

struct mailq_opts {
	const unsigned char	*key;		/* MAIL_KEY_BYTES (mail/queue.h) */
	const char		*from;		/* mail_from */
	struct mailer		*mailer;
	int64_t			 claim_ms;	/* no claim after this long */
};

struct mailq_stats {
	long	 sent;
	long	 retrying;
	long	 failed;		/* given up */
	long	 lost;			/* leases lost: the result was late */
};

/*
 * Sends the mails due, one at a time, until none is due, stop is set or
 * claim_ms has passed; adds to stats.  0, or -1 (logged) when the
 * database or the mailer failed: what was not recorded is sent again
 * when its lease ends.
 */
int	mailq_run(struct lz_db *, const struct mailq_opts *,
	    volatile sig_atomic_t *stop, struct mailq_stats *);

#endif
