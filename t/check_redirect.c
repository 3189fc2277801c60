/*
 * check_redirect.c -- the pure parts of redirects and clicks: variant
 * picks and UTM parameters (target.c), visitor hashes (visitor.c), click
 * records and referrers (clickrec.c, clicks.c), the pages' escaping and
 * Content-Security-Policy (pages.c), and the click journal (journal.c)
 * and the mover (mover.c) moving records into a real SQLite database,
 * including a dead worker's journal.
 */
#include "config.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <check.h>
#include <sqlite3.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>
#include <sodium.h>

#include "db.h"
#include "link/link.h"
#include "log.h"
#include "store/accounts.h"
#include "store/clicks.h"
#include "store/links.h"
#include "store/store.h"
#include "utf8.h"
#include "visit/click.h"
#include "visit/clickrec.h"
#include "visit/journal.h"
#include "visit/linkcache.h"
#include "visit/mover.h"
#include "visit/pages.h"
#include "visit/record.h"
#include "visit/target.h"
#include "visit/visitor.h"

/* ---- target.c -------------------------------------------------------- */

static void
link_of(struct link *l, enum link_mode mode, const char *variants,
    const char *utm)
{
	memset(l, 0, sizeof(*l));
	l->id = 7;
	l->target_url = xstrdup("https://fallback.example/");
	l->mode = mode;
	l->variants = variants ? json_loads(variants, 0, NULL) : NULL;
	l->utm = utm ? json_loads(utm, 0, NULL) : NULL;
	l->redirect_type = 302;
}

static const char *
pick(const struct link *l, const char *os, int desktop, const char *cc,
    uint64_t bucket, char variant[VARIANT_MAX])
{
	struct target_visit	 v = { os, desktop, cc, bucket };
	const char		*url;

	url = target_pick(l, &v, variant);
	/* Whatever was picked, the journal's variant leads back to it. */
	ck_assert_str_eq(target_of_variant(l, variant), url);
	return url;
}

START_TEST(t_pick_ab)
{
	struct link	 l;
	char		 var[VARIANT_MAX];
	int		 seen[3] = { 0, 0, 0 };
	uint64_t	 b;

	link_of(&l, MODE_AB, "[{\"url\":\"https://a.example/\",\"weight\":1},"
	    "{\"url\":\"https://b.example/\",\"weight\":3},"
	    "{\"url\":\"https://c.example/\",\"weight\":6}]", NULL);
	/* bucket % 10: 0 -> a, 1..3 -> b, 4..9 -> c */
	ck_assert_str_eq(pick(&l, "ios", 0, "", 0, var), "https://a.example/");
	ck_assert_str_eq(var, "0");
	ck_assert_str_eq(pick(&l, "ios", 0, "", 3, var), "https://b.example/");
	ck_assert_str_eq(var, "1");
	ck_assert_str_eq(pick(&l, "ios", 0, "", 4, var), "https://c.example/");
	ck_assert_str_eq(var, "2");
	ck_assert_str_eq(pick(&l, "ios", 0, "", 19, var), "https://c.example/");
	for (b = 0; b < 1000; b++) {
		pick(&l, "ios", 0, "", b * 7919, var);
		seen[var[0] - '0']++;
	}
	ck_assert_int_eq(seen[0], 100);
	ck_assert_int_eq(seen[1], 300);
	ck_assert_int_eq(seen[2], 600);
	link_free(&l);
}
END_TEST

START_TEST(t_pick_device)
{
	struct link	 l;
	char		 var[VARIANT_MAX];

	link_of(&l, MODE_DEVICE, "{\"ios\":\"https://apps.apple.com/x\","
	    "\"android\":\"https://play.google.com/x\"}", NULL);
	ck_assert_str_eq(pick(&l, "ios", 0, "", 0, var),
	    "https://apps.apple.com/x");
	ck_assert_str_eq(var, "ios");
	ck_assert_str_eq(pick(&l, "android", 0, "", 0, var),
	    "https://play.google.com/x");
	ck_assert_str_eq(var, "android");
	/* No desktop variant: the fallback, with an empty label. */
	ck_assert_str_eq(pick(&l, "windows", 1, "", 0, var),
	    "https://fallback.example/");
	ck_assert_str_eq(var, "");
	link_free(&l);

	link_of(&l, MODE_DEVICE, "{\"desktop\":\"https://d.example/\"}", NULL);
	ck_assert_str_eq(pick(&l, "macos", 1, "", 0, var),
	    "https://d.example/");
	ck_assert_str_eq(var, "desktop");
	/* A phone of another system is no desktop. */
	ck_assert_str_eq(pick(&l, "other", 0, "", 0, var),
	    "https://fallback.example/");
	link_free(&l);
}
END_TEST

