/*
 * check_core.c -- unit tests of the shared core's parsers and validators.
 */
#include "config.h"

#include <sys/socket.h>

#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "addr.h"
#include "conf.h"
#include "html.h"
#include "jbody.h"
#include "lztime.h"
#include "query.h"
#include "req.h"
#include "resolve.h"
#include "resp.h"
#include "rnd.h"
#include "route.h"
#include "utf8.h"
#include "util.h"

/* ---- query strings ---------------------------------------------------- */

static int
parse_err(const char *qs, char *code, char *param)
{
	struct lz_query	 q;
	struct lz_verr	 e;

	if (lz_query_parse(qs, &q, &e) == 0) {
		lz_query_free(&q);
		return 0;
	}
	ck_assert_int_eq(e.status, 400);
	if (code)
		strcpy(code, e.code);
	if (param)
		strcpy(param, e.param);
	return -1;
}

START_TEST(query_decodes)
{
	struct lz_query	 q;
	struct lz_verr	 e;

	ck_assert_int_eq(lz_query_parse("a=1&b=x+y&c=%E4%B8%AD%20z&d&e=",
	    &q, &e), 0);
	ck_assert_int_eq(q.n, 5);
	ck_assert_str_eq(lz_query_get(&q, "a"), "1");
	ck_assert_str_eq(lz_query_get(&q, "b"), "x y");
	ck_assert_str_eq(lz_query_get(&q, "c"), "\xe4\xb8\xad z");
	ck_assert_str_eq(lz_query_get(&q, "d"), "");
	ck_assert_str_eq(lz_query_get(&q, "e"), "");
	ck_assert_ptr_null(lz_query_get(&q, "f"));
	lz_query_free(&q);

	ck_assert_int_eq(lz_query_parse("", &q, &e), 0);
	ck_assert_int_eq(q.n, 0);
	ck_assert_int_eq(lz_query_parse("&&a=1&&", &q, &e), 0);
	ck_assert_int_eq(q.n, 1);
	lz_query_free(&q);
	/* Names are decoded too: "%6Cimit" is "limit". */
	ck_assert_int_eq(lz_query_parse("%6Cimit=5", &q, &e), 0);
	ck_assert_str_eq(lz_query_get(&q, "limit"), "5");
	lz_query_free(&q);
}
END_TEST

