/*
 * check_conv.c -- conversions: exact amounts (amount.c), the raw number
 * of a JSON member, report checks, and conv_record() on a real SQLite
 * database with a clock the test sets: the 10-minute window to the
 * millisecond, across midnight UTC, attribution to a visitor's click,
 * running totals and their overflow guard.
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
#include "query.h"
#include "req.h"
#include "resp.h"
#include "stats/amount.h"
#include "stats/conversion.h"
#include "store/clicks.h"
#include "store/links.h"
#include "tdb.h"
#include "visit/click.h"
#include "visit/record.h"
#include "visit/visitor.h"

#define MIN_MS	60000LL
#define DAY_MS	86400000LL
#define T0	(20000 * DAY_MS + 12 * 3600000LL)	/* 2024-10-04 noon */

/* ---- amount.c -------------------------------------------------------- */

static int64_t
parse(const char *s)
{
	const char	*why = NULL;
	int64_t		 v = -1;

	ck_assert_msg(amount_parse(s, strlen(s), &v, &why) == 0,
	    "'%s' refused: %s", s, why);
	return v;
}

static const char *
refuse(const char *s)
{
	const char	*why = NULL;
	int64_t		 v = 12345;

	ck_assert_msg(amount_parse(s, strlen(s), &v, &why) == -1,
	    "'%s' accepted as %lld", s, (long long)v);
	ck_assert_int_eq(v, 12345);
	ck_assert_ptr_nonnull(why);
	return why;
}

START_TEST(t_amount_parse)
{
	static const struct {
		const char	*s;
		int64_t		 micros;
	} good[] = {
		{ "0", 0 }, { "0.0", 0 }, { "0e5", 0 }, { "0.0000000000", 0 },
		{ "1", 1000000 }, { "19.90", 19900000 }, { "0.1", 100000 },
		{ "0.2", 200000 }, { "0.3", 300000 }, { "5.3", 5300000 },
		{ "0.000001", 1 }, { "1e-6", 1 }, { "1E-06", 1 },
		{ "1e2", 100000000 }, { "1.5E-1", 150000 }, { "2e+3",
		    2000000000 }, { "0.1000000", 100000 },
		{ "123456789.123456", 123456789123456LL },
		{ "999999999.999999", 999999999999999LL },
		{ "1000000000", AMOUNT_MAX }, { "1e9", AMOUNT_MAX },
		{ "1000000000.000000", AMOUNT_MAX },
		{ "0.00000100", 1 }, { "10000000e-7", 1000000 },
		{ "1234567000000000000000e-21", 1234567 },
	};
	size_t	 i;

	for (i = 0; i < LZ_NELEM(good); i++)
		ck_assert_msg(parse(good[i].s) == good[i].micros,
		    "'%s' gave %lld", good[i].s, (long long)parse(good[i].s));

	ck_assert_str_eq(refuse("-1"), "must not be negative");
	ck_assert_str_eq(refuse("-0"), "must not be negative");
	ck_assert_str_eq(refuse("0.0000001"), "has more than 6 decimals");
	ck_assert_str_eq(refuse("1e-7"), "has more than 6 decimals");
	ck_assert_str_eq(refuse("19.9999999"), "has more than 6 decimals");
	ck_assert_str_eq(refuse("1e-99999999999"),
	    "has more than 6 decimals");
	ck_assert_str_eq(refuse("1000000000.000001"),
	    "must be at most 1000000000");
	ck_assert_str_eq(refuse("1e10"), "must be at most 1000000000");
	ck_assert_str_eq(refuse("1e99999999999999"),
	    "must be at most 1000000000");
	ck_assert_str_eq(refuse("99999999999999999999999"),
	    "must be at most 1000000000");
	refuse("");
	refuse("01");
	refuse(".5");
	refuse("5.");
	refuse("+5");
	refuse(" 5");
	refuse("5 ");
	refuse("1,5");
	refuse("1e");
	refuse("1e+");
	refuse("0x10");
	refuse("NaN");
	refuse("Infinity");
	refuse("1.2.3");
	refuse("５");
}
END_TEST

