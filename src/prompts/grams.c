/*
 * grams.c -- the search index: sets of prompts, grams, query plans and
 * verification (grams.h); grams_build.c builds it.
 */
#include "config.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "grams.h"
#include "search.h"
#include "util.h"
#include "varint.h"

/* ---- stored sets ------------------------------------------------------- */

/* Walks a stored set in ascending order. */
struct siter {
	const uint8_t	*p, *end;
	int		 bits;		/* bitset, else varints */
	size_t		 wi, nw;
	uint64_t	 word;		/* bits of word wi not yet given */
	uint64_t	 id;		/* the last id given */
	int		 started;
};

static int
siter_init(struct siter *it, const uint8_t *s, size_t len, size_t nw)
{
	memset(it, 0, sizeof(*it));
	if (s == NULL || len < 1)
		return -1;
	it->p = s + 1;
	it->end = s + len;
	it->nw = nw;
	if (s[0] == 'b') {
		if (len - 1 != nw * 8)
			return -1;
		it->bits = 1;
		it->word = nw > 0 ? load64(it->p) : 0;
		return 0;
	}
	return s[0] == 'v' ? 0 : -1;
}

/* The next id: 1 with *id, 0 at the end, -1 when the set is damaged. */
static inline int
siter_next(struct siter *it, uint64_t *id)
{
	uint64_t	 d;

	if (it->bits) {
		while (it->word == 0) {
			if (it->wi + 1 >= it->nw)
				return 0;
			it->wi++;
			it->word = load64(it->p + 8 * it->wi);
		}
		*id = it->wi * 64 + (uint64_t)__builtin_ctzll(it->word);
		it->word &= it->word - 1;
		return 1;
	}
	if (it->p == it->end)
		return 0;
	if (get_var(&it->p, it->end, &d) == -1 || (it->started && d == 0) ||
	    d >= it->nw * 64 - it->id)
		return -1;
	it->id += d;
	it->started = 1;
	*id = it->id;
	return 1;
}

void
pset_init(struct pset *s, size_t nbits)
{
	s->nw = (nbits + 63) / 64;
	s->w = xcalloc(s->nw ? s->nw : 1, sizeof(*s->w));
}

void
pset_free(struct pset *s)
{
	free(s->w);
	s->w = NULL;
	s->nw = 0;
}

int
pset_load(struct pset *s, const void *stored, size_t len)
{
	struct siter	 it;
	uint64_t	 id;
	size_t		 i;
	int		 rc;

	pset_clear(s);
	if (siter_init(&it, stored, len, s->nw) == -1)
		return -1;
	if (it.bits) {
		for (i = 0; i < s->nw; i++)
			s->w[i] = load64(it.p + 8 * i);
		return 0;
	}
	while ((rc = siter_next(&it, &id)) == 1)
		s->w[id / 64] |= (uint64_t)1 << (id % 64);
	if (rc == -1) {
		pset_clear(s);
		return -1;
	}
	return 0;
}

int
pset_and_stored(struct pset *s, const void *stored, size_t len)
{
	struct pset	 t;
	int		 rc;

	pset_init(&t, s->nw * 64);
	if ((rc = pset_load(&t, stored, len)) == 0)
		pset_and(s, &t);
	else
		pset_clear(s);
	pset_free(&t);
	return rc;
}

void
pset_and(struct pset *s, const struct pset *o)
{
	size_t	 i;

	for (i = 0; i < s->nw; i++)
		s->w[i] &= i < o->nw ? o->w[i] : 0;
}

void
pset_clear(struct pset *s)
{
	memset(s->w, 0, s->nw * sizeof(*s->w));
}

void
pset_add(struct pset *s, uint64_t id)
{
	if (id / 64 < s->nw)
		s->w[id / 64] |= (uint64_t)1 << (id % 64);
}

int
pset_has(const struct pset *s, uint64_t id)
{
	return id / 64 < s->nw && (s->w[id / 64] >> (id % 64) & 1);
}

int
pset_empty(const struct pset *s)
{
	size_t	 i;

	for (i = 0; i < s->nw; i++)
		if (s->w[i] != 0)
			return 0;
	return 1;
}

long long
pset_count(const struct pset *s)
{
	long long	 n = 0;
	size_t		 i;

	for (i = 0; i < s->nw; i++)
		n += popcount64(s->w[i]);
	return n;
}

