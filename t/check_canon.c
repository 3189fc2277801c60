/*
 * check_canon.c -- the Safe Browsing canonicaliser (src/links/canon.c):
 * the published examples of "URLs and Hashing" (Safe Browsing v4), the
 * lookup expressions, and the host forms the safety scan judges.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "safety/canon.h"
#include "util.h"

/* Canonicalises a string literal (which may hold NULs). */
#define CANON(lit, c)	canon_url(lit, sizeof(lit) - 1, c)

/* "URLs and Hashing", Safe Browsing API v4: Canonicalize(in) == out. */
static const struct { const char *in, *out; } gsb[] = {
	{ "http://host/%25%32%35", "http://host/%25" },
	{ "http://host/%25%32%35%25%32%35", "http://host/%25%25" },
	{ "http://host/%2525252525252525", "http://host/%25" },
	{ "http://host/asdf%25%32%35asd", "http://host/asdf%25asd" },
	{ "http://host/%%%25%32%35asd%%", "http://host/%25%25%25asd%25%25" },
	{ "http://www.google.com/", "http://www.google.com/" },
	{ "http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72"
	  "%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/",
	  "http://168.188.99.26/.secure/www.ebay.com/" },
	{ "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure="
	  "updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
	  "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure="
	  "updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/" },
	{ "http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%2526"
	  "11%252A22%252833%252944_55%252B",
	  "http://host%23.com/~a!b@c%23d$e%25f^00&11*22(33)44_55+" },
	{ "http://3279880203/blah", "http://195.127.0.11/blah" },
	{ "http://www.google.com/blah/..", "http://www.google.com/" },
	{ "www.google.com/", "http://www.google.com/" },
	{ "www.google.com", "http://www.google.com/" },
	{ "http://www.evil.com/blah#frag", "http://www.evil.com/blah" },
	{ "http://www.GOOgle.com/", "http://www.google.com/" },
	{ "http://www.google.com.../", "http://www.google.com/" },
	{ "http://www.google.com/foo\tbar\rbaz\n2",
	  "http://www.google.com/foobarbaz2" },
	{ "http://www.google.com/q?", "http://www.google.com/q?" },
	{ "http://www.google.com/q?r?", "http://www.google.com/q?r?" },
	{ "http://www.google.com/q?r?s", "http://www.google.com/q?r?s" },
	{ "http://evil.com/foo#bar#baz", "http://evil.com/foo" },
	{ "http://evil.com/foo;", "http://evil.com/foo;" },
	{ "http://evil.com/foo?bar;", "http://evil.com/foo?bar;" },
	{ "http://\x01\x80.com/", "http://%01%80.com/" },
	{ "http://notrailingslash.com", "http://notrailingslash.com/" },
	{ "http://www.gotaport.com:1234/", "http://www.gotaport.com/" },
	{ "  http://www.google.com/  ", "http://www.google.com/" },
	{ "http:// leadingspace.com/", "http://%20leadingspace.com/" },
	{ "http://%20leadingspace.com/", "http://%20leadingspace.com/" },
	{ "%20leadingspace.com/", "http://%20leadingspace.com/" },
	{ "https://www.securesite.com/", "https://www.securesite.com/" },
	{ "http://host.com/ab%23cd", "http://host.com/ab%23cd" },
	{ "http://host.com//twoslashes?more//slashes",
	  "http://host.com/twoslashes?more//slashes" },
};

START_TEST(test_gsb_examples)
{
	struct canon	 c;

	ck_assert_int_eq(canon_url(gsb[_i].in, strlen(gsb[_i].in), &c), 0);
	ck_assert_str_eq(c.url, gsb[_i].out);
	canon_free(&c);
}
END_TEST