/* The value text stops where len says, NUL or not. */
START_TEST(t_amount_parse_len)
{
	const char	*why;
	int64_t		 v;

	ck_assert_int_eq(amount_parse("19.90,\"x\"", 5, &v, &why), 0);
	ck_assert_int_eq(v, 19900000);
	ck_assert_int_eq(amount_parse("1\0" "2", 3, &v, &why), -1);
}
END_TEST

/* j as lz_json_dump writes it (inside an array: it dumps containers). */
static char *
dump(json_t *j)
{
	json_t	*a = json_array();
	char	*s;
	size_t	 len;

	json_array_append_new(a, j);
	s = lz_json_dump(a, &len);
	json_decref(a);
	if (len < 2 || s[0] != '[' || s[len - 1] != ']')
		ck_abort_msg("dumped as %s", s);
	memmove(s, s + 1, len - 2);
	s[len - 2] = '\0';
	return s;
}

START_TEST(t_amount_fmt)
{
	static const struct {
		int64_t		 micros;
		const char	*text;
	} tab[] = {
		{ 0, "0" }, { 1, "0.000001" }, { 300000, "0.3" },
		{ 5300000, "5.3" }, { 19900000, "19.9" }, { 1000000, "1" },
		{ 123456789123456LL, "123456789.123456" },
		{ INT64_MAX, "9223372036854.775807" },
		{ -1500000, "-1.5" },
		{ INT64_MIN, "-9223372036854.775808" },
	};
	char	 buf[AMOUNT_TEXT_MAX], *s;
	size_t	 i;

	for (i = 0; i < LZ_NELEM(tab); i++) {
		amount_fmt(tab[i].micros, buf);
		ck_assert_str_eq(buf, tab[i].text);
	}
	/* JSON: 0.1 + 0.2 is 0.3, whole amounts are integers at any size,
	 * and 15 significant digits are exact. */
	s = dump(amount_json(100000 + 200000));
	ck_assert_str_eq(s, "0.3");
	free(s);
	s = dump(amount_json(5300000));
	ck_assert_str_eq(s, "5.3");
	free(s);
	s = dump(amount_json(9223372036854000000LL));
	ck_assert_str_eq(s, "9223372036854");
	free(s);
	s = dump(amount_json(999999999999999LL));
	ck_assert_str_eq(s, "999999999.999999");
	free(s);
	s = dump(amount_json(0));
	ck_assert_str_eq(s, "0");
	free(s);
}
END_TEST

/* Every amount below 10^9 units reads back from its JSON exactly:
 * ten times the sum of 0.1 is 1, and random amounts round-trip. */
START_TEST(t_amount_roundtrip)
{
	char		 buf[AMOUNT_TEXT_MAX], *s;
	int64_t		 sum = 0, v, back;
	const char	*why;
	int		 i;

	for (i = 0; i < 10; i++)
		sum += parse("0.1");
	s = dump(amount_json(sum));
	ck_assert_str_eq(s, "1");
	free(s);
	/* (ck_assert in the loop would cost a pipe write each.) */
	for (i = 0; i < 100000; i++) {
		v = (int64_t)(randombytes_uniform(1000000000) * 1000000ULL +
		    randombytes_uniform(1000000)) % AMOUNT_MAX;
		amount_fmt(v, buf);
		if (amount_parse(buf, strlen(buf), &back, &why) == -1 ||
		    back != v)
			ck_abort_msg("%lld formatted as %s", (long long)v, buf);
		s = dump(amount_json(v));
		if (amount_parse(s, strlen(s), &back, &why) == -1 || back != v)
			ck_abort_msg("%lld in JSON as %s", (long long)v, s);
		free(s);
	}
}
END_TEST

