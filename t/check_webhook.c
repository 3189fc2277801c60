/*
 * check_webhook.c -- webhook subscriptions, secrets, signatures and the
 * outbox writes of events (webhook.c, events.c), on a real SQLite
 * database.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sqlite3.h>
#include <jansson.h>
#include <sodium.h>

#include "db.h"
#include "link/link.h"
#include "req.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/store.h"
#include "tdb.h"
#include "util.h"
#include "visit/click.h"
#include "webhook/events.h"
#include "webhook/guard.h"
#include "webhook/sign.h"
#include "webhook/subs.h"
#include "webhook/webhook.h"

/* ---- signatures ------------------------------------------------------ */

/* RFC 4231, HMAC-SHA-256 test cases 1-7 (case 5: the first 128 bits). */
START_TEST(test_rfc4231)
{
	static const char	*want[] = {
	    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
	    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
	    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
	    "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
	    "a3b6167473100ee06e0c796c2955552b",
	    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
	    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
	};
	unsigned char	 key[131], data[152];
	char		 hex[65];
	size_t		 i;

	memset(key, 0x0b, 20);
	webhook_hmac_hex(key, 20, "Hi There", 8, hex);
	ck_assert_str_eq(hex, want[0]);

	webhook_hmac_hex((const unsigned char *)"Jefe", 4,
	    "what do ya want for nothing?", 28, hex);
	ck_assert_str_eq(hex, want[1]);

	memset(key, 0xaa, 20);
	memset(data, 0xdd, 50);
	webhook_hmac_hex(key, 20, data, 50, hex);
	ck_assert_str_eq(hex, want[2]);

	for (i = 0; i < 25; i++)
		key[i] = (unsigned char)(i + 1);
	memset(data, 0xcd, 50);
	webhook_hmac_hex(key, 25, data, 50, hex);
	ck_assert_str_eq(hex, want[3]);

	memset(key, 0x0c, 20);
	webhook_hmac_hex(key, 20, "Test With Truncation", 20, hex);
	ck_assert_int_eq(strncmp(hex, want[4], 32), 0);

	memset(key, 0xaa, 131);
	webhook_hmac_hex(key, 131, "Test Using Larger Than Block-Size Key - "
	    "Hash Key First", 54, hex);
	ck_assert_str_eq(hex, want[5]);

	memcpy(data, "This is a test using a larger than block-size key and a "
	    "larger than block-size data. The key needs to be hashed before "
	    "being used by the HMAC algorithm.", 152);
	webhook_hmac_hex(key, 131, data, 152, hex);
	ck_assert_str_eq(hex, want[6]);
}
END_TEST

/* The header value for a fixed secret and body (Python's hmac agrees). */
START_TEST(test_sign_fixed)
{
	static const char	*body = "{\"event\":\"click\",\"sent_at\":"
	    "\"2026-01-02T03:04:05.678Z\",\"data\":{\"slug\":\"abc\","
	    "\"suffix\":\"\",\"target\":\"https://example.com/\","
	    "\"country\":\"TW\",\"device\":\"mobile\",\"os\":\"ios\","
	    "\"referrer\":\"\"}}";
	char	 sig[WEBHOOK_SIG_LEN + 1];

	webhook_sign("whsec_MfKQ9r8GKYqrTNaxTn8Ju4eLDAxMjrpw", body,
	    strlen(body), sig);
	ck_assert_str_eq(sig, "sha256=d9fafc3468779beb6a2cc6031900e273700ef28"
	    "05c1a34a53cd22d7bbda0465f");
	/* One byte more is another signature. */
	webhook_sign("whsec_MfKQ9r8GKYqrTNaxTn8Ju4eLDAxMjrpw", body,
	    strlen(body) - 1, sig);
	ck_assert_str_ne(sig, "sha256=d9fafc3468779beb6a2cc6031900e273700ef28"
	    "05c1a34a53cd22d7bbda0465f");
}
END_TEST

/* ---- secrets --------------------------------------------------------- */