START_TEST(t_pick_geo)
{
	struct link	 l;
	char		 var[VARIANT_MAX];

	link_of(&l, MODE_GEO, "{\"TW\":\"https://tw.example/\","
	    "\"JP\":\"https://jp.example/\"}", NULL);
	ck_assert_str_eq(pick(&l, "ios", 0, "JP", 0, var),
	    "https://jp.example/");
	ck_assert_str_eq(var, "JP");
	ck_assert_str_eq(pick(&l, "ios", 0, "US", 0, var),
	    "https://fallback.example/");
	ck_assert_str_eq(var, "");
	ck_assert_str_eq(pick(&l, "ios", 0, "", 0, var),
	    "https://fallback.example/");
	link_free(&l);

	link_of(&l, MODE_SIMPLE, NULL, NULL);
	ck_assert_str_eq(pick(&l, "ios", 0, "TW", 99, var),
	    "https://fallback.example/");
	ck_assert_str_eq(var, "");
	ck_assert_str_eq(target_of_variant(&l, "3"),
	    "https://fallback.example/");
	link_free(&l);
}
END_TEST

static void
utm_case(const char *utm, const char *url, const char *want)
{
	struct link	 l;
	char		*got;

	link_of(&l, MODE_SIMPLE, NULL, utm);
	got = target_with_utm(&l, url);
	ck_assert_ptr_nonnull(got);
	ck_assert_msg(strcmp(got, want) == 0, "%s + %s: got %s, want %s", url,
	    utm ? utm : "-", got, want);
	free(got);
	link_free(&l);
}

START_TEST(t_utm)
{
	/* No utm: the URL exactly as stored. */
	utm_case(NULL, "https://Example.com/a%20b?x=1#f",
	    "https://Example.com/a%20b?x=1#f");
	/* Query and fragment kept; spaces encoded. */
	utm_case("{\"source\":\"news letter\",\"medium\":\"email\"}",
	    "https://example.com/x?a=1#frag",
	    "https://example.com/x?a=1&utm_source=news+letter&utm_medium=email"
	    "#frag");
	/* Parameters of the same name replaced, others kept, in order. */
	utm_case("{\"source\":\"new\"}",
	    "https://example.com/?utm_source=old&b=2&utm_medium=keep",
	    "https://example.com/?b=2&utm_medium=keep&utm_source=new");
	/* Encoded names are the same names. */
	utm_case("{\"source\":\"new\"}",
	    "https://example.com/?utm%5Fsource=old&c=3",
	    "https://example.com/?c=3&utm_source=new");
	/* Reserved characters and UTF-8 in values are percent-encoded. */
	utm_case("{\"campaign\":\"a&b=c#d/\xe5\xa4\x8f\"}",
	    "https://example.com/p",
	    "https://example.com/p?utm_campaign=a%26b%3dc%23d%2f%e5%a4%8f");
	/* No path, no query. */
	utm_case("{\"term\":\"x\",\"content\":\"y\"}", "https://example.com",
	    "https://example.com/?utm_term=x&utm_content=y");
	/* An empty query piece is dropped, a bare name kept. */
	utm_case("{\"source\":\"s\"}", "http://example.com/?&flag&&z=",
	    "http://example.com/?flag&z=&utm_source=s");
}
END_TEST

/* ---- visitor.c ------------------------------------------------------- */

static void
set_key(unsigned char fill)
{
	unsigned char	 k[LZ_KEY_BYTES];

	memset(k, fill, sizeof(k));
	visitor_set_key(k);
}

