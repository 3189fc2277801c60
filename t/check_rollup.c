/*
 * check_rollup.c -- the statistics' rollups (rollup.h) on a real SQLite
 * database: after random traffic (people and bots, suffixes, variants,
 * visitors coming back, clicks arriving out of order across hours and
 * days, batches as the mover writes them and single clicks as a capped
 * link's, conversions), after migration 0008 of a database that held
 * clicks, and after a rebuild, every rollup equals a recount from the
 * raw rows, made here with SQL of its own; the statistics of ranges
 * that start and end inside days equal a recount too; the visitors'
 * horizon; retention's pruning and what a rebuild leaves alone.
 */
#include "config.h"

#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "db.h"
#include "link/link.h"
#include "log.h"
#include "lztime.h"
#include "stats/rollup.h"
#include "stats/stats.h"
#include "store/accounts.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/links.h"
#include "store/store.h"
#include "tdb.h"
#include "util.h"
#include "visit/click.h"
#include "visit/record.h"

#define HOUR	LZ_HOUR_MS
#define DAY	LZ_DAY_MS
#define D0	(20000 * DAY)		/* 2024-10-04 */
#define B	(D0 + 20 * HOUR)	/* the traffic starts at 20:00 */
#define SPAN	(56 * HOUR)		/* and crosses two midnights */
#define NOW	(B + SPAN + HOUR)
#define NLINKS	3

static struct tdb	 tdb;
static sqlite3		*h;		/* what exec_sql and q1 run on */
static int64_t		 links[NLINKS];
static uint64_t		 rnd = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return rnd;
}

static void
setup(void)
{
	int64_t	 acct;
	int	 i;
	char	 slug[16];

	tdb_open(&tdb);
	h = tdb.db.h;
	acct = tdb_account(&tdb, "a@example.com");
	for (i = 0; i < NLINKS; i++) {
		snprintf(slug, sizeof(slug), "r%d", i);
		links[i] = tdb_link(&tdb, acct, slug, "https://r.example/",
		    D0 - 40 * DAY);
	}
}

static void
teardown(void)
{
	tdb_close(&tdb);
}

static void
exec_sql(const char *sql)
{
	tdb_exec(h, sql);
}

static int64_t
q1(const char *sql)
{
	return tdb_q1(h, sql);
}

/* ---- traffic ---------------------------------------------------------- */

static const char countries[][3] = { "TW", "JP", "US", "" };
static const char *const devices[] = { "mobile", "desktop", "tablet" };
static const char *const oses[] = { "ios", "android", "windows", "" };
static const char *const browsers[] = { "safari", "chrome", "firefox" };
static const char *const refs[] = { "", "https://t.co/a",
    "https://Mail.Google.com/x", "https://t.co/b" };
static const char *const suffixes[] = { "", "ig", "fb", "mail" };
static const char *const variants[] = { "", "0", "1" };

#define PICK(a)	((a)[next() % LZ_NELEM(a)])

/* A random click of the traffic, at about t. */
static void
random_click(struct click *c, int64_t t)
{
	memset(c, 0, sizeof(*c));
	c->link_id = links[next() % NLINKS];
	c->at = t;
	memcpy(c->country, PICK(countries), 3);
	c->device = PICK(devices);
	c->os = PICK(oses);
	c->browser = PICK(browsers);
	c->referrer = PICK(refs);
	c->suffix = PICK(suffixes);
	c->variant = PICK(variants);
	/* 40 visitors a day: they come back. */
	memset(c->visitor, 0, sizeof(c->visitor));
	c->visitor[0] = (unsigned char)(next() % 40);
	c->bot = next() % 5 == 0;
}

/* Stores cs[0..n) as the mover does: one transaction, one tally. */
static void
store_batch(const struct click *cs, size_t n, int64_t now)
{
	struct record_tally	 tally;
	struct link		 l;
	size_t			 i;

	memset(&tally, 0, sizeof(tally));
	ck_assert_int_eq(lz_db_begin(&tdb.db), 0);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(store_link_by_id(&tdb.db, cs[i].link_id, &l),
		    1);
		ck_assert_int_eq(record_click(&tdb.db, &l, &cs[i], now, 0,
		    &tally), 1);
		link_free(&l);
	}
	ck_assert_int_eq(record_flush(&tdb.db, &tally, now), 0);
	ck_assert_int_eq(lz_db_commit(&tdb.db), 0);
	record_tally_free(&tally);
	lz_db_reset_all(&tdb.db);
}