START_TEST(test_secret)
{
	unsigned char	 key[WEBHOOK_KEY_BYTES], other[WEBHOOK_KEY_BYTES];
	unsigned char	 box[WEBHOOK_BOX_LEN];
	char		 s1[WEBHOOK_SECRET_LEN + 1], s2[WEBHOOK_SECRET_LEN + 1];
	char		 out[WEBHOOK_SECRET_LEN + 1];

	webhook_secret_new(s1);
	webhook_secret_new(s2);
	ck_assert_uint_eq(strlen(s1), WEBHOOK_SECRET_LEN);
	ck_assert_int_eq(strncmp(s1, "whsec_", 6), 0);
	ck_assert_uint_eq(strspn(s1 + 6, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz"), WEBHOOK_SECRET_RANDOM);
	ck_assert_str_ne(s1, s2);

	randombytes_buf(key, sizeof(key));
	randombytes_buf(other, sizeof(other));
	webhook_secret_seal(key, s1, box);
	/* The box never holds the secret in the clear. */
	ck_assert_ptr_null(memmem(box, sizeof(box), s1 + 6, 8));
	ck_assert_int_eq(webhook_secret_open(key, box, out), 0);
	ck_assert_str_eq(out, s1);
	ck_assert_int_eq(webhook_secret_open(other, box, out), -1);
	box[WEBHOOK_BOX_LEN - 1] ^= 1;
	ck_assert_int_eq(webhook_secret_open(key, box, out), -1);
}
END_TEST

/* ---- events names ---------------------------------------------------- */

START_TEST(test_events_parse)
{
	struct lz_verr	 e;
	unsigned	 m;
	char		 buf[64];

	ck_assert_int_eq(webhook_events_parse("click", &m, &e), 0);
	ck_assert_uint_eq(m, WEBHOOK_EV_CLICK);
	ck_assert_int_eq(webhook_events_parse("link.created", &m, &e), 0);
	ck_assert_uint_eq(m, WEBHOOK_EV_LINK_CREATED);
	ck_assert_int_eq(webhook_events_parse("link.created, click", &m, &e),
	    0);
	ck_assert_uint_eq(m, WEBHOOK_EV_CLICK | WEBHOOK_EV_LINK_CREATED);
	webhook_events_fmt(m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "click,link.created");
	ck_assert_int_eq(webhook_events_parse("link.deleted,link.updated", &m,
	    &e), 0);
	ck_assert_uint_eq(m, WEBHOOK_EV_LINK_UPDATED | WEBHOOK_EV_LINK_DELETED);
	ck_assert_int_eq(webhook_events_parse("link.deleted,link.updated,"
	    "click,link.created", &m, &e), 0);
	ck_assert_uint_eq(m, WEBHOOK_EV_ALL);
	webhook_events_fmt(m, buf, sizeof(buf));
	ck_assert_str_eq(buf, "click,link.created,link.updated,link.deleted");
	ck_assert_int_eq(webhook_events_parse("", &m, &e), -1);
	ck_assert_str_eq(e.code, "invalid_events");
	ck_assert_int_eq(webhook_events_parse("click,clicks", &m, &e), -1);
	ck_assert_str_eq(e.param, "events");
	ck_assert_ptr_nonnull(strstr(e.msg, "clicks"));
	ck_assert_str_eq(webhook_event_name(WEBHOOK_EV_CLICK), "click");
	ck_assert_str_eq(webhook_event_name(WEBHOOK_EV_LINK_UPDATED),
	    "link.updated");
	ck_assert_str_eq(webhook_event_name(WEBHOOK_EV_LINK_DELETED),
	    "link.deleted");
	ck_assert_ptr_null(webhook_event_name(3));
	ck_assert_ptr_null(webhook_event_name(16));
}
END_TEST

/* ---- receiving URLs -------------------------------------------------- */

static const struct {
	const char	*url;
	int		 loopback;	/* webhook_allow_loopback */
	const char	*code;		/* NULL: accepted */
} urls[] = {
	{ "https://8.8.8.8/hook",			0, NULL },
	{ "https://[2606:4700::1111]:8443/h?x=1",	0, NULL },
	{ "https://127.0.0.1:8443/hook",		1, NULL },
	{ "http://127.0.0.1:8080/hook",			1, NULL },
	{ "https://localhost/hook",			1, NULL },
	{ "https://[::1]/hook",				1, NULL },
	{ "https://localhost/hook",			0, "unsafe_url" },
	{ "https://127.0.0.1/",				0, "unsafe_url" },
	{ "https://127.1/",				0, "unsafe_url" },
	{ "https://0x7f000001/",			0, "unsafe_url" },
	{ "https://2130706433/",			0, "unsafe_url" },
	{ "https://0177.0.0.1/",			0, "unsafe_url" },
	{ "https://[::1]/",				0, "unsafe_url" },
	{ "https://[::ffff:127.0.0.1]/",		0, "unsafe_url" },
	{ "https://10.0.0.1/",				0, "unsafe_url" },
	{ "https://10.0.0.1/",				1, "unsafe_url" },
	{ "https://192.168.1.20/",			1, "unsafe_url" },
	{ "https://172.16.5.4/",			0, "unsafe_url" },
	{ "https://100.64.0.1/",			0, "unsafe_url" },
	{ "https://169.254.169.254/latest/meta-data",	0, "unsafe_url" },
	{ "https://[fe80::1]/",				1, "unsafe_url" },
	{ "https://[fc00::1]/",				0, "unsafe_url" },
	{ "https://0.0.0.0/",				0, "unsafe_url" },
	{ "https://224.0.0.1/",				0, "unsafe_url" },
	{ "https://[fe80::1%25eth0]/",			1, "unsafe_url" },
	{ "http://8.8.8.8/",				0, "invalid_url" },
	{ "http://8.8.8.8/",				1, "unsafe_url" },
	{ "ftp://8.8.8.8/",				0, "invalid_url" },
	{ "https://user:pw@8.8.8.8/",			0, "invalid_url" },
	{ "https://8.8.8.8/a b",			0, "invalid_url" },
	{ "not a url",					0, "invalid_url" },
	{ "https://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."
	  "example/",					0, "invalid_url" },
	{ "",						0, "invalid_url" },
};

START_TEST(test_url_check)
{
	struct lz_verr	 e;
	int		 rc;

	memset(&e, 0, sizeof(e));
	rc = webhook_url_check(urls[_i].url, urls[_i].loopback, &e);
	if (urls[_i].code == NULL)
		ck_assert_msg(rc == 0, "%s refused: %s", urls[_i].url, e.msg);
	else {
		ck_assert_msg(rc == -1, "%s accepted", urls[_i].url);
		ck_assert_msg(strcmp(e.code, urls[_i].code) == 0, "%s: %s, "
		    "want %s (%s)", urls[_i].url, e.code, urls[_i].code,
		    e.msg);
		ck_assert_int_eq(e.status, 400);
		ck_assert_str_eq(e.param, "url");
	}
}
END_TEST

/* ---- subscriptions on a real database -------------------------------- */

static struct tdb	 t;
static unsigned char	 key[WEBHOOK_KEY_BYTES];

static void
setup(void)
{
	tdb_open(&t);
	randombytes_buf(key, sizeof(key));
}

static void
teardown(void)
{
	tdb_close(&t);
}

static int64_t
add_hook(int64_t account, unsigned events, char *secret)
{
	char		 buf[WEBHOOK_SECRET_LEN + 1];
	struct lz_verr	 e;
	int64_t		 id;

	id = webhook_add(&t.db, key, account, "https://127.0.0.1:9/hook",
	    events, 1, 5000, secret ? secret : buf, &e);
	ck_assert_msg(id > 0, "webhook_add: %s", e.msg);
	return id;
}

static long long
count(const char *sql)
{
	sqlite3_stmt	*st;
	long long	 n = -1;

	ck_assert_int_eq(sqlite3_prepare_v2(t.db.h, sql, -1, &st, NULL),
	    SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

START_TEST(test_subscription)
{
	struct webhook	 w;
	struct lz_verr	 e;
	char		 s1[WEBHOOK_SECRET_LEN + 1], s2[WEBHOOK_SECRET_LEN + 1];
	char		 out[WEBHOOK_SECRET_LEN + 1];
	int64_t		 acct, id;

	acct = tdb_account(&t, "a@example.com");
	id = add_hook(acct, WEBHOOK_EV_ALL, s1);
	ck_assert_int_eq(strncmp(s1, "whsec_", 6), 0);
	ck_assert_int_eq(webhook_get(&t.db, id, acct, &w), 1);
	ck_assert_str_eq(w.url, "https://127.0.0.1:9/hook");
	ck_assert_uint_eq(w.events, WEBHOOK_EV_ALL);
	ck_assert_int_eq(w.disabled_at, 0);
	ck_assert_int_eq(webhook_secret_open(key, w.box, out), 0);
	ck_assert_str_eq(out, s1);
	/* Another account does not see it. */
	ck_assert_int_eq(webhook_get(&t.db, id, acct + 1, &w), 0);

	ck_assert_int_eq(webhook_rotate(&t.db, key, id, acct, 6000, s2), 1);
	ck_assert_str_ne(s1, s2);
	ck_assert_int_eq(webhook_get(&t.db, id, ACCOUNT_ANY, &w), 1);
	ck_assert_int_eq(w.rotated_at, 6000);
	ck_assert_int_eq(webhook_secret_open(key, w.box, out), 0);
	ck_assert_str_eq(out, s2);

	ck_assert_int_eq(webhook_disable(&t.db, id, acct + 1, "x", 7000), 0);
	ck_assert_int_eq(webhook_disable(&t.db, id, acct, "by test", 7000), 1);
	ck_assert_int_eq(webhook_disable(&t.db, id, acct, "again", 8000), 0);
	ck_assert_int_eq(webhook_rotate(&t.db, key, id, ACCOUNT_ANY, 9000, s2),
	    0);
	ck_assert_int_eq(webhook_get(&t.db, id, ACCOUNT_ANY, &w), 1);
	ck_assert_int_eq(w.disabled_at, 7000);
	ck_assert_str_eq(w.disabled_reason, "by test");

	/* Refused URLs store nothing. */
	ck_assert_int_eq(webhook_add(&t.db, key, acct, "https://10.1.1.1/",
	    WEBHOOK_EV_CLICK, 1, 5000, s1, &e), -1);
	ck_assert_str_eq(e.code, "unsafe_url");
	ck_assert_int_eq(count("SELECT count(*) FROM webhooks"), 1);
}
END_TEST

START_TEST(test_subscription_limit)
{
	char		 s[WEBHOOK_SECRET_LEN + 1];
	struct lz_verr	 e;
	int64_t		 acct, first = 0, id;
	int		 i;

	acct = tdb_account(&t, "b@example.com");
	for (i = 0; i < WEBHOOK_MAX_PER_ACCOUNT; i++) {
		id = add_hook(acct, WEBHOOK_EV_CLICK, NULL);
		if (first == 0)
			first = id;
	}
	ck_assert_int_eq(webhook_add(&t.db, key, acct,
	    "https://127.0.0.1:9/", WEBHOOK_EV_CLICK, 1, 5000, s, &e), -1);
	ck_assert_int_eq(e.status, 403);
	ck_assert_str_eq(e.code, "webhook_limit_reached");
	ck_assert_int_eq(webhook_disable(&t.db, first, ACCOUNT_ANY, "x", 6000),
	    1);
	add_hook(acct, WEBHOOK_EV_CLICK, NULL);
	/* Another account is not counted against this one. */
	add_hook(tdb_account(&t, "c@example.com"), WEBHOOK_EV_CLICK, NULL);
}
END_TEST

/* ---- events into the outbox ------------------------------------------ */

static struct link *
get_link(int64_t id, struct link *l)
{
	ck_assert_int_eq(store_link_get(&t.db, id, ACCOUNT_ANY, l), 1);
	return l;
}

static json_t *
only_body(const char *where)
{
	sqlite3_stmt	*st;
	json_t		*j;
	char		 sql[256];

	snprintf(sql, sizeof(sql), "SELECT body FROM webhook_deliveries %s",
	    where);
	ck_assert_int_eq(sqlite3_prepare_v2(t.db.h, sql, -1, &st, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	j = json_loads((const char *)sqlite3_column_text(st, 0),
	    JSON_REJECT_DUPLICATES, NULL);
	ck_assert_ptr_nonnull(j);
	sqlite3_finalize(st);
	return j;
}

START_TEST(test_event_link_created)
{
	struct link	 l;
	json_t		*j, *data;
	int64_t		 a1, a2, a3, lid;

	a1 = tdb_account(&t, "one@example.com");
	a2 = tdb_account(&t, "two@example.com");
	a3 = tdb_account(&t, "three@example.com");
	add_hook(a1, WEBHOOK_EV_LINK_CREATED, NULL);
	add_hook(a2, WEBHOOK_EV_CLICK, NULL);

	/* Subscribed: one delivery, the link representation as data. */
	lid = tdb_link(&t, a1, "abc", "https://example.com/x", 1700000000123);
	ck_assert_int_eq(events_link(&t.db, WEBHOOK_EV_LINK_CREATED,
	    get_link(lid, &l), "https://s.example", 1700000000123), 0);
	link_free(&l);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "event = 'link.created' AND state = 'pending' AND attempts = 0 "
	    "AND next_at = created_at AND uuid LIKE 'dlv_%'"), 1);
	j = only_body("");
	ck_assert_uint_eq(json_object_size(j), 3);
	ck_assert_str_eq(json_string_value(json_object_get(j, "event")),
	    "link.created");
	ck_assert_str_eq(json_string_value(json_object_get(j, "sent_at")),
	    "2023-11-14T22:13:20.123Z");
	data = json_object_get(j, "data");
	ck_assert_int_eq(json_integer_value(json_object_get(data, "id")), lid);
	ck_assert_str_eq(json_string_value(json_object_get(data, "slug")),
	    "abc");
	ck_assert_str_eq(json_string_value(json_object_get(data,
	    "short_url")), "https://s.example/abc");
	ck_assert_str_eq(json_string_value(json_object_get(data,
	    "target_url")), "https://example.com/x");
	ck_assert_ptr_nonnull(json_object_get(data, "stats"));
	ck_assert_ptr_null(json_object_get(data, "password_hash"));
	json_decref(j);

	/* Subscribed to click only, or not at all: nothing queued. */
	lid = tdb_link(&t, a2, "def", "https://example.com/y", 1700000000999);
	ck_assert_int_eq(events_link(&t.db, WEBHOOK_EV_LINK_CREATED,
	    get_link(lid, &l), "https://s.example", 1700000000999), 0);
	link_free(&l);
	lid = tdb_link(&t, a3, "ghi", "https://example.com/z", 1700000000999);
	ck_assert_int_eq(events_link(&t.db, WEBHOOK_EV_LINK_CREATED,
	    get_link(lid, &l), "https://s.example", 1700000000999), 0);
	link_free(&l);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 1);
}
END_TEST

/* link.updated carries the link, link.deleted {id, slug}; each goes
 * only to the subscriptions that chose it. */
START_TEST(test_event_link_updated_deleted)
{
	struct link	 l;
	json_t		*j, *data;
	int64_t		 a, lid;

	a = tdb_account(&t, "one@example.com");
	add_hook(a, WEBHOOK_EV_CLICK | WEBHOOK_EV_LINK_CREATED, NULL);
	add_hook(a, WEBHOOK_EV_LINK_UPDATED, NULL);
	add_hook(a, WEBHOOK_EV_LINK_DELETED, NULL);
	lid = tdb_link(&t, a, "upd", "https://example.com/u", 1000);
	ck_assert_int_eq(events_link(&t.db, WEBHOOK_EV_LINK_UPDATED,
	    get_link(lid, &l), "https://s.example", 1700000000000), 0);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 1);
	j = only_body("");
	ck_assert_str_eq(json_string_value(json_object_get(j, "event")),
	    "link.updated");
	data = json_object_get(j, "data");
	ck_assert_str_eq(json_string_value(json_object_get(data,
	    "target_url")), "https://example.com/u");
	ck_assert_ptr_nonnull(json_object_get(data, "stats"));
	json_decref(j);
	ck_assert_int_eq(events_link(&t.db, WEBHOOK_EV_LINK_DELETED, &l, NULL,
	    1700000000000), 0);
	link_free(&l);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "event = 'link.deleted' AND webhook_id = 3"), 1);
	j = only_body(" WHERE event = 'link.deleted'");
	data = json_object_get(j, "data");
	ck_assert_uint_eq(json_object_size(data), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(data, "id")), lid);
	ck_assert_str_eq(json_string_value(json_object_get(data, "slug")),
	    "upd");
	/* No events_default_domain() in this process: null. */
	ck_assert(json_is_null(json_object_get(data, "domain")));
	json_decref(j);
}
END_TEST

