/*
 * fuzz_search.c -- what lz-prompts makes of a search or filter value
 * (search.c): the case folding of q, the normal forms of tag and tool
 * names, and the quoting of an FTS5 phrase.  The values reach them after
 * query parsing (valid UTF-8, no controls), but nothing may break on any
 * bytes.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/prompts/search.h"
#include "utf8.h"
#include "util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	char		*s, *f, *ff, *t, *tt;
	const char	*p;
	long		 n;
	int		 valid;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	n = lz_utf8_count(s, strlen(s), LZ_UTF8_NOCTRL);
	valid = n >= 0;

	/* Folding: valid text stays valid, keeps its length in
	 * characters, and folding again changes nothing. */
	f = search_fold_dup(s);
	if (valid) {
		if (lz_utf8_count(f, strlen(f), LZ_UTF8_NOCTRL) != n)
			abort();
		ff = search_fold_dup(f);
		if (strcmp(f, ff) != 0)
			abort();
		free(ff);
	}

	/* Tag names: a fixed point with no separators at the ends, no
	 * runs of them, no spaces or '_'. */
	if ((t = search_tag_name(s)) != NULL) {
		if (!valid || *t == '\0' || *t == '-' ||
		    t[strlen(t) - 1] == '-' || strstr(t, "--") != NULL ||
		    strpbrk(t, " _") != NULL)
			abort();
		if ((tt = search_tag_name(t)) == NULL || strcmp(t, tt) != 0)
			abort();
		free(tt);
		free(t);
	}

	/* Tool names: lower-case ASCII of the allowed characters only. */
	if ((t = search_tool_name(s)) != NULL) {
		if (strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789._-") !=
		    strlen(t) || strlen(t) != strlen(s))
			abort();
		free(t);
	}

	/* A phrase: quoted, every inner quote doubled, so FTS5 reads the
	 * whole value as one string. */
	search_phrase(&b, f);
	p = lz_buf_str(&b);
	if (b.len < 2 || p[0] != '"' || p[b.len - 1] != '"')
		abort();
	for (p = p + 1; p < b.p + b.len - 1; p++)
		if (*p == '"' && *++p != '"')
			abort();
	lz_buf_free(&b);
	free(f);
	free(s);
	return 0;
}