/* One click in a write of its own, as a capped link's. */
static void
store_single(const struct click *c, int64_t now)
{
	struct link	 l;

	ck_assert_int_eq(store_link_by_id(&tdb.db, c->link_id, &l), 1);
	ck_assert_int_eq(lz_db_begin(&tdb.db), 0);
	ck_assert_int_eq(record_click(&tdb.db, &l, c, now, RECORD_CAP, NULL),
	    1);
	ck_assert_int_eq(lz_db_commit(&tdb.db), 0);
	link_free(&l);
	lz_db_reset_all(&tdb.db);
}

/*
 * n clicks over [B, B + SPAN), stored in batches of random sizes, some
 * batches in reverse (an earlier click arriving after a later one, as
 * journals moved one after the other do), some clicks alone.
 */
static void
traffic(size_t n)
{
	struct click	*cs;
	size_t		 i, k, len;

	cs = xcalloc(n, sizeof(*cs));
	for (i = 0; i < n; i++)
		random_click(&cs[i], B + (int64_t)i * SPAN / (int64_t)n +
		    (int64_t)(next() % 60000));
	for (i = 0; i < n; i += len) {
		len = 1 + next() % 200;
		if (len > n - i)
			len = n - i;
		if (next() % 3 == 0)	/* reversed */
			for (k = 0; k < len / 2; k++) {
				struct click	 t = cs[i + k];

				cs[i + k] = cs[i + len - 1 - k];
				cs[i + len - 1 - k] = t;
			}
		if (len == 1 || next() % 10 == 0)
			for (k = 0; k < len; k++)
				store_single(&cs[i + k], NOW);
		else
			store_batch(cs + i, len, NOW);
	}
	free(cs);
}

static void
conversions(size_t n)
{
	static const char *const curs[] = { "USD", "TWD" };
	struct conversion	 c;
	size_t			 i;

	for (i = 0; i < n; i++) {
		memset(&c, 0, sizeof(c));
		c.link_id = links[next() % NLINKS];
		c.at = B + (int64_t)(next() % (uint64_t)SPAN);
		c.suffix = PICK(suffixes);
		c.currency = PICK(curs);
		c.has_value = next() % 4 != 0;
		c.value = (int64_t)(next() % 100000000);
		c.variant = next() % 3 == 0 ? NULL : PICK(variants);
		ck_assert_int_eq(store_conv_insert(&tdb.db, &c), 1);
	}
	lz_db_reset_all(&tdb.db);
}

/* ---- the recount ------------------------------------------------------ */

/* Hour rows by SQL of the test's own, then days as sums of hours. */
static const char recount_sql[] =
    "DROP TABLE IF EXISTS temp.want;"
    "CREATE TEMP TABLE want (link_id, dim, span, at, key, bot, n);"
    "INSERT INTO want SELECT link_id, 0, 1, at - at % 3600000, '', bot, "
    "  count(*) FROM clicks GROUP BY 1, 4, 6;"
    "INSERT INTO want SELECT link_id, 1, 1, at - at % 3600000, country, "
    "  bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    "INSERT INTO want SELECT link_id, 2, 1, at - at % 3600000, device, "
    "  bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    "INSERT INTO want SELECT link_id, 3, 1, at - at % 3600000, os, bot, "
    "  count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    "INSERT INTO want SELECT link_id, 4, 1, at - at % 3600000, browser, "
    "  bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    "INSERT INTO want SELECT link_id, 5, 1, at - at % 3600000, "
    "  referrer_host, bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    "INSERT INTO want SELECT link_id, 6, 1, at - at % 3600000, suffix, "
    "  bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    "INSERT INTO want SELECT link_id, 7, 1, at - at % 3600000, variant, "
    "  bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;"
    /* A visitor-day counts in the hour of its first click. */
    "INSERT INTO want SELECT link_id, 8, 1, f - f % 3600000, '', 0, "
    "  count(*) FROM (SELECT link_id, min(at) AS f FROM clicks "
    "  WHERE bot = 0 GROUP BY link_id, at / 86400000, visitor) "
    "  GROUP BY 1, 4;"
    "INSERT INTO want SELECT link_id, dim, 24, at - at % 86400000, key, "
    "  bot, sum(n) FROM want GROUP BY 1, 2, 4, 5, 6;"
    "DROP TABLE IF EXISTS temp.cwant;"
    "CREATE TEMP TABLE cwant (link_id, dim, span, at, key, currency, n, "
    "  valued, micros);"
    "INSERT INTO cwant SELECT link_id, 0, 1, at - at % 3600000, '', "
    "  currency, count(*), count(value), total(value) FROM conversions "
    "  GROUP BY 1, 4, 6;"
    "INSERT INTO cwant SELECT link_id, 1, 1, at - at % 3600000, suffix, "
    "  currency, count(*), count(value), total(value) FROM conversions "
    "  GROUP BY 1, 4, 5, 6;"
    "INSERT INTO cwant SELECT link_id, 2, 1, at - at % 3600000, variant, "
    "  currency, count(*), count(value), total(value) FROM conversions "
    "  WHERE variant IS NOT NULL GROUP BY 1, 4, 5, 6;"
    "INSERT INTO cwant SELECT link_id, 3, 1, at - at % 3600000, '', "
    "  currency, count(*), count(value), total(value) FROM conversions "
    "  WHERE variant IS NULL GROUP BY 1, 4, 6;"
    "INSERT INTO cwant SELECT link_id, dim, 24, at - at % 86400000, key, "
    "  currency, sum(n), sum(valued), sum(micros) FROM cwant "
    "  GROUP BY 1, 2, 4, 5, 6;";