static void
fill_click(struct click *c, int64_t link_id)
{
	memset(c, 0, sizeof(*c));
	c->link_id = link_id;
	c->at = 1700000000000;
	c->suffix = "ig";
	memcpy(c->country, "TW", 3);
	c->device = "mobile";
	c->os = "ios";
	c->browser = "safari";
	c->referrer = "https://www.instagram.com/";
	c->variant = "";
	c->target = "https://example.com/landing?utm_source=ig";
}

START_TEST(test_event_click)
{
	static const char *const keys[] = { "slug", "domain", "suffix",
	    "target", "country", "device", "os", "referrer" };
	struct link	 l;
	struct click	 c;
	json_t		*j, *data;
	int64_t		 a1, a2, lid, lid2;
	size_t		 i;

	a1 = tdb_account(&t, "one@example.com");
	a2 = tdb_account(&t, "two@example.com");
	add_hook(a1, WEBHOOK_EV_CLICK, NULL);
	add_hook(a1, WEBHOOK_EV_ALL, NULL);
	add_hook(a2, WEBHOOK_EV_LINK_CREATED, NULL);
	lid = tdb_link(&t, a1, "s1", "https://example.com/landing", 1000);
	lid2 = tdb_link(&t, a2, "s2", "https://example.com/other", 1000);
	events_default_domain("https://S.example:8443/base");

	/* A bot is never sent. */
	fill_click(&c, lid);
	c.bot = 1;
	ck_assert_int_eq(events_click(&t.db, get_link(lid, &l), &c,
	    1700000000456, NULL), 0);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 0);

	/* A person: one delivery per click subscription, same bytes. */
	c.bot = 0;
	ck_assert_int_eq(events_click(&t.db, &l, &c, 1700000000456, NULL), 0);
	link_free(&l);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "event = 'click'"), 2);
	ck_assert_int_eq(count("SELECT count(DISTINCT body) FROM "
	    "webhook_deliveries"), 1);
	ck_assert_int_eq(count("SELECT count(DISTINCT uuid) FROM "
	    "webhook_deliveries"), 2);
	j = only_body("LIMIT 1");
	ck_assert_str_eq(json_string_value(json_object_get(j, "event")),
	    "click");
	ck_assert_str_eq(json_string_value(json_object_get(j, "sent_at")),
	    "2023-11-14T22:13:20.456Z");
	data = json_object_get(j, "data");
	ck_assert_uint_eq(json_object_size(data), LZ_NELEM(keys));
	for (i = 0; i < LZ_NELEM(keys); i++)
		ck_assert_msg(json_is_string(json_object_get(data, keys[i])),
		    "%s missing", keys[i]);
	ck_assert_str_eq(json_string_value(json_object_get(data, "slug")),
	    "s1");
	ck_assert_str_eq(json_string_value(json_object_get(data, "domain")),
	    "s.example");
	ck_assert_str_eq(json_string_value(json_object_get(data, "suffix")),
	    "ig");
	ck_assert_str_eq(json_string_value(json_object_get(data, "target")),
	    "https://example.com/landing?utm_source=ig");
	ck_assert_str_eq(json_string_value(json_object_get(data, "country")),
	    "TW");
	ck_assert_str_eq(json_string_value(json_object_get(data, "device")),
	    "mobile");
	ck_assert_str_eq(json_string_value(json_object_get(data, "os")),
	    "ios");
	ck_assert_str_eq(json_string_value(json_object_get(data,
	    "referrer")), "https://www.instagram.com/");
	json_decref(j);

	/* Not valid UTF-8 in a header: sent as "", the event still goes. */
	c.referrer = "https://bad.example/\xff\xfe";
	c.suffix = NULL;
	ck_assert_int_eq(events_click(&t.db, get_link(lid, &l), &c,
	    1700000000789, NULL), 0);
	link_free(&l);
	j = only_body("ORDER BY id DESC LIMIT 1");
	data = json_object_get(j, "data");
	ck_assert_str_eq(json_string_value(json_object_get(data,
	    "referrer")), "");
	ck_assert_str_eq(json_string_value(json_object_get(data, "suffix")),
	    "");
	json_decref(j);

	/* An account subscribed to link.created only: nothing. */
	fill_click(&c, lid2);
	ck_assert_int_eq(events_click(&t.db, get_link(lid2, &l), &c,
	    1700000000999, NULL), 0);
	link_free(&l);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 4);
}
END_TEST

