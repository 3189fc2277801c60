/*
 * check_geo.c -- geo.c: country look-ups over tor-geoipdb files.
 *
 * Fixtures t/data/geoip-v4 and geoip-v6 are in the real format.  Besides
 * hand-written expectations, every range of a file is probed at its
 * first, middle and last address and just outside it, against what the
 * file says (read here by a separate, naive parser); the same runs over
 * Debian's /usr/share/tor/geoip{,6}, the files lz-links reads by default.
 * Without tor-geoipdb (tools/setup-debian installs it) the suite is a SKIP
 * (exit 77) after the fixtures' tests, never a silent pass.  The look-up
 * time is bench/geo-mem's.
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "addr.h"
#include "log.h"
#include "lztime.h"
#include "visit/geo.h"

typedef unsigned __int128 u128;

#define DEB_V4	"/usr/share/tor/geoip"
#define DEB_V6	"/usr/share/tor/geoip6"

struct row {
	u128	 from, to;
	char	 cc[3];		/* "" for "??" */
};

static char v4path[1024], v6path[1024];

static void
setup(void)
{
	const char	*src = getenv("LZ_SRCDIR");

	if (src == NULL)
		src = "..";
	snprintf(v4path, sizeof(v4path), "%s/t/data/geoip-v4", src);
	snprintf(v6path, sizeof(v6path), "%s/t/data/geoip-v6", src);
	lz_log_open("check_geo", LZ_LOG_ERR);
}

static void
teardown(void)
{
	geo_unload();
}

static struct lz_addr
addr_of(u128 v)
{
	struct lz_addr	 a;
	int		 i;

	memset(&a, 0, sizeof(a));
	for (i = 15; i >= 0; i--) {
		a.b[i] = (uint8_t)(v & 0xff);
		v >>= 8;
	}
	return a;
}

static struct lz_addr
addr(const char *s)
{
	struct lz_addr	 a;

	ck_assert_msg(lz_addr_parse(s, &a) == 0, "bad address %s", s);
	return a;
}

static const char *
look(const char *s)
{
	static char	 cc[3];
	struct lz_addr	 a = addr(s);
	int		 r;

	memset(cc, 'x', sizeof(cc));
	r = geo_lookup(&a, cc);
	ck_assert_int_eq(r, cc[0] != '\0');
	return cc;
}

/* The naive reader: rows of a file as the file says them. */
static size_t
read_rows(const char *path, int v6, struct row **out)
{
	FILE		*f;
	char		 line[256], *c1, *c2, *nl;
	unsigned char	 b[16];
	struct row	*r = NULL;
	size_t		 n = 0, cap = 0;
	int		 i;

	ck_assert_msg((f = fopen(path, "r")) != NULL, "%s", path);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		c1 = strchr(line, ',');
		c2 = c1 ? strchr(c1 + 1, ',') : NULL;
		ck_assert_msg(c2 != NULL, "%s: %s", path, line);
		*c1++ = *c2++ = '\0';
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			r = realloc(r, cap * sizeof(*r));
			ck_assert(r != NULL);
		}
		if (v6) {
			ck_assert(inet_pton(AF_INET6, line, b) == 1);
			for (r[n].from = 0, i = 0; i < 16; i++)
				r[n].from = r[n].from << 8 | b[i];
			ck_assert(inet_pton(AF_INET6, c1, b) == 1);
			for (r[n].to = 0, i = 0; i < 16; i++)
				r[n].to = r[n].to << 8 | b[i];
		} else {
			r[n].from = (u128)0xffff << 32 |
			    strtoull(line, NULL, 10);
			r[n].to = (u128)0xffff << 32 | strtoull(c1, NULL, 10);
		}
		if (strcmp(c2, "??") == 0)
			r[n].cc[0] = '\0';
		else {
			r[n].cc[0] = (char)(c2[0] & ~0x20);
			r[n].cc[1] = (char)(c2[1] & ~0x20);
			r[n].cc[2] = '\0';
		}
		n++;
	}
	fclose(f);
	*out = r;
	return n;
}

static void
expect(u128 v, const char *want, const char *path, size_t i)
{
	struct lz_addr	 a = addr_of(v);
	char		 cc[3], txt[64];

	geo_lookup(&a, cc);
	if (strcmp(cc, want) != 0) {
		inet_ntop(AF_INET6, a.b, txt, sizeof(txt));
		ck_abort_msg("%s row %zu: %s is '%s', want '%s'", path, i + 1,
		    txt, cc, want);
	}
}

