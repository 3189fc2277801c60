/*
 * mailq.c -- the mail outbox sent (mailq.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "db.h"
#include "log.h"
#include "lztime.h"
#include "mail/message.h"
#include "mail/queue.h"
#include "mailer.h"
#include "mailq.h"
#include "rnd.h"
#include "store/mails.h"
#include "util.h"

#define MINUTE	(60 * 1000LL)
#define HOUR	(60 * MINUTE)

/* A claimed mail is the run's until the command's timeout and a minute
 * more: a run killed meanwhile leaves it to the next one then. */
#define LEASE_MS	(MAILER_TIMEOUT_MS + MINUTE)
#define LEASE_NAME_LEN	16

/* The wait after the first, second, ... failure. */
static const int64_t retry_delays[MAILQ_ATTEMPTS - 1] = {
	1 * MINUTE, 10 * MINUTE, 1 * HOUR, 6 * HOUR
};

int64_t
mailq_retry_at(int attempts, int64_t now)
{
	if (attempts < 1 || attempts >= MAILQ_ATTEMPTS)
		return 0;
	return now + retry_delays[attempts - 1];
}

/* What sending one mail came to. */
enum outcome {
	SENT,
	FAILED,		/* retried on the schedule */
	REFUSED,	/* it can never go: given up at once */
	GONE		/* the mailer is gone: nothing recorded */
};

/* The message of it, sent through the mailer; err says why not. */
static enum outcome
send_one(const struct mailq_opts *o, const struct mail_item *it,
    char *err, size_t errlen)
{
	struct mail_head	 h;
	struct lz_buf		 b = LZ_BUF_INIT;
	unsigned char		 rnd[8];
	char			 unique[2 * sizeof(rnd) + 1], *text;
	enum outcome		 rc;

	if ((text = mail_open(o->key, it->box, it->boxlen)) == NULL) {
		snprintf(err, errlen, "its text could not be opened (another "
		    "key file?)");
		return REFUSED;
	}
	randombytes_buf(rnd, sizeof(rnd));
	sodium_bin2hex(unique, sizeof(unique), rnd, sizeof(rnd));
	memset(&h, 0, sizeof(h));
	h.from = o->from;
	h.to = it->rcpt;
	h.subject = it->subject;
	h.date = lz_now_ms();
	h.id = it->id;
	h.unique = unique;
	if (mail_message(&b, &h, text, err, errlen) == -1)
		rc = REFUSED;
	else
		switch (mailer_send(o->mailer, b.p, b.len, err, errlen)) {
		case 0:
			rc = SENT;
			break;
		case -2:
			rc = GONE;
			break;
		default:
			rc = FAILED;
		}
	/* Both hold the one-time URL. */
	sodium_memzero(text, strlen(text));
	free(text);
	if (b.p != NULL)
		sodium_memzero(b.p, b.len);
	lz_buf_free(&b);
	return rc;
}

/* Records what sending it came to.  0 or -1. */
static int
record(struct lz_db *db, const char *lease, const struct mail_item *it,
    enum outcome what, const char *err, struct mailq_stats *st)
{
	int64_t	 now = lz_now_ms(), next;
	int	 rc;

	if (what == SENT) {
		if ((rc = store_mail_sent(db, it->id, now)) == 1) {
			st->sent++;
			lz_log(LZ_LOG_INFO, "mail %lld sent to %s",
			    (long long)it->id, it->rcpt);
		}
		return rc < 0 ? -1 : 0;
	}
	next = what == REFUSED ? 0 : mailq_retry_at(it->attempts + 1, now);
	if ((rc = store_mail_failed(db, it->id, lease, err, next, now)) == -1)
		return -1;
	if (rc == 0)
		st->lost++;
	else if (next != 0) {
		st->retrying++;
		lz_log(LZ_LOG_WARN, "mail %lld to %s not sent (%s); tried "
		    "again in %lld min", (long long)it->id, it->rcpt, err,
		    (long long)((next - now) / MINUTE));
	} else {
		st->failed++;
		lz_log(LZ_LOG_ERR, "mail %lld to %s given up after %d "
		    "attempts: %s", (long long)it->id, it->rcpt,
		    it->attempts + 1, err);
	}
	return 0;
}

int
mailq_run(struct lz_db *db, const struct mailq_opts *o,
    volatile sig_atomic_t *stop, struct mailq_stats *st)
{
	struct mail_item	 it;
	enum outcome		 what;
	char			 lease[LEASE_NAME_LEN + 1];
	char			 err[MAILER_ERR_LEN];
	int64_t			 end = lz_mono_us() + o->claim_ms * 1000, now;
	int			 r;

	lz_rnd_base62(lease, LEASE_NAME_LEN);
	while (!*stop && lz_mono_us() < end) {
		now = lz_now_ms();
		if ((r = store_mail_claim(db, lease, now + LEASE_MS, now,
		    &it)) == 0)
			return 0;
		if (r == -1)
			return -1;
		err[0] = '\0';
		what = send_one(o, &it, err, sizeof(err));
		if (what == GONE) {
			lz_log(LZ_LOG_ERR, "mail %lld to %s: %s; it is sent "
			    "again after its lease", (long long)it.id, it.rcpt,
			    err);
			store_mail_item_free(&it);
			return -1;
		}
		r = record(db, lease, &it, what, err, st);
		store_mail_item_free(&it);
		if (r == -1)
			return -1;
	}
	return 0;
}
