/*
 * check_addr.c -- address classification for the SSRF guard (addr.c).
 */
#include "config.h"

#include <sys/socket.h>
#include <netinet/in.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "addr.h"
#include "util.h"

static const struct {
	const char		*text;
	enum lz_addr_class	 cls;
} cases[] = {
	/* loopback, in every notation the resolver accepts */
	{ "127.0.0.1",			LZ_ADDR_LOOPBACK },
	{ "127.1",			LZ_ADDR_LOOPBACK },
	{ "0x7f000001",			LZ_ADDR_LOOPBACK },
	{ "2130706433",			LZ_ADDR_LOOPBACK },
	{ "0177.0.0.1",			LZ_ADDR_LOOPBACK },
	{ "0x7f.1",			LZ_ADDR_LOOPBACK },
	{ "127.255.255.254",		LZ_ADDR_LOOPBACK },
	{ "::1",			LZ_ADDR_LOOPBACK },
	{ "[::1]",			LZ_ADDR_LOOPBACK },
	{ "0:0:0:0:0:0:0:1",		LZ_ADDR_LOOPBACK },
	{ "::ffff:127.0.0.1",		LZ_ADDR_LOOPBACK },
	{ "[::ffff:127.0.0.1]",		LZ_ADDR_LOOPBACK },
	{ "::ffff:7f00:1",		LZ_ADDR_LOOPBACK },
	{ "64:ff9b::7f00:1",		LZ_ADDR_LOOPBACK },	/* NAT64 */
	{ "2002:7f00:1::1",		LZ_ADDR_LOOPBACK },	/* 6to4 */
	/* private */
	{ "10.0.0.1",			LZ_ADDR_PRIVATE },
	{ "10.255.255.255",		LZ_ADDR_PRIVATE },
	{ "0xa000001",			LZ_ADDR_PRIVATE },
	{ "012.0.0.1",			LZ_ADDR_PRIVATE },	/* octal 10 */
	{ "167772161",			LZ_ADDR_PRIVATE },	/* 10.0.0.1 */
	{ "172.16.0.1",			LZ_ADDR_PRIVATE },
	{ "172.31.255.255",		LZ_ADDR_PRIVATE },
	{ "192.168.1.1",		LZ_ADDR_PRIVATE },
	{ "100.64.0.1",			LZ_ADDR_PRIVATE },
	{ "100.127.255.255",		LZ_ADDR_PRIVATE },
	{ "::ffff:10.0.0.1",		LZ_ADDR_PRIVATE },
	{ "::ffff:192.168.0.1",		LZ_ADDR_PRIVATE },
	{ "64:ff9b::a00:1",		LZ_ADDR_PRIVATE },
	{ "64:ff9b:1::1",		LZ_ADDR_PRIVATE },
	{ "fc00::1",			LZ_ADDR_PRIVATE },
	{ "fd12:3456:789a::1",		LZ_ADDR_PRIVATE },
	{ "fec0::1",			LZ_ADDR_PRIVATE },
	/* link-local, cloud metadata included */
	{ "169.254.169.254",		LZ_ADDR_LINKLOCAL },
	{ "::ffff:169.254.169.254",	LZ_ADDR_LINKLOCAL },
	{ "fe80::1",			LZ_ADDR_LINKLOCAL },
	{ "[fe80::1]",			LZ_ADDR_LINKLOCAL },
	{ "fe80::1%1",			LZ_ADDR_LINKLOCAL },
	{ "febf::1",			LZ_ADDR_LINKLOCAL },
	/* multicast */
	{ "224.0.0.1",			LZ_ADDR_MULTICAST },
	{ "239.255.255.250",		LZ_ADDR_MULTICAST },
	{ "ff02::1",			LZ_ADDR_MULTICAST },
	{ "::ffff:224.0.0.251",		LZ_ADDR_MULTICAST },
	/* reserved and other non-public */
	{ "0.0.0.0",			LZ_ADDR_RESERVED },
	{ "0",				LZ_ADDR_RESERVED },
	{ "0.1.2.3",			LZ_ADDR_RESERVED },
	{ "240.0.0.1",			LZ_ADDR_RESERVED },
	{ "255.255.255.255",		LZ_ADDR_RESERVED },
	{ "192.0.0.8",			LZ_ADDR_RESERVED },
	{ "192.0.2.1",			LZ_ADDR_RESERVED },
	{ "198.18.0.1",			LZ_ADDR_RESERVED },
	{ "198.51.100.7",		LZ_ADDR_RESERVED },
	{ "203.0.113.9",		LZ_ADDR_RESERVED },
	{ "::",				LZ_ADDR_RESERVED },
	{ "::1.2.3.4",			LZ_ADDR_RESERVED },	/* v4-compat */
	{ "100::1",			LZ_ADDR_RESERVED },
	{ "2001::1",			LZ_ADDR_RESERVED },	/* Teredo */
	{ "2001:db8::1",		LZ_ADDR_RESERVED },
	{ "3fff::1",			LZ_ADDR_RESERVED },
	{ "4000::1",			LZ_ADDR_RESERVED },
	{ "1::1",			LZ_ADDR_RESERVED },
	/* public */
	{ "8.8.8.8",			LZ_ADDR_PUBLIC },
	{ "134744072",			LZ_ADDR_PUBLIC },	/* 8.8.8.8 */
	{ "1.1.1.1",			LZ_ADDR_PUBLIC },
	{ "93.184.216.34",		LZ_ADDR_PUBLIC },
	{ "172.15.255.255",		LZ_ADDR_PUBLIC },
	{ "172.32.0.1",			LZ_ADDR_PUBLIC },
	{ "100.63.255.255",		LZ_ADDR_PUBLIC },
	{ "100.128.0.1",		LZ_ADDR_PUBLIC },
	{ "169.253.255.255",		LZ_ADDR_PUBLIC },
	{ "223.255.255.255",		LZ_ADDR_PUBLIC },
	{ "::ffff:8.8.8.8",		LZ_ADDR_PUBLIC },
	{ "64:ff9b::808:808",		LZ_ADDR_PUBLIC },
	{ "2002:808:808::1",		LZ_ADDR_PUBLIC },
	{ "2606:4700:4700::1111",	LZ_ADDR_PUBLIC },
	{ "2001:4860:4860::8888",	LZ_ADDR_PUBLIC },
	{ "2a00:1450:4001::1",		LZ_ADDR_PUBLIC },
};

