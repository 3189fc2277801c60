/*
 * check_safety.c -- the destination safety scan: heuristics (safety.c),
 * IDN look-alikes (idn.c), public addresses (addr.c), feed formats,
 * import and matching (blocklist.c), re-checking links, and the scan as
 * link_parse sees it (dest.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <sodium.h>

#include "addr.h"
#include "conf.h"
#include "db.h"
#include "link/link.h"
#include "req.h"
#include "safety/blocklist.h"
#include "safety/canon.h"
#include "safety/idn.h"
#include "safety/scan.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/safety.h"
#include "store/store.h"
#include "util.h"

#ifndef LZ_TEST_DATA
#define LZ_TEST_DATA "t/data"
#endif

/* The database and configuration the scan runs with, as a pool
 * worker's would be (setup/teardown of the "database" cases). */
static struct lz_db	 tdb;
static struct lz_conf	*tconf;

static struct lz_conf *
test_conf(int allow_ip)
{
	struct lz_conf	*c = lz_conf_defaults();

	free(c->base_url);
	c->base_url = xstrdup("https://lz.example");
	free(c->own_hosts);
	c->own_hosts = xstrdup("go.example, LINKS.Example.ORG");
	c->allow_ip_hosts = allow_ip;
	return c;
}

/* ---- heuristics -------------------------------------------------------- */

static const struct { const char *url, *why; } refused[] = {
	{ "javascript://example.com/%0aalert(1)", "only http" },
	{ "ftp://example.com/file", "only http" },
	{ "https://bank.example@evil.example/", "user name or password" },
	{ "https://:@evil.example/", "user name or password" },
	{ "http://evil.example\\@good.example/", "backslash" },
	{ "http://127.0.0.1/", "IP address (127.0.0.1)" },
	{ "http://2130706433/", "IP address (127.0.0.1)" },
	{ "http://0x7f.1/", "IP address (127.0.0.1)" },
	{ "http://0177.0.0.1/", "IP address (127.0.0.1)" },
	{ "http://8.8.8.8/", "IP address (8.8.8.8)" },
	{ "http://[::1]/", "IP address ([::1])" },
	{ "http://[::ffff:10.0.0.1]/", "IP address" },
	{ "http://1.2.3.999/", "ends in a number" },
	{ "http://localhost/", "no domain" },
	{ "http://intranet:8080/", "no domain" },
	{ "http://printer.local/", "local network name" },
	{ "http://db.internal/", "local network name" },
	{ "http://router.home.arpa/", "local network name" },
	{ "http://app.localhost/", "local network name" },
	{ "https://lz.example/abc", "this service (lz.example)" },
	{ "https://LZ.EXAMPLE./abc", "this service" },
	{ "https://www.lz.example/abc", "this service" },
	{ "https://go.lz.example/x", "this service (lz.example)" },
	{ "https://go.example/x", "this service (go.example)" },
	{ "https://links.example.org/x", "this service (links.example.org)" },
	{ "https://bit.ly/abc", "link shortener (bit.ly)" },
	{ "https://j.mp/abc", "link shortener (j.mp)" },
	{ "http://tinyurl.com/abc", "link shortener (tinyurl.com)" },
	{ "http://www.tinyurl.com/abc", "link shortener" },
	{ "https://t.co/abc", "link shortener (t.co)" },
	{ "https://\xd0\xb0pple.com/", "mixes scripts" },
	{ "https://xn--pple-43d.com/", "mixes scripts" },
	{ "https://\xd0\xb0\xd1\x80\xd1\x80\xd3\x8f\xd0\xb5.com/",
	  "look like the Latin name \"appie\"" },
	{ "https://\xc9\xa1oogle.com/", "symbols or characters" },
	{ "https://\xd1\x81\xd0\xbe\xd1\x81\xd0\xb0.example/",
	  "look like the Latin name \"coca\"" },
	{ "https://\xf0\x9f\x92\xa9.example/", "symbols" },
	{ "https://google.com\xe2\x81\x84login.example/", "symbols" },
	{ "https://xn--zz.example/", "invalid internationalised label" },
	{ "https://x\xe2\x80\x8dy.example/", "not a valid internationalised" },
	{ "https://good.example%2f.evil.example/", "characters that host" },
	{ "https://exa mple.com/", "characters that host" },
	{ "https://example.com:70000/", "port" },
};

