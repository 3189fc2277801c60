/*
 * fuzz_fcgi_links.c -- lz-links as a worker runs it, from the FastCGI
 * params and body nginx hands over (t/fuzz/fcgi.h): lz_req_begin(), the
 * real route table and its checks (API key and quota, session, Origin
 * and CSRF token), every handler -- the API, the dashboard's API, short
 * links with passwords, previews, pixels, variants -- and lz_req_end().
 *
 * The worker is real too: a links database made by the migrations in a
 * temporary directory, the country table, the click journal.  It holds
 * an account with a known API key (lk_live_FuzzFuzzFuzzFuzzFuzz001RZXCZ),
 * a dashboard session (cookie lz_session=fuzzfuzz...012, CSRF token
 * csrfcsrf...012, Origin http://127.0.0.1:8080) and links fz, fzpw
 * (password "open sesame"), fzcap, fzab, fzgeo, fzdev and fzog (ids 1 to
 * 7), clicks of fz whose referrers a CSV must quote and guard, and a
 * webhook of every event, so the seeds reach past the checks.  The
 * database is put back as it was before every input, so inputs do not
 * depend on the ones before.
 *
 * main.c is included, not linked: its route table, its before() and its
 * worker functions are static, and the point is to run exactly them.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <sqlite3.h>

#include "fcgi.h"

int	lz_links_main(int, char **);
#define main lz_links_main
#include "../../src/links/main.c"
#undef main

#include "auth/account.h"
#include "auth/keys.h"
#include "auth/scope.h"
#include "keyfile.h"
#include "link/link.h"
#include "link/linkops.h"
#include "rnd.h"
#include "serve.h"
#include "store/accounts.h"
#include "store/clicks.h"
#include "store/members.h"
#include "store/sessions.h"
#include "visit/click.h"
#include "visit/linkcache.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FUZZ_KEY_BODY	"lk_live_FuzzFuzzFuzzFuzzFuzz00"
#define FUZZ_TOKEN	"fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz012"
#define FUZZ_CSRF	"csrfcsrfcsrfcsrfcsrfcsrfcsrfcsrfcsrfcsrf012"

static sqlite3		*pristine;	/* the database as the fixtures
					   left it */
static char		*jdir;		/* the click journal's directory */
static unsigned long	 nrun;

static const char *const defaults[] = {
	"REQUEST_METHOD=GET",
	"REQUEST_URI=/",
	"REMOTE_ADDR=192.0.2.7",
	"HTTP_HOST=127.0.0.1:8080",
	NULL
};

static void
die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_fcgi_links: %s: %s\n", what, err);
	abort();
}

static int64_t
fixture_link(int64_t account, const struct lz_plan *plan, const char *json)
{
	struct lz_verr	 e;
	struct link	 l;
	json_error_t	 je;
	json_t		*body;
	int64_t		 id;

	if ((body = json_loads(json, 0, &je)) == NULL)
		die("fixture JSON", je.text);
	if (linkops_create(&links.db, links.conf, body, account, plan,
	    lz_now_ms(), &l, &e) == -1)
		die("fixture link", e.msg);
	id = l.id;
	link_free(&l);
	json_decref(body);
	return id;
}