START_TEST(t_visitor)
{
	unsigned char	 a[VISITOR_ID_LEN], b[VISITOR_ID_LEN];
	int64_t		 day = 86400000LL, t = 20000 * day + 5000;
	const char	*ua = "Mozilla/5.0 (X11; Linux x86_64)";

	set_key(1);
	visitor_id("203.0.113.9", ua, t, a);
	visitor_id("203.0.113.9", ua, t + 3600000, b);
	ck_assert_mem_eq(a, b, sizeof(a));		/* same day */
	visitor_id("::ffff:203.0.113.9", ua, t, b);
	ck_assert_mem_eq(a, b, sizeof(a));		/* same address */
	visitor_id("203.0.113.9", ua, t + day, b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);	/* the salt rotates */
	visitor_id("203.0.113.10", ua, t, b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	visitor_id("203.0.113.9", "curl/8.0", t, b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	set_key(2);
	visitor_id("203.0.113.9", ua, t, b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);	/* keyed */

	/* The A/B bucket stays across days and differs per link. */
	ck_assert(visitor_bucket("203.0.113.9", ua, 1) ==
	    visitor_bucket("203.0.113.9", ua, 1));
	ck_assert(visitor_bucket("203.0.113.9", ua, 1) !=
	    visitor_bucket("203.0.113.9", ua, 2));
}
END_TEST

START_TEST(t_visitor_net)
{
	unsigned char	 a[VISITOR_NET_LEN], b[VISITOR_NET_LEN];

	set_key(3);
	visitor_net("2001:db8:1:2:aaaa::1", a);
	visitor_net("2001:db8:1:2:ffff:1:2:3", b);
	ck_assert_mem_eq(a, b, sizeof(a));		/* one /64 */
	visitor_net("2001:db8:1:3::1", b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	visitor_net("198.51.100.1", a);
	visitor_net("198.51.100.2", b);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);	/* IPv4: the host */
	visitor_net("::ffff:198.51.100.1", b);
	visitor_net("198.51.100.1", a);
	ck_assert_mem_eq(a, b, sizeof(a));
}
END_TEST

/* ---- clicks.c, click records ----------------------------------------- */

START_TEST(t_referrer)
{
	char	 out[17], big[CLICK_REFERRER_MAX + 100];

	click_referrer("https://a.example/x", out, sizeof(out));
	ck_assert_str_eq(out, "https://a.exampl");
	/* Cut before a character that would not fit whole. */
	click_referrer("https://a.exam/\xe5\xa4\x8f", out, sizeof(out));
	ck_assert_str_eq(out, "https://a.exam/");
	click_referrer("https://a/\x01", out, sizeof(out));
	ck_assert_str_eq(out, "");
	click_referrer("https://a/\xff", out, sizeof(out));
	ck_assert_str_eq(out, "");
	click_referrer(NULL, out, sizeof(out));
	ck_assert_str_eq(out, "");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	{
		char	 keep[CLICK_REFERRER_MAX];

		click_referrer(big, keep, sizeof(keep));
		ck_assert_uint_eq(strlen(keep), CLICK_REFERRER_MAX - 1);
	}

	click_referrer_host("https://WWW.Example.COM:8443/a?b", out,
	    sizeof(out));
	ck_assert_str_eq(out, "www.example.com");
	click_referrer_host("android-app://com.google.gm/", out, sizeof(out));
	ck_assert_str_eq(out, "com.google.gm");
	click_referrer_host("not a url", out, sizeof(out));
	ck_assert_str_eq(out, "");
	click_referrer_host("", out, sizeof(out));
	ck_assert_str_eq(out, "");
	/* A host longer than the room, of two-byte characters: cut on a
	 * character (a cut inside one would stop PostgreSQL's mover). */
	{
		char	 url[600], host[16];
		size_t	 n;

		n = (size_t)snprintf(url, sizeof(url), "https://");
		while (n + 3 < sizeof(url) - 1) {
			memcpy(url + n, "\xc3\xa9", 2);
			n += 2;
		}
		url[n] = '\0';
		click_referrer_host(url, host, sizeof(host));
		ck_assert_uint_eq(strlen(host) % 2, 0);
		ck_assert_int_ge(lz_utf8_count(host, strlen(host), 0), 0);
	}
}
END_TEST

static void
click_of(struct click *c, int64_t link_id, const char *ref)
{
	memset(c, 0, sizeof(*c));
	c->link_id = link_id;
	c->at = 1700000000123LL;
	c->suffix = "fb";
	memcpy(c->country, "TW", 3);
	c->device = "mobile";
	c->os = "android";
	c->browser = "chrome";
	c->referrer = ref;
	c->variant = "1";
	c->target = "https://ignored.example/";
	memset(c->visitor, 0xab, sizeof(c->visitor));
}

START_TEST(t_record)
{
	_Alignas(8) unsigned char	 rec[CLICKREC_SIZE];
	struct click			 c, d;

	click_of(&c, 42, "https://t.co/x");
	c.bot = 1;
	clickrec_pack(&c, rec);
	ck_assert_int_eq(clickrec_unpack(rec, &d), 0);
	ck_assert_int_eq(d.link_id, 42);
	ck_assert_int_eq(d.at, 1700000000123LL);
	ck_assert_str_eq(d.suffix, "fb");
	ck_assert_str_eq(d.country, "TW");
	ck_assert_str_eq(d.device, "mobile");
	ck_assert_str_eq(d.os, "android");
	ck_assert_str_eq(d.browser, "chrome");
	ck_assert_str_eq(d.referrer, "https://t.co/x");
	ck_assert_str_eq(d.variant, "1");
	ck_assert_ptr_null(d.target);
	ck_assert_mem_eq(d.visitor, c.visitor, sizeof(c.visitor));
	ck_assert_int_eq(d.bot, 1);

	rec[0] ^= 1;
	ck_assert_int_eq(clickrec_unpack(rec, &d), -1);
	rec[0] ^= 1;
	rec[CLICKREC_SIZE - 1] ^= 1;
	ck_assert_int_eq(clickrec_unpack(rec, &d), -1);
	memset(rec, 0, sizeof(rec));
	ck_assert_int_eq(clickrec_unpack(rec, &d), -1);
}
END_TEST

/* ---- pages.c --------------------------------------------------------- */

START_TEST(t_pages_escape)
{
	struct page	 p;
	struct link	 l;

	pages_message(&p, "T<i>", "a \"quoted\" <script>alert(1)</script>");
	ck_assert_ptr_null(strstr(p.html.p, "<script>"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "&lt;script&gt;"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "<title>T&lt;i&gt;</title>"));
	ck_assert_ptr_nonnull(strstr(p.csp.p, "default-src 'none'"));
	page_free(&p);

	pages_password(&p, "/abc/x", "Wrong <b>");
	ck_assert_ptr_nonnull(strstr(p.html.p, "action=\"&#47;abc&#47;x\""));
	ck_assert_ptr_nonnull(strstr(p.html.p, "Wrong &lt;b&gt;"));
	page_free(&p);

	link_of(&l, MODE_SIMPLE, NULL, NULL);
	l.og = json_loads("{\"title\":\"Sale \\\"50%\\\" <now>\","
	    "\"image\":\"https://img.example/a.png?x=1&y=2\"}", 0, NULL);
	pages_preview(&p, &l, "https://s.example/abc",
	    "https://t.example/?a=1&b=\"2\"");
	ck_assert_ptr_nonnull(strstr(p.html.p, "<meta property=\"og:title\" "
	    "content=\"Sale &quot;50%&quot; &lt;now&gt;\">"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "<meta property=\"og:image\" "
	    "content=\"https:&#47;&#47;img.example&#47;a.png?x=1&amp;y=2\">"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "twitter:card\" "
	    "content=\"summary_large_image\""));
	ck_assert_ptr_nonnull(strstr(p.html.p, "<meta http-equiv=\"refresh\" "
	    "content=\"0;url=https:&#47;&#47;t.example&#47;?a=1&amp;"
	    "b=&quot;2&quot;\">"));
	ck_assert_ptr_null(strstr(p.html.p, "og:description"));
	page_free(&p);
	link_free(&l);
}
END_TEST

START_TEST(t_pages_pixels)
{
	struct page	 p;
	struct link	 l;
	char		 want[160];

	link_of(&l, MODE_SIMPLE, NULL, NULL);
	l.pixel[PIXEL_FB] = xstrdup("1234567890");
	l.pixel[PIXEL_LINE] = xstrdup("abcd-1234-efgh");
	l.pixel[PIXEL_TIKTOK] = xstrdup("bad'id\"<");	/* never from link.c */
	pages_pixels(&p, &l, "https://t.example/");
	ck_assert_ptr_nonnull(strstr(p.html.p, "fbq('init','1234567890')"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "tagId:'abcd-1234-efgh'"));
	ck_assert_ptr_null(strstr(p.html.p, "bad'id"));
	ck_assert_ptr_null(strstr(p.html.p, "ttq.load"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "<noscript><meta "
	    "http-equiv=\"refresh\" content=\"0;url=https:&#47;&#47;"
	    "t.example&#47;\"></noscript>"));
	/* Every inline script carries the page's nonce. */
	snprintf(want, sizeof(want), "<script nonce=\"%s\">", p.nonce);
	ck_assert_ptr_nonnull(strstr(p.html.p, want));
	ck_assert_ptr_null(strstr(p.html.p, "<script>"));
	snprintf(want, sizeof(want), "script-src 'nonce-%s' "
	    "https://connect.facebook.net https://d.line-scdn.net;", p.nonce);
	ck_assert_msg(strstr(p.csp.p, want) != NULL, "%s", p.csp.p);
	ck_assert_ptr_nonnull(strstr(p.csp.p, "img-src 'self' "
	    "https://www.facebook.com https://tr.line.me;"));
	ck_assert_ptr_nonnull(strstr(p.csp.p, "connect-src "
	    "https://www.facebook.com https://connect.facebook.net "
	    "https://tr.line.me https://d.line-scdn.net;"));
	ck_assert_ptr_null(strstr(p.csp.p, "tiktok"));
	ck_assert_ptr_null(strstr(p.csp.p, "googletagmanager"));
	ck_assert_ptr_null(strstr(p.csp.p, "frame-src"));
	page_free(&p);
	link_free(&l);
}
END_TEST

START_TEST(t_pages_inapp)
{
	struct page	 p;

	pages_escape(&p, ESCAPE_LINE, "LINE", "https://s.example/abc",
	    "https://s.example/abc?lz_inapp=stay");
	ck_assert_ptr_nonnull(strstr(p.html.p, "href=\"https:&#47;&#47;"
	    "s.example&#47;abc?openExternalBrowser=1\""));
	page_free(&p);
	pages_escape(&p, ESCAPE_ANDROID, "Facebook", "https://s.example/abc",
	    "https://s.example/abc?lz_inapp=stay");
	ck_assert_ptr_nonnull(strstr(p.html.p, "href=\"intent:&#47;&#47;"
	    "s.example&#47;abc#Intent;scheme=https;package=com.android.chrome;"
	    "S.browser_fallback_url=https%3A%2F%2Fs.example%2Fabc%3F"
	    "lz_inapp%3Dstay;end\""));
	page_free(&p);
	pages_escape(&p, ESCAPE_MANUAL, "Instagram", "https://s.example/abc",
	    "https://s.example/abc?lz_inapp=stay");
	ck_assert_ptr_nonnull(strstr(p.html.p, "inside Instagram"));
	ck_assert_ptr_nonnull(strstr(p.html.p, "value=\"https:&#47;&#47;"
	    "s.example&#47;abc\""));
	ck_assert_ptr_nonnull(strstr(p.csp.p, "script-src 'nonce-"));
	page_free(&p);
}
END_TEST

/* ---- the journal, against a real database ---------------------------- */

static char	 tmpdir[256], jdir[300], dbpath[300];
static struct lz_db db;
static int64_t	 link_id;

static void
db_setup(void)
{
	char		 err[512];
	int		 from, to;
	struct link	 l;
	int64_t		 acct;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_redirect.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(jdir, sizeof(jdir), "%s/clicks", tmpdir);
	snprintf(dbpath, sizeof(dbpath), "%s/links.db", tmpdir);
	ck_assert_int_eq(lz_db_open(&db, dbpath, LZ_DB_CREATE, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(lz_db_migrate(&db, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)), 0);
	lz_db_close(&db);
	ck_assert_msg(store_open(&db, dbpath, err, sizeof(err)) == 0, "%s",
	    err);
	acct = store_account_add(&db, "a@example.com", "pro", NULL, 1);
	ck_assert_int_gt(acct, 0);
	link_of(&l, MODE_AB, "[{\"url\":\"https://a.example/\",\"weight\":1},"
	    "{\"url\":\"https://b.example/\",\"weight\":1}]",
	    "{\"source\":\"s\"}");
	l.account_id = acct;
	l.slug = xstrdup("abc");
	l.created_at = 1;
	ck_assert_int_eq(store_link_insert(&db, &l), 0);
	link_id = l.id;
	link_free(&l);
}

static void
db_teardown(void)
{
	DIR		*d;
	struct dirent	*de;
	char		 p[600];

	mover_close(&db);
	lz_db_close(&db);
	if ((d = opendir(jdir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			snprintf(p, sizeof(p), "%s/%s", jdir, de->d_name);
			unlink(p);
		}
		closedir(d);
		rmdir(jdir);
	}
	snprintf(p, sizeof(p), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(p), 0);
}

static long long
q1(const char *sql)
{
	sqlite3_stmt	*st;
	long long	 v = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(db.h, sql, -1, &st, NULL),
	    SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
exec_sql(const char *sql)
{
	ck_assert_int_eq(sqlite3_exec(db.h, sql, NULL, NULL, NULL), SQLITE_OK);
}

static int
files_in(const char *dir)
{
	DIR		*d = opendir(dir);
	struct dirent	*de;
	int		 n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

START_TEST(t_journal_own)
{
	_Alignas(8) unsigned char	 rec[CLICKREC_SIZE];
	struct click	 c;
	char		 err[256];
	int		 i;

	ck_assert_msg(mover_open(&db, jdir, "", err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_int_eq(files_in(jdir), 2);	/* the journal and the lock */
	for (i = 0; i < 5; i++) {
		click_of(&c, link_id, "https://www.Example.org/p");
		c.bot = i == 4;
		ck_assert_int_eq(journal_append(&c), 0);
	}
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 0);
	mover_tick(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 5);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks WHERE bot = 1"), 1);
	/* Bots are stored but not counted. */
	ck_assert_int_eq(q1("SELECT clicks FROM links"), 4);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks WHERE referrer_host "
	    "= 'www.example.org' AND variant = '1' AND country = 'TW'"), 5);
	/* Records cut after their referrer: 5 of the same length. */
	ck_assert_int_eq(q1("SELECT pos FROM click_journals"),
	    5 * (long long)clickrec_pack_short(&c, rec));
	ck_assert_int_lt(clickrec_pack_short(&c, rec), 256);
	/* A second tick moves nothing twice. */
	mover_tick(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 5);
	/* A clean stop moves the rest and removes the journal. */
	click_of(&c, link_id, "");
	ck_assert_int_eq(journal_append(&c), 0);
	mover_close(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 6);
	ck_assert_int_eq(files_in(jdir), 1);	/* the lock */
	ck_assert_int_eq(q1("SELECT count(*) FROM click_journals"), 0);
}
END_TEST

START_TEST(t_journal_rotate)
{
	_Alignas(8) unsigned char	 rec[CLICKREC_SIZE];
	struct click	 c;
	char		 err[256], p[600], ref[1000];
	int		 i, lock;
	long long	 second;

	ck_assert_int_eq(mover_open(&db, jdir, "", err, sizeof(err)), 0);
	/* Another link, so that a batch holds runs of two links. */
	exec_sql("INSERT INTO links (account_id, slug, target_url, "
	    "created_at) SELECT account_id, 'two', target_url, 1 FROM links "
	    "WHERE slug = 'abc'");
	second = q1("SELECT id FROM links WHERE slug = 'two'");
	/* 8 MiB of records: the size at which a journal is replaced.
	 * Referrers at their longest make records of CLICKREC_SIZE. */
	snprintf(ref, sizeof(ref), "https://example.org/%0900d", 7);
	for (i = 0; i < 8192; i++) {
		click_of(&c, i % 3 == 2 ? second : link_id, ref);
		ck_assert_int_eq(clickrec_pack_short(&c, rec), CLICKREC_SIZE);
		c.bot = i % 7 == 0;
		ck_assert_int_eq(journal_append(&c), 0);
	}
	/* Another worker is moving: this tick moves nothing, but replaces
	 * the big journal with a new one. */
	snprintf(p, sizeof(p), "%s/mover.lock", jdir);
	ck_assert_int_ge((lock = open(p, O_RDWR)), 0);
	ck_assert_int_eq(flock(lock, LOCK_EX), 0);
	mover_tick(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 0);
	ck_assert_int_eq(files_in(jdir), 3);	/* old, new, lock */
	close(lock);
	/* The next move takes the old one, finished, to its end and
	 * removes it. */
	click_of(&c, link_id, "");
	ck_assert_int_eq(journal_append(&c), 0);
	mover_tick(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 8193);
	ck_assert_int_eq(q1("SELECT sum(clicks) FROM links"),
	    q1("SELECT count(*) FROM clicks WHERE bot = 0"));
	ck_assert_int_eq(q1("SELECT clicks FROM links WHERE slug = 'two'"),
	    q1("SELECT count(*) FROM clicks WHERE bot = 0 AND link_id = "
	    "(SELECT id FROM links WHERE slug = 'two')"));
	ck_assert_int_eq(files_in(jdir), 2);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_journals"), 1);
	ck_assert_int_eq(q1("SELECT pos FROM click_journals"),
	    (long long)clickrec_pack_short(&c, rec));
}
END_TEST

/* Records of every length fill pages, each page's end a pad. */
START_TEST(t_journal_pages)
{
	struct click	 c;
	char		 err[256], ref[1000];
	long long	 sum = 0;
	int		 i;

	ck_assert_int_eq(mover_open(&db, jdir, "", err, sizeof(err)), 0);
	for (i = 0; i < 300; i++) {
		snprintf(ref, sizeof(ref), "https://example.org/%0*d",
		    (i * 37) % 880, i);
		sum += strlen(ref) < CLICK_REFERRER_MAX ? (long long)strlen(ref) :
		    CLICK_REFERRER_MAX - 1;
		click_of(&c, link_id, ref);
		ck_assert_int_eq(journal_append(&c), 0);
	}
	mover_tick(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 300);
	/* Each referrer whole, as long as CLICK_REFERRER_MAX allows. */
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks WHERE referrer LIKE "
	    "'https://example.org/%'"), 300);
	ck_assert_int_eq(q1("SELECT max(length(referrer)) FROM clicks"),
	    CLICK_REFERRER_MAX - 1);
	ck_assert_int_eq(q1("SELECT sum(length(referrer)) FROM clicks"),
	    sum);
	mover_close(&db);
	ck_assert_int_eq(files_in(jdir), 1);
}
END_TEST

START_TEST(t_journal_thread)
{
	struct click	 c;
	char		 err[256];
	int		 i;

	ck_assert_int_eq(mover_open(&db, jdir, "", err, sizeof(err)), 0);
	ck_assert_msg(mover_start(dbpath, err, sizeof(err)) == 0, "%s",
	    err);
	/* The worker's thread only writes; the mover thread moves. */
	ck_assert_int_eq(mover_collect(&db, jdir), -1);
	for (i = 0; i < 300; i++) {
		click_of(&c, link_id, "");
		ck_assert_int_eq(journal_append(&c), 0);
	}
	mover_tick(&db);
	for (i = 0; i < 50 && q1("SELECT count(*) FROM clicks") < 300; i++)
		usleep(100000);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 300);
	/* Stopping joins the thread and moves the rest. */
	click_of(&c, link_id, "");
	ck_assert_int_eq(journal_append(&c), 0);
	mover_close(&db);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 301);
	ck_assert_int_eq(q1("SELECT clicks FROM links"), 301);
	ck_assert_int_eq(files_in(jdir), 1);
}
END_TEST

/*
 * Writes n records as a dead worker's journal would hold them: whole
 * ones (CLK1, as lz wrote them before it cut records short) or short.
 */
static void
dead_journal(const char *name, int n, int torn, int whole)
{
	_Alignas(8) unsigned char	 rec[CLICKREC_SIZE];
	struct click			 c;
	char				 p[600];
	size_t				 len;
	int				 fd, i;

	snprintf(p, sizeof(p), "%s/%s", jdir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0640);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < n; i++) {
		click_of(&c, link_id, "");
		if (whole) {
			clickrec_pack(&c, rec);
			len = sizeof(rec);
		} else
			len = clickrec_pack_short(&c, rec);
		ck_assert_int_eq(write(fd, rec, len), len);
	}
	if (torn)
		ck_assert_int_eq(write(fd, rec, 100), 100);
	close(fd);
}