/*
 * Probes the ranges of path: first, middle and last address, and the
 * addresses just outside, which belong to the neighbour when adjacent.
 * Every stride-th range, and every IPv6 range that starts or ends inside
 * a /64 (the fine table's).  Returns the number of probes.
 */
static size_t
probe_all(const char *path, int v6, size_t stride)
{
	struct row	*r;
	size_t		 n, i, probes = 0;
	u128		 lo = v6 ? 0 : (u128)0xffff << 32;
	u128		 hi = v6 ? ~(u128)0 : lo | 0xffffffff;

	n = read_rows(path, v6, &r);
	ck_assert_uint_gt(n, 0);
	for (i = 0; i < n; i++) {
		if (i % stride != 0 && !(v6 && ((uint64_t)r[i].from != 0 ||
		    (uint64_t)r[i].to != UINT64_MAX)))
			continue;
		expect(r[i].from, r[i].cc, path, i);
		expect(r[i].to, r[i].cc, path, i);
		expect(r[i].from + (r[i].to - r[i].from) / 2, r[i].cc, path, i);
		probes += 3;
		if (r[i].from > lo) {
			expect(r[i].from - 1, i > 0 && r[i - 1].to ==
			    r[i].from - 1 ? r[i - 1].cc : "", path, i);
			probes++;
		}
		if (r[i].to < hi) {
			expect(r[i].to + 1, i + 1 < n && r[i + 1].from ==
			    r[i].to + 1 ? r[i + 1].cc : "", path, i);
			probes++;
		}
	}
	free(r);
	return probes;
}