static void
fixtures(void)
{
	const struct lz_plan	*plan;
	unsigned char		 h[crypto_generichash_BYTES_MIN];
	unsigned char		 hash[KEY_HASH_LEN];
	char			 key[KEY_LEN + 1], prefix[16], last4[8];
	char			 secret[WEBHOOK_SECRET_LEN + 1], err[256];
	unsigned char		 hookkey[WEBHOOK_KEY_BYTES];
	static const char *const referrers[] = { "https://news.example/a",
	    "=HYPERLINK(\"https://evil.example\")", "+1,2", "-x\"y\"",
	    "@SUM(A1)", "" };
	struct lz_verr		 e;
	struct click		 c;
	int64_t			 acct, now = lz_now_ms();
	uint64_t		 v;
	size_t			 i;

	if ((acct = account_create(&links.db, "fuzz@example.com", "pro", NULL,
	    now)) <= 0)
		die("account", "not created");
	(void)account_create(&links.db, "other@example.com", "free", NULL, now);
	plan = lz_conf_plan(links.conf, "pro");

	/* The key, with the checksum keys.c gives it. */
	snprintf(key, sizeof(key), "%s", FUZZ_KEY_BODY);
	crypto_generichash(h, sizeof(h), (unsigned char *)key,
	    KEY_PREFIX_LEN + KEY_RANDOM_LEN, NULL, 0);
	v = (uint64_t)h[0] << 24 | (uint64_t)h[1] << 16 |
	    (uint64_t)h[2] << 8 | h[3];
	lz_base62_fixed(v, key + KEY_PREFIX_LEN + KEY_RANDOM_LEN,
	    KEY_CHECK_LEN);
	key[KEY_LEN] = '\0';
	if (!key_wellformed(key))
		die("key", key);
	key_hash(key, hash);
	key_display(key, prefix, last4);
	if (store_key_add(&links.db, acct, hash, prefix, last4, "fuzz",
	    SCOPES_ALL, 0, 0, now) < 0)
		die("key", "not stored");

	crypto_generichash(hash, 32, (unsigned char *)FUZZ_TOKEN,
	    strlen(FUZZ_TOKEN), NULL, 0);
	/* The session of the account's owner, its user of the same e-mail
	 * (account_create). */
	{
		char	 pwh[256];
		int64_t	 uid;

		if (store_user_by_email(&links.db, "fuzz@example.com", &uid,
		    pwh, sizeof(pwh)) != 1 || store_session_add(&links.db,
		    hash, uid, acct, FUZZ_CSRF, now) < 0)
			die("session", "not stored");
	}

	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/a?x=1\", \"slug\": \"fz\"}");
	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/p\", \"slug\": \"fzpw\", "
	    "\"password\": \"open sesame\"}");
	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/c\", \"slug\": \"fzcap\", "
	    "\"max_clicks\": 3, \"redirect_type\": 301}");
	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/ab\", \"slug\": \"fzab\", \"mode\": \"ab\", "
	    "\"variants\": [{\"url\": \"https://a.example.com/\", "
	    "\"weight\": 3}, {\"url\": \"https://b.example.com/\", "
	    "\"weight\": 1}]}");
	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/g\", \"slug\": \"fzgeo\", \"mode\": \"geo\", "
	    "\"variants\": {\"TW\": \"https://tw.example.com/\"}}");
	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/d\", \"slug\": \"fzdev\", "
	    "\"mode\": \"device\", \"variants\": "
	    "{\"ios\": \"https://ios.example.com/\"}}");
	(void)fixture_link(acct, plan, "{\"target_url\": "
	    "\"https://example.com/o\", \"slug\": \"fzog\", \"og\": "
	    "{\"title\": \"T <b>\", \"description\": \"D & d\", "
	    "\"image\": \"https://example.com/i.png\"}, "
	    "\"pixel_fb\": \"1234567890\", \"pixel_ga\": \"G-ABC123\", "
	    "\"escape_inapp\": true, \"utm\": {\"source\": \"fz\"}, "
	    "\"expires_at\": \"2099-01-01T00:00:00Z\"}");

	/* Clicks of fz to export, with referrers to quote and guard. */
	for (i = 0; i < LZ_NELEM(referrers); i++) {
		memset(&c, 0, sizeof(c));
		c.link_id = 1;
		c.at = now - 1000 + (int64_t)(i / 2);
		c.suffix = i % 2 ? "ig" : "";
		memcpy(c.country, "TW", 3);
		c.device = "mobile";
		c.os = "ios";
		c.browser = "safari";
		c.referrer = referrers[i];
		c.variant = "";
		c.bot = i == 3;
		if (store_click_insert(&links.db, &c, "", 0) == -1)
			die("click", "not stored");
	}

	if (webhook_key_load(links.conf, hookkey, err, sizeof(err)) == -1)
		die("webhook key", err);
	if (webhook_add(&links.db, hookkey, acct, "https://127.0.0.1:9/in",
	    WEBHOOK_EV_ALL, 1, now, secret, &e) < 0)
		die("webhook", e.msg);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sqlite3_backup	*b;
	struct lz_db	 db;
	char		*dir, *conf, *dup, err[512];
	int		 from, to;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		die("sodium_init", "failed");
	lz_log_open("fuzz_fcgi_links", LZ_LOG_ERR);
	dir = fcgi_tmpdir("fuzz-fcgi-links");
	conf = xasprintf("base_url = http://127.0.0.1:8080\n"
	    "links_db = data/links.db\n"
	    "key_file = data/lz.key\n"
	    "geoip_file = %s/t/data/geoip-v4\n"
	    "geoip6_file = %s/t/data/geoip-v6\n"
	    "trusted_proxies = 127.0.0.1, ::1\n"
	    "country_param = GEOIP2_COUNTRY\n"
	    "log_level = error\n"
	    "access_log = no\n"
	    "sandbox = no\n", LZ_TOP_SRCDIR, LZ_TOP_SRCDIR);
	fcgi_write(dir, "lz.conf", conf);
	free(conf);
	conf = xasprintf("%s/lz.conf", dir);
	if ((links.conf = lz_conf_load(conf, err, sizeof(err))) == NULL ||
	    lz_service_setup(&service, links.conf, err,
	    sizeof(err)) == -1)
		die("lz.conf", err);
	free(conf);

	/* lzctl init: the key file and the migrated database. */
	dup = xasprintf("%s/data", dir);
	if (mkdir(dup, 0700) == -1)
		die(dup, strerror(errno));
	free(dup);
	if (lz_keyfile_create(links.conf->key_file, err, sizeof(err)) == -1)
		die("key file", err);
	if (lz_db_open(&db, links.conf->links_db, LZ_DB_CREATE, err,
	    sizeof(err)) == -1 || lz_db_migrate(&db, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == -1)
		die("migrate", err);
	lz_db_close(&db);

	/* The worker: what lz-links does before its accept loop, but the
	 * sandbox and the mover thread. */
	if (pre_fork(NULL) == -1 || worker_init(NULL) != 0)
		die("worker", "does not start");
	jdir = journal_dir(links.conf->clicks_dir, links.conf->links_db);
	if (mover_open(&links.db, jdir, links.conf->host_id, err,
	    sizeof(err)) == -1)
		die("click journal", err);

	fixtures();
	if (sqlite3_open(":memory:", &pristine) != SQLITE_OK ||
	    (b = sqlite3_backup_init(pristine, "main", links.db.h, "main")) ==
	    NULL || sqlite3_backup_step(b, -1) != SQLITE_DONE ||
	    sqlite3_backup_finish(b) != SQLITE_OK)
		die("pristine copy", sqlite3_errmsg(pristine));
	return 0;
}