START_TEST(t_currency)
{
	char	 c[4];

	ck_assert_int_eq(amount_currency("USD", c), 0);
	ck_assert_str_eq(c, "USD");
	ck_assert_int_eq(amount_currency("twd", c), 0);
	ck_assert_str_eq(c, "TWD");
	ck_assert_int_eq(amount_currency("eUr", c), 0);
	ck_assert_str_eq(c, "EUR");
	ck_assert_int_eq(amount_currency("US", c), -1);
	ck_assert_int_eq(amount_currency("USDX", c), -1);
	ck_assert_int_eq(amount_currency("", c), -1);
	ck_assert_int_eq(amount_currency("U$D", c), -1);
	ck_assert_int_eq(amount_currency("12A", c), -1);
	ck_assert_int_eq(amount_currency("US ", c), -1);
	ck_assert_int_eq(amount_currency("ÜSD", c), -1);
}
END_TEST

START_TEST(t_rate)
{
	ck_assert(conv_rate(0, 0) == 0);
	ck_assert(conv_rate(5, 0) == 0);
	ck_assert(conv_rate(1, 4) == 0.25);
	ck_assert(conv_rate(4, 4) == 1);
	ck_assert(conv_rate(9, 4) == 1);
	ck_assert(conv_rate(0, 4) == 0);
}
END_TEST

/* ---- the raw number of a member -------------------------------------- */

static const char *
number_of(const char *body, const char *key)
{
	static char	 out[256];
	const char	*num;
	size_t		 len;
	int		 rc;

	rc = conv_json_number(body, strlen(body), key, &num, &len);
	if (rc != 1)
		return rc == 0 ? "(none)" : "(bad)";
	snprintf(out, sizeof(out), "%.*s", (int)len, num);
	return out;
}

START_TEST(t_json_number)
{
	ck_assert_str_eq(number_of("{\"value\":0.1}", "value"), "0.1");
	ck_assert_str_eq(number_of(" { \"slug\" : \"a\" , \"value\" :\n"
	    "19.90 } ", "value"), "19.90");
	ck_assert_str_eq(number_of("{\"value\":1E-6,\"slug\":\"x\"}",
	    "value"), "1E-6");
	ck_assert_str_eq(number_of("{\"value\":-3}", "value"), "-3");
	/* A key spelt with escapes is the same key. */
	ck_assert_str_eq(number_of("{\"va\\u006cue\":7.5}", "value"), "7.5");
	/* Look-alikes inside strings and nested values are skipped. */
	ck_assert_str_eq(number_of("{\"slug\":\"\\\"value\\\":9\",\"a\":"
	    "{\"value\":8,\"b\":[1,{\"value\":7}]},\"value\":6}", "value"),
	    "6");
	ck_assert_str_eq(number_of("{\"x\":[],\"y\":{},\"z\":true,\"w\":"
	    "null,\"value\":5}", "value"), "5");
	ck_assert_str_eq(number_of("{\"value\":\"19.90\"}", "value"),
	    "(none)");
	ck_assert_str_eq(number_of("{\"value\":null}", "value"), "(none)");
	ck_assert_str_eq(number_of("{\"values\":1}", "value"), "(none)");
	ck_assert_str_eq(number_of("{}", "value"), "(none)");
	ck_assert_str_eq(number_of("[1]", "value"), "(bad)");
	ck_assert_str_eq(number_of("{\"a\":1", "value"), "(bad)");
	ck_assert_str_eq(number_of("{\"a\" 1}", "value"), "(bad)");
	ck_assert_str_eq(number_of("{\"a\":\"x", "value"), "(bad)");
	ck_assert_str_eq(number_of("", "value"), "(bad)");
}
END_TEST

/* ---- report checks --------------------------------------------------- */