START_TEST(test_refused)
{
	struct lz_conf	*c = test_conf(0);
	char		 why[512];

	ck_assert_int_eq(safety_scan(c, NULL, refused[_i].url, why,
	    sizeof(why)), 1);
	ck_assert_msg(strstr(why, refused[_i].why) != NULL, "%s: '%s' lacks "
	    "'%s'", refused[_i].url, why, refused[_i].why);
	lz_conf_free(c);
}
END_TEST

static const char *const accepted[] = {
	"https://example.com/",
	"http://example.com:8080/path?q=1#frag",
	"https://orbit.ly/",			/* not bit.ly */
	"https://bit.ly.example.com/",		/* not under bit.ly */
	"https://notlz.example/",		/* not under lz.example */
	"https://m\xc3\xbcnchen.de/",		/* Latin with a diacritic */
	"https://\xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x80.\xd1\x80"
	    "\xd1\x84/",			/* Cyrillic, one script */
	"https://\xe4\xbe\x8b\xe3\x81\x88.jp/",	/* Han + Hiragana */
	"https://\xcf\x80\xce\xb1\xcf\x81\xce\xac\xce\xb4\xce\xb5\xce\xb9\xce"
	    "\xb3\xce\xbc\xce\xb1.gr/",		/* Greek */
	"https://ab--cd.example/",
	"https://under_score.example/",
	"https://a.b.c.d.e.f.g.example/deep/path/",
};

START_TEST(test_accepted)
{
	struct lz_conf	*c = test_conf(0);
	char		 why[512];

	ck_assert_msg(safety_scan(c, NULL, accepted[_i], why, sizeof(why)) ==
	    0, "%s refused: %s", accepted[_i], why);
	lz_conf_free(c);
}
END_TEST

START_TEST(test_allow_ip_hosts)
{
	struct lz_conf	*c = test_conf(1);
	char		 why[512];

	ck_assert_int_eq(safety_scan(c, NULL, "http://8.8.8.8/", why,
	    sizeof(why)), 0);
	ck_assert_int_eq(safety_scan(c, NULL, "http://134744072/", why,
	    sizeof(why)), 0);
	ck_assert_int_eq(safety_scan(c, NULL, "http://[2606:4700::1111]/",
	    why, sizeof(why)), 0);
	ck_assert_int_eq(safety_scan(c, NULL, "http://0x7f.1/", why,
	    sizeof(why)), 1);
	ck_assert(strstr(why, "loopback address (127.0.0.1), not a public") !=
	    NULL);
	ck_assert_int_eq(safety_scan(c, NULL, "http://192.168.1.1/", why,
	    sizeof(why)), 1);
	ck_assert_int_eq(safety_scan(c, NULL, "http://[::ffff:10.1.2.3]/",
	    why, sizeof(why)), 1);
	ck_assert_int_eq(safety_scan(c, NULL, "http://[fe80::1]/", why,
	    sizeof(why)), 1);
	lz_conf_free(c);
}
END_TEST

