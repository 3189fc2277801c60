/*
 * main.c -- lz-hooks: sends the webhook deliveries that are due
 * (sender.c) and the mail queued (mailq.c, through the mailer of
 * mailer.c when mail_command is set), then does the housekeeping of the
 * links database (housekeep.c).  Run by cron every minute, or with
 * --loop where there is no cron.  See lz-hooks(8).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sodium.h>

#include "conf.h"
#include "db.h"
#include "housekeep.h"
#include "log.h"
#include "lztime.h"
#include "mail/queue.h"
#include "mailer.h"
#include "mailq.h"
#include "outbox.h"
#include "pool.h"
#include "sender.h"
#include "service.h"
#include "stats/rollup.h"
#include "store/admin.h"
#include "store/store.h"
#include "store/wal.h"
#include "util.h"
#include "webhook/sign.h"
#include "webhook/webhook.h"

/* A cron run stops claiming after this long, so runs do not pile up; the
 * next run goes on where it stopped. */
#define CLAIM_MS		(50 * 1000)
/* Mail gets what the webhooks left of it, and this at least: a run busy
 * with deliveries still sends some. */
#define MAIL_CLAIM_MIN_MS	(10 * 1000)

static volatile sig_atomic_t	 stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: lz-hooks [-f lz.conf] [-l [-i seconds]]\n");
	exit(2);
}

/* What a run sends mail with: NULL mailer when mail_command is unset. */
struct mail_ctx {
	struct mailer	*mailer;
	unsigned char	 key[MAIL_KEY_BYTES];
};

/* The mail due, when there is a mailer, in a run started at t0 (us).
 * 0 or -1. */
static int
run_mail(struct lz_db *db, const struct lz_conf *c, struct mail_ctx *mc,
    int64_t t0)
{
	struct mailq_opts	 o;
	struct mailq_stats	 st;
	int			 rc;

	if (mc->mailer == NULL)
		return 0;
	memset(&o, 0, sizeof(o));
	o.key = mc->key;
	o.from = c->mail_from;
	o.mailer = mc->mailer;
	o.claim_ms = CLAIM_MS - (lz_mono_us() - t0) / 1000;
	if (o.claim_ms < MAIL_CLAIM_MIN_MS)
		o.claim_ms = MAIL_CLAIM_MIN_MS;
	memset(&st, 0, sizeof(st));
	rc = mailq_run(db, &o, &stop, &st);
	if (st.sent + st.retrying + st.failed + st.lost > 0)
		lz_log(LZ_LOG_INFO, "%ld mails sent, %ld to retry, %ld given "
		    "up, %ld late (lease lost)", st.sent, st.retrying,
		    st.failed, st.lost);
	return rc;
}

/* One run: send, then housekeeping.  0 or -1. */
static int
run_once(struct lz_db *db, const struct lz_conf *c,
    const unsigned char key[WEBHOOK_KEY_BYTES], struct mail_ctx *mc,
    struct store_wal *wal)
{
	struct sender_opts	 o;
	struct outbox_stats	 st;
	int64_t			 t0 = lz_mono_us();
	int			 rc = 0;

	memset(&o, 0, sizeof(o));
	o.allow_loopback = c->webhook_allow_loopback;
	o.ca_file = c->webhook_ca_file;
	o.timeout_s = (long)c->webhook_timeout;
	o.parallel = (int)c->webhook_parallel;
	o.claim_ms = CLAIM_MS;
	memset(&st, 0, sizeof(st));
	if (sender_run(db, key, &o, &stop, &st) == -1)
		rc = -1;
	if (st.delivered + st.retrying + st.failed + st.lost > 0)
		lz_log(LZ_LOG_INFO, "%ld delivered, %ld to retry, %ld failed "
		    "for good, %ld late (lease lost), %ld webhooks disabled, "
		    "in %lld ms", st.delivered, st.retrying, st.failed,
		    st.lost, st.disabled,
		    (long long)((lz_mono_us() - t0) / 1000));
	if (!stop && run_mail(db, c, mc, t0) == -1)
		rc = -1;
	if (housekeep_run(db, c, wal) == -1)
		rc = -1;
	return rc;
}

/*
 * The mailer, when lz.conf sets mail_command, with the key its texts
 * are sealed under: forked before the process confines itself (it may
 * exec nothing after).  0, or -1 with err.
 */
