/*
 * fuzz_canon.c -- libFuzzer harness for the Safe Browsing canonicaliser
 * (src/links/canon.c) and what the safety scan derives from its output:
 * lookup expressions, parent domains, IDN label checks (ICU) and the
 * heuristics of safety_scan without a database.
 *
 * Besides memory errors and undefined behaviour (build with
 * -fsanitize=fuzzer,address,undefined) it checks the properties the
 * blocklist matching relies on:
 *  - the canonical URL is printable ASCII: no byte <= 0x20 or >= 0x7f,
 *    no '#', and every '%' starts an escape;
 *  - the host is lower case, without leading, trailing or double dots;
 *  - the path starts with '/', has no "//" and no "." or ".." segment;
 *  - an IPv4 host is a dotted quad inet_pton accepts;
 *  - canonicalising a clean canonical URL again gives the same URL
 *    (when it is within CANON_INPUT_MAX: escapes make it longer);
 *  - at most CANON_EXPR_MAX expressions, each (for a valid host name)
 *    starting with a suffix of the host followed by '/'.
 *
 * Seeds: t/fuzz/corpus/fuzz_canon/ (the Safe Browsing examples, IP and
 * IDN forms, and inputs of past findings); dictionary fuzz_canon.dict.
 * "make check" runs it briefly, "make fuzz" longer (t/fuzz/run.sh).
 */
#include "config.h"

#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/canon.h"
#include "safety/idn.h"
#include "safety/scan.h"
#include "util.h"

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_canon: %s:%d: %s\n", __FILE__,	\
		    __LINE__, #cond);					\
		abort();						\
	}								\
} while (0)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
hex(int ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'F');
}

static void
check_escaped(const char *s)
{
	for (; *s; s++) {
		CHECK((unsigned char)*s > 0x20 && (unsigned char)*s < 0x7f);
		CHECK(*s != '#');
		if (*s == '%')
			CHECK(hex(s[1]) && hex(s[2]));
	}
}

static void
check_path(const char *p)
{
	const char	*seg, *end;

	CHECK(p[0] == '/');
	CHECK(strstr(p, "//") == NULL);
	for (seg = p + 1; *seg; seg = *end ? end + 1 : end) {
		if ((end = strchr(seg, '/')) == NULL)
			end = seg + strlen(seg);
		CHECK(!(end - seg == 1 && seg[0] == '.'));
		CHECK(!(end - seg == 2 && seg[0] == '.' && seg[1] == '.'));
	}
}

static void
check_host(const struct canon *c)
{
	struct in_addr	 in;
	const char	*h = c->host;
	size_t		 n = strlen(h);

	CHECK(n > 0);
	CHECK(h[0] != '.' && h[n - 1] != '.');
	CHECK(strstr(h, "..") == NULL);
	/* Upper case only in the hex digits of escapes. */
	for (; *h; h++)
		if (*h == '%')
			h += 2;
		else
			CHECK(!(*h >= 'A' && *h <= 'Z'));
	if (c->flags & CANON_IPV4)
		CHECK(inet_pton(AF_INET, c->host, &in) == 1);
}

static void
check_expressions(const struct canon *c)
{
	char		*out[CANON_EXPR_MAX];
	const char	*parents[16];
	size_t		 n, i, hl = strlen(c->host), sl;
	const char	*slash;

	n = canon_expressions(c, out);
	CHECK(n >= 1 && n <= CANON_EXPR_MAX);
	/* A host with an unescaped '/' (from "%2f") is refused by the scan
	 * and skipped by imports; only clean hosts split at the first '/'. */
	for (i = 0; i < n && !(c->flags & CANON_HOST_BAD); i++) {
		CHECK((slash = strchr(out[i], '/')) != NULL);
		sl = (size_t)(slash - out[i]);
		CHECK(sl <= hl && memcmp(out[i], c->host + hl - sl, sl) == 0);
	}
	lz_strs_free(out, n);
	n = canon_host_parents(c->host, c->flags, parents, 16);
	CHECK(n >= 1 && parents[0] == c->host);
	for (i = 1; i < n; i++)
		CHECK(canon_host_within(c->host, parents[i]));
}

static void
check_labels(const struct canon *c)
{
	const char	*label, *end;
	char		 why[512];

	if (!(c->flags & CANON_IDN))
		return;
	for (label = c->host; *label; label = *end ? end + 1 : end) {
		if ((end = strchr(label, '.')) == NULL)
			end = label + strlen(label);
		(void)idn_label_check(label, (size_t)(end - label), why,
		    sizeof(why));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct canon	 c, d;
	char		*s, why[512];
	int		 rc;

	if (canon_url((const char *)data, size, &c) == 0) {
		CHECK(c.url && c.host && c.path);
		check_escaped(c.url);
		check_path(c.path);
		check_host(&c);
		check_expressions(&c);
		check_labels(&c);
		/* Escaping can triple the length: only canonical URLs
		 * within the input limit can be read back. */
		if (!(c.flags & (CANON_HOST_BAD | CANON_IDN_BAD |
		    CANON_USERINFO | CANON_BACKSLASH | CANON_BAD_PORT)) &&
		    strchr(c.path, '?') == NULL &&
		    strlen(c.url) <= CANON_INPUT_MAX) {
			CHECK(canon_url(c.url, strlen(c.url), &d) == 0);
			if (strcmp(c.url, d.url) != 0) {
				fprintf(stderr, "not idempotent:\n  %s\n  %s\n",
				    c.url, d.url);
				abort();
			}
			canon_free(&d);
		}
		canon_free(&c);
	}

	/* The whole scan, as dest_check runs it (no database). */
	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	rc = safety_scan(NULL, NULL, s, why, sizeof(why));
	CHECK(rc == 0 || rc == 1);
	CHECK(rc == 0 || why[0] != '\0');
	free(s);
	return 0;
}
