/*
 * check_session.c -- unit tests of the dashboard session's header parsers
 * (session.c): the Cookie header, tokens, the Origin check, Set-Cookie.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "auth/session.h"
#include "util.h"

#define TOK "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123-_6"

START_TEST(cookie_found)
{
	char	 v[64];

	ck_assert_int_eq(session_cookie_find("lz_session=" TOK, "lz_session",
	    v, sizeof(v)), 1);
	ck_assert_str_eq(v, TOK);
	ck_assert_int_eq(session_cookie_find("a=1; lz_session=" TOK "; b=2",
	    "lz_session", v, sizeof(v)), 1);
	ck_assert_str_eq(v, TOK);
	ck_assert_int_eq(session_cookie_find("a=1;lz_session=\"" TOK "\"",
	    "lz_session", v, sizeof(v)), 1);
	ck_assert_str_eq(v, TOK);
	/* Names are exact: no prefix or suffix matches. */
	ck_assert_int_eq(session_cookie_find("xlz_session=1; lz_sessionx=2",
	    "lz_session", v, sizeof(v)), 0);
	ck_assert_str_eq(v, "");
	ck_assert_int_eq(session_cookie_find("__Host-lz_session=" TOK,
	    "lz_session", v, sizeof(v)), 0);
	ck_assert_int_eq(session_cookie_find("__Host-lz_session=" TOK,
	    "__Host-lz_session", v, sizeof(v)), 1);
	ck_assert_int_eq(session_cookie_find("lz_session=", "lz_session", v,
	    sizeof(v)), 1);
	ck_assert_str_eq(v, "");
}
END_TEST

START_TEST(cookie_refused)
{
	char	 v[44], big[200];

	ck_assert_int_eq(session_cookie_find(NULL, "lz_session", v,
	    sizeof(v)), 0);
	ck_assert_int_eq(session_cookie_find("", "lz_session", v, sizeof(v)),
	    0);
	ck_assert_int_eq(session_cookie_find(";;; ;", "lz_session", v,
	    sizeof(v)), 0);
	/* Twice: a planted cookie next to ours; which is ours? */
	ck_assert_int_eq(session_cookie_find("lz_session=a; lz_session=b",
	    "lz_session", v, sizeof(v)), -1);
	/* Too long for the buffer, bytes outside cookie-octet. */
	memset(big, 'A', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "lz_session=", 11);
	ck_assert_int_eq(session_cookie_find(big, "lz_session", v, sizeof(v)),
	    -1);
	ck_assert_int_eq(session_cookie_find("lz_session=a\"b", "lz_session",
	    v, sizeof(v)), -1);
	ck_assert_int_eq(session_cookie_find("lz_session=a,b", "lz_session",
	    v, sizeof(v)), -1);
	ck_assert_int_eq(session_cookie_find("lz_session=a\x7f",
	    "lz_session", v, sizeof(v)), -1);
	ck_assert_int_eq(session_cookie_find("lz_session=\xc3\xa9",
	    "lz_session", v, sizeof(v)), -1);
}
END_TEST

START_TEST(tokens)
{
	ck_assert_int_eq(session_token_wellformed(TOK), 1);
	ck_assert_int_eq(session_token_wellformed(TOK "x"), 0);
	ck_assert_int_eq(session_token_wellformed(""), 0);
	ck_assert_int_eq(session_token_wellformed(
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123+/6"), 0);
	ck_assert_int_eq(session_token_wellformed(
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123==="), 0);
}
END_TEST

static const struct {
	const char	*origin, *site, *base, *host;
	int		 https, ok;
} origins[] = {
	{ NULL, NULL, "http://s.example", "s.example", 0, 1 },
	{ "http://s.example", NULL, "http://s.example", NULL, 0, 1 },
	{ "HTTP://S.Example", "same-origin", "http://s.example", NULL, 0, 1 },
	{ "http://s.example:80", NULL, "http://s.example", NULL, 0, 1 },
	{ "https://s.example", NULL, "https://s.example:443/x", NULL, 1, 1 },
	{ "http://127.0.0.1:8080", NULL, "http://127.0.0.1:8080", NULL, 0, 1 },
	{ "http://[::1]:8080", NULL, "http://[::1]:8080", NULL, 0, 1 },
	/* The request's own host, when base_url names another. */
	{ "http://dash.example", NULL, "http://s.example", "dash.example", 0,
	    1 },
	{ "https://dash.example", NULL, "http://s.example", "dash.example", 1,
	    1 },
	{ "http://dash.example", NULL, "http://s.example", "dash.example", 1,
	    0 },
	{ "https://s.example", NULL, "http://s.example", NULL, 0, 0 },
	{ "http://s.example:81", NULL, "http://s.example", NULL, 0, 0 },
	{ "http://s.example.evil", NULL, "http://s.example", NULL, 0, 0 },
	{ "http://evil.example", NULL, "http://s.example", "s.example", 0, 0 },
	{ "http://s.example/", NULL, "http://s.example", NULL, 0, 0 },
	{ "http://s.example@evil", NULL, "http://s.example", NULL, 0, 0 },
	{ "null", NULL, "http://s.example", NULL, 0, 0 },
	{ "", NULL, "http://s.example", NULL, 0, 0 },
	{ "http://", NULL, "http://s.example", NULL, 0, 0 },
	{ "ftp://s.example", NULL, "http://s.example", NULL, 0, 0 },
	{ NULL, "cross-site", "http://s.example", NULL, 0, 0 },
	{ "http://s.example", "cross-site", "http://s.example", NULL, 0, 0 },
	{ NULL, "same-site", "http://s.example", NULL, 0, 1 },
};

START_TEST(origin_check)
{
	ck_assert_msg(session_origin_ok(origins[_i].origin, origins[_i].site,
	    origins[_i].base, origins[_i].host, origins[_i].https) ==
	    origins[_i].ok, "origin %s base %s host %s: expected %d",
	    origins[_i].origin ? origins[_i].origin : "(none)",
	    origins[_i].base, origins[_i].host ? origins[_i].host : "(none)",
	    origins[_i].ok);
}
END_TEST

START_TEST(set_cookie)
{
	char	*c;

	c = session_cookie_header("http://s.example", TOK, 3600);
	ck_assert_str_eq(c, "lz_session=" TOK "; Path=/; Max-Age=3600; "
	    "HttpOnly; SameSite=Lax");
	free(c);
	c = session_cookie_header("https://s.example", TOK, 60);
	ck_assert_str_eq(c, "__Host-lz_session=" TOK "; Path=/; Max-Age=60; "
	    "HttpOnly; SameSite=Lax; Secure");
	free(c);
	c = session_cookie_header("https://s.example", NULL, 60);
	ck_assert_str_eq(c, "__Host-lz_session=; Path=/; Max-Age=0; "
	    "HttpOnly; SameSite=Lax; Secure");
	free(c);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("session");
	TCase	*t = tcase_create("all");

	tcase_add_test(t, cookie_found);
	tcase_add_test(t, cookie_refused);
	tcase_add_test(t, tokens);
	tcase_add_loop_test(t, origin_check, 0, LZ_NELEM(origins));
	tcase_add_test(t, set_cookie);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