/* The look-up that runs for every counted click is one index probe:
 * explain the statement store/webhooks.c prepares. */
START_TEST(test_event_click_plan)
{
	sqlite3_stmt	*st, *p = NULL;
	const char	*detail;
	char		*sql, err[512];
	int		 indexed = 0;

	ck_assert_msg(lz_db_prepare_all(&t.db, store_sqlsets, err,
	    sizeof(err)) == 0, "%s", err);
	while ((p = sqlite3_next_stmt(t.db.h, p)) != NULL)
		if (strstr(sqlite3_sql(p), "FROM webhooks WHERE account_id") !=
		    NULL && strstr(sqlite3_sql(p), "events &") != NULL)
			break;
	ck_assert_ptr_nonnull(p);
	sql = xasprintf("EXPLAIN QUERY PLAN %s", sqlite3_sql(p));
	ck_assert_int_eq(sqlite3_prepare_v2(t.db.h, sql, -1, &st, NULL),
	    SQLITE_OK);
	free(sql);
	while (sqlite3_step(st) == SQLITE_ROW) {
		detail = (const char *)sqlite3_column_text(st, 3);
		if (strstr(detail, "INDEX webhooks_account (account_id=?)"))
			indexed = 1;
		ck_assert_msg(strstr(detail, "SCAN") == NULL, "%s", detail);
	}
	sqlite3_finalize(st);
	ck_assert(indexed);
}
END_TEST