static int
mail_start(const struct lz_conf *c, struct mail_ctx *mc, char *err,
    size_t errlen)
{
	if (*c->mail_command == '\0')
		return 0;
	if ((mc->mailer = mailer_start(c->mail_command, MAILER_TIMEOUT_MS,
	    err, errlen)) == NULL)
		return -1;
	return mail_key_load(c, mc->key, err, errlen);
}

/* Sleeps up to seconds, less when a signal comes. */
static void
nap(long seconds)
{
	struct timespec	 ts;
	int64_t		 end = lz_mono_us() + seconds * 1000000;
	int64_t		 left;

	while (!stop && (left = end - lz_mono_us()) > 0) {
		ts.tv_sec = left / 1000000;
		ts.tv_nsec = (left % 1000000) * 1000;
		if (nanosleep(&ts, NULL) == -1 && errno != EINTR)
			break;
	}
}

int
main(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "loop", no_argument, NULL, 'l' },
		{ "interval", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	struct sigaction	 sa;
	struct lz_conf		*c;
	struct lz_db		 db;
	struct store_wal	 wal = STORE_WAL_INIT;
	struct mail_ctx		 mc;
	const char		*conffile = NULL;
	unsigned char		 key[WEBHOOK_KEY_BYTES];
	char			 err[512];
	long long		 interval = 10;
	int			 ch, loop = 0, rc = 0, confined;

	while ((ch = getopt_long(argc, argv, "f:i:lV", opts, NULL)) != -1)
		switch (ch) {
		case 'i':
			if (lz_parse_ll(optarg, 1, 3600, &interval) == -1) {
				fprintf(stderr, "lz-hooks: -i: expected "
				    "1-3600 seconds\n");
				usage();
			}
			break;
		case 'l':
			loop = 1;
			break;
		default:
			if (!lz_service_opt(ch, "lz-hooks", &conffile))
				usage();
		}
	if (optind != argc)
		usage();

	memset(&mc, 0, sizeof(mc));
	store_admin();		/* it works on every account's webhooks */
	if ((c = lz_service_start("lz-hooks", 1, conffile)) == NULL)
		return 1;
	/* Started as root (by cron): become user before touching the
	 * database, as the pools do, so that its files stay theirs. */
	if (lz_drop_privileges(c->user, c->group, err, sizeof(err)) == -1 ||
	    mail_start(c, &mc, err, sizeof(err)) == -1 ||
	    webhook_key_load(c, key, err, sizeof(err)) == -1 ||
	    store_open(&db, c->links_db, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		sodium_memzero(key, sizeof(key));
		sodium_memzero(mc.key, sizeof(mc.key));
		mailer_stop(mc.mailer);
		lz_conf_free(c);
		return 1;
	}
	/* It talks to servers that accounts chose: writes only in the
	 * database's directory, reads only what DNS and TLS need (and
	 * webhook_ca_file), never execs, forks or regains privileges
	 * (sandbox in lz.conf(5)); mail_command runs in the mailer, forked
	 * before. */
	confined = c->sandbox;
	if (lz_service_sandbox(c->sandbox, c->links_db, 1, NULL,
	    *c->webhook_ca_file ? c->webhook_ca_file : NULL) != 0) {
		sodium_memzero(key, sizeof(key));
		sodium_memzero(mc.key, sizeof(mc.key));
		mailer_stop(mc.mailer);
		lz_db_close(&db);
		lz_conf_free(c);
		return 1;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	do {
		if (run_once(&db, c, key, &mc, &wal) == -1)
			rc = 1;
		if (loop)
			nap((long)interval);
	} while (loop && !stop);

	sodium_memzero(key, sizeof(key));
	sodium_memzero(mc.key, sizeof(mc.key));
	mailer_stop(mc.mailer);
	lz_db_close(&db);
	lz_conf_free(c);
	curl_global_cleanup();
	/* Confined, leave as the pools' workers do: the sandbox refuses the
	 * traced thread LeakSanitizer would stop the process with at exit
	 * (sanitizer builds; t/check_hooks checks the sender for leaks). */
	if (confined) {
		fflush(NULL);
		_exit(rc);
	}
	return rc;
}
