/*
 * memgrams.h -- a search index kept in memory, as gram_build_each()
 * hands it out, and the gram_source that reads it back: for the unit
 * tests (check_prompts.c) and the fuzzer (fuzz/fuzz_search.c) of
 * grams.c, without SQLite.  Static functions: include it once, after
 * <stdlib.h>, <string.h>, grams.h and util.h.
 */
#ifndef LZ_T_MEMGRAMS_H
#define LZ_T_MEMGRAMS_H

struct memgram {
	uint64_t	 key;
	long long	 ndocs;
	struct lz_buf	 docs, pos;
	int		 has_pos;
};

struct memidx {
	struct memgram	*g;
	size_t		 n;
};

static int
mem_put(void *arg, uint64_t key, long long ndocs, const void *docs,
    size_t docslen, const void *pos, size_t poslen)
{
	struct memidx	*ix = arg;
	struct memgram	*g;

	ix->g = xreallocarray(ix->g, ix->n + 1, sizeof(*ix->g));
	g = &ix->g[ix->n++];
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->ndocs = ndocs;
	lz_buf_add(&g->docs, docs, docslen);
	if ((g->has_pos = pos != NULL))
		lz_buf_add(&g->pos, pos, poslen);
	if (ix->n > 1 && ix->g[ix->n - 2].key >= key)
		abort();	/* gram_build_each hands keys out in order */
	return 0;
}

static struct memgram *
mem_find(struct memidx *ix, uint64_t key)
{
	size_t	 i;

	for (i = 0; i < ix->n; i++)
		if (ix->g[i].key == key)
			return &ix->g[i];
	return NULL;
}

static int
mem_stat(void *arg, struct gram_tile *t)
{
	struct memgram	*g;

	if ((g = mem_find(arg, t->key)) == NULL)
		return 0;
	t->ndocs = g->ndocs;
	t->poslen = g->pos.len;
	return 1;
}

static int
mem_docs(void *arg, struct gram_tile *t)
{
	struct memgram	*g;

	if ((g = mem_find(arg, t->key)) == NULL)
		return 0;
	t->ndocs = g->ndocs;
	t->docs = xmalloc(g->docs.len + 1);
	memcpy(t->docs, g->docs.p, g->docs.len);
	t->docslen = g->docs.len;
	return 1;
}

static int
mem_pos_open(void *arg, struct gram_tile *t)
{
	struct memgram	*g;

	if ((g = mem_find(arg, t->key)) == NULL || !g->has_pos)
		return -1;
	t->pos = &g->pos;
	t->poslen = g->pos.len;
	return 0;
}

static int
mem_pos_read(void *arg, const struct gram_tile *t, void *buf, size_t len,
    size_t off)
{
	const struct lz_buf	*b = t->pos;

	(void)arg;
	if (off > t->poslen || len > t->poslen - off || t->poslen > b->len)
		abort();	/* beyond what pos_open said */
	memcpy(buf, b->p + off, len);
	return 0;
}

static void
mem_pos_close(void *arg, struct gram_tile *t)
{
	(void)arg;
	t->pos = NULL;
}

static const struct gram_source *
mem_source(struct memidx *ix)
{
	static struct gram_source	 src;

	src.stat = mem_stat;
	src.docs = mem_docs;
	src.pos_open = mem_pos_open;
	src.pos_read = mem_pos_read;
	src.pos_close = mem_pos_close;
	src.arg = ix;
	return &src;
}

static void
mem_free(struct memidx *ix)
{
	size_t	 i;

	for (i = 0; i < ix->n; i++) {
		lz_buf_free(&ix->g[i].docs);
		lz_buf_free(&ix->g[i].pos);
	}
	free(ix->g);
}

#endif