/* Host forms: IPv4 in every notation, IPv6, IDN, dots and case. */
static const struct {
	const char	*in, *host;
	unsigned	 flags;		/* must be set */
} hosts[] = {
	{ "http://127.0.0.1/", "127.0.0.1", CANON_IPV4 },
	{ "http://2130706433/", "127.0.0.1", CANON_IPV4 },
	{ "http://017700000001/", "127.0.0.1", CANON_IPV4 },
	{ "http://0x7f000001/", "127.0.0.1", CANON_IPV4 },
	{ "http://0x7F.0.0.1/", "127.0.0.1", CANON_IPV4 },
	{ "http://0177.0.0.01/", "127.0.0.1", CANON_IPV4 },
	{ "http://127.1/", "127.0.0.1", CANON_IPV4 },
	{ "http://127.0.1/", "127.0.0.1", CANON_IPV4 },
	{ "http://0/", "0.0.0.0", CANON_IPV4 },
	{ "http://127.0.0.1./", "127.0.0.1", CANON_IPV4 },
	{ "http://%31%32%37.0.0.1/", "127.0.0.1", CANON_IPV4 },
	{ "http://\xef\xbc\x91\xef\xbc\x92\xef\xbc\x97.0.0.1/", "127.0.0.1",
	  CANON_IPV4 },				/* full-width digits */
	{ "http://1.2.3.256/", "1.2.3.256", CANON_NUMERIC },
	{ "http://1.2.3.4.5/", "1.2.3.4.5", CANON_NUMERIC },
	{ "http://08.1.2.3/", "08.1.2.3", CANON_NUMERIC },
	{ "http://4294967296/", "4294967296", CANON_NUMERIC },
	{ "http://[::1]/", "[::1]", CANON_IPV6 },
	{ "http://[0:0:0:0:0:0:0:1]:8080/", "[::1]", CANON_IPV6 },
	{ "http://[::FFFF:127.0.0.1]/", "[::ffff:127.0.0.1]", CANON_IPV6 },
	{ "http://[::ffff:7f00:1]/", "[::ffff:127.0.0.1]", CANON_IPV6 },
	{ "http://[fe80::1%25eth0]/", "[fe80::1%25eth0]", CANON_HOST_BAD },
	{ "http://m\xc3\xbcnchen.de/", "xn--mnchen-3ya.de", CANON_IDN },
	{ "http://M\xc3\x9cNCHEN.DE/", "xn--mnchen-3ya.de", CANON_IDN },
	{ "http://m%C3%BCnchen.de/", "xn--mnchen-3ya.de", CANON_IDN },
	{ "http://\xef\xbd\x87oogle\xe3\x80\x82" "com/", "google.com", 0 },
	{ "http://\xd0\xb0pple.com/", "xn--pple-43d.com", CANON_IDN },
	{ "http://xn--pple-43d.com/", "xn--pple-43d.com", CANON_IDN },
	{ "http://a..b...example.com../", "a.b.example.com", 0 },
	{ "http://user:pw@example.com/", "example.com", CANON_USERINFO },
	{ "http://a@b@example.com/", "example.com", CANON_USERINFO },
	{ "http://evil.example\\@good.example/", "evil.example",
	  CANON_BACKSLASH },
	{ "http://example.com:99999/", "example.com", CANON_BAD_PORT },
	{ "http://example.com:8x/", "example.com", CANON_BAD_PORT },
	{ "http://good.example%2f.evil.example/", "good.example/.evil.example",
	  CANON_HOST_BAD },
	{ "http://good.example%40evil.example/", "good.example@evil.example",
	  CANON_HOST_BAD },
	{ "http://exa_mple.com/", "exa_mple.com", 0 },
	{ "http://\xff\xfe.com/", "%FF%FE.com", CANON_IDN_BAD },
	{ "http://x\xe2\x80\x8dy.com/", "x%E2%80%8Dy.com", CANON_IDN_BAD },
};

START_TEST(test_hosts)
{
	struct canon	 c;

	ck_assert_int_eq(canon_url(hosts[_i].in, strlen(hosts[_i].in), &c), 0);
	ck_assert_str_eq(c.host, hosts[_i].host);
	ck_assert_msg((c.flags & hosts[_i].flags) == hosts[_i].flags,
	    "%s: flags %#x lack %#x", hosts[_i].in, c.flags, hosts[_i].flags);
	canon_free(&c);
}
END_TEST

START_TEST(test_port_and_parts)
{
	struct canon	 c;

	ck_assert_int_eq(CANON("HTTPS://Example.COM:8443/A/./b/../C?x=Y#z", &c), 0);
	ck_assert_str_eq(c.scheme, "https");
	ck_assert_str_eq(c.host, "example.com");
	ck_assert_int_eq(c.port, 8443);
	ck_assert_str_eq(c.path, "/A/C");
	ck_assert_str_eq(c.query, "x=Y");
	ck_assert_str_eq(c.url, "https://example.com/A/C?x=Y");
	ck_assert_uint_eq(c.flags & (CANON_NO_SCHEME | CANON_USERINFO), 0);
	canon_free(&c);

	/* A backslash is a slash in the path, as in browsers. */
	ck_assert_int_eq(CANON("http://example.com\\a\\b", &c), 0);
	ck_assert_str_eq(c.path, "/a/b");
	ck_assert(c.flags & CANON_BACKSLASH);
	canon_free(&c);

	/* "%2e%2e" is ".." once unescaped. */
	ck_assert_int_eq(CANON("http://e.com/a/%2e%2e/b", &c), 0);
	ck_assert_str_eq(c.path, "/b");
	canon_free(&c);

	/* No host: not a URL. */
	ck_assert_int_eq(CANON("http:///path", &c), -1);
	ck_assert_int_eq(CANON("http://", &c), -1);
	ck_assert_int_eq(CANON("", &c), -1);
	ck_assert_int_eq(CANON("http://user@/", &c), -1);

	/* NUL bytes stay bytes. */
	ck_assert_int_eq(CANON("http://a.com/x%00y", &c), 0);
	ck_assert_str_eq(c.url, "http://a.com/x%00y");
	canon_free(&c);
	ck_assert_int_eq(CANON("http://a\0b.com/", &c), 0);
	ck_assert_str_eq(c.host, "a%00b.com");
	ck_assert(c.flags & CANON_HOST_BAD);
	canon_free(&c);
}
END_TEST