static int
report(const char *body, struct conv_report *rep, struct lz_verr *e)
{
	json_t	*j;
	int	 rc;

	j = json_loadb(body, strlen(body), JSON_REJECT_DUPLICATES, NULL);
	ck_assert_msg(j != NULL, "%s", body);
	memset(e, 0, sizeof(*e));
	rc = conv_report_json(j, body, strlen(body), rep, e);
	json_decref(j);
	return rc;
}

static void
bad_report(const char *body, const char *code, const char *param)
{
	struct conv_report	 rep;
	struct lz_verr		 e;

	ck_assert_msg(report(body, &rep, &e) == -1, "%s accepted", body);
	ck_assert_int_eq(e.status, 400);
	ck_assert_str_eq(e.code, code);
	ck_assert_str_eq(e.param, param);
}

START_TEST(t_report_json)
{
	struct conv_report	 rep;
	struct lz_verr		 e;

	ck_assert_int_eq(report("{\"slug\":\"shop\"}", &rep, &e), 0);
	ck_assert_str_eq(rep.slug, "shop");
	ck_assert_int_eq(rep.has_value, 0);
	ck_assert_str_eq(rep.currency, "");
	ck_assert_str_eq(rep.suffix, "");

	/* The value is read from the text: 0.1 is 100000 micro-units,
	 * not Jansson's 0.1000000000000000055... */
	ck_assert_int_eq(report("{\"slug\":\"shop\",\"value\":0.1,"
	    "\"currency\":\"usd\",\"suffix\":\"ig\"}", &rep, &e), 0);
	ck_assert_int_eq(rep.has_value, 1);
	ck_assert_int_eq(rep.value, 100000);
	ck_assert_str_eq(rep.currency, "USD");
	ck_assert_str_eq(rep.suffix, "ig");
	ck_assert_int_eq(report("{\"value\":123456789.123456,"
	    "\"slug\":\"s\"}", &rep, &e), 0);
	ck_assert_int_eq(rep.value, 123456789123456LL);
	ck_assert_int_eq(report("{\"slug\":\"s\",\"value\":\"19.90\"}", &rep,
	    &e), 0);
	ck_assert_int_eq(rep.value, 19900000);
	ck_assert_int_eq(report("{\"slug\":\"s\",\"value\":1e2}", &rep, &e),
	    0);
	ck_assert_int_eq(rep.value, 100000000);
	ck_assert_int_eq(report("{\"slug\":\"s\",\"value\":null,"
	    "\"currency\":null,\"suffix\":null}", &rep, &e), 0);
	ck_assert_int_eq(rep.has_value, 0);
	ck_assert_int_eq(report("{\"slug\":\"s\",\"suffix\":\"\"}", &rep,
	    &e), 0);
	ck_assert_str_eq(rep.suffix, "");

	bad_report("{}", "missing_field", "slug");
	bad_report("{\"slug\":\"\"}", "invalid_field", "slug");
	bad_report("{\"slug\":\"a/b\"}", "invalid_field", "slug");
	bad_report("{\"slug\":7}", "invalid_field", "slug");
	bad_report("{\"slug\":\"s\",\"value\":0.1234567}", "invalid_field",
	    "value");
	bad_report("{\"slug\":\"s\",\"value\":-1}", "invalid_field", "value");
	bad_report("{\"slug\":\"s\",\"value\":1000000001}", "invalid_field",
	    "value");
	bad_report("{\"slug\":\"s\",\"value\":\"1,5\"}", "invalid_field",
	    "value");
	bad_report("{\"slug\":\"s\",\"value\":true}", "invalid_field",
	    "value");
	bad_report("{\"slug\":\"s\",\"currency\":\"US\"}", "invalid_field",
	    "currency");
	bad_report("{\"slug\":\"s\",\"currency\":\"\"}", "invalid_field",
	    "currency");
	bad_report("{\"slug\":\"s\",\"suffix\":\"a b\"}", "invalid_field",
	    "suffix");
	bad_report("{\"slug\":\"s\",\"suffix\":[]}", "invalid_field",
	    "suffix");
	bad_report("{\"slug\":\"s\",\"price\":1}", "unknown_field", "price");
}
END_TEST