/* Disabling cancels what is queued; later events queue nothing. */
START_TEST(test_disable_cancels)
{
	struct link	 l;
	struct click	 c;
	int64_t		 a, id, lid;

	a = tdb_account(&t, "d@example.com");
	id = add_hook(a, WEBHOOK_EV_CLICK, NULL);
	lid = tdb_link(&t, a, "dd", "https://example.com/", 1000);
	fill_click(&c, lid);
	ck_assert_int_eq(events_click(&t.db, get_link(lid, &l), &c, 2000,
	    NULL), 0);
	ck_assert_int_eq(events_click(&t.db, &l, &c, 2001, NULL), 0);
	ck_assert_int_eq(webhook_disable(&t.db, id, a, "test", 3000), 1);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries WHERE "
	    "state = 'cancelled' AND next_at IS NULL AND finished_at = 3000"),
	    2);
	ck_assert_int_eq(events_click(&t.db, &l, &c, 4000, NULL), 0);
	link_free(&l);
	ck_assert_int_eq(count("SELECT count(*) FROM webhook_deliveries"), 2);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("webhook");
	TCase	*tc;
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	tc = tcase_create("signatures");
	tcase_add_test(tc, test_rfc4231);
	tcase_add_test(tc, test_sign_fixed);
	tcase_add_test(tc, test_secret);
	tcase_add_test(tc, test_events_parse);
	suite_add_tcase(s, tc);

	tc = tcase_create("urls");
	tcase_add_loop_test(tc, test_url_check, 0, (int)LZ_NELEM(urls));
	suite_add_tcase(s, tc);

	tc = tcase_create("database");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_subscription);
	tcase_add_test(tc, test_subscription_limit);
	tcase_add_test(tc, test_event_link_created);
	tcase_add_test(tc, test_event_link_updated_deleted);
	tcase_add_test(tc, test_event_click);
	tcase_add_test(tc, test_event_click_plan);
	tcase_add_test(tc, test_disable_cancels);
	suite_add_tcase(s, tc);

	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
