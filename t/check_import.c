/*
 * check_import.c -- the CSV reader of imports (src/links/import/csv.h):
 * RFC 4180's quoting, ',' or ';' as the header says, CRLF and LF, a BOM
 * (also cut between chunks), lines of records spread over several,
 * every chunking of a file read the same, bad records reported with
 * their line and skipped whole; the columns' names.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "import/csv.h"
#include "util.h"

/* The records read, as "line|bad|f1|f2|...\n". */
static struct lz_buf	 got;

static void
keep(const struct csv_record *r, void *arg)
{
	size_t	 i;

	(void)arg;
	lz_buf_printf(&got, "%ld|%s", r->line, r->bad ? r->bad : "");
	for (i = 0; i < r->nfields; i++)
		lz_buf_printf(&got, "|%s", r->field[i]);
	lz_buf_putc(&got, '\n');
}

/* What text reads to, fed chunk bytes at a time (0: whole). */
static char *
read_csv(const char *text, size_t len, size_t chunk)
{
	struct csv	 c;
	size_t		 i, n;

	lz_buf_reset(&got);
	csv_init(&c, keep, NULL);
	for (i = 0; i < len; i += n) {
		n = chunk == 0 || chunk > len - i ? len - i : chunk;
		csv_feed(&c, text + i, n);
	}
	csv_end(&c);
	return xstrdup(lz_buf_str(&got));
}

static void
same(const char *text, const char *want)
{
	size_t	 chunk;
	char	*s;

	for (chunk = 0; chunk <= 7; chunk++) {
		s = read_csv(text, strlen(text), chunk);
		ck_assert_msg(strcmp(s, want) == 0, "chunks of %zu:\n%s\nwant\n"
		    "%s", chunk, s, want);
		free(s);
	}
}

START_TEST(quoting_and_lines)
{
	same("url,title\r\nhttps://a/,\"x, \"\"y\"\"\"\r\n\r\n"
	    "https://b/,\"two\nlines\"\nhttps://c/,",
	    "1||url|title\n2||https://a/|x, \"y\"\n"
	    "4||https://b/|two\nlines\n6||https://c/|\n");
}
END_TEST

START_TEST(semicolons_and_bom)
{
	same("\xef\xbb\xbfurl;tags\nhttps://a/;a,b\n",
	    "1||url|tags\n2||https://a/|a,b\n");
	/* A BOM begun, then not: its bytes are text (here not UTF-8). */
	same("\xef\xbburl\nx\n", "1|not UTF-8\n2||x\n");
	same("\xef\xbb\xbf\xef\xbb\xbfu\n", "1||\xef\xbb\xbfu\n");
}
END_TEST

START_TEST(bad_records)
{
	same("url,t\na\"b,c\n\"x\"y,z\nok,1\n\"open",
	    "1||url|t\n2|a quote inside an unquoted field\n"
	    "3|text after a closing quote\n4||ok|1\n"
	    "5|a quoted field never closed\n");
	same("url\n\xff\xfe\n", "1||url\n2|not UTF-8\n");
}
END_TEST

START_TEST(limits)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	char		*s;
	int		 i;

	lz_buf_puts(&b, "a\n");
	for (i = 0; i < 70; i++)
		lz_buf_puts(&b, "x,");
	lz_buf_puts(&b, "\n");
	for (i = 0; i < 9000; i++)
		lz_buf_putc(&b, 'y');
	lz_buf_puts(&b, "\nlast\n");
	s = read_csv(b.p, b.len, 0);
	ck_assert_str_eq(s, "1||a\n2|more than 64 fields\n"
	    "3|a field longer than 8192 bytes\n4||last\n");
	free(s);
	lz_buf_free(&b);
}
END_TEST

START_TEST(columns)
{
	ck_assert_int_eq(csv_column("Long URL"), CSV_URL);
	ck_assert_int_eq(csv_column("long_url"), CSV_URL);
	ck_assert_int_eq(csv_column("URL"), CSV_URL);
	ck_assert_int_eq(csv_column("Short code"), CSV_SLUG);
	ck_assert_int_eq(csv_column("keyword"), CSV_SLUG);
	ck_assert_int_eq(csv_column("Date created"), CSV_CREATED);
	ck_assert_int_eq(csv_column("createdAt"), CSV_CREATED);
	ck_assert_int_eq(csv_column("Short URL"), CSV_SHORT_URL);
	ck_assert_int_eq(csv_column("max_clicks"), CSV_MAX_CLICKS);
	ck_assert_int_eq(csv_column("Visits"), -1);
	ck_assert_int_eq(csv_column(""), -1);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("import");
	TCase	*tc = tcase_create("csv");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, quoting_and_lines);
	tcase_add_test(tc, semicolons_and_bom);
	tcase_add_test(tc, bad_records);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, columns);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	lz_buf_free(&got);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