/* The database as the fixtures left it, and no cached link. */
static void
restore(void)
{
	sqlite3_backup	*b;

	lz_db_reset_all(&links.db);
	if ((b = sqlite3_backup_init(links.db.h, "main", pristine, "main")) ==
	    NULL || sqlite3_backup_step(b, -1) != SQLITE_DONE ||
	    sqlite3_backup_finish(b) != SQLITE_OK)
		die("restore", sqlite3_errmsg(links.db.h));
	linkcache_clear();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fcgi_fake	 f;
	sqlite3_int64		 changes;

	if (size > 96 * 1024)
		return 0;
	changes = sqlite3_total_changes64(links.db.h);
	fcgi_make(&f, data, size, defaults);
	fcgi_serve(&f, worker_handle);
	fcgi_free(&f);
	/* Now and then what a worker does between requests (move the
	 * journal's clicks, purge), then what it does at a clean stop and
	 * a start: a new journal, as the restored database knows none. */
	if (++nrun % 512 == 0) {
		char	 err[512];

		worker_tick(NULL);
		mover_close(&links.db);
		if (mover_open(&links.db, jdir, links.conf->host_id, err,
		    sizeof(err)) == -1)
			die("click journal", err);
		restore();
	} else if (sqlite3_total_changes64(links.db.h) != changes)
		restore();
	return 0;
}