long
pset_page(const struct pset *s, long long offset, long limit, int64_t *ids)
{
	uint64_t	 w;
	long		 n = 0;
	int		 c;
	size_t		 i;

	for (i = 0; i < s->nw && n < limit; i++) {
		if ((w = s->w[i]) == 0)
			continue;
		if (offset > 0) {
			if (offset >= (c = popcount64(w))) {
				offset -= c;
				continue;
			}
			for (; offset > 0; offset--)
				w &= w - 1;
		}
		for (; w != 0 && n < limit; w &= w - 1)
			ids[n++] = (int64_t)(i * 64 +
			    (size_t)__builtin_ctzll(w));
	}
	return n;
}

void
pset_encode(struct lz_buf *b, const uint32_t *ids, size_t n, size_t nbits)
{
	struct lz_buf	 v = LZ_BUF_INIT;
	uint64_t	 w, prev = 0;
	size_t		 nw = (nbits + 63) / 64, i, k;

	for (i = 0; i < n; i++) {
		put_var(&v, ids[i] - prev);
		prev = ids[i];
	}
	if (v.len <= nw * 8) {
		lz_buf_putc(b, 'v');
		lz_buf_add(b, v.p, v.len);
	} else {
		lz_buf_putc(b, 'b');
		for (i = 0, k = 0; i < nw; i++) {
			for (w = 0; k < n && ids[k] / 64 == i; k++)
				w |= (uint64_t)1 << (ids[k] % 64);
			w = htole64(w);
			lz_buf_add(b, &w, sizeof(w));
		}
	}
	lz_buf_free(&v);
}

/* ---- grams and query plans ----------------------------------------------- */

uint64_t
gram_key(const uint32_t *cp, size_t n)
{
	uint64_t	 key = 0;
	size_t		 i;

	for (i = 0; i < n && i < 3; i++)
		key |= (uint64_t)(cp[i] & 0x1fffff) << (21 * i);
	return key;
}

int
gram_is_tri(uint64_t key)
{
	return (key >> 42) != 0;
}

int
gram_plan(const char *folded, struct gram_query *q)
{
	uint32_t	*cp;
	size_t		 n, i;
	int		 rc = -1;

	memset(q, 0, sizeof(*q));
	cp = search_chars(folded, &n);
	if (n == 0 || n > GRAM_QUERY_MAX)
		goto out;
	for (i = 0; i < n; i++)
		if (cp[i] == 0 || cp[i] == SEARCH_SEP_CHAR || cp[i] > 0x10ffff)
			goto out;
	q->nchars = n;
	if (n <= 3)
		q->g[q->ngrams++].key = gram_key(cp, n);
	else
		for (i = 0; i + 3 <= n; i++) {
			q->g[q->ngrams].key = gram_key(cp + i, 3);
			q->g[q->ngrams++].off = (uint32_t)i;
		}
	rc = 0;
out:
	free(cp);
	return rc;
}

void
gram_chain(struct gram_query *q)
{
	uint64_t	 best[GRAM_QUERY_MAX], cost;
	size_t		 from[GRAM_QUERY_MAX], i, j, n;

	q->ntiles = 0;
	if (q->ngrams == 0)
		return;
	/* best[i]: the cheapest chain from gram 0 to gram i (costs are
	 * bounded, so no sum overflows whatever the index says). */
	for (i = 0; i < q->ngrams; i++) {
		cost = (q->g[i].poslen < ((size_t)1 << 40) ? q->g[i].poslen :
		    ((size_t)1 << 40)) + GRAM_TILE_COST;
		from[i] = i;
		best[i] = cost;
		if (i == 0)
			continue;
		best[i] = UINT64_MAX;
		for (j = i > 3 ? i - 3 : 0; j < i; j++)
			if (best[j] + cost < best[i]) {
				best[i] = best[j] + cost;
				from[i] = j;
			}
	}
	for (i = q->ngrams - 1, n = 1; from[i] != i; i = from[i])
		n++;
	q->ntiles = n;
	for (i = q->ngrams - 1; ; i = from[i]) {
		q->tile[--n] = q->g[i];
		if (from[i] == i)
			break;
	}
}

/* ---- verification ------------------------------------------------------- */

/* Bytes of stored positions read at a time. */
#define WINDOW		4096

/* Positions, or the starts of the query a prompt's positions allow. */
struct ints {
	int64_t		*v;
	size_t		 n, cap;
};

/* A tile's set and position records, walked in step with the candidates:
 * the rank of a candidate in the set is the number of its record, found
 * through the skip list from the record last read.  The positions are
 * read a window at a time. */