/* Canonical output canonicalises to itself. */
START_TEST(test_idempotent)
{
	struct canon	 c, d;
	size_t		 i;

	for (i = 0; i < LZ_NELEM(gsb); i++) {
		ck_assert_int_eq(canon_url(gsb[i].in, strlen(gsb[i].in), &c),
		    0);
		ck_assert_int_eq(canon_url(c.url, strlen(c.url), &d), 0);
		ck_assert_str_eq(c.url, d.url);
		canon_free(&c);
		canon_free(&d);
	}
}
END_TEST

static void
check_exprs(const char *url, const char *const *want, size_t nwant)
{
	struct canon	 c;
	char		*out[CANON_EXPR_MAX];
	size_t		 n, i, j;

	ck_assert_int_eq(canon_url(url, strlen(url), &c), 0);
	n = canon_expressions(&c, out);
	ck_assert_uint_eq(n, nwant);
	for (i = 0; i < nwant; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(out[j], want[i]) == 0)
				break;
		ck_assert_msg(j < n, "%s: no expression %s", url, want[i]);
	}
	lz_strs_free(out, n);
	canon_free(&c);
}

/* The examples of "Suffix/Prefix Expressions" in the same document. */
START_TEST(test_expressions)
{
	static const char *const e1[] = {
		"a.b.c/1/2.html?param=1", "a.b.c/1/2.html", "a.b.c/",
		"a.b.c/1/", "b.c/1/2.html?param=1", "b.c/1/2.html", "b.c/",
		"b.c/1/",
	};
	static const char *const e2[] = {
		"a.b.c.d.e.f.g/1.html", "a.b.c.d.e.f.g/", "c.d.e.f.g/1.html",
		"c.d.e.f.g/", "d.e.f.g/1.html", "d.e.f.g/", "e.f.g/1.html",
		"e.f.g/", "f.g/1.html", "f.g/",
	};
	static const char *const e3[] = { "1.2.3.4/1/", "1.2.3.4/" };
	static const char *const e4[] = {
		"x.y.example/a/b/c/d/e.html", "x.y.example/", "x.y.example/a/",
		"x.y.example/a/b/", "x.y.example/a/b/c/", "y.example/a/b/c/d/"
		"e.html", "y.example/", "y.example/a/", "y.example/a/b/",
		"y.example/a/b/c/",
	};

	check_exprs("http://a.b.c/1/2.html?param=1", e1, LZ_NELEM(e1));
	check_exprs("http://a.b.c.d.e.f.g/1.html", e2, LZ_NELEM(e2));
	check_exprs("http://1.2.3.4/1/", e3, LZ_NELEM(e3));
	check_exprs("https://x.y.example:81/a/b/c/d/e.html#f", e4,
	    LZ_NELEM(e4));
}
END_TEST

START_TEST(test_host_parents)
{
	const char	*out[8];
	char		*h;
	unsigned	 flags;

	ck_assert_uint_eq(canon_host_parents("a.b.example.com", 0, out, 8), 3);
	ck_assert_str_eq(out[0], "a.b.example.com");
	ck_assert_str_eq(out[1], "b.example.com");
	ck_assert_str_eq(out[2], "example.com");
	ck_assert_uint_eq(canon_host_parents("1.2.3.4", CANON_IPV4, out, 8), 1);
	ck_assert_uint_eq(canon_host_parents("localhost", 0, out, 8), 1);
	ck_assert_uint_eq(canon_host_parents("a.b.c.d", 0, out, 2), 2);

	ck_assert(canon_host_within("a.bit.ly", "bit.ly"));
	ck_assert(canon_host_within("bit.ly", "bit.ly"));
	ck_assert(!canon_host_within("orbit.ly", "bit.ly"));
	ck_assert(!canon_host_within("bit.ly.evil.example", "bit.ly"));

	h = canon_host(" WWW.Example.COM. ", 18, &flags);
	ck_assert_str_eq(h, "www.example.com");
	free(h);
	h = canon_host("\xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc\xd0\xb5\xd1\x80.\xd1"
	    "\x80\xd1\x84", 17, &flags);
	ck_assert_str_eq(h, "xn--e1afmkfd.xn--p1ai");
	ck_assert(flags & CANON_IDN);
	free(h);
	h = canon_host("0x7f.1", 6, &flags);
	ck_assert_str_eq(h, "127.0.0.1");
	ck_assert(flags & CANON_IPV4);
	free(h);
	ck_assert_ptr_null(canon_host("...", 3, &flags));
}
END_TEST

static Suite *
canon_suite(void)
{
	Suite	*s = suite_create("canon");
	TCase	*tc = tcase_create("canon");

	tcase_add_loop_test(tc, test_gsb_examples, 0, (int)LZ_NELEM(gsb));
	tcase_add_loop_test(tc, test_hosts, 0, (int)LZ_NELEM(hosts));
	tcase_add_test(tc, test_port_and_parts);
	tcase_add_test(tc, test_idempotent);
	tcase_add_test(tc, test_expressions);
	tcase_add_test(tc, test_host_parents);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr = srunner_create(canon_suite());
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