static int
query(const char *qs, struct conv_report *rep)
{
	struct lz_query	 q;
	struct lz_verr	 e;
	int		 rc;

	ck_assert_int_eq(lz_query_parse(qs, &q, &e), 0);
	rc = conv_report_query(&q, rep, &e);
	if (rc == -1)
		ck_assert_int_eq(e.status, 400);
	lz_query_free(&q);
	return rc;
}

START_TEST(t_report_query)
{
	struct conv_report	 rep;

	ck_assert_int_eq(query("slug=shop&value=19.90&currency=twd&suffix=ig",
	    &rep), 0);
	ck_assert_str_eq(rep.slug, "shop");
	ck_assert_int_eq(rep.value, 19900000);
	ck_assert_str_eq(rep.currency, "TWD");
	ck_assert_str_eq(rep.suffix, "ig");
	/* Cache busters are ignored; empty values are absent. */
	ck_assert_int_eq(query("slug=shop&_=1700000000&value=&currency=",
	    &rep), 0);
	ck_assert_int_eq(rep.has_value, 0);
	ck_assert_str_eq(rep.currency, "");
	ck_assert_int_eq(query("value=1", &rep), -1);
	ck_assert_int_eq(query("slug=", &rep), -1);
	ck_assert_int_eq(query("slug=shop&value=0.1234567", &rep), -1);
	ck_assert_int_eq(query("slug=shop&value=-2", &rep), -1);
	ck_assert_int_eq(query("slug=shop&currency=dollars", &rep), -1);
	ck_assert_int_eq(query("slug=shop&suffix=a%2Fb", &rep), -1);
}
END_TEST

/* ---- conv_record on a real database ---------------------------------- */

static struct tdb	 tdb;
static int64_t		 link_id, other_id;

static void
db_setup(void)
{
	unsigned char	 key[LZ_KEY_BYTES];
	int64_t		 acct;

	memset(key, 7, sizeof(key));
	visitor_set_key(key);
	tdb_open(&tdb);
	acct = tdb_account(&tdb, "a@example.com");
	link_id = tdb_link(&tdb, acct, "shop", "https://shop.example/",
	    T0 - 60 * DAY_MS);
	other_id = tdb_link(&tdb, acct, "other", "https://shop.example/",
	    T0 - 60 * DAY_MS);
}

static void
db_teardown(void)
{
	tdb_close(&tdb);
}

static int64_t
q1(const char *sql)
{
	return tdb_q1(tdb.db.h, sql);
}

