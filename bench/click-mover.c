/*
 * click-mover.c -- how fast the click mover moves journals into a
 * database (DESIGN 5: at least 50,000 clicks/s on PostgreSQL), run by
 * bench/mover for SQLite and PostgreSQL in one run.
 *
 * Writes n clicks (of 100 links, 1 in 10 a bot, with referrers, suffixes
 * and variants; a click a millisecond up to now, each human one from a
 * visitor of its own, so that each writes a visitor-day: the worst case
 * of the rollups) into journals of workers that are gone, then times the
 * move that a starting worker makes (mover_open): every batch a
 * transaction that stores its clicks, counts them per link and moves
 * the journal's position.  Prints "moved N clicks in S s: R clicks/s";
 * exits 1 when the database does not hold exactly the clicks written.
 *
 * usage: click-mover DATABASE n   (a path for SQLite, made here; or the
 *        URI of an empty PostgreSQL database)
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

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

#define LINKS		100
#define PER_JOURNAL	100000	/* a dead worker's rotated journal */

static struct lz_db	 db;

enum { Q_CLICKS, Q_COUNTED, Q__MAX };

static const struct lz_sql	 q[Q__MAX] = {
	[Q_CLICKS] = { "bench clicks", "SELECT count(*) FROM clicks" },
	[Q_COUNTED] = { "bench counted", "SELECT sum(clicks) FROM links" },
};

static struct lz_sqlset		 qset = LZ_SQLSET("bench", q);

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "click-mover: %s: %s\n", what, why);
	exit(1);
}

/* An account and LINKS links; their ids into ids[]. */
static void
fixtures(int64_t *ids)
{
	struct link	 l;
	char		 slug[16];
	int64_t		 acct;
	int		 i;

	if ((acct = store_account_add(&db, "mover@example.com", "pro", NULL,
	    1)) <= 0)
		die("account", lz_db_error(&db));
	for (i = 0; i < LINKS; i++) {
		memset(&l, 0, sizeof(l));
		snprintf(slug, sizeof(slug), "m%d", i);
		l.account_id = acct;
		l.slug = slug;
		l.target_url = "https://example.com/landing";
		l.redirect_type = 302;
		l.created_at = 1;
		if (store_link_insert(&db, &l) != 0)
			die("link", lz_db_error(&db));
		ids[i] = l.id;
	}
}

/* n clicks in journals of dead workers in dir. */
static void
journals(const char *dir, const int64_t *ids, long n)
{
	_Alignas(8) unsigned char	 rec[CLICKREC_SIZE];
	static const char *const	 refs[] = { "",
	    "https://www.instagram.com/", "https://news.example/a/1" };
	struct click			 c;
	char				 path[256];
	int64_t				 start;
	long				 i;
	int				 fd = -1;

	memset(&c, 0, sizeof(c));
	start = lz_now_ms() - n;
	c.device = "mobile";
	c.os = "ios";
	c.browser = "safari";
	for (i = 0; i < n; i++) {
		if (i % PER_JOURNAL == 0) {
			if (fd != -1)
				close(fd);
			snprintf(path, sizeof(path), "%s/w%ld-bench.j", dir,
			    i / PER_JOURNAL + 1);
			if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
			    0600)) == -1)
				die(path, "cannot create");
		}
		/* Runs of a link, as one worker's visitors make them. */
		c.link_id = ids[(i / 8) % LINKS];
		c.at = start + i;	/* a click a ms, until now */
		memcpy(c.country, i % 3 ? "TW" : "JP", 3);
		c.suffix = i % 4 ? "" : "ig";
		c.variant = i % 5 ? "" : "1";
		c.referrer = refs[i % 3];
		randombytes_buf(c.visitor, sizeof(c.visitor));
		c.bot = i % 10 == 9;
		clickrec_pack(&c, rec);
		if (write(fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec))
			die(path, "short write");
	}
	if (fd != -1)
		close(fd);
}

int
main(int argc, char *argv[])
{
	char		 dir[] = "/tmp/lz-mover-XXXXXX", err[512], cmd[64];
	int64_t		 ids[LINKS], t0, got = 0, counted = 0;
	long		 n = argc > 2 ? atol(argv[2]) : 0;
	double		 s;
	int		 from, to;

	if (argc != 3 || n < 1)
		die("usage", "click-mover DATABASE n");
	if (sodium_init() < 0 || mkdtemp(dir) == NULL)
		die("set-up", "no temporary directory");
	store_admin();
	if (lz_db_open(&db, argv[1], LZ_DB_CREATE, err, sizeof(err)) == -1 ||
	    lz_db_migrate(&db, lz_links_migrations, lz_links_nmigrations,
	    &from, &to, err, sizeof(err)) == -1)
		die(argv[1], err);
	fixtures(ids);
	journals(dir, ids, n);

	t0 = lz_mono_us();
	if (mover_open(&db, dir, "", err, sizeof(err)) == -1)
		die("mover_open", err);
	s = (double)(lz_mono_us() - t0) / 1e6;
	mover_close(&db);

	if (lz_one_i64(lz_db_stmt(&db, &qset, Q_CLICKS), &got) != 1 ||
	    lz_one_i64(lz_db_stmt(&db, &qset, Q_COUNTED), &counted) != 1)
		die("count", lz_db_error(&db));
	printf("%s: moved %lld clicks (%lld counted) in %.2f s: %.0f "
	    "clicks/s%s\n", lz_db_engine(&db), (long long)got,
	    (long long)counted, s, (double)got / s, got == n &&
	    counted == n - n / 10 ? "" : "  MISMATCH");
	lz_db_close(&db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return got == n && counted == n - n / 10 ? 0 : 1;
}
