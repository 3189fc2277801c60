/*
 * fuzz_search.c -- what lz-prompts makes of a search or filter value
 * (search.c): the case folding of q, the normal forms of tag and tool
 * names; and literal search itself (grams.c): valid text read as
 * "query|prompt|prompt...", each prompt's fields split at '/', is
 * indexed and searched, and the answer must be the prompts whose text
 * holds the query.  The values reach them after query parsing (valid
 * UTF-8, no controls), but nothing may break on any bytes.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/prompts/grams.h"
#include "../../src/prompts/search.h"
#include "utf8.h"
#include "util.h"
#include "../memgrams.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAXDOCS	64

/* Indexes "query|prompt|..." (folded) and checks the answer. */
static void
search(const char *f)
{
	struct gram_build	*gb;
	struct memidx		 ix;
	struct lz_buf		 text[MAXDOCS + 1];
	struct pset		 s;
	const char		*p, *bar, *slash, *end;
	char			*q;
	size_t			 n = 0, i;

	if ((bar = strchr(f, '|')) == NULL || bar == f)
		return;
	q = xstrndup(f, (size_t)(bar - f));
	memset(text, 0, sizeof(text));
	memset(&ix, 0, sizeof(ix));
	gb = gram_build_new();
	for (p = bar + 1; n < MAXDOCS; p = end + 1) {
		char	*field;

		n++;
		if ((end = strchr(p, '|')) == NULL)
			end = p + strlen(p);
		while (p < end) {
			if ((slash = memchr(p, '/', (size_t)(end - p))) == NULL)
				slash = end;
			field = xstrndup(p, (size_t)(slash - p));
			search_field(&text[n], field);
			free(field);
			p = slash < end ? slash + 1 : end;
		}
		gram_build_add(gb, (uint32_t)n, lz_buf_str(&text[n]));
		if (*end == '\0')
			break;
	}
	if (gram_build_each(gb, n + 1, mem_put, &ix) != 0)
		abort();
	gram_build_free(gb);
	pset_init(&s, n + 1);
	for (i = 1; i <= n; i++)
		pset_add(&s, i);
	if (gram_match(q, &s, mem_source(&ix)) != 0)
		abort();
	for (i = 0; i <= n; i++) {
		if (pset_has(&s, i) != (i > 0 && strstr(lz_buf_str(&text[i]),
		    q) != NULL))
			abort();
		lz_buf_free(&text[i]);
	}
	pset_free(&s);
	mem_free(&ix);
	free(q);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*s, *f, *ff, *t, *tt;
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

	/* Literal search: exactly the prompts holding the query. */
	if (valid)
		search(f);
	free(f);
	free(s);
	return 0;
}
