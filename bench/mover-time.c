/*
 * mover-time.c -- what the click mover costs per click, run by
 * bench/stats: n clicks moved into a fresh, migrated database by the
 * real mover (mover_collect(): batches of 1024 records, one
 * transaction each, with whatever each click adds up to, then the WAL
 * trimmed), per_move clicks at a time -- what a busy instance's journals
 * hold after a second -- each written first as a stopped worker's
 * journal.  The clicks spread over links links and hours hours before
 * now, from visitors visitors (some of them come back), in a few
 * countries, devices, referrers and suffixes; with zipf, link k gets a
 * share of 1/k of them (a few popular links), else the same share each.
 *
 * usage: mover-time dir clicks [links [visitors [hours [per_move [zipf]]]]]
 * Prints "moved N clicks in S s: R clicks/s".  dir must not exist.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "link/link.h"
#include "lztime.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"
#include "visit/clickrec.h"
#include "visit/mover.h"

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "mover-time: %s: %s\n", what, why);
	exit(1);
}

static long
arg(int argc, char *argv[], int i, long def)
{
	long long	 v;

	if (argc <= i)
		return def;
	if (lz_parse_ll(argv[i], 1, 1000000000, &v) == -1)
		die(argv[i], "not a count");
	return (long)v;
}

int
main(int argc, char *argv[])
{
	static const char countries[][3] = { "TW", "JP", "US", "DE", "" };
	static const char *const devices[] = { "mobile", "desktop", "tablet" };
	static const char *const oses[] = { "ios", "android", "windows" };
	static const char *const browsers[] = { "safari", "chrome", "firefox" };
	static const char *const refs[] = { "", "https://t.co/x",
	    "https://www.google.com/", "https://l.facebook.com/l.php" };
	static const char *const suffixes[] = { "", "ig", "fb", "mail" };
	_Alignas(8) unsigned char rec[CLICKREC_SIZE];
	struct lz_db	 db;
	struct link	 l;
	struct click	 c;
	char		 path[4200], jdir[4096], err[512], slug[32];
	int64_t		 now, t0, t1, took = 0, acct;
	double		 h, *cdf;
	long		 n, links, visitors, hours, per_move, i, k, moved;
	uint64_t	 x = 88172645463325252ULL;
	int		 fd = -1, from, to, zipf;

	if (argc < 3)
		die("usage", "mover-time dir clicks [links [visitors [hours "
		    "[per_move [zipf]]]]]");
	n = arg(argc, argv, 2, 0);
	links = arg(argc, argv, 3, 100);
	visitors = arg(argc, argv, 4, n / 2 + 1);
	hours = arg(argc, argv, 5, 24);
	per_move = arg(argc, argv, 6, 20000);
	zipf = argc > 7 && strcmp(argv[7], "zipf") == 0;
	if (strlen(argv[1]) > 4000)
		die(argv[1], "too long");
	if (mkdir(argv[1], 0700) == -1)
		die(argv[1], strerror(errno));
	store_admin();
	snprintf(path, sizeof(path), "%s/links.db", argv[1]);
	snprintf(jdir, sizeof(jdir), "%s/clicks", argv[1]);
	if (lz_db_open(&db, path, LZ_DB_CREATE, err, sizeof(err)) == -1 ||
	    lz_db_migrate(&db, lz_links_migrations, lz_links_nmigrations,
	    &from, &to, err, sizeof(err)) == -1)
		die(path, err);
	lz_db_close(&db);
	if (store_open(&db, path, err, sizeof(err)) == -1)
		die(path, err);

	now = lz_now_ms();
	if ((acct = store_account_add(&db, "bench@example.com", "pro", NULL,
	    now)) <= 0)
		die("account", lz_db_error(&db));
	if (lz_db_begin(&db) == -1)
		die("begin", lz_db_error(&db));
	for (i = 0; i < links; i++) {
		memset(&l, 0, sizeof(l));
		snprintf(slug, sizeof(slug), "m%ld", i);
		l.account_id = acct;
		l.slug = slug;
		l.target_url = (char *)"https://example.com/";
		l.redirect_type = 302;
		l.created_at = now - hours * LZ_HOUR_MS - 1;
		if (store_link_insert(&db, &l) == -1)
			die("link", lz_db_error(&db));
	}
	if (lz_db_commit(&db) == -1)
		die("commit", lz_db_error(&db));

	/* Link k's share of the clicks, as a cumulative distribution. */
	cdf = xcalloc((size_t)links, sizeof(*cdf));
	for (h = 0, k = 0; k < links; k++)
		cdf[k] = h += zipf ? 1.0 / (double)(k + 1) : 1.0;
	if (mkdir(jdir, 0700) == -1)
		die(jdir, strerror(errno));
	if (mover_open(&db, jdir, "", err, sizeof(err)) == -1)
		die(jdir, err);
	for (i = 0; i < n; i++) {
		if (i % per_move == 0) {
			/* A stopped worker's journal: nobody holds its
			 * lock. */
			snprintf(path, sizeof(path), "%s/w1-bench%ld.j", jdir,
			    i);
			if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL,
			    0600)) == -1)
				die(path, strerror(errno));
		}
		/* xorshift64: the same clicks in every run */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memset(&c, 0, sizeof(c));
		h = (double)(x % 1000003) / 1000003.0 * cdf[links - 1];
		for (k = 0; k < links - 1 && cdf[k] < h; k++)
			continue;
		c.link_id = 1 + k;
		c.at = now - hours * LZ_HOUR_MS + i * (hours * LZ_HOUR_MS / n);
		c.suffix = suffixes[(x >> 8) % LZ_NELEM(suffixes)];
		memcpy(c.country, countries[(x >> 12) % LZ_NELEM(countries)],
		    3);
		c.device = devices[(x >> 16) % LZ_NELEM(devices)];
		c.os = oses[(x >> 20) % LZ_NELEM(oses)];
		c.browser = browsers[(x >> 24) % LZ_NELEM(browsers)];
		c.referrer = refs[(x >> 28) % LZ_NELEM(refs)];
		c.variant = "";
		snprintf((char *)c.visitor, sizeof(c.visitor), "%015lu",
		    (unsigned long)((x >> 32) % (uint64_t)visitors));
		c.bot = (x >> 40) % 20 == 0;
		clickrec_pack(&c, rec);
		if (write(fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec))
			die(path, "write");
		if ((i + 1) % per_move == 0 || i + 1 == n) {
			close(fd);
			t0 = lz_mono_us();
			if (mover_collect(&db, jdir) < 0)
				die(jdir, "the clicks could not be moved");
			t1 = lz_mono_us();
			took += t1 - t0;
		}
	}
	free(cdf);
	mover_close(&db);
	moved = 0;
	{
		int64_t	 v = 0;
		const struct lz_sql	 q[] = { { "count",
		    "SELECT count(*) FROM clicks", NULL } };
		struct lz_sqlset	 qs = LZ_SQLSET("bench", q);

		if (lz_one_i64(lz_db_stmt(&db, &qs, 0), &v) != 1)
			die("count", lz_db_error(&db));
		moved = (long)v;
	}
	lz_db_close(&db);
	printf("moved %ld clicks in %.3f s: %.0f clicks/s\n", moved,
	    (double)took / 1e6, (double)moved * 1e6 / (double)took);
	return moved == n ? 0 : 1;
}