START_TEST(fixture_lookups)
{
	struct geo_stats	 st;
	char			 err[256];

	ck_assert_int_eq(geo_load(v4path, v6path, err, sizeof(err)), 0);
	geo_stats(&st);
	ck_assert_uint_eq(st.v4_ranges, 22);
	ck_assert_uint_eq(st.v6_ranges, 33);
	ck_assert_uint_gt(st.v6_fine, 0);
	ck_assert_uint_gt(st.bytes, 0);

	/* IPv4 */
	ck_assert_str_eq(look("1.0.0.0"), "AU");
	ck_assert_str_eq(look("1.0.0.255"), "AU");
	ck_assert_str_eq(look("1.0.1.0"), "CN");
	ck_assert_str_eq(look("1.0.16.1"), "JP");
	ck_assert_str_eq(look("1.0.32.0"), "");	/* after the last */
	ck_assert_str_eq(look("0.239.249.150"), "");	/* a ?? range */
	ck_assert_str_eq(look("0.0.0.0"), "");	/* before the first */
	ck_assert_str_eq(look("8.8.8.8"), "US");
	ck_assert_str_eq(look("::ffff:8.8.8.8"), "US");	/* mapped */
	ck_assert_str_eq(look("80.80.47.255"), "");
	ck_assert_str_eq(look("80.80.48.0"), "HR");
	ck_assert_str_eq(look("80.80.79.255"), "SE");
	ck_assert_str_eq(look("80.80.80.1"), "NL");
	ck_assert_str_eq(look("80.80.127.255"), "RU");
	ck_assert_str_eq(look("80.80.128.0"), "BG");
	ck_assert_str_eq(look("80.80.159.255"), "BG");
	ck_assert_str_eq(look("80.80.160.0"), "");
	ck_assert_str_eq(look("240.0.0.0"), "NZ");	/* lower case */
	ck_assert_str_eq(look("240.0.1.255"), "NZ");	/* merged */
	ck_assert_str_eq(look("240.0.2.0"), "");
	ck_assert_str_eq(look("255.255.255.0"), "AQ");
	ck_assert_str_eq(look("255.255.255.255"), "AQ");
	ck_assert_str_eq(look("255.255.254.255"), "");

	/* IPv6, whole /64s */
	ck_assert_str_eq(look("2001:4860:4860::8888"), "US");
	ck_assert_str_eq(look("2001:485f:ffff:ffff:ffff:ffff:ffff:ffff"),
	    "");
	ck_assert_str_eq(look("2001:4861::"), "");
	ck_assert_str_eq(look("2001:67c:2e4::1"), "NL");
	ck_assert_str_eq(look("2001:67c:2e3:ffff::"), "EU");
	ck_assert_str_eq(look("2001:67c:2ec:1::"), "DE");
	ck_assert_str_eq(look("::"), "");
	ck_assert_str_eq(look("::1"), "");
	ck_assert_str_eq(look("fd10:127:2466::1"), "");	/* ?? */

	/* IPv6, ranges inside one /64 */
	ck_assert_str_eq(look("2001:506:8::"), "US");
	ck_assert_str_eq(look("2001:506:9::3"), "US");
	ck_assert_str_eq(look("2001:506:9::4"), "BR");
	ck_assert_str_eq(look("2001:506:9::5"), "BR");
	ck_assert_str_eq(look("2001:506:9::6"), "US");
	ck_assert_str_eq(look("2001:506:9::2e"), "RO");
	ck_assert_str_eq(look("2001:506:9::47"), "SG");
	ck_assert_str_eq(look("2001:506:9::6c"), "UA");
	ck_assert_str_eq(look("2001:506:9::1:1234"), "GB");
	ck_assert_str_eq(look("2001:506:9::2:0"), "US");
	ck_assert_str_eq(look("2001:506:9:1::"), "US");	/* next /64s */
	ck_assert_str_eq(look("2001:506:9:ffff:ffff:ffff:ffff:ffff"), "US");
	ck_assert_str_eq(look("2001:506:a::"), "");
	ck_assert_str_eq(look("fe80::1"), "");
	ck_assert_str_eq(look("ff00::1"), "JP");
	ck_assert_str_eq(look("ff00::1:0:0"), "JP");
	ck_assert_str_eq(look("ff00::1:0:0:0"), "");
	ck_assert_str_eq(look("ffff:ffff:ffff:ffff::7fff"), "");
	ck_assert_str_eq(look("ffff:ffff:ffff:ffff::8000"), "AQ");
	ck_assert_str_eq(look("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
	    "AQ");
}
END_TEST

START_TEST(fixture_every_range)
{
	char	 err[256];

	ck_assert_int_eq(geo_load(v4path, v6path, err, sizeof(err)), 0);
	ck_assert_uint_gt(probe_all(v4path, 0, 1), 50);
	ck_assert_uint_gt(probe_all(v6path, 1, 1), 100);
}
END_TEST

START_TEST(missing_files)
{
	struct geo_stats	 st;
	char			 err[256];

	/* "" and a missing file: loaded, nothing found. */
	ck_assert_int_eq(geo_load("", "/nonexistent/geoip6", err,
	    sizeof(err)), 0);
	ck_assert_str_eq(look("8.8.8.8"), "");
	ck_assert_str_eq(look("2001:4860:4860::8888"), "");
	ck_assert_int_eq(geo_load(NULL, NULL, err, sizeof(err)), 0);
	geo_stats(&st);
	ck_assert_uint_eq(st.bytes, 0);
	ck_assert_str_eq(look("8.8.8.8"), "");

	/* One family only. */
	ck_assert_int_eq(geo_load(v4path, "", err, sizeof(err)), 0);
	ck_assert_str_eq(look("8.8.8.8"), "US");
	ck_assert_str_eq(look("2001:4860:4860::8888"), "");
	ck_assert_int_eq(geo_load("", v6path, err, sizeof(err)), 0);
	ck_assert_str_eq(look("8.8.8.8"), "");
	ck_assert_str_eq(look("2001:4860:4860::8888"), "US");

	/* Nothing loaded at all. */
	geo_unload();
	ck_assert_str_eq(look("8.8.8.8"), "");
	ck_assert_str_eq(look("::1"), "");
}
END_TEST

/* Writes text to a temporary file; returns its path (static). */
static const char *
tmpfile_with(const char *text)
{
	static char	 path[64];
	int		 fd;

	snprintf(path, sizeof(path), "/tmp/check_geo.XXXXXX");
	ck_assert((fd = mkstemp(path)) != -1);
	ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void
refused(const char *text, int v6, const char *want)
{
	const char	*p = tmpfile_with(text);
	char		 err[256];
	int		 r;

	err[0] = '\0';
	r = v6 ? geo_load("", p, err, sizeof(err)) :
	    geo_load(p, "", err, sizeof(err));
	unlink(p);
	ck_assert_msg(r == -1, "accepted: %s", text);
	ck_assert_msg(strstr(err, want) != NULL, "err '%s' lacks '%s'", err,
	    want);
}

START_TEST(malformed_files)
{
	char	 err[256];

	ck_assert_int_eq(geo_load(v4path, v6path, err, sizeof(err)), 0);

	refused("# c\n1,2,US\n3,4\n", 0, ":3: expected FROM,TO,CC");
	refused("1,2,USA\n", 0, ":1: bad country code");
	refused("1,2,U\n", 0, ":1: bad country code");
	refused("1,2,\n", 0, ":1: bad country code");
	refused("1,2,U-\n", 0, ":1: bad country code");
	refused("1,4294967296,US\n", 0, ":1: bad IPv4");
	refused("-1,2,US\n", 0, ":1: bad IPv4");
	refused("1.2.3.4,2,US\n", 0, ":1: bad IPv4");
	refused(" 1,2,US\n", 0, ":1: bad IPv4");
	refused("5,4,US\n", 0, ":1: range is empty");
	refused("1,10,US\n10,20,DE\n", 0, ":2: range is empty, overlaps");
	refused("20,30,US\n1,10,DE\n", 0, ":2: range is empty, overlaps");
	refused("::1,::2,US\n::,::,DE\n", 1, ":2: range is empty");
	refused("1.2.3.4,::2,US\n", 1, ":1: bad IPv6");
	refused("::1,::2,US,\n", 1, ":1: bad country code");

	/* A refused load keeps the tables in force. */
	ck_assert_str_eq(look("8.8.8.8"), "US");
	ck_assert_str_eq(look("2001:506:9::4"), "BR");

	/* CRLF line ends and blank lines are fine. */
	{
		const char	*p = tmpfile_with("# x\r\n\r\n1,2,de\r\n");
		int		 r = geo_load(p, "", err, sizeof(err));

		unlink(p);
		ck_assert_int_eq(r, 0);
		ck_assert_str_eq(look("0.0.0.1"), "DE");
		ck_assert_str_eq(look("0.0.0.3"), "");
	}
}
END_TEST

START_TEST(debian_files)
{
	struct geo_stats	 st;
	char			 err[256];
	int64_t			 t0, t1;
	size_t			 probes;

	t0 = lz_mono_us();
	ck_assert_msg(geo_load(DEB_V4, DEB_V6, err, sizeof(err)) == 0, "%s",
	    err);
	t1 = lz_mono_us();
	geo_stats(&st);
	/* Google's public resolvers. */
	ck_assert_str_eq(look("8.8.8.8"), "US");
	ck_assert_str_eq(look("2001:4860:4860::8888"), "US");
	ck_assert_str_eq(look("127.0.0.1"), "");

	/* A quarter of the ranges, so check-valgrind stays short. */
	probes = probe_all(DEB_V4, 0, 4) + probe_all(DEB_V6, 1, 4);
	fprintf(stderr, "check_geo: Debian files: %zu+%zu ranges, "
	    "%zu+%zu+%zu rows, %zu KiB shared, loaded in %lld ms; "
	    "%zu probes ok\n", st.v4_ranges, st.v6_ranges, st.v4_entries,
	    st.v6_entries, st.v6_fine, st.bytes / 1024,
	    (long long)((t1 - t0) / 1000), probes);
}
END_TEST

static Suite *
geo_suite(int debian)
{
	Suite	*s = suite_create("geo");
	TCase	*tc = tcase_create("geo");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fixture_lookups);
	tcase_add_test(tc, fixture_every_range);
	tcase_add_test(tc, missing_files);
	tcase_add_test(tc, malformed_files);
	if (debian)
		tcase_add_test(tc, debian_files);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 debian, failed;

	debian = access(DEB_V4, R_OK) == 0 && access(DEB_V6, R_OK) == 0;
	sr = srunner_create(geo_suite(debian));
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (failed != 0)
		return 1;
	if (!debian) {
		fprintf(stderr, "check_geo: SKIP: %s and %s missing (install "
		    "tor-geoipdb: tools/setup-debian)\n", DEB_V4, DEB_V6);
		return 77;
	}
	return 0;
}
