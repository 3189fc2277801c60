/*
 * grams_build.c -- building the search index, for "lzctl prompts
 * import" (grams.h).
 */
#include "config.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "grams.h"
#include "search.h"
#include "util.h"
#include "varint.h"

/* ---- the build ----------------------------------------------------------- */

struct gent {
	uint64_t	 key;
	int64_t		 prev;		/* the last prompt added, -1 none */
	long long	 ndocs;
	struct lz_buf	 docs;		/* varint deltas of the ids */
	struct lz_buf	 pos;		/* trigrams: position records */
	uint32_t	*pend;		/* trigrams: positions in prompt prev */
	size_t		 npend, cappend;
};

struct gram_build {
	struct gent	*e;
	size_t		 n, cap;
	uint32_t	*slot;		/* open addressing: entry + 1, 0 free */
	size_t		 nslot;		/* a power of two */
	size_t		*touched;	/* trigrams of the prompt being added */
	size_t		 ntouched, captouched;
	struct lz_buf	 rec;
};

static size_t
slot_of(uint64_t key, size_t nslot)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 24) & (nslot - 1);
}

struct gram_build *
gram_build_new(void)
{
	struct gram_build	*b = xcalloc(1, sizeof(*b));

	b->nslot = 1024;
	b->slot = xcalloc(b->nslot, sizeof(*b->slot));
	return b;
}

void
gram_build_free(struct gram_build *b)
{
	size_t	 i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++) {
		lz_buf_free(&b->e[i].docs);
		lz_buf_free(&b->e[i].pos);
		free(b->e[i].pend);
	}
	free(b->e);
	free(b->slot);
	free(b->touched);
	lz_buf_free(&b->rec);
	free(b);
}

static void
rehash(struct gram_build *b)
{
	size_t	 i, s;

	free(b->slot);
	b->nslot *= 2;
	b->slot = xcalloc(b->nslot, sizeof(*b->slot));
	for (i = 0; i < b->n; i++) {
		for (s = slot_of(b->e[i].key, b->nslot); b->slot[s] != 0;
		    s = (s + 1) & (b->nslot - 1))
			;
		b->slot[s] = (uint32_t)(i + 1);
	}
}

/* The index of key's entry, made when new. */
static size_t
entry(struct gram_build *b, uint64_t key)
{
	size_t	 s;

	for (s = slot_of(key, b->nslot); b->slot[s] != 0;
	    s = (s + 1) & (b->nslot - 1))
		if (b->e[b->slot[s] - 1].key == key)
			return b->slot[s] - 1;
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 1024;
		b->e = xreallocarray(b->e, b->cap, sizeof(*b->e));
	}
	memset(&b->e[b->n], 0, sizeof(b->e[b->n]));
	b->e[b->n].key = key;
	b->e[b->n].prev = -1;
	b->slot[s] = (uint32_t)(b->n + 1);
	if (++b->n * 2 > b->nslot)
		rehash(b);
	return b->n - 1;
}

void
gram_build_add(struct gram_build *b, uint32_t id, const char *folded)
{
	struct gent	*e;
	uint32_t	*cp;
	uint64_t	 prev;
	size_t		 n, i, len, k, x;

	cp = search_chars(folded, &n);
	for (i = 0; i < n; i++)
		for (len = 1; len <= 3 && i + len <= n; len++) {
			if (cp[i + len - 1] == SEARCH_SEP_CHAR ||
			    cp[i + len - 1] == 0)
				break;
			x = entry(b, gram_key(cp + i, len));
			e = &b->e[x];
			if (e->prev != (int64_t)id) {
				put_var(&e->docs, id - (e->prev < 0 ? 0 :
				    (uint64_t)e->prev));
				e->prev = id;
				e->ndocs++;
				if (len == 3) {
					if (b->ntouched == b->captouched) {
						b->captouched = b->captouched ?
						    b->captouched * 2 : 256;
						b->touched = xreallocarray(
						    b->touched, b->captouched,
						    sizeof(*b->touched));
					}
					b->touched[b->ntouched++] = x;
				}
			}
			if (len == 3) {
				if (e->npend == e->cappend) {
					e->cappend = e->cappend ?
					    e->cappend * 2 : 4;
					e->pend = xreallocarray(e->pend,
					    e->cappend, sizeof(*e->pend));
				}
				e->pend[e->npend++] = (uint32_t)i;
			}
		}
	for (k = 0; k < b->ntouched; k++) {
		e = &b->e[b->touched[k]];
		lz_buf_reset(&b->rec);
		for (i = 0, prev = 0; i < e->npend; i++) {
			put_var(&b->rec, e->pend[i] - prev);
			prev = e->pend[i];
		}
		put_var(&e->pos, b->rec.len);
		lz_buf_add(&e->pos, b->rec.p, b->rec.len);
		e->npend = 0;
	}
	b->ntouched = 0;
	free(cp);
}

/* The stored positions of e into b: the skip list, then the records. */
static void
skip_list(const struct gent *e, struct lz_buf *b)
{
	const uint8_t	*p = (const uint8_t *)e->pos.p, *end = p + e->pos.len;
	uint64_t	 len;
	uint32_t	 off;
	long long	 r;

	lz_buf_reset(b);
	for (r = 0; p < end && get_var(&p, end, &len) == 0; r++) {
		if (r % GRAM_SKIP == 0) {
			off = htole32((uint32_t)(p - (const uint8_t *)e->pos.p -
			    (ptrdiff_t)var_len(len)));
			lz_buf_add(b, &off, sizeof(off));
		}
		p += len;
	}
	lz_buf_add(b, e->pos.p, e->pos.len);
}

static int
gent_by_key(const void *a, const void *b)
{
	const struct gent	*x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

int
gram_build_each(struct gram_build *b, size_t nbits,
    int (*fn)(void *, uint64_t, long long, const void *, size_t, const void *,
    size_t), void *arg)
{
	struct lz_buf	 docs = LZ_BUF_INIT, pos = LZ_BUF_INIT;
	const uint8_t	*p, *end;
	uint32_t	*ids = NULL;
	uint64_t	 d, id;
	size_t		 i, k;
	int		 rc = 0;

	/* Nothing is looked up any more: the entries are sorted in place. */
	if (b->n > 1)
		qsort(b->e, b->n, sizeof(*b->e), gent_by_key);
	memset(b->slot, 0, b->nslot * sizeof(*b->slot));
	for (i = 0; i < b->n && rc == 0; i++) {
		struct gent	*e = &b->e[i];

		ids = xreallocarray(ids, (size_t)e->ndocs + 1, sizeof(*ids));
		p = (const uint8_t *)e->docs.p;
		end = p + e->docs.len;
		for (k = 0, id = 0; p < end && get_var(&p, end, &d) == 0; k++)
			ids[k] = (uint32_t)(id += d);
		lz_buf_reset(&docs);
		pset_encode(&docs, ids, k, nbits);
		if (gram_is_tri(e->key))
			skip_list(e, &pos);
		rc = fn(arg, e->key, e->ndocs, docs.p, docs.len,
		    gram_is_tri(e->key) ? pos.p : NULL,
		    gram_is_tri(e->key) ? pos.len : 0);
		lz_buf_free(&e->docs);
		lz_buf_free(&e->pos);
	}
	free(ids);
	lz_buf_free(&docs);
	lz_buf_free(&pos);
	return rc;
}