START_TEST(test_idn_labels)
{
	char	 why[512], out[256];

	ck_assert_int_eq(idn_label_check("example", 7, why, sizeof(why)), 0);
	ck_assert_int_eq(idn_label_check("xn--mnchen-3ya", 14, why,
	    sizeof(why)), 0);
	ck_assert_int_eq(idn_label_check("xn--pple-43d", 12, why, sizeof(why)),
	    1);
	ck_assert_int_eq(idn_label_check("xn--ls8h", 8, why, sizeof(why)), 1);
	ck_assert_int_eq(idn_to_ascii("B\xc3\xbc" "cher.DE", 10, out,
	    sizeof(out)), 16);
	ck_assert_str_eq(out, "xn--bcher-kva.de");
	ck_assert_int_eq(idn_to_ascii("\xff", 1, out, sizeof(out)), -1);
}
END_TEST

/* ---- feeds -------------------------------------------------------------- */

struct collect {
	char	**v;
	size_t	  n;
};

static int
collect(const struct bl_entry *e, void *arg)
{
	struct collect	*c = arg;

	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = xasprintf("%s %s|%s", e->kind, e->value, e->reason);
	return 0;
}

static int
has(const struct collect *c, const char *prefix)
{
	size_t	 i;

	for (i = 0; i < c->n; i++)
		if (strncmp(c->v[i], prefix, strlen(prefix)) == 0)
			return 1;
	return 0;
}

static void
parse_file(const char *name, enum bl_format fmt, struct collect *c,
    struct bl_stats *st)
{
	char	 path[512], err[256];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", LZ_TEST_DATA, name);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	memset(c, 0, sizeof(*c));
	ck_assert_msg(bl_parse(f, fmt, collect, c, st, err, sizeof(err)) == 0,
	    "%s: %s", name, err);
	fclose(f);
}