/* Rows of the rollups that the recount lacks, and the other way. */
static void
assert_recount(const char *when)
{
	int64_t	 a, b, c, d;

	exec_sql(recount_sql);
	a = q1("SELECT count(*) FROM (SELECT link_id, dim, span, at, key, "
	    "bot, n FROM click_rollups WHERE n != 0 EXCEPT SELECT * FROM "
	    "want)");
	b = q1("SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT "
	    "link_id, dim, span, at, key, bot, n FROM click_rollups)");
	c = q1("SELECT count(*) FROM (SELECT link_id, dim, span, at, key, "
	    "currency, n, valued, micros FROM conversion_rollups EXCEPT "
	    "SELECT * FROM cwant)");
	d = q1("SELECT count(*) FROM (SELECT * FROM cwant EXCEPT SELECT "
	    "link_id, dim, span, at, key, currency, n, valued, micros FROM "
	    "conversion_rollups)");
	ck_assert_msg(a == 0 && b == 0 && c == 0 && d == 0, "%s: %lld click "
	    "rollups not recounted, %lld recounted missing; %lld conversion "
	    "rollups not recounted, %lld missing", when, (long long)a,
	    (long long)b, (long long)c, (long long)d);
	/* Something was counted at all. */
	ck_assert_int_gt(q1("SELECT count(*) FROM want WHERE dim = 8"), 10);
}

/* The visitors' rows: each visitor-day's first and last click. */
static void
assert_visitors(void)
{
	ck_assert_int_eq(q1("SELECT count(*) FROM (SELECT at / 86400000, "
	    "link_id, visitor, min(at), max(at), count(*) FROM clicks WHERE "
	    "bot = 0 GROUP BY 1, 2, 3 EXCEPT SELECT day, link_id, visitor, "
	    "first_at, last_at, clicks FROM click_visitors)"), 0);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_visitors"),
	    q1("SELECT count(*) FROM (SELECT DISTINCT at / 86400000, link_id, "
	    "visitor FROM clicks WHERE bot = 0)"));
}

START_TEST(t_random_traffic)
{
	traffic(4000);
	conversions(300);
	assert_recount("after the traffic");
	assert_visitors();
	/* The link's counter agrees. */
	ck_assert_int_eq(q1("SELECT sum(clicks) FROM links"),
	    q1("SELECT count(*) FROM clicks WHERE bot = 0"));
}
END_TEST