static const char *
t1(const char *sql)
{
	static char	 buf[256];
	sqlite3_stmt	*st;

	ck_assert_int_eq(sqlite3_prepare_v2(tdb.db.h, sql, -1, &st, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	snprintf(buf, sizeof(buf), "%s", sqlite3_column_type(st, 0) ==
	    SQLITE_NULL ? "(null)" : (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

static void
exec_sql(const char *sql)
{
	tdb_exec(tdb.db.h, sql);
}

static enum conv_result
rec(int64_t id, const char *addr, const char *value, const char *suffix,
    int64_t now, int64_t window)
{
	struct conv_report	 rep;
	struct link		 l;
	const char		*why;
	enum conv_result	 r;

	memset(&rep, 0, sizeof(rep));
	snprintf(rep.slug, sizeof(rep.slug), "x");
	if (value != NULL) {
		ck_assert_int_eq(amount_parse(value, strlen(value), &rep.value,
		    &why), 0);
		rep.has_value = 1;
	}
	snprintf(rep.suffix, sizeof(rep.suffix), "%s", suffix ? suffix : "");
	ck_assert_int_eq(store_link_by_id(&tdb.db, id, &l), 1);
	r = conv_record(&tdb.db, &l, &rep, "USD", addr, "Mozilla/5.0 test",
	    now, window);
	link_free(&l);
	lz_db_reset_all(&tdb.db);
	return r;
}

#define WINDOW	(10 * MIN_MS)

START_TEST(t_dedup_window)
{
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "0.1", NULL, T0, WINDOW),
	    CONV_COUNTED);
	/* The same visitor and link: one per 10 minutes, to the ms. */
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "0.2", NULL, T0 + 1,
	    WINDOW), CONV_DUPLICATE);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "0.2", NULL,
	    T0 + WINDOW - 1, WINDOW), CONV_DUPLICATE);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "0.2", NULL, T0 + WINDOW,
	    WINDOW), CONV_COUNTED);
	/* The window runs from the last one counted, not the last tried. */
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "5", NULL,
	    T0 + 2 * WINDOW - 1, WINDOW), CONV_DUPLICATE);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "5", NULL, T0 + 2 * WINDOW,
	    WINDOW), CONV_COUNTED);
	/* Another visitor, or another link, counts at once. */
	ck_assert_int_eq(rec(link_id, "192.0.2.2", NULL, NULL, T0 + 1,
	    WINDOW), CONV_COUNTED);
	ck_assert_int_eq(rec(other_id, "192.0.2.1", "1", NULL, T0 + 1,
	    WINDOW), CONV_COUNTED);

	/* Only what counted is stored, and the totals agree, exactly. */
	ck_assert_int_eq(q1("SELECT count(*) FROM conversions"), 5);
	ck_assert_int_eq(q1("SELECT conversions FROM links WHERE slug = "
	    "'shop'"), 4);
	ck_assert_int_eq(q1("SELECT micros FROM link_revenue WHERE "
	    "link_id = 1 AND currency = 'USD'"), 5300000);
	ck_assert_int_eq(q1("SELECT count(*) FROM conversions WHERE "
	    "value IS NULL"), 1);
	ck_assert_str_eq(t1("SELECT currency FROM conversions LIMIT 1"),
	    "USD");
}
END_TEST

/* The visitor id changes at midnight UTC; the window does not. */
START_TEST(t_dedup_midnight)
{
	int64_t	 midnight = (T0 / DAY_MS + 1) * DAY_MS;

	ck_assert_int_eq(rec(link_id, "192.0.2.1", NULL, NULL,
	    midnight - MIN_MS, WINDOW), CONV_COUNTED);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", NULL, NULL,
	    midnight + MIN_MS, WINDOW), CONV_DUPLICATE);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", NULL, NULL,
	    midnight + 9 * MIN_MS - 1, WINDOW), CONV_DUPLICATE);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", NULL, NULL,
	    midnight + 9 * MIN_MS, WINDOW), CONV_COUNTED);
	/* The ids of the two days differ: they are what was stored. */
	ck_assert_int_eq(q1("SELECT count(DISTINCT visitor) FROM "
	    "conversions"), 2);
}
END_TEST

/* A click through the rules (click.h), so it reaches the visitors of
 * its day, the clock at T0. */
static void
click(int64_t id, const char *addr, int64_t at, const char *variant,
    const char *suffix, int bot)
{
	struct click	 c;
	struct link	 l;

	memset(&c, 0, sizeof(c));
	c.link_id = id;
	c.at = at;
	c.suffix = suffix;
	c.variant = variant;
	c.device = "desktop";
	visitor_id(addr, "Mozilla/5.0 test", at, c.visitor);
	c.bot = bot;
	ck_assert_int_eq(store_link_by_id(&tdb.db, id, &l), 1);
	ck_assert_int_eq(record_click(&tdb.db, &l, &c, T0, 0, NULL), 1);
	link_free(&l);
	lz_db_reset_all(&tdb.db);
}

