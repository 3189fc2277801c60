/*
 * check_ua.c -- ua.c: the User-Agent parser against real headers.
 *
 * t/data/ua-corpus.tsv gives every field for each header; ua-crawlers.txt
 * (crawler-user-agents) and ua-browsers.txt (real visits) check the bot
 * flag in bulk.  The suite also prints the cost of a parse.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lztime.h"
#include "visit/ua.h"

#define LINE_MAX_UA	16384

static char	 srcdir[1024];

static void
setup(void)
{
	const char	*s = getenv("LZ_SRCDIR");

	snprintf(srcdir, sizeof(srcdir), "%s", s ? s : "..");
}

static FILE *
open_data(const char *name)
{
	char	 path[2048];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/t/data/%s", srcdir, name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	return f;
}

/* Reads the next data line (no comments) without its newline. */
static int
next_line(FILE *f, char *buf, size_t len)
{
	while (fgets(buf, (int)len, f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] != '#')
			return 1;
	}
	return 0;
}

START_TEST(corpus)
{
	static char	 line[LINE_MAX_UA];
	char		*f[8], *p;
	struct ua_info	 u;
	FILE		*fp = open_data("ua-corpus.tsv");
	int		 i, n = 0, bad = 0, lineno = 0;
	int		 bots = 0, previews = 0, inapps = 0;

	while (next_line(fp, line, sizeof(line))) {
		lineno++;
		for (p = line, i = 0; i < 7; i++) {
			f[i] = p;
			p = strchr(p, '\t');
			ck_assert_msg(p != NULL, "line %d: too few fields",
			    lineno);
			*p++ = '\0';
		}
		f[7] = p;	/* the header, the rest of the line */
		ua_parse(f[7], &u);
		if (strcmp(ua_device_name(u.device), f[0]) != 0 ||
		    strcmp(u.os, f[1]) != 0 || strcmp(u.browser, f[2]) != 0 ||
		    u.bot != atoi(f[3]) || u.preview != atoi(f[4]) ||
		    strcmp(u.inapp ? ua_inapp_name(u.inapp) : "-", f[5]) != 0) {
			fprintf(stderr, "check_ua: want %s %s %s %s %s %s, got "
			    "%s %s %s %d %d %s: %s\n", f[0], f[1], f[2], f[3],
			    f[4], f[5], ua_device_name(u.device), u.os,
			    u.browser, u.bot, u.preview,
			    u.inapp ? ua_inapp_name(u.inapp) : "-", f[7]);
			bad++;
		}
		bots += u.bot;
		previews += u.preview;
		inapps += u.inapp != UA_INAPP_NONE;
		n++;
	}
	fclose(fp);
	ck_assert_int_ge(n, 200);
	/* The corpus covers every kind it claims to. */
	ck_assert_int_ge(bots, 50);
	ck_assert_int_ge(previews, 20);
	ck_assert_int_ge(inapps, 20);
	ck_assert_msg(bad == 0, "%d of %d corpus lines differ (see above)",
	    bad, n);
}
END_TEST

/* The memo answers as ua_parse() does: first looks, repeats, slots taken
 * over by other headers, headers too long to keep. */
START_TEST(memo_same)
{
	static char	 line[LINE_MAX_UA];
	static char	 uas[400][LINE_MAX_UA];
	struct ua_info	 a, b;
	FILE		*fp = open_data("ua-corpus.tsv");
	char		*p;
	int		 i, pass, n = 0;

	while (n < 399 && next_line(fp, line, sizeof(line))) {
		p = line;
		for (i = 0; i < 7 && p != NULL; i++)
			if ((p = strchr(p, '\t')) != NULL)
				p++;
		ck_assert_ptr_nonnull(p);
		snprintf(uas[n++], sizeof(uas[0]), "%s", p);
	}
	fclose(fp);
	memset(uas[n], 'A', 500);	/* too long for the memo */
	memcpy(uas[n], "Googlebot/2.1 ", 14);
	uas[n++][500] = '\0';
	ck_assert_int_ge(n, 200);
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++) {
			ua_parse(uas[i], &a);
			ua_parse_memo(uas[i], &b);
			ck_assert_msg(a.device == b.device && a.os == b.os &&
			    a.browser == b.browser && a.bot == b.bot &&
			    a.preview == b.preview && a.inapp == b.inapp,
			    "pass %d: %s", pass, uas[i]);
		}
	ua_parse(NULL, &a);
	ua_parse_memo(NULL, &b);
	ck_assert(a.bot == b.bot && a.os == b.os);
}
END_TEST

/* Share of the headers of name that ua_parse() calls bots, in 1/1000. */
static int
bot_permille(const char *name, int *count)
{
	static char	 line[LINE_MAX_UA];
	struct ua_info	 u;
	FILE		*fp = open_data(name);
	int		 n = 0, bots = 0;

	while (next_line(fp, line, sizeof(line))) {
		ua_parse(line, &u);
		bots += u.bot;
		n++;
	}
	fclose(fp);
	*count = n;
	ck_assert_int_gt(n, 0);
	return (int)((long)bots * 1000 / n);
}

START_TEST(crawlers_are_bots)
{
	int	 n, pm = bot_permille("ua-crawlers.txt", &n);

	fprintf(stderr, "check_ua: %d.%d%% of %d crawler-user-agents are "
	    "bots\n", pm / 10, pm % 10, n);
	ck_assert_int_ge(n, 2000);
	ck_assert_int_ge(pm, 960);
}
END_TEST

