/*
 * fuzz_csv.c -- the CSV reader of imports (src/links/import/csv.h) and
 * the header names (csv_column).  Besides memory errors and undefined
 * behaviour it checks that
 *  - a good record has at most CSV_FIELDS fields of at most
 *    CSV_FIELD_MAX bytes each, valid UTF-8; a bad one has none;
 *  - records come with lines that never go back;
 *  - the file read whole and read in chunks of the first byte's size
 *    gives the same records (an import does not depend on how the
 *    bytes arrive).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "import/csv.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct seen {
	crypto_generichash_state	 h;
	long				 line;
};

static void
check(const struct csv_record *r, void *arg)
{
	struct seen	*s = arg;
	size_t		 i, len;

	if (r->line < s->line)
		abort();
	s->line = r->line;
	if (r->bad != NULL && r->nfields != 0)
		abort();
	if (r->nfields > CSV_FIELDS)
		abort();
	crypto_generichash_update(&s->h, (const unsigned char *)&r->line,
	    sizeof(r->line));
	crypto_generichash_update(&s->h, (const unsigned char *)(r->bad ?
	    r->bad : ""), strlen(r->bad ? r->bad : "") + 1);
	for (i = 0; i < r->nfields; i++) {
		len = strlen(r->field[i]);
		if (len > CSV_FIELD_MAX || lz_utf8_count(r->field[i], len,
		    0) < 0)
			abort();
		(void)csv_column(r->field[i]);
		crypto_generichash_update(&s->h,
		    (const unsigned char *)r->field[i], len + 1);
	}
}

static void
read_all(const uint8_t *p, size_t len, size_t chunk, unsigned char out[32])
{
	struct seen	 s;
	struct csv	 c;
	size_t		 i, n;

	memset(&s, 0, sizeof(s));
	crypto_generichash_init(&s.h, NULL, 0, 32);
	csv_init(&c, check, &s);
	for (i = 0; i < len; i += n) {
		n = chunk == 0 || chunk > len - i ? len - i : chunk;
		csv_feed(&c, (const char *)p + i, n);
	}
	csv_end(&c);
	crypto_generichash_final(&s.h, out, 32);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char	 whole[32], parts[32];

	if (size < 1 || size > 65536)
		return 0;
	read_all(data + 1, size - 1, 0, whole);
	read_all(data + 1, size - 1, 1 + data[0] % 16, parts);
	if (memcmp(whole, parts, 32) != 0)
		abort();
	return 0;
}