START_TEST(t_journal_dead)
{
	char	 err[256], p[600];
	int	 fd;

	ck_assert_int_eq(mkdir(jdir, 0750), 0);
	/* A worker died after 3 records and half a fourth. */
	dead_journal("w111-aaaa.j", 3, 1, 1);
	/* Another had 4, of which 2 were moved before it died. */
	dead_journal("w222-bbbb.j", 4, 0, 1);
	ck_assert_int_eq(store_journal_set(&db, "w222-bbbb.j",
	    2 * CLICKREC_SIZE), 0);
	/* A third is alive: it holds its lock. */
	dead_journal("w333-cccc.j", 2, 0, 1);
	/* And one of short records, of which half the last is written. */
	dead_journal("w555-eeee.j", 5, 1, 0);
	snprintf(p, sizeof(p), "%s/w333-cccc.j", jdir);
	fd = open(p, O_RDWR);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);
	/* A position whose journal is gone is forgotten. */
	ck_assert_int_eq(store_journal_set(&db, "w444-dddd.j", 99), 0);

	ck_assert_msg(mover_open(&db, jdir, "", err, sizeof(err)) == 0,
	    "%s", err);
	/* The dead ones are moved to their end, the live one as far as it
	 * is written. */
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 3 + 2 + 2 + 5);
	ck_assert_int_eq(q1("SELECT clicks FROM links"), 12);
	ck_assert_int_eq(files_in(jdir), 3);	/* ours, the live one, lock */
	ck_assert_int_eq(q1("SELECT count(*) FROM click_journals"), 1);
	ck_assert_int_eq(q1("SELECT pos FROM click_journals WHERE name = "
	    "'w333-cccc.j'"), 2 * CLICKREC_SIZE);
	/* Its worker dies: the next move removes it, moving nothing twice. */
	close(fd);
	ck_assert_int_eq(mover_collect(&db, jdir), 0);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 12);
	ck_assert_int_eq(files_in(jdir), 2);
	ck_assert_int_eq(q1("SELECT count(*) FROM click_journals"), 0);
}
END_TEST