struct cursor {
	const struct gram_tile	*t;
	const struct gram_source *src;
	const uint8_t	*bits;		/* a bitset set's words, or NULL */
	uint32_t	*before;	/* bitset: ids in the words before */
	uint32_t	*ids;		/* a varint set's ids */
	size_t		 nids, k;	/* ids[k]: the next one to look at */
	uint32_t	*skip;		/* the skip list */
	size_t		 nskip;
	size_t		 rec0;		/* where the records start */
	uint64_t	 r;		/* the record at p */
	uint8_t		*win;		/* [wlo, wlo + (wend - win)) */
	const uint8_t	*p, *wend;
	size_t		 wlo, wcap;
	uint64_t	 d;		/* the prompt of at[] (+1; 0 none) */
	struct ints	 at;		/* its positions of the trigram */
};

static void
cur_free(struct cursor *c)
{
	free(c->before);
	free(c->ids);
	free(c->skip);
	free(c->win);
	free(c->at.v);
}

/* Where p is in the positions. */
static inline size_t
cur_off(const struct cursor *c, const uint8_t *p)
{
	return c->wlo + (size_t)(p - c->win);
}

/* Moves to off (within the positions), reading a window from there
 * holding at least n bytes unless it is there already; 0, -1. */
static int
cur_goto(struct cursor *c, size_t off, size_t n)
{
	size_t	 want;

	if (off >= c->wlo && off - c->wlo <= (size_t)(c->wend - c->win) &&
	    n <= (size_t)(c->wend - c->win) - (off - c->wlo)) {
		c->p = c->win + (off - c->wlo);
		return 0;
	}
	want = n > WINDOW ? n : WINDOW;
	if (want > c->t->poslen - off)
		want = c->t->poslen - off;
	if (want > c->wcap) {
		free(c->win);
		c->win = xmalloc(c->wcap = want);
	}
	c->wlo = off;
	c->p = c->wend = c->win;
	if (want > 0 && c->src->pos_read(c->src->arg, c->t, c->win, want,
	    off) == -1)
		return -1;
	c->wend = c->win + want;
	return 0;
}

/* The record at p into [*rec, *rec + *len), moving past it (rec may be
 * NULL to skip it); 0, -1, -2. */
static inline int
cur_record(struct cursor *c, const uint8_t **rec, size_t *len)
{
	const uint8_t	*q;
	uint64_t	 n;
	size_t		 off;

	if (c->wend - c->p < 10 && cur_off(c, c->wend) < c->t->poslen &&
	    cur_goto(c, cur_off(c, c->p), 10) == -1)
		return -1;
	q = c->p;
	if (get_var(&q, c->wend, &n) == -1)
		return -2;
	off = cur_off(c, q);
	if (n > c->t->poslen - off)
		return -2;
	if (rec == NULL) {
		if (n <= (uint64_t)(c->wend - q))
			c->p = q + n;
		else if (cur_goto(c, off + (size_t)n, 0) == -1)
			return -1;
		c->r++;
		return 0;
	}
	if (n > (uint64_t)(c->wend - q)) {
		if (cur_goto(c, off, (size_t)n) == -1)
			return -1;
		q = c->p;
	}
	*rec = q;
	*len = (size_t)n;
	c->p = q + n;
	c->r++;
	return 0;
}

/* Sets c up for tile t, with sets of nw words; 0, -1, -2. */
static int
cur_init(struct cursor *c, const struct gram_tile *t, size_t nw,
    const struct gram_source *src)
{
	struct siter	 it;
	uint64_t	 id, n = 0;
	size_t		 i;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->src = src;
	if (t->ndocs < 0 || siter_init(&it, t->docs, t->docslen, nw) == -1)
		return -2;
	if (it.bits) {
		c->bits = it.p;
		c->before = xcalloc(nw + 1, sizeof(*c->before));
		for (i = 0; i < nw; i++) {
			c->before[i] = (uint32_t)n;
			n += (uint64_t)popcount64(load64(c->bits + 8 * i));
		}
	} else {
		c->ids = xcalloc((size_t)t->ndocs + 1, sizeof(*c->ids));
		while (n < (uint64_t)t->ndocs + 1 && siter_next(&it, &id) == 1)
			c->ids[n++] = (uint32_t)id;
		c->nids = (size_t)n;
	}
	if (n != (uint64_t)t->ndocs)
		return -2;
	c->nskip = (size_t)((n + GRAM_SKIP - 1) / GRAM_SKIP);
	if (t->poslen < 4 * c->nskip)
		return -2;
	c->skip = xcalloc(c->nskip + 1, sizeof(*c->skip));
	if (c->nskip > 0 && src->pos_read(src->arg, t, c->skip, 4 * c->nskip,
	    0) == -1)
		return -1;
	for (i = 0; i < c->nskip; i++)
		if ((c->skip[i] = le32toh(c->skip[i])) > t->poslen -
		    4 * c->nskip)
			return -2;
	c->rec0 = 4 * c->nskip;
	return cur_goto(c, c->rec0, 0);
}

