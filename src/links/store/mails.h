/*
 * store/mails.h -- the SQL of the mail outbox: mail queued by lz-links
 * and lzctl, sent by lz-hooks (mail/queue.h seals and queues it,
 * hooks/mailq.h sends it; these are only the statements).
 */
#ifndef LZ_STORE_MAILS_H
#define LZ_STORE_MAILS_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;

/* A mail as a run claims it; box and its text are the caller's to free. */
struct mail_item {
	int64_t		 id;
	char		*rcpt;
	char		*subject;
	unsigned char	*box;		/* the sealed text */
	size_t		 boxlen;
	int		 attempts;	/* made before this one */
};

void	store_mail_item_free(struct mail_item *);

/* Queues a mail to rcpt (invitation_id 0: none), due at once, inside
 * the caller's transaction.  Its id, or -1. */
int64_t	store_mail_add(struct lz_db *, int64_t account_id,
	    int64_t invitation_id, const char *rcpt, const char *subject,
	    const unsigned char *box, size_t boxlen, int64_t expires_at,
	    int64_t now);
/*
 * Leases the oldest mail due at now, whose invitation still runs, to the
 * run lease until `until` (it is not due again before then).  1 with
 * the mail into it, 0 none due, -1.
 */
int	store_mail_claim(struct lz_db *, const char *lease, int64_t until,
	    int64_t now, struct mail_item *it);
/* Marks mail id sent (its text dropped).  1, 0 it was not queued, -1. */
int	store_mail_sent(struct lz_db *, int64_t id, int64_t now);
/*
 * Records a failed attempt of mail id leased to lease: due again at
 * next_at, or given up (its text dropped) when next_at is 0.  1, 0 the
 * lease was lost, -1.
 */
int	store_mail_failed(struct lz_db *, int64_t id, const char *lease,
	    const char *error, int64_t next_at, int64_t now);
/* Gives up the mails still queued whose invitations ended by now.  The
 * count or -1. */
long	store_mail_expire(struct lz_db *, int64_t now);
/* Deletes at most limit mails finished before before (store_purge's
 * fn).  The count or -1. */
long	store_mail_purge(struct lz_db *, int64_t before, long limit);

#endif