START_TEST(test_class)
{
	struct lz_addr	 a;
	const char	*text = cases[_i].text;

	ck_assert_msg(lz_addr_parse_host(text, &a) == 0, "%s: no parse",
	    text);
	ck_assert_msg(lz_addr_class(&a) == cases[_i].cls, "%s: %s, want %s",
	    text, lz_addr_class_name(lz_addr_class(&a)),
	    lz_addr_class_name(cases[_i].cls));
}
END_TEST

START_TEST(test_not_numeric)
{
	static const char *const bad[] = {
		"localhost", "example.com", "", "1.2.3.4.5", "::g", "[::1",
		"127.0.0.1 ", "256.1.1.1", "0x100000000",
	};
	struct lz_addr	 a;
	size_t		 i;

	for (i = 0; i < LZ_NELEM(bad); i++)
		ck_assert_msg(lz_addr_parse_host(bad[i], &a) == -1,
		    "'%s' parsed", bad[i]);
}
END_TEST

START_TEST(test_sockaddr)
{
	struct sockaddr_in	 sin;
	struct sockaddr_in6	 sin6;
	struct lz_addr		 a;
	char			 buf[64];

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	inet_pton(AF_INET, "127.0.0.53", &sin.sin_addr);
	ck_assert_int_eq(lz_addr_from_sockaddr((struct sockaddr *)&sin, &a),
	    0);
	ck_assert_int_eq(lz_addr_class(&a), LZ_ADDR_LOOPBACK);
	lz_addr_fmt(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "127.0.0.53");

	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::ffff:10.1.2.3", &sin6.sin6_addr);
	ck_assert_int_eq(lz_addr_from_sockaddr((struct sockaddr *)&sin6, &a),
	    0);
	ck_assert_int_eq(lz_addr_class(&a), LZ_ADDR_PRIVATE);
	lz_addr_fmt(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "10.1.2.3");

	inet_pton(AF_INET6, "2606:4700::1111", &sin6.sin6_addr);
	ck_assert_int_eq(lz_addr_from_sockaddr((struct sockaddr *)&sin6, &a),
	    0);
	ck_assert_int_eq(lz_addr_class(&a), LZ_ADDR_PUBLIC);
	lz_addr_fmt(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2606:4700::1111");

	sin.sin_family = AF_UNIX;
	ck_assert_int_eq(lz_addr_from_sockaddr((struct sockaddr *)&sin, &a),
	    -1);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(lz_addr_class_name(LZ_ADDR_PUBLIC), "public");
	ck_assert_str_eq(lz_addr_class_name(LZ_ADDR_LOOPBACK), "loopback");
	ck_assert_str_eq(lz_addr_class_name(LZ_ADDR_LINKLOCAL), "link-local");
	ck_assert_str_eq(lz_addr_class_name(LZ_ADDR_RESERVED), "reserved");
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("addr");
	TCase	*tc = tcase_create("class");
	SRunner	*sr;
	int	 failed;

	tcase_add_loop_test(tc, test_class, 0, (int)LZ_NELEM(cases));
	tcase_add_test(tc, test_not_numeric);
	tcase_add_test(tc, test_sockaddr);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