START_TEST(t_attribution)
{
	/* Visitor .1 clicked variant 0 three days ago, then variant 1
	 * (through /ig) yesterday: the newest click wins. */
	click(link_id, "192.0.2.1", T0 - 3 * DAY_MS, "0", "", 0);
	click(link_id, "192.0.2.1", T0 - DAY_MS + 5, "1", "ig", 0);
	/* A bot's later click with the same address and UA never does. */
	click(link_id, "192.0.2.1", T0 - 5, "0", "bot", 1);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "10", NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant || '/' || suffix FROM "
	    "conversions ORDER BY id DESC LIMIT 1"), "1/ig");
	ck_assert_int_eq(q1("SELECT click_at FROM conversions ORDER BY id "
	    "DESC LIMIT 1"), T0 - DAY_MS + 5);

	/* A suffix in the report is kept; the variant still comes from the
	 * click. */
	click(link_id, "192.0.2.2", T0 - 5 * MIN_MS, "0", "ig", 0);
	ck_assert_int_eq(rec(link_id, "192.0.2.2", "10", "mail", T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant || '/' || suffix FROM "
	    "conversions ORDER BY id DESC LIMIT 1"), "0/mail");

	/* Thirty days back is attributed, thirty-one are not. */
	click(link_id, "192.0.2.3", T0 - 30 * DAY_MS, "1", "", 0);
	click(link_id, "192.0.2.4", T0 - 30 * DAY_MS - 1, "1", "", 0);
	ck_assert_int_eq(rec(link_id, "192.0.2.3", NULL, NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant FROM conversions ORDER BY id "
	    "DESC LIMIT 1"), "1");
	ck_assert_int_eq(rec(link_id, "192.0.2.4", NULL, NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant FROM conversions ORDER BY id "
	    "DESC LIMIT 1"), "(null)");

	/* Another link's click is not this link's. */
	click(other_id, "192.0.2.5", T0 - 5, "1", "", 0);
	ck_assert_int_eq(rec(link_id, "192.0.2.5", NULL, NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant FROM conversions ORDER BY id "
	    "DESC LIMIT 1"), "(null)");
}
END_TEST

/* Others' clicks, n of them in (from, to], in one transaction, as the
 * click mover stores them. */
static void
crowd(int64_t id, int64_t from, int64_t to, long n)
{
	struct record_tally	 tally;
	struct click		 c;
	struct link		 l;
	long			 i;

	memset(&tally, 0, sizeof(tally));
	memset(&c, 0, sizeof(c));
	c.link_id = id;
	c.suffix = "";
	c.variant = "0";
	c.device = "mobile";
	ck_assert_int_eq(store_link_by_id(&tdb.db, id, &l), 1);
	ck_assert_int_eq(lz_db_begin(&tdb.db), 0);
	for (i = 0; i < n; i++) {
		c.at = to - (int64_t)i * (to - from) / n;
		randombytes_buf(c.visitor, sizeof(c.visitor));
		if (record_click(&tdb.db, &l, &c, T0, 0, &tally) != 1)
			ck_abort_msg("click store");
	}
	ck_assert_int_eq(record_flush(&tdb.db, &tally, T0), 0);
	ck_assert_int_eq(lz_db_commit(&tdb.db), 0);
	record_tally_free(&tally);
	link_free(&l);
}

/*
 * Attribution reads the visitor's row of each day, not the link's
 * clicks: however many others clicked since, and after retention has
 * deleted the raw clicks.
 */