START_TEST(t_click_cap)
{
	struct link	 l;
	struct click	 c;
	int		 i, served = 0;
	sqlite3_stmt	*st;

	ck_assert_int_eq(sqlite3_prepare_v2(db.h, "UPDATE links SET "
	    "max_clicks = 3", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	ck_assert_int_eq(store_link_by_id(&db, link_id, &l), 1);
	for (i = 0; i < 5; i++) {
		click_of(&c, link_id, "");
		ck_assert_int_eq(lz_db_begin(&db), 0);
		if (record_click(&db, &l, &c, 1, RECORD_CAP, NULL) == 1) {
			served++;
			ck_assert_int_eq(lz_db_commit(&db), 0);
		} else
			lz_db_rollback(&db);
	}
	ck_assert_int_eq(served, 3);
	ck_assert_int_eq(q1("SELECT count(*) FROM clicks"), 3);
	/* A bot never counts against the cap. */
	click_of(&c, link_id, "");
	c.bot = 1;
	ck_assert_int_eq(record_click(&db, &l, &c, 1, RECORD_CAP, NULL), 1);
	ck_assert_int_eq(q1("SELECT clicks FROM links"), 3);
	link_free(&l);
}
END_TEST

START_TEST(t_linkcache)
{
	const struct link	*l;
	int64_t			 t = 1000000;

	linkcache_clear();
	ck_assert_int_eq(linkcache_get(&db, 0, "abc", t, &l), 1);
	ck_assert_str_eq(l->slug, "abc");
	ck_assert_int_eq(l->deleted_at, 0);
	exec_sql("UPDATE links SET deleted_at = 5");
	/* Within the TTL the cached copy is used... */
	ck_assert_int_eq(linkcache_get(&db, 0, "abc", t + LINKCACHE_TTL_MS - 1,
	    &l), 1);
	ck_assert_int_eq(l->deleted_at, 0);
	/* ...then read again. */
	ck_assert_int_eq(linkcache_get(&db, 0, "abc", t + LINKCACHE_TTL_MS, &l),
	    1);
	ck_assert_int_eq(l->deleted_at, 5);
	/* A clock that went back does not keep a copy alive. */
	exec_sql("UPDATE links SET deleted_at = 6");
	ck_assert_int_eq(linkcache_get(&db, 0, "abc", t, &l), 1);
	ck_assert_int_eq(l->deleted_at, 6);
	/* Unknown slugs are not cached: a new link works at once. */
	ck_assert_int_eq(linkcache_get(&db, 0, "new", t, &l), 0);
	exec_sql("INSERT INTO links (account_id, slug, target_url, "
	    "created_at, max_clicks) SELECT account_id, 'new', target_url, 1, "
	    "2 FROM links WHERE slug = 'abc'");
	ck_assert_int_eq(linkcache_get(&db, 0, "new", t, &l), 1);
	/* A capped link is read on every call. */
	exec_sql("UPDATE links SET clicks = 2 WHERE slug = 'new'");
	ck_assert_int_eq(linkcache_get(&db, 0, "new", t + 1, &l), 1);
	ck_assert_int_eq(l->clicks, 2);
	linkcache_clear();
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("redirect");
	TCase	*tc;

	tc = tcase_create("target");
	tcase_add_test(tc, t_pick_ab);
	tcase_add_test(tc, t_pick_device);
	tcase_add_test(tc, t_pick_geo);
	tcase_add_test(tc, t_utm);
	suite_add_tcase(s, tc);

	tc = tcase_create("visitor");
	tcase_add_test(tc, t_visitor);
	tcase_add_test(tc, t_visitor_net);
	suite_add_tcase(s, tc);

	tc = tcase_create("clicks");
	tcase_add_test(tc, t_referrer);
	tcase_add_test(tc, t_record);
	suite_add_tcase(s, tc);

	tc = tcase_create("pages");
	tcase_add_test(tc, t_pages_escape);
	tcase_add_test(tc, t_pages_pixels);
	tcase_add_test(tc, t_pages_inapp);
	suite_add_tcase(s, tc);

	tc = tcase_create("journal");
	tcase_add_checked_fixture(tc, db_setup, db_teardown);
	tcase_add_test(tc, t_journal_own);
	tcase_add_test(tc, t_journal_dead);
	tcase_add_test(tc, t_journal_rotate);
	tcase_add_test(tc, t_journal_thread);
	tcase_add_test(tc, t_journal_pages);
	tcase_add_test(tc, t_click_cap);
	tcase_add_test(tc, t_linkcache);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 failed;

	lz_log_open("check_redirect", LZ_LOG_ERR);
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed ? 1 : 0;
}