/* The record of prompt d into [*rec, *rec + *len), valid until c is used
 * again: 1, 0 when d is not in the tile's set, -1, -2. */
static inline int
cur_seek(struct cursor *c, uint64_t d, const uint8_t **rec, size_t *len)
{
	uint64_t	 r, w;
	int		 rc;

	if (c->bits != NULL) {
		w = load64(c->bits + 8 * (d / 64));
		if ((w >> (d % 64) & 1) == 0)
			return 0;
		r = c->before[d / 64] + (uint64_t)popcount64(w &
		    (((uint64_t)1 << (d % 64)) - 1));
	} else {
		while (c->k < c->nids && c->ids[c->k] < d)
			c->k++;
		if (c->k == c->nids || c->ids[c->k] != d)
			return 0;
		r = c->k;
	}
	if (r < c->r)		/* candidates come in ascending order */
		return -2;
	if (r / GRAM_SKIP > c->r / GRAM_SKIP) {
		if (cur_goto(c, c->rec0 + c->skip[r / GRAM_SKIP], 0) == -1)
			return -1;
		c->r = r - r % GRAM_SKIP;
	}
	while (c->r < r)
		if ((rc = cur_record(c, NULL, NULL)) != 0)
			return rc;
	if ((rc = cur_record(c, rec, len)) != 0)
		return rc;
	return 1;
}

/* The positions of c's trigram in prompt d into c->at, once per prompt:
 * 1, 0 when d does not hold it, -1, -2. */
static int
cur_positions(struct cursor *c, uint64_t d)
{
	const uint8_t	*p, *end;
	uint64_t	 delta, at;
	int64_t		*v;
	size_t		 len;
	int		 rc;

	if (c->d == d + 1)
		return 1;
	c->d = 0;
	if ((rc = cur_seek(c, d, &p, &len)) != 1)
		return rc;
	if (len > c->at.cap) {		/* at most one position a byte */
		c->at.cap = len;
		c->at.v = xreallocarray(c->at.v, len, sizeof(*c->at.v));
	}
	end = p + len;
	for (v = c->at.v, at = 0; p < end; *v++ = (int64_t)at) {
		if (*p < 0x80)		/* most deltas are under 128 */
			at += *p++;
		else if (get_var(&p, end, &delta) == -1 ||
		    delta > UINT32_MAX)
			return -2;
		else
			at += delta;
	}
	c->at.n = (size_t)(v - c->at.v);
	c->d = d + 1;
	return 1;
}

/* A tile of the chain: its offset in the query, and the cursor of its
 * trigram (tiles of one trigram share one). */
struct link {
	uint32_t	 off;
	struct cursor	*c;
};

/* Fewest positions first: the first tile gives the starts every other
 * tile is merged with. */
