/*
 * check_prompts.c -- the prompt library's pure parts: case folding and
 * names (search.c), the search index (grams.c), value sets (values.c),
 * and the importer's checks and build (import.c) on small data files.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <jansson.h>
#include <sodium.h>
#include <sqlite3.h>

#include "cache.h"
#include "grams.h"
#include "import.h"
#include "lztime.h"
#include "memgrams.h"
#include "resp.h"
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

/* ---- grams.c ------------------------------------------------------------- */

/* A number below n from a fixed sequence (xorshift64), so that a failure
 * repeats. */
static uint32_t
rnd(uint32_t n)
{
	static uint64_t	 x = 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return (uint32_t)((x >> 11) % n);
}

START_TEST(sets_round_trip)
{
	static const size_t	 sizes[] = { 1, 63, 64, 65, 1000, 5000 };
	struct lz_buf		 b = LZ_BUF_INIT;
	struct pset		 s, t;
	uint32_t		*ids;
	int64_t			 page[50];
	size_t			 z, n, i, k, every;
	long			 got;

	for (z = 0; z < LZ_NELEM(sizes); z++)
		for (every = 1; every <= 200; every *= 3) {
			/* Dense (a bitset) to sparse (varints). */
			ids = xcalloc(sizes[z], sizeof(*ids));
			for (i = 0, n = 0; i < sizes[z]; i++)
				if (rnd((uint32_t)every) == 0)
					ids[n++] = (uint32_t)i;
			lz_buf_reset(&b);
			pset_encode(&b, ids, n, sizes[z]);
			ck_assert(b.len <= 1 + (sizes[z] + 63) / 64 * 8);
			pset_init(&s, sizes[z]);
			ck_assert_int_eq(pset_load(&s, b.p, b.len), 0);
			ck_assert_int_eq(pset_count(&s), (long long)n);
			for (i = 0, k = 0; i < sizes[z]; i++) {
				int	 in = k < n && ids[k] == i;

				if (pset_has(&s, i) != in)
					ck_abort_msg("id %zu: %d", i, !in);
				k += in;
			}
			/* Pages walk the ids in order. */
			for (i = 0; i < n; i += 7) {
				got = pset_page(&s, (long long)i, 50, page);
				ck_assert_int_eq(got, n - i < 50 ? n - i : 50);
				for (k = 0; k < (size_t)got; k++)
					if (page[k] != ids[i + k])
						ck_abort_msg("page at %zu", i);
			}
			ck_assert_int_eq(pset_page(&s, (long long)n, 50, page),
			    0);
			/* AND with a stored set of the other form. */
			pset_init(&t, sizes[z]);
			for (i = 0; i < sizes[z]; i++)
				pset_add(&t, i);
			ck_assert_int_eq(pset_and_stored(&t, b.p, b.len), 0);
			ck_assert_int_eq(pset_count(&t), (long long)n);
			pset_free(&t);
			/* Another size is not this set. */
			pset_init(&t, sizes[z] + 64);
			ck_assert_int_eq(pset_load(&t, b.p, b.len),
			    b.p[0] == 'b' ? -1 : 0);
			pset_free(&t);
			pset_free(&s);
			free(ids);
		}
	lz_buf_free(&b);
}
END_TEST

START_TEST(damaged_sets_are_refused)
{
	static const struct {
		const char	*s;
		size_t		 len;
	} bad[] = {
		{ "", 0 },			/* no form */
		{ "x\x01", 2 },			/* unknown form */
		{ "v\x05\x00", 3 },		/* not ascending */
		{ "v\x80", 2 },			/* varint cut short */
		{ "v\x80\x01", 3 },		/* 128: beyond 128 bits */
		{ "b\x01", 2 },			/* a short bitset */
	};
	struct pset	 s;
	size_t		 i;

	pset_init(&s, 128);
	for (i = 0; i < LZ_NELEM(bad); i++) {
		pset_add(&s, 3);
		ck_assert_int_eq(pset_load(&s, bad[i].s, bad[i].len), -1);
		ck_assert(pset_empty(&s));
	}
	ck_assert_int_eq(pset_load(&s, "v\x7f", 2), 0);
	ck_assert(pset_has(&s, 127));
	pset_free(&s);
}
END_TEST

/* The offsets of q's tiles, as "0,3,5". */
static const char *
tile_offsets(const struct gram_query *q)
{
	static char	 buf[256];
	size_t		 i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < q->ntiles && n < sizeof(buf) - 12; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u",
		    i ? "," : "", q->tile[i].off);
	return buf;
}