START_TEST(browsers_are_people)
{
	int	 n, pm = bot_permille("ua-browsers.txt", &n);

	fprintf(stderr, "check_ua: %d.%d%% of %d real browser headers are "
	    "bots\n", pm / 10, pm % 10, n);
	ck_assert_int_ge(n, 900);
	ck_assert_int_le(pm, 2);
}
END_TEST

START_TEST(edges)
{
	static char	 big[20000];
	struct ua_info	 u;
	const char	*mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X "
			    "10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
			    "Version/17.6 Safari/605.1.15";
	unsigned	 c;

	ua_parse(NULL, &u);
	ck_assert_int_eq(u.device, UA_DESKTOP);
	ck_assert_str_eq(u.os, "other");
	ck_assert_str_eq(u.browser, "other");
	ck_assert_int_eq(u.bot, 1);
	ck_assert_int_eq(u.preview, 0);
	ck_assert_int_eq(u.inapp, UA_INAPP_NONE);
	ua_parse("", &u);
	ck_assert_str_eq(u.os, "other");
	ck_assert_int_eq(u.bot, 1);

	/* iPadOS desktop-mode Safari is a Mac to us (documented). */
	ua_parse(mac, &u);
	ck_assert_str_eq(u.os, "macos");
	ck_assert_int_eq(u.device, UA_DESKTOP);
	ck_assert_str_eq(u.browser, "safari");

	/* Case does not matter; position rules do. */
	ua_parse("FACEBOOKEXTERNALHIT/1.1", &u);
	ck_assert_int_eq(u.preview, 1);
	ua_parse("Mozilla/5.0 (iPhone) WhatsApp/2.24", &u);
	ck_assert_int_eq(u.preview, 0);
	ua_parse("Mozilla/5.0 (X11; Linux x86_64) OnLine/1.0 Firefox/1", &u);
	ck_assert_int_eq(u.inapp, UA_INAPP_NONE);
	ua_parse("Mozilla/5.0 (Windows NT 10.0) Microsoft/1.0", &u);
	ck_assert_str_eq(u.os, "windows");	/* not CrOS in "Microsoft" */

	/* Every byte value, and a header longer than what is scanned. */
	for (c = 1; c < 256; c++)
		big[c - 1] = (char)c;
	ua_parse(big, &u);
	memset(big, 'A', sizeof(big) - 1);
	memcpy(big + sizeof(big) - 20, " Googlebot/2.1", 14);
	ua_parse(big, &u);
	ck_assert_int_eq(u.bot, 1);	/* "AAAA...": no OS, no browser */
	memcpy(big, "Mozilla/5.0 (iPhone) Safari", 27);
	ua_parse(big, &u);
	ck_assert_str_eq(u.os, "ios");
	ck_assert_int_eq(u.bot, 0);	/* the bot token is past 2 KiB */
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(ua_device_name(UA_DESKTOP), "desktop");
	ck_assert_str_eq(ua_device_name(UA_MOBILE), "mobile");
	ck_assert_str_eq(ua_device_name(UA_TABLET), "tablet");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_NONE), "");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_LINE), "line");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_FACEBOOK), "facebook");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_INSTAGRAM), "instagram");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_MESSENGER), "messenger");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_WECHAT), "wechat");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_TIKTOK), "tiktok");
	ck_assert_str_eq(ua_inapp_name(UA_INAPP_X), "x");
	ck_assert_str_eq(ua_inapp_name((enum ua_inapp)99), "");
}
END_TEST

/* The cost of a parse over every header of the three files. */
START_TEST(speed)
{
	static char	 buf[LINE_MAX_UA];
	static const char *const files[] = { "ua-corpus.tsv",
	    "ua-crawlers.txt", "ua-browsers.txt" };
	char		**uas = NULL, *ua;
	size_t		 n = 0, cap = 0, i, f;
	struct ua_info	 u;
	int64_t		 t0, t;
	int		 rounds = 20, r;
	FILE		*fp;

	for (f = 0; f < 3; f++) {
		fp = open_data(files[f]);
		while (next_line(fp, buf, sizeof(buf))) {
			ua = f == 0 ? strrchr(buf, '\t') + 1 : buf;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				uas = realloc(uas, cap * sizeof(*uas));
				ck_assert(uas != NULL);
			}
			uas[n++] = strdup(ua);
		}
		fclose(fp);
	}
	t0 = lz_mono_us();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++)
			ua_parse(uas[i], &u);
	t = lz_mono_us() - t0;
	fprintf(stderr, "check_ua: %zu headers x %d: %.0f ns per parse\n",
	    n, rounds, (double)t * 1000.0 / ((double)n * rounds));
	/* Loose, so sanitizer builds pass: a redirect can afford 50 us. */
	ck_assert_int_lt(t * 1000 / ((int64_t)n * rounds), 50000);
	for (i = 0; i < n; i++)
		free(uas[i]);
	free(uas);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("ua");
	TCase	*tc = tcase_create("ua");
	SRunner	*sr;
	int	 failed;

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, corpus);
	tcase_add_test(tc, memo_same);
	tcase_add_test(tc, crawlers_are_bots);
	tcase_add_test(tc, browsers_are_people);
	tcase_add_test(tc, edges);
	tcase_add_test(tc, names);
	tcase_add_test(tc, speed);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