static int
link_rarer(const void *a, const void *b)
{
	const struct link	*x = a, *y = b;

	if (x->c->t->poslen != y->c->t->poslen)
		return x->c->t->poslen < y->c->t->poslen ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Whether the tiles line up in prompt d: the starts the first tile
 * allows, kept while every other tile has its trigram at start + its
 * offset.  1, 0, -1, -2.
 */
static int
chain(struct link *l, size_t n, uint64_t d, struct ints *s)
{
	const struct ints *at;
	size_t		 i, j, k, kept;
	int64_t		 want;
	int		 rc;

	if ((rc = cur_positions(l[0].c, d)) != 1)
		return rc;
	at = &l[0].c->at;
	if (at->n > s->cap) {
		s->cap = at->n;
		s->v = xreallocarray(s->v, s->cap, sizeof(*s->v));
	}
	for (s->n = 0, j = 0; j < at->n; j++)
		if (at->v[j] >= l[0].off)
			s->v[s->n++] = at->v[j] - l[0].off;
	for (i = 1; i < n && s->n > 0; i++) {
		if ((rc = cur_positions(l[i].c, d)) != 1)
			return rc;
		at = &l[i].c->at;
		/* Both ascend: a merge. */
		for (j = 0, k = 0, kept = 0; j < s->n && k < at->n;) {
			want = s->v[j] + l[i].off;
			if (at->v[k] < want)
				k++;
			else {
				if (at->v[k] == want)
					s->v[kept++] = s->v[j];
				j++;
			}
		}
		s->n = kept;
	}
	return s->n > 0;
}

/* The first of t[0..i] with t[i]'s key. */
static size_t
first_of_key(const struct gram_tile *t, size_t i)
{
	size_t	 j;

	for (j = 0; j < i; j++)
		if (t[j].key == t[i].key)
			return j;
	return i;
}

int
gram_verify(struct pset *cand, const struct gram_tile *t, size_t n,
    const struct gram_source *src)
{
	struct cursor	*c;
	struct link	*l;
	struct ints	 s;
	uint64_t	 w, d;
	size_t		 i, made = 0, f;
	int		 rc = 0, r;

	if (n == 0)
		return 0;
	memset(&s, 0, sizeof(s));
	c = xcalloc(n, sizeof(*c));
	l = xcalloc(n, sizeof(*l));
	for (i = 0; i < n && rc == 0; i++) {
		if ((f = first_of_key(t, i)) == i) {
			rc = cur_init(&c[i], &t[i], cand->nw, src);
			made = i + 1;
		}
		l[i].off = t[i].off;
		l[i].c = &c[f];
	}
	if (rc != 0)
		goto out;
	qsort(l, n, sizeof(*l), link_rarer);
	for (i = 0; i < cand->nw; i++)
		for (w = cand->w[i]; w != 0; w &= w - 1) {
			d = i * 64 + (uint64_t)__builtin_ctzll(w);
			if ((r = chain(l, n, d, &s)) < 0) {
				rc = r;
				goto out;
			}
			if (r == 0)
				cand->w[i] &= ~((uint64_t)1 << (d % 64));
		}
out:
	for (i = 0; i < made; i++)
		cur_free(&c[i]);
	free(s.v);
	free(l);
	free(c);
	return rc;
}

int
gram_match(const char *q, struct pset *s, const struct gram_source *src)
{
	struct gram_query	*gq;
	size_t			 i, f;
	int			 rc = -1, r;

	gq = xmalloc(sizeof(*gq));
	if (gram_plan(q, gq) == -1) {	/* nothing can hold it */
		pset_clear(s);
		rc = 0;
		goto out;
	}
	/* A trigram that comes again (in a query like "lalala") is looked
	 * up, read and walked once. */
	if (gq->nchars > 3)
		for (i = 0; i < gq->ngrams && !pset_empty(s); i++) {
			if ((f = first_of_key(gq->g, i)) < i) {
				gq->g[i].ndocs = gq->g[f].ndocs;
				gq->g[i].poslen = gq->g[f].poslen;
				continue;
			}
			if ((r = src->stat(src->arg, &gq->g[i])) == -1)
				goto out;
			if (r == 0)	/* no prompt holds this trigram */
				pset_clear(s);
		}
	gram_chain(gq);
	for (i = 0; i < gq->ntiles && !pset_empty(s); i++) {
		if (first_of_key(gq->tile, i) < i)
			continue;
		if ((r = src->docs(src->arg, &gq->tile[i])) == -1)
			goto out;
		if (r == 0 && gq->nchars > 3) {	/* it had a size */
			rc = -2;
			goto out;
		}
		if (r == 0)		/* no prompt holds the gram */
			pset_clear(s);
		else if (pset_and_stored(s, gq->tile[i].docs,
		    gq->tile[i].docslen) == -1) {
			rc = -2;
			goto out;
		}
	}
	if (gq->nchars > 3 && !pset_empty(s)) {
		for (i = 0; i < gq->ntiles; i++)
			if (first_of_key(gq->tile, i) == i && src->pos_open(
			    src->arg, &gq->tile[i]) == -1)
				goto out;
		rc = gram_verify(s, gq->tile, gq->ntiles, src);
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < gq->ntiles; i++) {
		if (gq->tile[i].pos != NULL)
			src->pos_close(src->arg, &gq->tile[i]);
		free(gq->tile[i].docs);
	}
	free(gq);
	return rc;
}