START_TEST(query_plans)
{
	static struct gram_query q;
	uint32_t		 cp[3] = { 0x8c93, 'a', 'b' };
	size_t			 i;

	ck_assert_int_eq(gram_plan("", &q), -1);
	ck_assert_int_eq(gram_plan("a\x1f" "b", &q), -1);
	ck_assert_int_eq(gram_plan("貓", &q), 0);
	gram_chain(&q);
	ck_assert_int_eq(q.ntiles, 1);
	ck_assert(q.tile[0].key == gram_key(cp, 1));
	ck_assert(!gram_is_tri(q.tile[0].key));
	ck_assert_int_eq(gram_plan("貓ab", &q), 0);
	gram_chain(&q);
	ck_assert_int_eq(q.ntiles, 1);
	ck_assert(q.tile[0].key == gram_key(cp, 3));
	ck_assert(gram_is_tri(q.tile[0].key));
	/* Every trigram of a longer query; tiles from the first to the
	 * last, fewest when all cost alike. */
	ck_assert_int_eq(gram_plan("abcdefgh", &q), 0);
	ck_assert_int_eq(q.nchars, 8);
	ck_assert_int_eq(q.ngrams, 6);
	ck_assert(q.g[5].key == gram_key((const uint32_t[]){ 'f', 'g',
	    'h' }, 3));
	gram_chain(&q);
	ck_assert_int_eq(q.ntiles, 3);
	ck_assert_int_eq(q.tile[0].off, 0);
	ck_assert_int_eq(q.tile[2].off, 5);
	/* Common trigrams are left out where rarer ones cover. */
	for (i = 0; i < q.ngrams; i++)
		q.g[i].poslen = 100000;
	q.g[1].poslen = q.g[4].poslen = 10;
	gram_chain(&q);
	ck_assert_str_eq(tile_offsets(&q), "0,1,4,5");
	q.g[0].poslen = 10;
	q.g[2].poslen = 50000;
	gram_chain(&q);
	ck_assert_str_eq(tile_offsets(&q), "0,1,4,5");
	/* Never a gap: 500 characters, 1 + ceil(497 / 3) tiles. */
	{
		char	 many[501];

		memset(many, 'x', 500);
		many[500] = '\0';
		ck_assert_int_eq(gram_plan(many, &q), 0);
		ck_assert_int_eq(q.ngrams, 498);
		gram_chain(&q);
		ck_assert_int_eq(q.ntiles, 167);
		for (i = 1; i < q.ntiles; i++)
			ck_assert(q.tile[i].off - q.tile[i - 1].off <= 3);
		ck_assert_int_eq(q.tile[q.ntiles - 1].off, 497);
	}
}
END_TEST

/* Whether every three characters of q (ASCII) are somewhere in text. */
static int
all_trigrams_in(const char *q, const char *text)
{
	char	 tri[4];
	size_t	 i;

	for (i = 0; q[i] != '\0' && q[i + 1] != '\0' && q[i + 2] != '\0';
	    i++) {
		if ((q[i] | q[i + 1] | q[i + 2]) & 0x80)
			return 0;
		memcpy(tri, q + i, 3);
		tri[3] = '\0';
		if (strstr(text, tri) == NULL)
			return 0;
	}
	return 1;
}

/*
 * Random texts of few distinct characters (so that every query is
 * found, partly found, or found out of line), fields and all, against
 * the brute force: a query matches a prompt when it is a substring of
 * its search text (no query holds the separator).
 */
