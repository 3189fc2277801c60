/*
 * check_prompts.c -- the prompt library's pure parts: case folding and
 * names (search.c), value sets (values.c), and the importer's checks and
 * build (import.c) on small data files.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>
#include <sqlite3.h>

#include "import.h"
#include "lztime.h"
#include "search.h"
#include "utf8.h"
#include "util.h"
#include "values.h"

/* ---- search.c ----------------------------------------------------------- */

START_TEST(fold_ascii_and_unicode)
{
	char	*s;

	s = search_fold_dup("Hello HDR iPhone 100%_X");
	ck_assert_str_eq(s, "hello hdr iphone 100%_x");
	free(s);
	/* Latin-1, Greek, Cyrillic, full-width: Unicode simple lower case. */
	s = search_fold_dup("ÉCOLE ΑΒΓ ДОМ ＡＢＣ");
	ck_assert_str_eq(s, "école αβγ дом ａｂｃ");
	free(s);
	/* Chinese has no case; it comes back byte for byte. */
	s = search_fold_dup("貓咪在窗邊，柔光。");
	ck_assert_str_eq(s, "貓咪在窗邊，柔光。");
	free(s);
	s = search_fold_dup("");
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(fold_keeps_length_in_characters)
{
	const char	*in[] = { "ABC", "ÅÄÖ", "ＦＵＬＬ", "Ǆ", "Straße" };
	size_t		 i;

	for (i = 0; i < LZ_NELEM(in); i++) {
		char	*s = search_fold_dup(in[i]);
		long	 a = lz_utf8_count(in[i], strlen(in[i]), 0);
		long	 b = lz_utf8_count(s, strlen(s), 0);

		ck_assert_int_eq(a, b);
		free(s);
	}
}
END_TEST

START_TEST(fields_are_separated)
{
	struct lz_buf	 b = LZ_BUF_INIT;

	search_field(&b, "Ab");
	search_field(&b, NULL);
	search_field(&b, "");
	search_field(&b, "Cd");
	ck_assert_str_eq(lz_buf_str(&b), "ab" SEARCH_SEP "cd" SEARCH_SEP);
	/* "bc" spans two fields: never a substring of the search text. */
	ck_assert_ptr_null(strstr(lz_buf_str(&b), "bc"));
	lz_buf_free(&b);
}
END_TEST

START_TEST(tag_names)
{
	static const struct {
		const char	*in, *out;
	} ok[] = {
		{ "portrait", "portrait" },
		{ "Text to Image", "text-to-image" },
		{ "  text__to--image  ", "text-to-image" },
		{ "TEXT_TO_IMAGE", "text-to-image" },
		{ "人像", "人像" },
		{ "Lo-Fi", "lo-fi" },
		{ "C++", "c++" },
		{ "R&B", "r&b" },
		{ "#hashtag", "#hashtag" },
		{ "rock 'n' roll", "rock-'n'-roll" },
		{ "3D", "3d" },
	};
	static const char *const bad[] = {
		"", "   ", "---", "a/b", "50%", "<b>", "x?y", "a,b", "a;b",
		"\"q\"", "a*b", "a\\b", "a\tb", "a\vb", "a\302\205b",
	};
	size_t	 i;
	char	*s;

	for (i = 0; i < LZ_NELEM(ok); i++) {
		s = search_tag_name(ok[i].in);
		ck_assert_msg(s != NULL, "%s", ok[i].in);
		ck_assert_str_eq(s, ok[i].out);
		free(s);
	}
	for (i = 0; i < LZ_NELEM(bad); i++)
		ck_assert_msg(search_tag_name(bad[i]) == NULL, "%s", bad[i]);
}
END_TEST

START_TEST(tool_names)
{
	char	*s;

	s = search_tool_name("MidJourney_v6");
	ck_assert_str_eq(s, "midjourney_v6");
	free(s);
	s = search_tool_name("dall-e-3.1");
	ck_assert_str_eq(s, "dall-e-3.1");
	free(s);
	ck_assert_ptr_null(search_tool_name(""));
	ck_assert_ptr_null(search_tool_name("mid journey"));
	ck_assert_ptr_null(search_tool_name("mj%"));
	ck_assert_ptr_null(search_tool_name("工具"));
}
END_TEST

START_TEST(phrase_quoting)
{
	struct lz_buf	 b = LZ_BUF_INIT;

	search_phrase(&b, "say \"hi\" OR NEAR(x)");
	ck_assert_str_eq(lz_buf_str(&b), "\"say \"\"hi\"\" OR NEAR(x)\"");
	lz_buf_free(&b);
}
END_TEST

START_TEST(value_sets)
{
	ck_assert_int_eq(val_index(val_prompt_categories, "music"), 2);
	ck_assert_int_eq(val_index(val_prompt_categories, "audio"), -1);
	ck_assert_int_eq(val_index(val_model_categories, "audio"), 4);
	ck_assert_int_eq(val_index(val_keyword_categories, "Camera"), -1);
	ck_assert(val_slug_ok("a-1"));
	ck_assert(val_slug_ok("x"));
	ck_assert(!val_slug_ok(""));
	ck_assert(!val_slug_ok("A"));
	ck_assert(!val_slug_ok("a_b"));
	ck_assert(!val_slug_ok("a b"));
	ck_assert(val_slug_ok("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
	ck_assert(!val_slug_ok("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
}
END_TEST

/* ---- import.c ------------------------------------------------------------ */

static char	 dir[64];

static void
mkdir_fixture(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_prompts.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
rm_fixture(void)
{
	char	*cmd = xasprintf("rm -rf '%s'", dir);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}

#define TOOL	"{\"key\":\"suno\",\"label\":\"Suno\",\"medium\":\"music\"," \
		"\"description\":\"d\",\"aliases\":[\"Suno-AI\"]}"
#define TAG	"{\"slug\":\"jazz\",\"label\":\"爵士\",\"label_en\":\"Jazz\"}"
#define PROMPT(slug, extra) \
	"{\"slug\":\"" slug "\",\"status\":\"published\"," \
	"\"category\":\"music\",\"tool\":\"suno\"," \
	"\"difficulty\":\"beginner\",\"tags\":[\"jazz\"],\"title\":\"T\"," \
	"\"summary\":\"S\",\"context\":\"C\",\"full_prompt\":\"line 1\\n" \
	"line 2\",\"sample_output\":\"O\"," \
	"\"updated_at\":\"2026-01-01T00:00:00Z\"" extra "}"

static char *
write_file(const char *name, const char *text)
{
	char	*path = xasprintf("%s/%s", dir, name);
	FILE	*fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* Loads text; returns the error report (caller frees), and sets *ok. */
static char *
load(const char *text, int *ok)
{
	char	*path = write_file("data.json", text), *buf = NULL;
	size_t	 len = 0;
	FILE	*errs = open_memstream(&buf, &len);
	struct import *m;

	m = import_load(path, errs, lz_now_ms());
	fclose(errs);
	*ok = m != NULL;
	import_free(m);
	free(path);
	return buf;
}

static void
expect_error(const char *text, const char *msg)
{
	int	 ok;
	char	*out = load(text, &ok);

	ck_assert_msg(!ok, "accepted: %s", text);
	ck_assert_msg(strstr(out, msg) != NULL, "wanted '%s' in:\n%s", msg,
	    out);
	ck_assert_msg(strstr(out, "nothing imported") != NULL, "%s", out);
	free(out);
}

static const char *
file(const char *prompts, const char *rest)
{
	static char	 buf[8192];

	snprintf(buf, sizeof(buf), "{\"format\":\"lz-prompts/1\",\"tools\":["
	    TOOL "],\"tags\":[" TAG "],\"prompts\":[%s]%s}", prompts, rest);
	return buf;
}

START_TEST(import_accepts_a_good_file)
{
	int	 ok;
	char	*out = load(file(PROMPT("a", "") "," PROMPT("b",
	    ",\"is_pro\":true,\"rating\":{\"avg\":4.5,\"count\":3}"), ""), &ok);

	ck_assert_msg(ok, "%s", out);
	free(out);
}
END_TEST

START_TEST(import_reports_problems)
{
	expect_error("[]", "one JSON object");
	expect_error("{", "nothing imported");
	expect_error("{\"format\":\"lz-prompts/2\",\"tools\":[],\"tags\":[],"
	    "\"prompts\":[]}", "not a format this version reads");
	expect_error(file(PROMPT("a", ",\"x\":1"), ""),
	    "Unknown field 'prompts[0].x'");
	expect_error(file(PROMPT("a", "") "," PROMPT("a", ""), ""),
	    "'a' is used by two entries");
	expect_error(file(PROMPT("Bad_Slug", ""), ""), "must be 1 to 100 of");
	expect_error(file(PROMPT("a", ",\"rank\":-1"), ""),
	    "'rank' must be from 0 to 1000000");
	expect_error(file(PROMPT("a", ",\"rating\":{\"avg\":4}"), ""),
	    "'prompts[0] (a).rating.count' is required");
	expect_error(file(PROMPT("a", ",\"publish_at\":"
	    "\"2030-01-01T00:00:00Z\""), ""), "for scheduled prompts only");
	expect_error(file(PROMPT("a", ",\"variables\":[{\"name\":\"1x\","
	    "\"description\":\"d\"}]"), ""), "'name' must be a letter");
	expect_error(file(PROMPT("a", ""), ",\"collections\":[{\"slug\":\"c\","
	    "\"status\":\"published\",\"title\":\"t\",\"summary\":\"s\","
	    "\"updated_at\":\"2026-01-01T00:00:00Z\",\"items\":[{\"prompt\":"
	    "\"zz\",\"note\":\"\"}]}]"), "no prompt has the slug 'zz'");
	expect_error(file(PROMPT("a", ""), ",\"models\":[{\"key\":\"m\","
	    "\"name\":\"M\",\"category\":\"audio\",\"version\":\"1\","
	    "\"vendor\":\"V\",\"notes\":\"n\",\"source_url\":"
	    "\"javascript:alert(1)\",\"checked_on\":\"2026-01-01\","
	    "\"verification\":\"unverified\",\"status\":\"active\","
	    "\"record_type\":\"model\"}]"), "must be an http or https URL");
	expect_error(file(PROMPT("a", ""), ",\"integrations\":[{\"key\":\"i\","
	    "\"tool_key\":\"SUNO-AI\",\"name\":\"n\",\"vendor\":\"v\","
	    "\"category\":\"music\",\"generator_kind\":\"web\"}]"),
	    "'tool_key' must be a tool key or alias");
	/* Two tags may not share a name. */
	expect_error("{\"format\":\"lz-prompts/1\",\"tools\":[" TOOL "],"
	    "\"tags\":[" TAG ",{\"slug\":\"swing\",\"label\":\"Swing\","
	    "\"aliases\":[\"JAZZ\"]}],\"prompts\":[]}",
	    "the name 'jazz' stands for both 'jazz' and 'swing'");
}
END_TEST

START_TEST(import_builds_and_hides)
{
	struct import	*m;
	sqlite3		*db;
	sqlite3_stmt	*st;
	char		*path, *dbpath, *errs = NULL;
	char		 err[256];
	size_t		 len;
	FILE		*fp;

	path = write_file("data.json", file(
	    PROMPT("free", "") ","
	    "{\"slug\":\"pro\",\"status\":\"published\",\"is_pro\":true,"
	    "\"category\":\"music\",\"tool\":\"suno\",\"difficulty\":"
	    "\"beginner\",\"title\":\"T\",\"summary\":\"S\",\"context\":"
	    "\"C\",\"full_prompt\":\"first line\\nsecret body\","
	    "\"sample_output\":\"O\",\"variables\":[{\"name\":\"v\","
	    "\"description\":\"secret var\"}],"
	    "\"updated_at\":\"2026-01-02T00:00:00Z\"},"
	    "{\"slug\":\"draft\",\"status\":\"draft\",\"category\":\"music\","
	    "\"tool\":\"suno\",\"difficulty\":\"beginner\",\"title\":\"T\","
	    "\"summary\":\"S\",\"context\":\"C\",\"full_prompt\":\"p\","
	    "\"sample_output\":\"O\",\"updated_at\":"
	    "\"2026-01-01T00:00:00Z\"}", ""));
	fp = open_memstream(&errs, &len);
	m = import_load(path, fp, lz_now_ms());
	fclose(fp);
	ck_assert_msg(m != NULL, "%s", errs);
	dbpath = xasprintf("%s/p.db", dir);
	ck_assert_int_eq(import_write(m, dbpath, "data.json", lz_now_ms(), err,
	    sizeof(err)), 0);
	import_free(m);

	ck_assert_int_eq(sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	/* The draft is not stored; the PRO body and variables neither. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT group_concat(slug) "
	    "FROM (SELECT slug FROM prompt_text ORDER BY slug)", -1, &st,
	    NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "free,pro");
	sqlite3_finalize(st);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT full_prompt IS NULL, "
	    "variables IS NULL, preview FROM prompt_text WHERE slug = 'pro'",
	    -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 1);
	ck_assert_int_eq(sqlite3_column_int(st, 1), 1);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 2),
	    "first line");
	sqlite3_finalize(st);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM "
	    "prompt_fts WHERE instr(text, 'secret') > 0", -1, &st, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	/* Free prompts show an empty list of variables, not none. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT variables FROM "
	    "prompt_text WHERE slug = 'free'", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "[]");
	sqlite3_finalize(st);
	/* Recommended order: newest first at equal rank. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT slug FROM prompt_text "
	    "WHERE prompt_id = 1", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "pro");
	sqlite3_finalize(st);
	/* Not a WAL database: nothing to share across a rename. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st,
	    NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "delete");
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(errs);
	free(path);
	free(dbpath);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("prompts");
	TCase	*tc;

	tc = tcase_create("search");
	tcase_add_test(tc, fold_ascii_and_unicode);
	tcase_add_test(tc, fold_keeps_length_in_characters);
	tcase_add_test(tc, fields_are_separated);
	tcase_add_test(tc, tag_names);
	tcase_add_test(tc, tool_names);
	tcase_add_test(tc, phrase_quoting);
	tcase_add_test(tc, value_sets);
	suite_add_tcase(s, tc);

	tc = tcase_create("import");
	tcase_add_checked_fixture(tc, mkdir_fixture, rm_fixture);
	tcase_add_test(tc, import_accepts_a_good_file);
	tcase_add_test(tc, import_reports_problems);
	tcase_add_test(tc, import_builds_and_hides);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr = srunner_create(suite());
	int	 failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
