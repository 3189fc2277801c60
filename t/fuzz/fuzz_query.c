/*
 * fuzz_query.c -- query strings as they reach a handler: lz_query_parse()
 * and then lz_params() with a table like the list endpoints'.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "req.h"
#include "utf8.h"
#include "util.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const sorts[] = { "new", "old", "popular", NULL };

static const struct lz_param params[] = {
	{ "limit",	LZ_PT_INT,  1, 100, 20, NULL, 0 },
	{ "offset",	LZ_PT_INT,  0, 1000000, 0, NULL, 0 },
	{ "cursor",	LZ_PT_STR,  1, 200, 0, NULL, 0 },
	{ "q",		LZ_PT_STR,  0, 500, 0, NULL, 0 },
	{ "tag",	LZ_PT_STR,  1, 200, 0, NULL, 0 },
	{ "sort",	LZ_PT_ENUM, 0, 0, 0, sorts, 0 },
	{ "lang",	LZ_PT_ENUM, 0, 0, 0, (const char *const[]){ "zh",
	    "en", NULL }, 0 },
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lz_query	 q;
	struct lz_pval	 v[LZ_NELEM(params)];
	struct lz_verr	 e;
	char		*s;
	size_t		 i, j;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&e, 0, sizeof(e));
	if (lz_query_parse(s, &q, &e) == 0) {
		/* What parsing promises: clean UTF-8, unique names. */
		for (i = 0; i < q.n; i++) {
			if (*q.kv[i].key == '\0' ||
			    lz_utf8_count(q.kv[i].key, strlen(q.kv[i].key),
			    LZ_UTF8_NOCTRL) < 0 ||
			    lz_utf8_count(q.kv[i].val, strlen(q.kv[i].val),
			    LZ_UTF8_NOCTRL) < 0 ||
			    lz_query_get(&q, q.kv[i].key) != q.kv[i].val)
				abort();
			for (j = 0; j < i; j++)
				if (strcmp(q.kv[i].key, q.kv[j].key) == 0)
					abort();
		}
		if (lz_params(&q, params, LZ_NELEM(params), v, &e) == 0) {
			if (v[0].i < 1 || v[0].i > 100 || v[5].i < 0 ||
			    v[5].i > 2)
				abort();
		} else if (e.status != 400 || e.code[0] == '\0')
			abort();
		lz_query_free(&q);
	} else if (e.status != 400 || e.code[0] == '\0' || q.n != 0)
		abort();
	free(s);
	return 0;
}