START_TEST(t_rebuild)
{
	char	 sql[256];

	traffic(3000);
	conversions(200);
	/* Damage: rows lost, rows wrong, rows of nothing, visitors lost. */
	exec_sql("DELETE FROM click_rollups WHERE dim = 3;"
	    "UPDATE click_rollups SET n = n + 7 WHERE dim = 8;"
	    "INSERT INTO click_rollups VALUES (1, 1, 1, 1000 * 3600000, 'XX', "
	    "  0, 5);"
	    "DELETE FROM conversion_rollups WHERE dim = 2;"
	    "DELETE FROM click_visitors WHERE visitor > x'10';");
	ck_assert_int_eq(rollup_rebuild(&tdb.db, 0, 0, NOW, NULL, NULL), 0);
	assert_recount("after a rebuild");
	assert_visitors();
	/* One link alone: the others are left as they are. */
	exec_sql("UPDATE click_rollups SET n = n + 1 WHERE dim = 0");
	ck_assert_int_eq(rollup_rebuild(&tdb.db, links[1], 0, NOW, NULL, NULL),
	    0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM click_rollups "
	    "WHERE dim = 0 AND link_id != %lld", (long long)links[1]);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_rollups c JOIN want w "
	    "USING (link_id, dim, span, at, key, bot) WHERE c.n != w.n"),
	    q1(sql));
	ck_assert_int_eq(rollup_rebuild(&tdb.db, 0, 0, NOW, NULL, NULL), 0);
	assert_recount("after the second rebuild");
}
END_TEST

/*
 * Migration 0008 builds the rollups of the clicks a database held, and
 * the visitors of the last 31 days by the real clock.
 */