static void
collect_free(struct collect *c)
{
	size_t	 i;

	for (i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
}

START_TEST(test_feed_formats)
{
	struct collect	 c;
	struct bl_stats	 st;

	parse_file("urlhaus.csv", BL_URLHAUS_CSV, &c, &st);
	ck_assert_int_eq(st.records, 8);
	ck_assert_int_eq(st.entries, 8);
	ck_assert(has(&c, "url 115.55.237.120/i|malware_download; tags: "
	    "32-bit,elf,mips,Mozi"));
	ck_assert(has(&c, "url docs-share.test/d/8f3a,9c2b/view|"));
	ck_assert(has(&c, "url github-releases.test/owner/tool/raw/main/"
	    "payload.ps1?dl=1|"));
	ck_assert(has(&c, "url www.encoded-host.test/gate.php|"));
	ck_assert(has(&c, "url free-gift-cards.test/|malware_download|") ||
	    has(&c, "url free-gift-cards.test/|malware_download"));
	collect_free(&c);

	parse_file("phishtank.json", BL_PHISHTANK_JSON, &c, &st);
	ck_assert_int_eq(st.records, 5);
	ck_assert_int_eq(st.entries, 4);
	ck_assert_int_eq(st.skipped, 1);	/* verified: no */
	ck_assert(has(&c, "url secure-paypa1-login.test/signin/|phishing; "
	    "target: PayPal"));
	ck_assert(has(&c, "url appleid.apple.com.verify-account.test/|"));
	ck_assert(!has(&c, "url unverified-phish.test/"));
	collect_free(&c);

	parse_file("phishtank.csv", BL_PHISHTANK_CSV, &c, &st);
	ck_assert_int_eq(st.records, 4);
	ck_assert_int_eq(st.entries, 3);
	ck_assert(has(&c, "url login-netflix-billing.test/update,card|"
	    "phishing; target: Netflix"));
	ck_assert(has(&c, "url secure-paypa1-login.test/signin/|phishing; "
	    "target: PayPal, Inc."));
	ck_assert(has(&c, "url m1crosoft-office365.test/owa/auth/logon.aspx?"
	    "replaceCurrent=1&url=https://outlook.test/owa|"));
	collect_free(&c);

	parse_file("openphish.txt", BL_OPENPHISH, &c, &st);
	ck_assert_int_eq(st.entries, 5);
	ck_assert(has(&c, "url dhl-parcel-redelivery.test/track/|phishing"));
	collect_free(&c);

	parse_file("hosts", BL_HOSTS, &c, &st);
	ck_assert_int_eq(st.entries, 6);
	ck_assert(has(&c, "host tracker-malware.test|"));
	ck_assert(has(&c, "host ads.adserver-bad.test|"));
	ck_assert(has(&c, "host www.coinhive-miner.test|"));
	ck_assert(has(&c, "host xn--b1aec7aebjn.test|"));
	ck_assert(has(&c, "host evil-domain-list.test|"));
	ck_assert(!has(&c, "host localhost"));
	ck_assert(!has(&c, "host bad_host"));
	collect_free(&c);
}
END_TEST

START_TEST(test_feed_wrong_format)
{
	char		 path[512], err[256];
	struct collect	 c;
	struct bl_stats	 st;
	FILE		*f;

	memset(&c, 0, sizeof(c));
	snprintf(path, sizeof(path), "%s/urlhaus.csv", LZ_TEST_DATA);
	f = fopen(path, "r");
	ck_assert_int_eq(bl_parse(f, BL_PHISHTANK_JSON, collect, &c, &st, err,
	    sizeof(err)), -1);
	fclose(f);
	f = fopen(path, "r");
	ck_assert_int_eq(bl_parse(f, BL_PHISHTANK_CSV, collect, &c, &st, err,
	    sizeof(err)), -1);
	fclose(f);
	ck_assert_uint_eq(c.n, 0);
}
END_TEST

START_TEST(test_entry_from_text)
{
	struct bl_entry	 e;

	ck_assert_int_eq(bl_entry_from_text("Evil.EXAMPLE.", &e), 0);
	ck_assert_str_eq(e.kind, "host");
	ck_assert_str_eq(e.value, "evil.example");
	free(e.value);
	ck_assert_int_eq(bl_entry_from_text("HTTPS://Evil.example:8443/a/"
	    "./b?x#y", &e), 0);
	ck_assert_str_eq(e.kind, "url");
	ck_assert_str_eq(e.value, "evil.example/a/b?x");
	free(e.value);
	ck_assert_int_eq(bl_entry_from_text("localhost", &e), -1);
	ck_assert_int_eq(bl_entry_from_text("bad host", &e), -1);
	ck_assert_int_eq(bl_entry_from_text("ftp://evil.example/", &e), -1);
	/* Found by fuzz_canon: an escaped '/' in the host. */
	ck_assert_int_eq(bl_entry_from_text("http://evil.example%2fpath/",
	    &e), -1);
}
END_TEST

/* ---- the database: import, match, re-check ------------------------------ */

static char	 dbpath[64];

static void
db_setup(void)
{
	struct lz_db	 db;
	char		 err[512];
	int		 fd, from, to;

	snprintf(dbpath, sizeof(dbpath), "/tmp/check_safety.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(dbpath), -1);
	close(fd);
	ck_assert_int_eq(lz_db_open(&db, dbpath, LZ_DB_CREATE, err,
	    sizeof(err)), 0);
	ck_assert_msg(lz_db_migrate(&db, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == 0, "%s", err);
	lz_db_close(&db);
	ck_assert_int_eq(store_open(&tdb, dbpath, err, sizeof(err)), 0);
	tconf = test_conf(0);
	store_admin();		/* the checks look at any account's links */
}

static void
db_teardown(void)
{
	char	 p[80];

	lz_db_close(&tdb);
	lz_conf_free(tconf);
	tconf = NULL;
	unlink(dbpath);
	snprintf(p, sizeof(p), "%s-wal", dbpath);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", dbpath);
	unlink(p);
}

static void
import_file(const char *name, enum bl_format fmt, const char *source,
    int64_t now, struct bl_stats *st)
{
	char	 path[512], err[256];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", LZ_TEST_DATA, name);
	ck_assert_ptr_nonnull(f = fopen(path, "r"));
	ck_assert_msg(bl_import(&tdb, f, fmt, source, 0, now, NULL, st,
	    err, sizeof(err)) == 0, "%s: %s", name, err);
	fclose(f);
}

static int
scan(const char *url, char *why, size_t len)
{
	return safety_scan(tconf, &tdb, url, why, len);
}

START_TEST(test_blocklist_match)
{
	struct bl_stats	 st;
	char		 why[512];

	import_file("urlhaus.csv", BL_URLHAUS_CSV, "urlhaus", 1000, &st);
	import_file("hosts", BL_HOSTS, "hosts", 1000, &st);
	import_file("openphish.txt", BL_OPENPHISH, "openphish", 1000, &st);

	/* Host entries: the host and everything under it. */
	ck_assert_int_eq(scan("https://tracker-malware.test/", why,
	    sizeof(why)), 1);
	ck_assert(strstr(why, "tracker-malware.test is on the hosts") != NULL);
	ck_assert_int_eq(scan("https://a.b.TRACKER-malware.test./x", why,
	    sizeof(why)), 1);
	ck_assert_int_eq(scan("https://nottracker-malware.test/", why,
	    sizeof(why)), 0);
	ck_assert_int_eq(scan("https://\xd0\xb2\xd1\x80\xd0\xb5\xd0\xb4\xd0"
	    "\xbe\xd0\xbd\xd0\xbe\xd1\x81.test/", why, sizeof(why)), 1);

	/* URL entries: Safe Browsing expressions. */
	ck_assert_int_eq(scan("http://free-gift-cards.test/any/page?x=1",
	    why, sizeof(why)), 1);
	ck_assert_int_eq(scan("http://www.free-gift-cards.test/", why,
	    sizeof(why)), 1);
	ck_assert_int_eq(scan("https://dhl-parcel-redelivery.test/track/"
	    "123", why, sizeof(why)), 1);
	ck_assert_int_eq(scan("https://dhl-parcel-redelivery.test/other",
	    why, sizeof(why)), 0);
	ck_assert_int_eq(scan("https://update-flash-player.test/download/"
	    "flashplayer.exe?v=2", why, sizeof(why)), 1);
	ck_assert_int_eq(scan("https://update-flash-player.test/download/"
	    "other.exe", why, sizeof(why)), 0);
	ck_assert_int_eq(scan("https://github-releases.test/owner/tool/raw/"
	    "main/payload.ps1?dl=1", why, sizeof(why)), 1);
	ck_assert_int_eq(scan("https://github-releases.test/owner/tool/raw/"
	    "main/payload.ps1", why, sizeof(why)), 0);
	/* Escapes, dot segments and case do not hide a listed URL. */
	ck_assert_int_eq(scan("http://WWW.encoded-host.test/a/%2e%2e/%67ate."
	    "php", why, sizeof(why)), 1);
	ck_assert(strstr(why, "on the urlhaus blocklist") != NULL);

	/* A new import of a source replaces it; --keep adds to it. */
	import_file("hosts", BL_HOSTS, "openphish", 2000, &st);
	ck_assert_int_eq(st.pruned, 5);
	ck_assert_int_eq(scan("https://dhl-parcel-redelivery.test/track/1",
	    why, sizeof(why)), 0);
}
END_TEST

START_TEST(test_import_empty_keeps_list)
{
	struct bl_stats	 st;
	char		 err[256], why[512];
	FILE		*f;

	import_file("hosts", BL_HOSTS, "hosts", 1000, &st);
	ck_assert_ptr_nonnull(f = fmemopen((void *)(uintptr_t)"# nothing\n",
	    10, "r"));
	ck_assert_int_eq(bl_import(&tdb, f, BL_HOSTS, "hosts", 0, 2000,
	    NULL, &st, err, sizeof(err)), -1);
	ck_assert(strstr(err, "unchanged") != NULL);
	fclose(f);
	ck_assert_int_eq(scan("https://tracker-malware.test/", why,
	    sizeof(why)), 1);
}
END_TEST

/* What bl_import told its progress function. */
static struct {
	int		 calls;
	uint64_t	 last, total;
	int		 backwards, bytes;
} seen;

static void
record_progress(const char *step, uint64_t done, uint64_t total)
{
	if (strcmp(step, "importing (bytes of the file)") == 0) {
		seen.bytes++;
		if (done < seen.last)
			seen.backwards++;
		seen.last = done;
		seen.total = total;
	}
	seen.calls++;
}

START_TEST(test_import_progress)
{
	struct bl_stats	 st;
	char		 err[256];
	FILE		*f;
	long		 size;
	int		 i;

	/* 12,000 host lines: two commits of 5,000 report the bytes read of
	 * the file, increasing, against its size. */
	ck_assert_ptr_nonnull(f = tmpfile());
	for (i = 0; i < 12000; i++)
		fprintf(f, "0.0.0.0 h%d.progress.test\n", i);
	size = ftell(f);
	rewind(f);
	memset(&seen, 0, sizeof(seen));
	ck_assert_msg(bl_import(&tdb, f, BL_HOSTS, "hosts", 0, 1000,
	    record_progress, &st, err, sizeof(err)) == 0, "%s", err);
	fclose(f);
	ck_assert_int_eq(st.entries, 12000);
	ck_assert_int_eq(seen.bytes, 2);
	ck_assert_int_eq(seen.backwards, 0);
	ck_assert_int_eq((long)seen.total, size);
	ck_assert(seen.last > 0 && seen.last < seen.total);
	/* And the pruning step after them. */
	ck_assert_int_eq(seen.calls, 3);
}
END_TEST

static int64_t
add_link(int64_t account, const char *slug, const char *body_json)
{
	struct lz_verr	 e;
	struct link	 l;
	json_t		*body;
	int64_t		 id;

	memset(&l, 0, sizeof(l));
	ck_assert_ptr_nonnull(body = json_loads(body_json, 0, NULL));
	ck_assert_msg(link_parse(body, 1000, &l, &e) == 0, "%s", e.msg);
	json_decref(body);
	l.slug = xstrdup(slug);
	l.account_id = account;
	l.created_at = 1000;
	ck_assert_int_eq(store_link_insert(&tdb, &l), 0);
	id = l.id;
	link_free(&l);
	return id;
}

START_TEST(test_recheck_flags)
{
	struct bl_stats	 st;
	struct link	 l;
	int64_t		 acct, ok, bad, badvar;
	long		 checked, flagged;

	acct = store_account_add(&tdb, "a@example.com", "free", NULL, 1);
	ok = add_link(acct, "ok1", "{\"target_url\": \"https://fine.test/\"}");
	bad = add_link(acct, "bad1", "{\"target_url\": "
	    "\"https://wallet-connect-sync.test/connect?ref=1\"}");
	badvar = add_link(acct, "bad2", "{\"target_url\": \"https://fine.test/"
	    "\", \"mode\": \"device\", \"variants\": {\"ios\": "
	    "\"https://fine.test/ios\", \"android\": "
	    "\"http://appleid.apple.com.verify-account.test/x\"}}");

	import_file("phishtank.json", BL_PHISHTANK_JSON, "phishtank", 1000,
	    &st);
	ck_assert_int_eq(safety_recheck(&tdb, 5000, &checked, &flagged),
	    0);
	ck_assert_int_eq(checked, 3);
	ck_assert_int_eq(flagged, 2);

	ck_assert_int_eq(store_link_get(&tdb, ok, ACCOUNT_ANY, &l), 1);
	ck_assert_int_eq(link_status(&l, 6000), STATUS_ACTIVE);
	link_free(&l);
	ck_assert_int_eq(store_link_get(&tdb, bad, ACCOUNT_ANY, &l), 1);
	ck_assert_int_eq(link_status(&l, 6000), STATUS_DISABLED);
	ck_assert_int_eq(l.flagged_at, 5000);
	ck_assert(strstr(l.flag_reason, "target_url: ") == l.flag_reason);
	ck_assert(strstr(l.flag_reason, "phishtank") != NULL);
	link_free(&l);
	ck_assert_int_eq(store_link_get(&tdb, badvar, ACCOUNT_ANY, &l), 1);
	ck_assert_int_eq(link_status(&l, 6000), STATUS_DISABLED);
	ck_assert(strstr(l.flag_reason, "variants.android: ") ==
	    l.flag_reason);
	link_free(&l);

	/* A second re-check skips flagged links; unflag clears. */
	ck_assert_int_eq(safety_recheck(&tdb, 7000, &checked, &flagged),
	    0);
	ck_assert_int_eq(checked, 1);
	ck_assert_int_eq(flagged, 0);
	ck_assert_int_eq(store_link_unflag(&tdb, bad), 1);
	ck_assert_int_eq(store_link_unflag(&tdb, bad), 0);
	ck_assert_int_eq(store_link_get(&tdb, bad, ACCOUNT_ANY, &l), 1);
	ck_assert_int_eq(link_status(&l, 6000), STATUS_ACTIVE);
	link_free(&l);
}
END_TEST

/* What the API does to a create body: link_parse checks every field's
 * syntax, then safety_link scans the destinations, naming the field. */
START_TEST(test_link_parse_params)
{
	static const struct { const char *body, *code, *param; } t[] = {
		{ "{\"target_url\": \"https://bit.ly/x\"}",
		  "unsafe_destination", "target_url" },
		{ "{\"target_url\": \"javascript:alert(1)\"}",
		  "unsafe_destination", "target_url" },
		{ "{\"target_url\": \"not a url\"}", "invalid_url",
		  "target_url" },
		{ "{\"target_url\": \"https://ok.test/\", \"mode\": \"ab\", "
		  "\"variants\": [{\"url\": \"https://ok.test/a\", \"weight\": "
		  "1}, {\"url\": \"http://127.0.0.1/\", \"weight\": 1}]}",
		  "unsafe_destination", "variants[1].url" },
		{ "{\"target_url\": \"https://ok.test/\", \"mode\": \"device\", "
		  "\"variants\": {\"ios\": \"https://lz.example/loop\"}}",
		  "unsafe_destination", "variants.ios" },
		{ "{\"target_url\": \"https://ok.test/\", \"mode\": \"geo\", "
		  "\"variants\": {\"TW\": \"https://tracker-malware.test/\"}}",
		  "unsafe_destination", "variants.TW" },
	};
	struct bl_stats	 st;
	struct lz_verr	 e;
	struct link	 l;
	json_t		*body;
	size_t		 i;

	import_file("hosts", BL_HOSTS, "hosts", 1000, &st);
	for (i = 0; i < LZ_NELEM(t); i++) {
		memset(&l, 0, sizeof(l));
		memset(&e, 0, sizeof(e));
		body = json_loads(t[i].body, 0, NULL);
		if (link_parse(body, 1000, &l, &e) == 0)
			ck_assert_int_eq(safety_link(tconf, &tdb, &l, &e), -1);
		ck_assert_int_eq(e.status, 400);
		ck_assert_str_eq(e.code, t[i].code);
		ck_assert_str_eq(e.param, t[i].param);
		json_decref(body);
		link_free(&l);
	}
}
END_TEST

/* A batch's scan (an import's, a bulk call's: safety_links, the
 * database asked once for all) answers each link as safety_link does
 * alone: the first destination refused, the same words. */
START_TEST(test_links_batch)
{
	static const char *const bodies[] = {
		"{\"target_url\": \"https://ok.test/a\"}",
		"{\"target_url\": \"https://tracker-malware.test/x\"}",
		"{\"target_url\": \"https://bit.ly/x\"}",
		/* listed first, then nrefused by the heuristics: the first
		 * destination's answer */
		"{\"target_url\": \"https://ok.test/\", \"mode\": \"ab\", "
		"\"variants\": [{\"url\": \"https://a.tracker-malware.test/\", "
		"\"weight\": 1}, {\"url\": \"http://127.0.0.1/\", \"weight\": "
		"1}]}",
		"{\"target_url\": \"https://ok.test/b\"}",
		"{\"target_url\": \"https://ok.test/\", \"mode\": \"device\", "
		"\"variants\": {\"ios\": \"https://lz.example/loop\"}}",
		"{\"target_url\": \"https://tracker-malware.test/y\"}",
	};
	enum { N = sizeof(bodies) / sizeof(bodies[0]) };
	struct bl_stats	 st;
	struct lz_verr	 one[N], many[N];
	struct link	 l[N];
	char		 ok[N];
	json_t		*body;
	size_t		 i, nrefused = 0;

	import_file("hosts", BL_HOSTS, "hosts", 1000, &st);
	memset(one, 0, sizeof(one));
	memset(many, 0, sizeof(many));
	for (i = 0; i < N; i++) {
		memset(&l[i], 0, sizeof(l[i]));
		body = json_loads(bodies[i], 0, NULL);
		ck_assert_int_eq(link_parse(body, 1000, &l[i], &one[i]), 0);
		json_decref(body);
		nrefused += safety_link(tconf, &tdb, &l[i], &one[i]) == -1;
		ok[i] = 1;
	}
	ck_assert_uint_eq(nrefused, 5);
	ck_assert_uint_eq(safety_links(tconf, &tdb, l, ok, N, many), nrefused);
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(ok[i], one[i].status == 0);
		ck_assert_int_eq(many[i].status, one[i].status);
		ck_assert_str_eq(many[i].code, one[i].code);
		ck_assert_str_eq(many[i].param, one[i].param);
		ck_assert_str_eq(many[i].msg, one[i].msg);
		link_free(&l[i]);
	}
	ck_assert_str_eq(many[3].param, "variants[0].url");
	ck_assert(strstr(many[3].msg, "its host a.tracker-malware.test") ==
	    NULL);
	ck_assert(strstr(many[3].msg, "tracker-malware.test is on the hosts "
	    "blocklist") != NULL);
	/* Those not to be scanned are left alone. */
	memset(ok, 0, sizeof(ok));
	ck_assert_uint_eq(safety_links(tconf, &tdb, l, ok, N, many), 0);
}
END_TEST

static Suite *
safety_suite(void)
{
	Suite	*s = suite_create("safety");
	TCase	*tc;

	tc = tcase_create("heuristics");
	tcase_add_loop_test(tc, test_refused, 0, (int)LZ_NELEM(refused));
	tcase_add_loop_test(tc, test_accepted, 0, (int)LZ_NELEM(accepted));
	tcase_add_test(tc, test_allow_ip_hosts);
	tcase_add_test(tc, test_idn_labels);
	suite_add_tcase(s, tc);

	tc = tcase_create("feeds");
	tcase_add_test(tc, test_feed_formats);
	tcase_add_test(tc, test_feed_wrong_format);
	tcase_add_test(tc, test_entry_from_text);
	suite_add_tcase(s, tc);

	tc = tcase_create("database");
	tcase_add_checked_fixture(tc, db_setup, db_teardown);
	tcase_add_test(tc, test_blocklist_match);
	tcase_add_test(tc, test_import_empty_keeps_list);
	tcase_add_test(tc, test_import_progress);
	tcase_add_test(tc, test_recheck_flags);
	tcase_add_test(tc, test_link_parse_params);
	tcase_add_test(tc, test_links_batch);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return EXIT_FAILURE;
	sr = srunner_create(safety_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	curl_global_cleanup();
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