START_TEST(grams_find_exactly_the_substrings)
{
	static const char *const alpha[] = { "a", "b", "c", "貓", "夜", " " };
	enum { NDOC = 300 };
	struct gram_build	*gb;
	struct memidx		 ix;
	struct lz_buf		 text[NDOC + 1], q = LZ_BUF_INIT;
	struct pset		 s;
	size_t			 i, k, len, nq;
	long long		 want, lookalikes = 0;

	memset(&ix, 0, sizeof(ix));
	memset(text, 0, sizeof(text));
	gb = gram_build_new();
	/* Id 0 is never a prompt; some ids hold nothing. */
	for (i = 1; i <= NDOC; i++) {
		size_t	 fields = rnd(4);

		while (fields-- > 0) {
			struct lz_buf	 f = LZ_BUF_INIT;

			len = 1 + rnd(i % 10 == 0 ? 200 : 20);
			for (k = 0; k < len; k++)
				lz_buf_puts(&f, alpha[rnd(
				    LZ_NELEM(alpha))]);
			search_field(&text[i], lz_buf_str(&f));
			lz_buf_free(&f);
		}
		gram_build_add(gb, (uint32_t)i, lz_buf_str(&text[i]));
	}
	ck_assert_int_eq(gram_build_each(gb, NDOC + 1, mem_put, &ix), 0);
	gram_build_free(gb);

	for (nq = 0; nq < 3000; nq++) {
		len = 1 + rnd(nq < 2000 ? 8 : 40);
		lz_buf_reset(&q);
		for (k = 0; k < len; k++)
			lz_buf_puts(&q, alpha[rnd(nq % 2 ?
			    3 : LZ_NELEM(alpha))]);
		pset_init(&s, NDOC + 1);
		for (i = 1; i <= NDOC; i++)
			pset_add(&s, i);
		ck_assert_int_eq(gram_match(lz_buf_str(&q), &s,
		    mem_source(&ix)), 0);
		for (i = 0, want = 0; i <= NDOC; i++) {
			int	 in = i > 0 && strstr(lz_buf_str(&text[i]),
			    lz_buf_str(&q)) != NULL;

			/* Not ck_assert per prompt: Check writes down
			 * every assertion's place, and these are many. */
			if (pset_has(&s, i) != in)
				ck_abort_msg("'%s' in %zu '%s': %d",
				    lz_buf_str(&q), i, lz_buf_str(&text[i]),
				    !in);
			want += in;
			if (i > 0 && !in && len >= 4)
				lookalikes += all_trigrams_in(lz_buf_str(&q),
				    lz_buf_str(&text[i]));
		}
		ck_assert_int_eq(pset_count(&s), want);
		pset_free(&s);
	}
	/* Many prompts held every trigram of a query but not the query:
	 * the positions, not the sets, kept them out. */
	ck_assert_int_gt(lookalikes, 1000);
	for (i = 0; i <= NDOC; i++)
		lz_buf_free(&text[i]);
	lz_buf_free(&q);
	mem_free(&ix);
}
END_TEST

START_TEST(damaged_positions_are_refused)
{
	struct gram_build	*gb;
	struct memidx		 ix;
	struct pset		 s;
	size_t			 i;

	memset(&ix, 0, sizeof(ix));
	gb = gram_build_new();
	gram_build_add(gb, 1, "abcdef" SEARCH_SEP);
	gram_build_add(gb, 2, "xabcdefabcd" SEARCH_SEP);
	ck_assert_int_eq(gram_build_each(gb, 3, mem_put, &ix), 0);
	gram_build_free(gb);
	pset_init(&s, 3);
	pset_add(&s, 1);
	pset_add(&s, 2);
	ck_assert_int_eq(gram_match("bcdefa", &s, mem_source(&ix)), 0);
	ck_assert_int_eq(pset_count(&s), 1);
	ck_assert(pset_has(&s, 2));
	/* Cut every position list short. */
	for (i = 0; i < ix.n; i++)
		if (ix.g[i].has_pos)
			ix.g[i].pos.len /= 2;
	pset_add(&s, 1);
	ck_assert_int_eq(gram_match("bcdefa", &s, mem_source(&ix)), -2);
	pset_free(&s);
	mem_free(&ix);
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
	static const uint32_t ecr[] = { 'e', 'c', 'r', 'e' };
	struct import	*m;
	sqlite3		*db;
	sqlite3_stmt	*st;
	json_t		*j;
	char		*path, *dbpath, *errs = NULL;
	char		 err[256];
	size_t		 len;
	int		 i;
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
	ck_assert_int_eq(import_write(m, dbpath, "data.json", lz_now_ms(), NULL,
	    err, sizeof(err)), 0);
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
	/* The stored detail answers (zh and en) of the PRO entry. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT detail, detail_en "
	    "FROM prompt_detail JOIN prompt_text USING (prompt_id) "
	    "WHERE slug = 'pro'", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	for (i = 0; i < 2; i++) {
		const char	*text = (const char *)sqlite3_column_text(st, i);
		json_t		*o = json_loads(text, 0, NULL);

		ck_assert_ptr_nonnull(o);
		ck_assert_ptr_null(strstr(text, "secret"));
		ck_assert_ptr_null(json_object_get(o, "full_prompt"));
		ck_assert_ptr_null(json_object_get(o, "variables"));
		ck_assert_ptr_null(json_object_get(o, "url"));
		ck_assert_str_eq(json_string_value(json_object_get(o,
		    "access")), "preview");
		ck_assert_str_eq(json_string_value(json_object_get(o,
		    "preview")), "first line");
		json_decref(o);
	}
	sqlite3_finalize(st);
	/* Nor any trigram of it in the search index. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM "
	    "gram_docs WHERE key IN (?, ?)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)gram_key(ecr, 3));
	sqlite3_bind_int64(st, 2, (sqlite3_int64)gram_key(ecr + 1, 3));
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	/* Free prompts show an empty list of variables, not none. */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT detail FROM "
	    "prompt_detail JOIN prompt_text USING (prompt_id) "
	    "WHERE slug = 'free'", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	j = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
	ck_assert_int_eq(json_array_size(json_object_get(j, "variables")), 0);
	ck_assert(json_is_array(json_object_get(j, "variables")));
	json_decref(j);
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

/* ---- the answer cache -------------------------------------------------- */

static void
put(const char *key, const char *body)
{
	char	 etag[LZ_ETAG_SIZE];

	lz_resp_etag(body, strlen(body), etag);
	cache_put(key, strlen(key), body, strlen(body), etag);
}

/* 1 when key holds body (with body's ETag), 0 when key is not there. */
static int
holds(const char *key, const char *body)
{
	struct cache_hit	 h;
	char			 etag[LZ_ETAG_SIZE];

	if (!cache_get(key, strlen(key), &h))
		return 0;
	lz_resp_etag(body, strlen(body), etag);
	ck_assert_uint_eq(h.len, strlen(body));
	ck_assert(memcmp(h.body, body, h.len) == 0);
	ck_assert_str_eq(h.etag, etag);
	return 1;
}

START_TEST(cache_keeps_and_forgets)
{
	struct cache_stats	 st;
	char			 key[32], body[64];
	int			 i;

	cache_clear();
	cache_limit(1 << 20);
	ck_assert(!holds("a", "A"));
	put("a", "A");
	put("ab", "AB");
	ck_assert(holds("a", "A"));
	ck_assert(holds("ab", "AB"));
	ck_assert(!holds("b", "B"));
	/* Keys are bytes: a prefix or an embedded NUL is another key. */
	ck_assert(!cache_get("a\0", 2, &(struct cache_hit){ 0 }));
	put("a", "A2");			/* stored again: the newer */
	ck_assert(holds("a", "A2"));
	/* Many entries: the table grows and finds them all. */
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		snprintf(body, sizeof(body), "{\"n\":%d}", i);
		put(key, body);
	}
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		snprintf(body, sizeof(body), "{\"n\":%d}", i);
		ck_assert(holds(key, body));
	}
	cache_stats(&st);
	ck_assert_uint_eq(st.entries, 5002);
	ck_assert_uint_le(st.bytes, st.limit);
	cache_clear();
	cache_stats(&st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.bytes, 0);
	ck_assert(!holds("a", "A2"));
	ck_assert(!holds("k1", "{\"n\":1}"));
}
END_TEST