START_TEST(t_migration)
{
	struct lz_db	 db;
	struct click	 c;
	sqlite3_stmt	*st;
	char		 err[256], path[160];
	int64_t		 acct, now = lz_now_ms();
	int		 from, to, i;

	snprintf(path, sizeof(path), "%s/v7.db", tdb.dir);
	ck_assert_int_eq(lz_db_open(&db, path, LZ_DB_CREATE, err,
	    sizeof(err)), 0);
	ck_assert_msg(lz_db_migrate(&db, lz_links_migrations, 7, &from, &to,
	    err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(to, 7);
	acct = store_account_add(&db, "m@example.com", "pro", NULL, D0);
	for (i = 0; i < NLINKS; i++) {
		char	 sql[256];

		/* As version 7 has them: the newest statements know columns
		 * it does not. */
		snprintf(sql, sizeof(sql), "INSERT INTO links (id, account_id, "
		    "slug, target_url, redirect_type, created_at) VALUES (%d, "
		    "%lld, 'm%d', 'https://r.example/', 302, %lld)", i + 1,
		    (long long)acct, i, (long long)D0);
		ck_assert_int_eq(lz_db_exec(&db, sql), 0);
		links[i] = i + 1;
	}
	/* Clicks of 2024, and a few of today. */
	for (i = 0; i < 3000; i++) {
		random_click(&c, i < 2990 ? B + (int64_t)i * SPAN / 3000 :
		    now - i % 3);
		ck_assert_int_eq(store_click_insert(&db, &c, c.referrer[0] ?
		    "t.co" : "", 0), 0);
	}
	ck_assert_int_eq(sqlite3_prepare_v2(db.h, "INSERT INTO conversions "
	    "(link_id, at, visitor, suffix, currency, value, variant) VALUES "
	    "(?, ?, x'00', ?, ?, ?, ?)", -1, &st, NULL), SQLITE_OK);
	for (i = 0; i < 200; i++) {
		sqlite3_bind_int64(st, 1, links[next() % NLINKS]);
		sqlite3_bind_int64(st, 2, B + (int64_t)(next() %
		    (uint64_t)SPAN));
		sqlite3_bind_text(st, 3, PICK(suffixes), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, i % 2 ? "USD" : "TWD", -1,
		    SQLITE_STATIC);
		if (i % 4)
			sqlite3_bind_int64(st, 5, (int64_t)(next() % 1000000));
		else
			sqlite3_bind_null(st, 5);
		if (i % 3)
			sqlite3_bind_text(st, 6, PICK(variants), -1,
			    SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 6);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	lz_db_reset_all(&db);

	ck_assert_msg(lz_db_migrate(&db, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(from, 7);
	h = db.h;
	assert_recount("after migration 0008");
	ck_assert_int_eq(q1("SELECT count(*) FROM click_visitors"),
	    q1("SELECT count(*) FROM (SELECT DISTINCT at / 86400000, link_id, "
	    "visitor FROM clicks WHERE bot = 0 AND at > 20100 * 86400000)"));
	ck_assert_int_gt(q1("SELECT count(*) FROM click_visitors"), 0);
	ck_assert_int_eq(q1("SELECT count(*) FROM (SELECT at / 86400000, "
	    "link_id, visitor, min(at), max(at), count(*) FROM clicks WHERE "
	    "bot = 0 AND at > 20100 * 86400000 GROUP BY 1, 2, 3 EXCEPT SELECT "
	    "day, link_id, visitor, first_at, last_at, clicks FROM "
	    "click_visitors)"), 0);
	h = tdb.db.h;
	lz_db_close(&db);
}
END_TEST

/* ---- statistics of ranges --------------------------------------------- */

static int64_t
raw(const char *cond, int64_t from, int64_t to, int64_t link)
{
	char	 sql[512];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM clicks WHERE "
	    "link_id = %lld AND at >= %lld AND at < %lld AND %s",
	    (long long)link, (long long)from, (long long)to, cond);
	return q1(sql);
}

static json_t *
micros(int64_t v)
{
	return json_integer(v);
}

static int64_t
ji(json_t *j, const char *a, const char *b)
{
	return json_integer_value(json_object_get(json_object_get(j, a), b));
}

START_TEST(t_stats_ranges)
{
	/* Ranges from inside a day to inside another, whole hours or not;
	 * one inside an hour; one of whole days. */
	static const int64_t	 ranges[][2] = {
		{ B + 90 * 60000, B + 50 * HOUR + 17 },
		{ B + 3 * HOUR, B + 7 * HOUR },
		{ B + 5 * HOUR + 1, B + 5 * HOUR + 2 },
		{ D0 + DAY, D0 + 2 * DAY },	/* by hour */
		{ D0 + DAY, D0 + 3 * DAY },
		{ 0, NOW },
	};
	struct stats_range	 r;
	json_t			*j, *item, *row;
	size_t			 i, k;
	int64_t			 sum, vsum, link = links[0], from, to;
	char			 cond[128];

	traffic(3000);
	for (i = 0; i < LZ_NELEM(ranges); i++) {
		r.from = ranges[i][0];
		r.to = ranges[i][1];
		r.bucket = i % 2 ? HOUR : DAY;
		if ((r.to - r.from) / HOUR > 700)
			r.bucket = DAY;
		j = json_object();
		ck_assert_int_eq(stats_add(j, &tdb.db, link, &r, micros), 0);
		/* Snapped to whole hours. */
		from = ranges[i][0] / HOUR * HOUR;
		to = (ranges[i][1] + HOUR - 1) / HOUR * HOUR;
		ck_assert_int_eq(r.from, from);
		ck_assert_int_eq(r.to, to);
		ck_assert_int_eq(ji(j, "totals", "clicks"), raw("bot = 0", from,
		    to, link));
		ck_assert_int_eq(ji(j, "totals", "bots"), raw("bot = 1", from,
		    to, link));
		snprintf(cond, sizeof(cond), "bot = 0 AND country = 'TW'");
		json_array_foreach(json_object_get(json_object_get(j,
		    "breakdowns"), "country"), k, row)
			if (strcmp(json_string_value(json_object_get(row,
			    "key")), "TW") == 0)
				ck_assert_int_eq(json_integer_value(
				    json_object_get(row, "clicks")), raw(cond,
				    from, to, link));
		sum = vsum = 0;
		json_array_foreach(json_object_get(j, "series"), k, item) {
			/* Each bucket as the raw clicks have it. */
			int64_t	 t = (r.from / r.bucket + (int64_t)k) *
			    r.bucket;

			ck_assert_int_eq(json_integer_value(json_object_get(
			    item, "clicks")), raw("bot = 0", t > from ? t :
			    from, t + r.bucket < to ? t + r.bucket : to, link));
			sum += json_integer_value(json_object_get(item,
			    "clicks"));
			vsum += json_integer_value(json_object_get(item,
			    "visitors"));
		}
		ck_assert_int_eq(sum, ji(j, "totals", "clicks"));
		ck_assert_int_eq(vsum, ji(j, "totals", "visitors"));
		{
			char	 sql[512];

			snprintf(sql, sizeof(sql), "SELECT count(*) FROM ("
			    "SELECT min(at) AS f FROM clicks WHERE link_id = "
			    "%lld AND bot = 0 GROUP BY at / 86400000, visitor) "
			    "WHERE f >= %lld AND f < %lld", (long long)link,
			    (long long)from, (long long)to);
			ck_assert_int_eq(ji(j, "totals", "visitors"), q1(sql));
		}
		json_decref(j);
	}
}
END_TEST

/* ---- the visitors' horizon, retention --------------------------------- */

START_TEST(t_horizon)
{
	struct click	 c[2];
	int64_t		 now = NOW + 40 * DAY;

	/* Two clicks of one visitor on a day 40 days before now, moved in
	 * two batches: a visitor-day the mover cannot tell from a new one,
	 * so it counts none; a rebuild counts it once. */
	random_click(&c[0], B);
	c[0].bot = 0;
	c[1] = c[0];
	c[1].at = B + 1000;
	store_batch(&c[0], 1, now);
	store_batch(&c[1], 1, now);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_visitors"), 0);
	ck_assert_int_eq(q1("SELECT coalesce(sum(n), 0) FROM click_rollups "
	    "WHERE dim = 8"), 0);
	ck_assert_int_eq(q1("SELECT sum(n) FROM click_rollups WHERE dim = 0 "
	    "AND span = 24"), 2);
	ck_assert_int_eq(rollup_rebuild(&tdb.db, 0, 0, now, NULL, NULL), 0);
	ck_assert_int_eq(q1("SELECT sum(n) FROM click_rollups WHERE dim = 8 "
	    "AND span = 24"), 1);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_visitors"), 0);
}
END_TEST

START_TEST(t_retention)
{
	int64_t	 cut = D0 + DAY, old;
	char	 sql[256];

	traffic(2000);
	/* Pruned in batches, in the order stored, up to the cut: what was
	 * stored before the first click past it is gone. */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM clicks WHERE at < "
	    "%lld", (long long)cut);
	old = q1(sql);
	ck_assert_int_gt(old, 100);
	ck_assert_int_le(store_purge(&tdb.db, store_click_prune, cut, 100,
	    1000000), old);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM clicks WHERE at < "
	    "%lld AND id < (SELECT min(id) FROM clicks WHERE at >= %lld)",
	    (long long)cut, (long long)cut);
	ck_assert_int_eq(q1(sql), 0);
	ck_assert_int_gt(q1("SELECT count(*) FROM clicks"), 0);
	/* A rebuild from the cut on leaves the rollups of the days before
	 * it as they were (their raw clicks are gone), and recounts the
	 * others. */
	exec_sql("CREATE TEMP TABLE before AS SELECT * FROM click_rollups");
	ck_assert_int_eq(rollup_rebuild(&tdb.db, 0, cut, NOW, NULL, NULL),
	    0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT * FROM "
	    "before WHERE at < %lld EXCEPT SELECT * FROM click_rollups) ",
	    (long long)cut);
	ck_assert_int_eq(q1(sql), 0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT * FROM "
	    "click_rollups WHERE at < %lld EXCEPT SELECT * FROM before)",
	    (long long)cut);
	ck_assert_int_eq(q1(sql), 0);
	exec_sql(recount_sql);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT link_id, "
	    "dim, span, at, key, bot, n FROM click_rollups WHERE at >= %lld "
	    "AND n != 0 EXCEPT SELECT * FROM want)", (long long)cut);
	ck_assert_int_eq(q1(sql), 0);
	/* Visitors of days past the horizon go, in batches. */
	old = q1("SELECT count(*) FROM click_visitors WHERE day < 20002");
	ck_assert_int_gt(old, 7);
	ck_assert_int_eq(store_purge(&tdb.db, store_visitor_prune, 20002, 7,
	    1000000), old);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_visitors WHERE day < "
	    "20002"), 0);
	ck_assert_int_gt(q1("SELECT count(*) FROM click_visitors"), 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("rollup");
	TCase	*tc;

	tc = tcase_create("rollup");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, t_random_traffic);
	tcase_add_test(tc, t_rebuild);
	tcase_add_test(tc, t_migration);
	tcase_add_test(tc, t_stats_ranges);
	tcase_add_test(tc, t_horizon);
	tcase_add_test(tc, t_retention);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0)
		return 1;
	lz_log_open("check_rollup", LZ_LOG_ERR);
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