START_TEST(query_refuses)
{
	char	 code[64], param[128];

	ck_assert_int_eq(parse_err("a=1&a=2", code, param), -1);
	ck_assert_str_eq(code, "duplicate_parameter");
	ck_assert_str_eq(param, "a");
	/* A repeat spelled differently is still a repeat. */
	ck_assert_int_eq(parse_err("limit=1&%6Cimit=2", code, param), -1);
	ck_assert_str_eq(param, "limit");
	ck_assert_int_eq(parse_err("a=%zz", code, param), -1);
	ck_assert_str_eq(code, "invalid_query");
	ck_assert_str_eq(param, "a");
	ck_assert_int_eq(parse_err("a=%4", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("a=%", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("a=%00", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("a=%0A", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("a=%7F", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("a=%C0%AF", NULL, NULL), -1);   /* overlong */
	ck_assert_int_eq(parse_err("a=%ED%A0%80", NULL, NULL), -1); /* surrogate */
	ck_assert_int_eq(parse_err("a=%FF", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("a=%E4%B8", NULL, NULL), -1);   /* truncated */
	ck_assert_int_eq(parse_err("=1", NULL, NULL), -1);
	ck_assert_int_eq(parse_err("%00=1", NULL, NULL), -1);
}
END_TEST

START_TEST(query_too_many)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	int		 i;

	for (i = 0; i < 65; i++)
		lz_buf_printf(&b, "p%d=1&", i);
	ck_assert_int_eq(parse_err(b.p, NULL, NULL), -1);
	lz_buf_free(&b);
}
END_TEST

static const char *const sorts[] = { "recommended", "updated", "rating",
    NULL };
static const struct lz_param tparams[] = {
	{ "limit", LZ_PT_INT, 1, 50, 20, NULL, 0 },
	{ "sort", LZ_PT_ENUM, 0, 0, 0, sorts, 0 },
	{ "q", LZ_PT_STR, 1, 5, 0, NULL, 0 },
	{ "id", LZ_PT_INT, 0, 100, 0, NULL, LZ_PF_REQUIRED },
};

static int
check_params(const char *qs, struct lz_pval *v, char *param)
{
	struct lz_query	 q;
	struct lz_verr	 e;
	int		 rc;

	ck_assert_int_eq(lz_query_parse(qs, &q, &e), 0);
	rc = lz_params(&q, tparams, LZ_NELEM(tparams), v, &e);
	if (rc == -1 && param)
		strcpy(param, e.param);
	lz_query_free(&q);
	return rc;
}

/* A parameter that may repeat (tag=): each value checked, the first
 * kept; any other repeat refused, as lz_query_parse does. */
START_TEST(params_multi)
{
	static const struct lz_param mp[] = {
		{ "tag", LZ_PT_STR, 1, 3, 0, NULL, LZ_PF_MULTI },
		{ "q", LZ_PT_STR, 1, 5, 0, NULL, 0 },
	};
	struct lz_query	 q;
	struct lz_verr	 e;
	struct lz_pval	 v[2];

	ck_assert_int_eq(lz_query_parse("tag=a&tag=b", &q, &e), -1);
	ck_assert_str_eq(e.code, "duplicate_parameter");
	ck_assert_int_eq(lz_query_parse_all("tag=a&q=x&tag=bb", &q, &e), 0);
	ck_assert_int_eq(lz_params(&q, mp, 2, v, &e), 0);
	ck_assert_str_eq(v[0].s, "a");
	ck_assert_uint_eq(q.n, 3);
	lz_query_free(&q);
	ck_assert_int_eq(lz_query_parse_all("tag=a&tag=toolong", &q, &e), 0);
	ck_assert_int_eq(lz_params(&q, mp, 2, v, &e), -1);
	ck_assert_str_eq(e.param, "tag");
	lz_query_free(&q);
	ck_assert_int_eq(lz_query_parse_all("q=a&tag=a&q=b", &q, &e), 0);
	ck_assert_int_eq(lz_params(&q, mp, 2, v, &e), -1);
	ck_assert_str_eq(e.code, "duplicate_parameter");
	ck_assert_str_eq(e.param, "q");
	lz_query_free(&q);
	/* Unknown and repeated: the repeat is said first, as before. */
	ck_assert_int_eq(lz_query_parse_all("zz=1&zz=2", &q, &e), 0);
	ck_assert_int_eq(lz_params(&q, mp, 2, v, &e), -1);
	ck_assert_str_eq(e.code, "duplicate_parameter");
	lz_query_free(&q);
}
END_TEST

START_TEST(params_table)
{
	struct lz_pval	 v[4];
	char		 p[128];

	ck_assert_int_eq(check_params("id=0", v, p), 0);
	ck_assert_int_eq(v[0].set, 0);
	ck_assert_int_eq(v[0].i, 20);		/* default */
	ck_assert_int_eq(v[1].i, 0);		/* default enum index */
	ck_assert_int_eq(check_params("id=7&limit=50&sort=rating&q=%E4%B8%AD"
	    "%E6%96%87abc", v, p), 0);
	ck_assert_int_eq(v[0].i, 50);
	ck_assert_int_eq(v[1].i, 2);
	ck_assert_int_eq(v[3].i, 7);

	ck_assert_int_eq(check_params("id=1&limit=51", v, p), -1);
	ck_assert_str_eq(p, "limit");
	ck_assert_int_eq(check_params("id=1&limit=0", v, p), -1);
	ck_assert_int_eq(check_params("id=1&limit=", v, p), -1);
	ck_assert_int_eq(check_params("id=1&limit=1.5", v, p), -1);
	ck_assert_int_eq(check_params("id=1&limit=+5", v, p), -1);
	ck_assert_int_eq(check_params("id=1&limit=%205", v, p), -1);
	ck_assert_int_eq(check_params("id=1&limit=05", v, p), -1);
	ck_assert_int_eq(check_params("id=1&limit=99999999999999999999", v,
	    p), -1);
	ck_assert_int_eq(check_params("id=-0", v, p), -1);
	ck_assert_int_eq(check_params("id=1&sort=Rating", v, p), -1);
	ck_assert_str_eq(p, "sort");
	ck_assert_int_eq(check_params("id=1&q=", v, p), -1);
	ck_assert_str_eq(p, "q");
	/* Lengths count characters: 6 CJK characters is too long, 5 is not. */
	ck_assert_int_eq(check_params("id=1&q=%E4%B8%AD%E4%B8%AD%E4%B8%AD"
	    "%E4%B8%AD%E4%B8%AD", v, p), 0);
	ck_assert_int_eq(check_params("id=1&q=%E4%B8%AD%E4%B8%AD%E4%B8%AD"
	    "%E4%B8%AD%E4%B8%AD%E4%B8%AD", v, p), -1);
	ck_assert_int_eq(check_params("id=1&bogus=1", v, p), -1);
	ck_assert_str_eq(p, "bogus");
	ck_assert_int_eq(check_params("limit=1", v, p), -1);
	ck_assert_str_eq(p, "id");
}
END_TEST

START_TEST(pct_decode)
{
	char	 out[32];

	ck_assert_int_eq(lz_pct_decode("a%2Fb+c", 7, 0, out), 5);
	ck_assert_str_eq(out, "a/b+c");
	ck_assert_int_eq(lz_pct_decode("a%2fb+c", 7, 1, out), 5);
	ck_assert_str_eq(out, "a/b c");
	ck_assert_int_eq(lz_pct_decode("%", 1, 0, out), -1);
	ck_assert_int_eq(lz_pct_decode("%g0", 3, 0, out), -1);
}
END_TEST

START_TEST(path_decode)
{
	char	*p;

	p = lz_path_decode("/abc/%E4%B8%AD", 14);
	ck_assert_str_eq(p, "/abc/\xe4\xb8\xad");
	free(p);
	ck_assert_ptr_null(lz_path_decode("/a%00b", 6));
	ck_assert_ptr_null(lz_path_decode("/a%0d", 5));
	ck_assert_ptr_null(lz_path_decode("/a%c0%80", 8));
	ck_assert_ptr_null(lz_path_decode("/a%", 3));
	p = lz_path_decode("/a+b", 4);		/* '+' is literal in paths */
	ck_assert_str_eq(p, "/a+b");
	free(p);
}
END_TEST

/* ---- UTF-8 -------------------------------------------------------------- */

START_TEST(utf8_counts)
{
	ck_assert_int_eq(lz_utf8_count("", 0, 0), 0);
	ck_assert_int_eq(lz_utf8_count("abc", 3, 0), 3);
	ck_assert_int_eq(lz_utf8_count("\xe4\xb8\xad\xe6\x96\x87", 6, 0), 2);
	ck_assert_int_eq(lz_utf8_count("\xf0\x9f\x98\x80", 4, 0), 1);
	ck_assert_int_eq(lz_utf8_count("\xf4\x90\x80\x80", 4, 0), -1);
	ck_assert_int_eq(lz_utf8_count("\xed\xa0\x80", 3, 0), -1);
	ck_assert_int_eq(lz_utf8_count("\xc0\xaf", 2, 0), -1);
	ck_assert_int_eq(lz_utf8_count("a\tb", 3, 0), 3);
	ck_assert_int_eq(lz_utf8_count("a\tb", 3, LZ_UTF8_NOCTRL), -1);
	ck_assert_int_eq(lz_utf8_count("a\0b", 3, 0), 3);
	ck_assert_int_eq(lz_utf8_count("a\0b", 3, LZ_UTF8_NOCTRL), -1);
	ck_assert_int_eq(lz_utf8_count("\xc2\x85", 2, LZ_UTF8_NOCTRL), -1);
}
END_TEST

/* ---- ISO 8601 ----------------------------------------------------------- */

START_TEST(time_parse)
{
	int64_t	 ms;
	char	 buf[32];

	ck_assert_int_eq(lz_time_parse_iso("1970-01-01T00:00:00Z", &ms), 0);
	ck_assert_int_eq(ms, 0);
	ck_assert_int_eq(lz_time_parse_iso("2030-01-31T12:00:00Z", &ms), 0);
	ck_assert_int_eq(ms, 1896091200000LL);
	ck_assert_int_eq(lz_time_parse_iso("2030-01-31T20:00:00+08:00", &ms),
	    0);
	ck_assert_int_eq(ms, 1896091200000LL);
	ck_assert_int_eq(lz_time_parse_iso("2030-01-31T07:00:00-0500", &ms),
	    0);
	ck_assert_int_eq(ms, 1896091200000LL);
	ck_assert_int_eq(lz_time_parse_iso("2030-01-31 12:00Z", &ms), 0);
	ck_assert_int_eq(ms, 1896091200000LL);
	ck_assert_int_eq(lz_time_parse_iso("2030-01-31T12:00:00.25Z", &ms), 0);
	ck_assert_int_eq(ms, 1896091200250LL);
	ck_assert_int_eq(lz_time_parse_iso("2024-02-29T00:00:00Z", &ms), 0);
	lz_time_fmt_iso(1896091200250LL, buf, sizeof(buf), 1);
	ck_assert_str_eq(buf, "2030-01-31T12:00:00.250Z");
	lz_time_fmt_iso(1896091200250LL, buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "2030-01-31T12:00:00Z");
	lz_time_fmt_date(1896091200250LL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2030-01-31");
}
END_TEST

START_TEST(time_refuses)
{
	static const char *const bad[] = {
		"", "2030-01-31", "2030-01-31T12:00:00", "2030-1-31T12:00Z",
		"2030-13-01T00:00Z", "2030-00-01T00:00Z", "2030-02-29T00:00Z",
		"2023-02-29T00:00:00Z", "2030-04-31T00:00Z",
		"2030-01-31T24:00:00Z", "2030-01-31T12:60:00Z",
		"2030-01-31T12:00:60Z", "2030-01-31T12:00:00+24:00",
		"2030-01-31T12:00:00+0860", "1969-12-31T23:59:59Z",
		"10000-01-01T00:00:00Z", "2030-01-31T12:00:00.Z",
		"2030-01-31T12:00:00Zjunk", "2030-01-31X12:00:00Z",
		"+2030-01-31T12:00:00Z", "2030-01-31T12:00:00.12345678901Z",
		"1970-01-01T00:00:00+01:00",
	};
	int64_t	 ms;
	size_t	 i;

	for (i = 0; i < LZ_NELEM(bad); i++)
		ck_assert_msg(lz_time_parse_iso(bad[i], &ms) == -1,
		    "accepted '%s'", bad[i]);
}
END_TEST

START_TEST(months)
{
	int64_t	 t = 1896091200250LL;	/* 2030-01-31T12:00:00.250Z */
	char	 buf[32];

	lz_time_fmt_iso(lz_month_start(t), buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "2030-01-01T00:00:00Z");
	lz_time_fmt_iso(lz_month_next(t), buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "2030-02-01T00:00:00Z");
	ck_assert_int_eq(lz_time_parse_iso("2030-12-15T00:00:00Z", &t), 0);
	lz_time_fmt_iso(lz_month_next(t), buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "2031-01-01T00:00:00Z");
}
END_TEST

/* ---- JSON field tables -------------------------------------------------- */

enum { J_NAME, J_N, J_FLAG, J_TEXT, J__MAX };

static const struct lz_jfield jf[J__MAX] = {
	[J_NAME] =	{ "name", LZ_JT_STRING, LZ_JF_REQUIRED, 1, 10 },
	[J_N] =		{ "n", LZ_JT_INTEGER | LZ_JT_NULL, 0 },
	[J_FLAG] =	{ "flag", LZ_JT_BOOL, 0 },
	[J_TEXT] =	{ "text", LZ_JT_STRING, LZ_JF_MULTILINE, 0, 100 },
};

static int
jcheck(const char *text, char *code, char *param)
{
	struct lz_verr	 e;
	json_t		*j = json_loads(text, 0, NULL);
	int		 rc;

	ck_assert_ptr_nonnull(j);
	rc = lz_json_fields(j, jf, J__MAX, "x.", &e);
	if (rc == -1) {
		strcpy(code, e.code);
		strcpy(param, e.param);
	}
	json_decref(j);
	return rc;
}

/* The types a field takes, said in its message: a number that may be
 * fractional is "an integer" (lz_bits_str joins the names). */
START_TEST(json_type_message)
{
	static const struct lz_jfield	 f[] = {
		{ "n", LZ_JT_NUMBER | LZ_JT_NULL, 0, 0, 0 },
		{ "s", LZ_JT_STRING | LZ_JT_ARRAY, 0, 0, 10 },
	};
	struct lz_verr			 e;
	json_t				*j;

	j = json_pack("{s:s}", "n", "x");
	ck_assert_int_eq(lz_json_fields(j, f, 2, "", &e), -1);
	ck_assert_msg(strstr(e.msg, "must be an integer or null,") != NULL,
	    "%s", e.msg);
	json_decref(j);
	j = json_pack("{s:i}", "s", 1);
	ck_assert_int_eq(lz_json_fields(j, f, 2, "", &e), -1);
	ck_assert_msg(strstr(e.msg, "must be a string or an array,") != NULL,
	    "%s", e.msg);
	json_decref(j);
	ck_assert_int_eq(lz_hexval('0'), 0);
	ck_assert_int_eq(lz_hexval('f'), 15);
	ck_assert_int_eq(lz_hexval('F'), 15);
	ck_assert_int_eq(lz_hexval('g'), -1);
}
END_TEST

/*
 * lz_json_dump on another thread (the click mover's, writing click
 * events) while the worker's thread answers with lz_json_text: each
 * text stays its own.  They once shared a buffer, and webhook bodies
 * came out with API answers in them.
 */
#define DUMPS	20000

static void *
dump_loop(void *arg)
{
	json_t	*j = json_pack("{s:s, s:[i, i, i]}", "event", "click", "n",
	    1, 2, 3);
	long	*bad = arg;
	char	*s;
	int	 i;

	for (i = 0; i < DUMPS; i++) {
		s = lz_json_dump(j, NULL);
		*bad += strcmp(s, "{\"event\":\"click\",\"n\":[1,2,3]}") != 0;
		free(s);
	}
	json_decref(j);
	return NULL;
}

START_TEST(json_dump_any_thread)
{
	pthread_t	 t;
	json_t		*j;
	const char	*text;
	size_t		 len;
	long		 bad = 0, mine = 0;
	int		 i;

	j = json_pack("{s:b, s:s}", "ok", 1, "slug", "an-answer-of-the-worker");
	ck_assert_int_eq(pthread_create(&t, NULL, dump_loop, &bad), 0);
	for (i = 0; i < DUMPS; i++) {
		text = lz_json_text(j, &len);
		mine += len != 44 || memcmp(text, "{\"ok\":true,\"slug\":"
		    "\"an-answer-of-the-worker\"}", len) != 0;
	}
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	json_decref(j);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(mine, 0);
}
END_TEST

/* Texts are counted in characters; line breaks and tabs only where the
 * row allows them. */
START_TEST(json_chars)
{
	ck_assert_int_eq(lz_json_chars(&jf[J_NAME], "abc"), 3);
	ck_assert_int_eq(lz_json_chars(&jf[J_NAME], "\xe6\x98\xa5"), 1);
	ck_assert_int_eq(lz_json_chars(&jf[J_NAME], "a\nb"), -1);
	ck_assert_int_eq(lz_json_chars(&jf[J_TEXT], "a\nb\tc"), 5);
	ck_assert_int_eq(lz_json_chars(&jf[J_TEXT], "a\x01"), -1);
}
END_TEST

START_TEST(json_fields)
{
	char	 code[64], param[128];

	ck_assert_int_eq(jcheck("{\"name\":\"a\"}", code, param), 0);
	ck_assert_int_eq(jcheck("{\"name\":\"a\",\"n\":null,\"flag\":false}",
	    code, param), 0);
	ck_assert_int_eq(jcheck("{}", code, param), -1);
	ck_assert_str_eq(code, "missing_field");
	ck_assert_str_eq(param, "x.name");
	ck_assert_int_eq(jcheck("{\"name\":1}", code, param), -1);
	ck_assert_str_eq(code, "invalid_field");
	ck_assert_str_eq(param, "x.name");
	ck_assert_int_eq(jcheck("{\"name\":\"a\",\"n\":1.0}", code, param), -1);
	ck_assert_str_eq(param, "x.n");
	ck_assert_int_eq(jcheck("{\"name\":\"a\",\"n\":\"1\"}", code, param),
	    -1);
	ck_assert_int_eq(jcheck("{\"name\":\"a\",\"flag\":0}", code, param),
	    -1);
	ck_assert_int_eq(jcheck("{\"name\":\"a\",\"other\":0}", code, param),
	    -1);
	ck_assert_str_eq(code, "unknown_field");
	ck_assert_str_eq(param, "x.other");
}
END_TEST

/* RFC 7396, Appendix A: target, patch, result. */
static const char *const merge_cases[][3] = {
	{ "{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}" },
	{ "{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}" },
	{ "{\"a\":\"b\"}", "{\"a\":null}", "{}" },
	{ "{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}" },
	{ "{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}" },
	{ "{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}" },
	{ "{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}",
	  "{\"a\":{\"b\":\"d\"}}" },
	{ "{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}", "{\"a\":[1]}" },
	{ "[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]" },
	{ "{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]" },
	{ "{\"a\":\"foo\"}", "null", "null" },
	{ "{\"a\":\"foo\"}", "\"bar\"", "\"bar\"" },
	{ "{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}" },
	{ "[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}" },
	{ "{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}" },
};

START_TEST(json_merge_patch)
{
	json_t	*target, *patch, *want, *got;

	target = json_loads(merge_cases[_i][0], JSON_DECODE_ANY, NULL);
	patch = json_loads(merge_cases[_i][1], JSON_DECODE_ANY, NULL);
	want = json_loads(merge_cases[_i][2], JSON_DECODE_ANY, NULL);
	ck_assert(target && patch && want);
	got = lz_json_merge_patch(target, patch);
	ck_assert_msg(json_equal(got, want), "case %d", _i);
	/* A merge patch applied again changes nothing. */
	got = lz_json_merge_patch(got, patch);
	ck_assert_msg(json_equal(got, want), "case %d again", _i);
	json_decref(got);
	json_decref(patch);
	json_decref(want);
}
END_TEST

/* ---- configuration ------------------------------------------------------ */

static struct lz_conf *
conf_from(const char *text, char *err, size_t errlen)
{
	char		 path[] = "/tmp/lz-check-conf-XXXXXX";
	struct lz_conf	*c;
	int		 fd;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	c = lz_conf_load(path, err, errlen);
	unlink(path);
	return c;
}

START_TEST(conf_loads)
{
	struct lz_conf		*c;
	const struct lz_plan	*p;
	char			 err[512];

	c = conf_from("# comment\n\nbase_url = https://s.example.com/\n"
	    "links_db = data/links.db\nlinks_workers = 8\n"
	    "plan.gold.quota = 5000\nplan.gold.conversions = yes\n"
	    "plan.free.links = 3\nsignup = open\naccess_log = no\n"
	    "default_plan = gold\ndashboard_host = Dash.example.com:8443\n",
	    err, sizeof(err));
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->dashboard_host, "Dash.example.com:8443");
	ck_assert_str_eq(c->base_url, "https://s.example.com");
	ck_assert_str_eq(c->links_db, "/tmp/data/links.db");
	ck_assert_int_eq(c->links_workers, 8);
	ck_assert_int_eq(c->prompts_workers, 4);
	ck_assert_int_eq(c->signup_open, 1);
	ck_assert_int_eq(c->access_log, 0);
	ck_assert_ptr_nonnull(p = lz_conf_plan(c, "gold"));
	ck_assert_int_eq(p->quota, 5000);
	ck_assert_int_eq(p->links, 100);
	ck_assert_int_eq(p->conversions, 1);
	ck_assert_ptr_nonnull(p = lz_conf_plan(c, "free"));
	ck_assert_int_eq(p->quota, 1000);
	ck_assert_int_eq(p->links, 3);
	ck_assert_ptr_nonnull(p = lz_conf_plan(c, "pro"));
	ck_assert_int_eq(p->quota, 100000);
	ck_assert_int_eq(p->conversions, 1);
	/* No mail by default, from lz@ this host. */
	ck_assert_str_eq(c->mail_command, "");
	ck_assert(strncmp(c->mail_from, "lz@", 3) == 0 &&
	    c->mail_from[3] != '\0');
	lz_conf_free(c);
	c = conf_from("mail_command = /usr/sbin/sendmail -t -i\n"
	    "mail_from = links@example.com\n", err, sizeof(err));
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_str_eq(c->mail_command, "/usr/sbin/sendmail -t -i");
	ck_assert_str_eq(c->mail_from, "links@example.com");
	lz_conf_free(c);
}
END_TEST

START_TEST(conf_refuses)
{
	static const char *const bad[] = {
		"nonsense = 1\n", "links_workers = 0\n", "links_workers = x\n",
		"links_workers = 1\nlinks_workers = 2\n", "no equals sign\n",
		"signup = maybe\n", "access_log = perhaps\n",
		"base_url = ftp://x\n", "plan.x.speed = 1\n", "plan..quota = 1\n",
		"plan.x.quota = -1\n", "socket_mode = 999\n",
		"default_plan = nosuch\n", "default_currency = usd\n",
		"log_level = loud\n",
		"dashboard_host = https://dash.example\n",
		"dashboard_host = dash.example/\n", "dashboard_host = :8080\n",
		"dashboard_host = dash.example:\n",
		"dashboard_host = dash.example:123456\n",
		"conversion_rate_limit = 1001\n", "webhook_rate_limit = 101\n",
		"mail_command = sendmail -t\n", "mail_command = ./sendmail\n",
		"mail_command = /bin/x\x01\n",
		"mail_command = /bin/x\nmail_from = a@b, c@d\n",
		"mail_command = /bin/x\nmail_from = Lz <a@b>\n",
		"mail_command = /bin/x\nmail_from = nobody\n",
		"mail_command = /bin/x\nmail_from = a@\n",
	};
	struct lz_conf	*c;
	char		 err[512];
	size_t		 i;

	for (i = 0; i < LZ_NELEM(bad); i++) {
		err[0] = '\0';
		c = conf_from(bad[i], err, sizeof(err));
		ck_assert_msg(c == NULL, "accepted '%s'", bad[i]);
		ck_assert_msg(strstr(err, "lz-check-conf") != NULL,
		    "message without file name: %s", err);
	}
}
END_TEST

/* ---- addresses ---------------------------------------------------------- */

START_TEST(cidr)
{
	struct lz_cidr	 c;
	struct lz_addr	 a;
	struct lz_cidr	*list;
	char		 bad[64];

	ck_assert_int_eq(lz_cidr_parse("10.0.0.0/8", &c), 0);
	ck_assert_int_eq(lz_addr_parse("10.200.1.1", &a), 0);
	ck_assert_int_eq(lz_cidr_match(&c, &a), 1);
	ck_assert_int_eq(lz_addr_parse("11.0.0.1", &a), 0);
	ck_assert_int_eq(lz_cidr_match(&c, &a), 0);
	ck_assert_int_eq(lz_cidr_parse("2001:db8::/32", &c), 0);
	ck_assert_int_eq(lz_addr_parse("2001:db8:1::5", &a), 0);
	ck_assert_int_eq(lz_cidr_match(&c, &a), 1);
	ck_assert_int_eq(lz_cidr_parse("127.0.0.1", &c), 0);
	ck_assert_int_eq(lz_addr_parse("127.0.0.1", &a), 0);
	ck_assert_int_eq(lz_cidr_match(&c, &a), 1);
	ck_assert_int_eq(lz_cidr_parse("10.0.0.0/33", &c), -1);
	ck_assert_int_eq(lz_cidr_parse("10.0.0/8", &c), -1);
	ck_assert_int_eq(lz_addr_parse("127.1", &a), -1);
	ck_assert_int_eq(lz_cidr_list("127.0.0.1, ::1 10.0.0.0/8", &list, bad,
	    sizeof(bad)), 3);
	free(list);
	ck_assert_int_eq(lz_cidr_list("127.0.0.1, nope", &list, bad,
	    sizeof(bad)), -1);
	ck_assert_str_eq(bad, "nope");
}
END_TEST

/* ---- HTML --------------------------------------------------------------- */

START_TEST(html)
{
	struct lz_buf		 b = LZ_BUF_INIT;
	const char *const	 vars[] = { "t", "<b>\"x\" & 'y'</b>", "raw",
	    "<i>", NULL };

	lz_html_escape(&b, "<script>alert('x')</script>&");
	ck_assert_str_eq(b.p, "&lt;script&gt;alert(&#39;x&#39;)&lt;&#47;"
	    "script&gt;&amp;");
	lz_buf_reset(&b);
	lz_html_render(&b, "<p title=\"{{t}}\">{{{raw}}}{{none}}</p>{{", vars);
	ck_assert_str_eq(b.p, "<p title=\"&lt;b&gt;&quot;x&quot; &amp; "
	    "&#39;y&#39;&lt;&#47;b&gt;\"><i></p>{{");
	lz_buf_free(&b);
}
END_TEST

/* ---- routes ------------------------------------------------------------- */

static void h_dummy(struct lz_req *r) { (void)r; }

static const struct lz_route troutes[] = {
	{ LZ_M_POST, "/api/v1/links", 0, h_dummy },
	{ LZ_M_GET, "/api/v1/links", 0, h_dummy },
	{ LZ_M_GET, "/api/v1/links/:id", 0, h_dummy },
	{ LZ_M_DELETE, "/api/v1/links/:id", 0, h_dummy },
	{ LZ_M_GET, "/:slug/:suffix", 0, h_dummy },
};

static const struct lz_route *
find(const char *path, unsigned meth, unsigned *allow)
{
	static struct lz_req	 r;
	const struct lz_route	*rt;
	size_t			 i;

	for (i = 0; i < r.nargs; i++)
		free(r.args[i]);
	memset(&r, 0, sizeof(r));
	r.path = (char *)(uintptr_t)path;
	r.meth = meth;
	rt = lz_route_find(&r, troutes, LZ_NELEM(troutes), allow);
	if (rt && rt->pattern[1] == ':')
		ck_assert_int_eq(r.nargs, 2);
	return rt;
}

START_TEST(routes)
{
	unsigned	 allow;
	char		 buf[64];

	ck_assert_ptr_eq(find("/api/v1/links", LZ_M_POST, &allow),
	    &troutes[0]);
	ck_assert_ptr_eq(find("/api/v1/links", LZ_M_HEAD, &allow),
	    &troutes[1]);
	ck_assert_ptr_eq(find("/api/v1/links/12", LZ_M_DELETE, &allow),
	    &troutes[3]);
	ck_assert_ptr_null(find("/api/v1/links/12", LZ_M_PUT, &allow));
	lz_route_allow_str(allow, buf, sizeof(buf));
	ck_assert_str_eq(buf, "GET, HEAD, DELETE");
	ck_assert_ptr_null(find("/api/v1/links/", LZ_M_GET, &allow));
	ck_assert_int_eq(allow, 0);
	ck_assert_ptr_null(find("/api/v1/links/1/2", LZ_M_GET, &allow));
	ck_assert_ptr_null(find("/api/v1/linksx", LZ_M_GET, &allow));
	ck_assert_ptr_eq(find("/abc/def", LZ_M_GET, &allow), &troutes[4]);
	ck_assert_ptr_null(find("//def", LZ_M_GET, &allow));
}
END_TEST

/* ---- randomness --------------------------------------------------------- */

/* Every status the services answer has its reason phrase ("202
 * Unknown" went out once). */
START_TEST(status_texts)
{
	static const int used[] = { 200, 201, 202, 204, 301, 302, 303, 304,
	    307, 400, 401, 403, 404, 405, 409, 410, 411, 413, 415, 422, 429,
	    500, 503 };
	size_t	 i;

	for (i = 0; i < LZ_NELEM(used); i++)
		ck_assert_msg(strcmp(lz_status_text(used[i]), "Unknown") != 0,
		    "no reason phrase for %d", used[i]);
	ck_assert_str_eq(lz_status_text(202), "Accepted");
	ck_assert_str_eq(lz_status_text(599), "Unknown");
}
END_TEST

START_TEST(base62_random)
{
	static char	 buf[62 * 2000 + 1];
	size_t		 count[62] = { 0 }, i;
	const char	*p;

	lz_rnd_base62(buf, sizeof(buf) - 1);
	ck_assert_int_eq(strlen(buf), sizeof(buf) - 1);
	for (i = 0; i < sizeof(buf) - 1; i++) {
		ck_assert_ptr_nonnull(p = strchr(lz_base62, buf[i]));
		count[p - lz_base62]++;
	}
	/* Each of 62 characters about 2000 times; far outside means bias. */
	for (i = 0; i < 62; i++)
		ck_assert_msg(count[i] > 1700 && count[i] < 2300,
		    "'%c' drawn %zu times", lz_base62[i], count[i]);
}
END_TEST

/* ---- resolve.c ------------------------------------------------------ */

/* lz_strtab numbers strings in the order first put, through growth. */
START_TEST(strtab_numbers)
{
	struct lz_strtab	 t;
	char			 s[32];
	int			 i;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < 1000; i++) {
		snprintf(s, sizeof(s), "host-%d.example", i);
		ck_assert_uint_eq(lz_strtab_put(&t, s), (size_t)i);
	}
	for (i = 999; i >= 0; i--) {
		snprintf(s, sizeof(s), "host-%d.example", i);
		ck_assert_uint_eq(lz_strtab_put(&t, s), (size_t)i);
	}
	ck_assert_uint_eq(t.n, 1000);
	ck_assert_str_eq(t.v[7], "host-7.example");
	ck_assert_uint_eq(lz_strtab_put(&t, ""), 1000);
	lz_strtab_free(&t);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_uint_eq(lz_strtab_put(&t, "again"), 0);
	lz_strtab_free(&t);
}
END_TEST

START_TEST(resolve_literals_and_hosts)
{
	static const char *const v4[] = {
		"127.1", "0x7f000001", "2130706433", "0177.0.0.1", "127.0.0.1"
	};
	struct lz_addr	*a;
	char		 text[64], err[256];
	size_t		 n, i;

	ck_assert_int_eq(lz_resolve_init("", err, sizeof(err)), 0);
	for (i = 0; i < LZ_NELEM(v4); i++) {
		ck_assert_int_eq(lz_resolve(v4[i], 100, &a, &n),
		    LZ_RESOLVE_OK);
		ck_assert_uint_eq(n, 1);
		lz_addr_fmt(a, text, sizeof(text));
		ck_assert_str_eq(text, "127.0.0.1");
		free(a);
	}
	ck_assert_int_eq(lz_resolve("::ffff:10.1.2.3", 100, &a, &n),
	    LZ_RESOLVE_OK);
	lz_addr_fmt(a, text, sizeof(text));
	ck_assert_str_eq(text, "10.1.2.3");
	free(a);
	/* /etc/hosts, without a name server. */
	ck_assert_int_eq(lz_resolve("localhost", 2000, &a, &n),
	    LZ_RESOLVE_OK);
	ck_assert_uint_ge(n, 1);
	free(a);
	ck_assert_int_eq(lz_resolve_init("not a server", err, sizeof(err)),
	    -1);
	lz_resolve_fini();
}
END_TEST

/* A name server that never answers: the deadline, not its retries. */
START_TEST(resolve_deadline)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof(sin);
	struct lz_addr		*a = NULL;
	char			 servers[64], err[256];
	int64_t			 t0, took;
	size_t			 n = 5;
	int			 fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	snprintf(servers, sizeof(servers), "127.0.0.1:%d",
	    ntohs(sin.sin_port));
	ck_assert_int_eq(lz_resolve_init(servers, err, sizeof(err)), 0);
	t0 = lz_mono_us();
	ck_assert_int_eq(lz_resolve("silent.example.test", 300, &a, &n),
	    LZ_RESOLVE_TIMEOUT);
	took = (lz_mono_us() - t0) / 1000;
	ck_assert_msg(took >= 290 && took < 1000, "took %lld ms",
	    (long long)took);
	ck_assert_ptr_null(a);
	ck_assert_uint_eq(n, 0);
	/* The channel is usable again after a cancelled query. */
	ck_assert_int_eq(lz_resolve("silent.example.test", 100, &a, &n),
	    LZ_RESOLVE_TIMEOUT);
	lz_resolve_fini();
	close(fd);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("core");
	TCase	*t = tcase_create("all");

	tcase_add_test(t, query_decodes);
	tcase_add_test(t, query_refuses);
	tcase_add_test(t, query_too_many);
	tcase_add_test(t, params_table);
	tcase_add_test(t, params_multi);
	tcase_add_test(t, pct_decode);
	tcase_add_test(t, json_type_message);
	tcase_add_test(t, json_dump_any_thread);
	tcase_add_test(t, path_decode);
	tcase_add_test(t, utf8_counts);
	tcase_add_test(t, time_parse);
	tcase_add_test(t, time_refuses);
	tcase_add_test(t, months);
	tcase_add_test(t, json_fields);
	tcase_add_loop_test(t, json_merge_patch, 0, LZ_NELEM(merge_cases));
	tcase_add_test(t, json_chars);
	tcase_add_test(t, conf_loads);
	tcase_add_test(t, conf_refuses);
	tcase_add_test(t, cidr);
	tcase_add_test(t, html);
	tcase_add_test(t, routes);
	tcase_add_test(t, base62_random);
	tcase_add_test(t, status_texts);
	tcase_add_test(t, strtab_numbers);
	tcase_add_test(t, resolve_literals_and_hosts);
	tcase_add_test(t, resolve_deadline);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner	*sr = srunner_create(suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