START_TEST(t_attribution_bounded)
{
	click(link_id, "192.0.2.1", T0 - 2 * 3600000, "1", "x", 0);
	click(link_id, "192.0.2.2", T0 - 3 * DAY_MS, "0", "y", 0);
	crowd(link_id, T0 - 3600000, T0 - 1, 30000);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", NULL, NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant || suffix FROM conversions ORDER "
	    "BY id DESC LIMIT 1"), "1x");
	exec_sql("DELETE FROM clicks");
	ck_assert_int_eq(rec(link_id, "192.0.2.2", NULL, NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(t1("SELECT variant || suffix FROM conversions ORDER "
	    "BY id DESC LIMIT 1"), "0y");
	ck_assert_int_eq(q1("SELECT click_at FROM conversions ORDER BY id "
	    "DESC LIMIT 1"), T0 - 3 * DAY_MS);
}
END_TEST

START_TEST(t_revenue_limit)
{
	char	 sql[256];

	/* A total just under INT64_MAX: the next conversion that would
	 * pass it is refused whole, nothing rounded. */
	snprintf(sql, sizeof(sql), "INSERT INTO link_revenue VALUES (%lld, "
	    "'USD', %lld)", (long long)link_id,
	    (long long)(INT64_MAX - 1000000));
	exec_sql(sql);
	ck_assert_int_eq(rec(link_id, "192.0.2.1", "1", NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_int_eq(rec(link_id, "192.0.2.2", "0.000001", NULL, T0,
	    WINDOW), CONV_LIMIT);
	ck_assert_int_eq(q1("SELECT micros FROM link_revenue"), INT64_MAX);
	ck_assert_int_eq(q1("SELECT count(*) FROM conversions"), 1);
	ck_assert_int_eq(q1("SELECT conversions FROM links WHERE id = 1"), 1);
	/* Without a value it still counts; and the failed try left no
	 * window behind. */
	ck_assert_int_eq(rec(link_id, "192.0.2.2", NULL, NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_str_eq(conv_result_reason(CONV_LIMIT), "revenue_limit");
	ck_assert_str_eq(conv_result_reason(CONV_DUPLICATE), "duplicate");
	ck_assert_ptr_null(conv_result_reason(CONV_COUNTED));
}
END_TEST

/* The link representation carries the running totals. */
START_TEST(t_link_stats)
{
	struct link	 l;
	json_t		*j;
	char		*s;

	ck_assert_int_eq(rec(link_id, "192.0.2.1", "0.1", NULL, T0, WINDOW),
	    CONV_COUNTED);
	ck_assert_int_eq(rec(link_id, "192.0.2.2", "0.2", NULL, T0, WINDOW),
	    CONV_COUNTED);
	exec_sql("UPDATE links SET clicks = 8 WHERE id = 1");
	ck_assert_int_eq(store_link_by_id(&tdb.db, link_id, &l), 1);
	j = link_json(&l, "https://s.example", T0);
	s = lz_json_dump(json_object_get(j, "stats"), NULL);
	ck_assert_str_eq(s, "{\"clicks\":8,\"conversions\":2,\"revenue\":"
	    "{\"USD\":0.3},\"conversion_rate\":0.25}");
	free(s);
	json_decref(j);
	link_free(&l);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("conv");
	TCase	*tc;

	tc = tcase_create("amount");
	tcase_add_test(tc, t_amount_parse);
	tcase_add_test(tc, t_amount_parse_len);
	tcase_add_test(tc, t_amount_fmt);
	tcase_add_test(tc, t_amount_roundtrip);
	tcase_add_test(tc, t_currency);
	tcase_add_test(tc, t_rate);
	suite_add_tcase(s, tc);

	tc = tcase_create("report");
	tcase_add_test(tc, t_json_number);
	tcase_add_test(tc, t_report_json);
	tcase_add_test(tc, t_report_query);
	suite_add_tcase(s, tc);

	tc = tcase_create("record");
	tcase_add_checked_fixture(tc, db_setup, db_teardown);
	tcase_add_test(tc, t_dedup_window);
	tcase_add_test(tc, t_dedup_midnight);
	tcase_add_test(tc, t_attribution);
	tcase_add_test(tc, t_attribution_bounded);
	tcase_add_test(tc, t_revenue_limit);
	tcase_add_test(tc, t_link_stats);
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
	lz_log_open("check_conv", LZ_LOG_ERR);
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