START_TEST(cache_stays_in_its_bound)
{
	struct cache_stats	 st;
	char			 key[32], big[4096];
	size_t			 one;
	int			 i;

	cache_clear();
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	/* Measure one entry, then allow exactly three. */
	cache_limit(1 << 20);
	put("k0", big);
	cache_stats(&st);
	one = st.bytes;
	cache_clear();
	cache_limit(3 * one);
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		put(key, big);
	}
	ck_assert(holds("k0", big));	/* k0 now the most recently used */
	put("k3", big);			/* k1 goes, the least recently used */
	cache_stats(&st);
	ck_assert_uint_eq(st.entries, 3);
	ck_assert_uint_le(st.bytes, 3 * one);
	ck_assert_uint_eq(st.evicted, 1);
	ck_assert(!holds("k1", big));
	ck_assert(holds("k0", big));
	ck_assert(holds("k2", big));
	ck_assert(holds("k3", big));
	/* A smaller bound drops the oldest at once; an answer larger than
	 * the bound is not kept, and keeps what is there. */
	cache_limit(2 * one);
	cache_stats(&st);
	ck_assert_uint_eq(st.entries, 2);
	ck_assert(!holds("k0", big));
	cache_limit(one - 1);
	cache_stats(&st);
	ck_assert_uint_eq(st.entries, 0);
	put("s", "S");
	put("k4", big);
	ck_assert(!holds("k4", big));
	ck_assert(holds("s", "S"));
	/* 0 keeps nothing. */
	cache_limit(0);
	put("s", "S");
	ck_assert(!holds("s", "S"));
	cache_stats(&st);
	ck_assert_uint_eq(st.bytes, 0);
	ck_assert_uint_gt(st.hits, 0);
	ck_assert_uint_gt(st.misses, 0);
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
	tcase_add_test(tc, sets_round_trip);
	tcase_add_test(tc, damaged_sets_are_refused);
	tcase_add_test(tc, query_plans);
	tcase_add_test(tc, grams_find_exactly_the_substrings);
	tcase_add_test(tc, damaged_positions_are_refused);
	tcase_add_test(tc, value_sets);
	suite_add_tcase(s, tc);

	tc = tcase_create("cache");
	tcase_add_test(tc, cache_keeps_and_forgets);
	tcase_add_test(tc, cache_stays_in_its_bound);
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
