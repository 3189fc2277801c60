/*
 * memo.c -- answers kept while the database is unchanged (memo.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "memo.h"
#include "util.h"

struct entry {
	unsigned char	 key[LZ_MEMO_KEY];
	size_t		 klen;		/* 0: empty */
	uint64_t	 ver[3];
	int64_t		 until_ms;
	void		*val;
	size_t		 len, cap;
};

struct lz_memo {
	struct entry	*e;
	unsigned	 mask;
};

struct lz_memo *
lz_memo_new(unsigned slots)
{
	struct lz_memo	*m = xcalloc(1, sizeof(*m));
	unsigned	 n = 1;

	while (n < slots)
		n <<= 1;
	m->e = xcalloc(n, sizeof(*m->e));
	m->mask = n - 1;
	return m;
}

void
lz_memo_clear(struct lz_memo *m)
{
	unsigned	 i;

	for (i = 0; i <= m->mask; i++)
		m->e[i].klen = 0;
}

void
lz_memo_free(struct lz_memo *m)
{
	unsigned	 i;

	if (m == NULL)
		return;
	for (i = 0; i <= m->mask; i++)
		free(m->e[i].val);
	free(m->e);
	free(m);
}

/* FNV-1a: the slot of a key (not a secret: only where it is kept). */
static struct entry *
slot(struct lz_memo *m, const void *key, size_t klen)
{
	const unsigned char	*p = key;
	uint32_t		 h = 2166136261u;
	size_t			 i;

	for (i = 0; i < klen; i++)
		h = (h ^ p[i]) * 16777619u;
	return &m->e[h & m->mask];
}

const void *
lz_memo_get(struct lz_memo *m, struct lz_db *db, const void *key,
    size_t klen, int64_t now_ms, size_t *len)
{
	struct entry	*e;
	uint64_t	 v[3];

	if (klen == 0 || klen > LZ_MEMO_KEY)
		return NULL;
	e = slot(m, key, klen);
	if (e->klen != klen || memcmp(e->key, key, klen) != 0 ||
	    now_ms >= e->until_ms)
		return NULL;
	if (lz_db_data_version(db, v) == -1 ||
	    memcmp(v, e->ver, sizeof(v)) != 0) {
		e->klen = 0;		/* changed since: never again */
		return NULL;
	}
	*len = e->len;
	return e->val;
}

void
lz_memo_begin(struct lz_db *db, struct lz_memo_ver *ver)
{
	ver->ok = lz_db_data_version(db, ver->v) == 0;
}

void
lz_memo_put(struct lz_memo *m, const struct lz_memo_ver *ver,
    const void *key, size_t klen, const void *val, size_t len,
    int64_t until_ms)
{
	struct entry	*e;

	if (!ver->ok || klen == 0 || klen > LZ_MEMO_KEY)
		return;
	e = slot(m, key, klen);
	if (e->cap < len) {
		e->cap = len < 256 ? 256 : len;
		free(e->val);
		e->val = xmalloc(e->cap);
	}
	memcpy(e->val, val, len);
	e->len = len;
	memcpy(e->key, key, klen);
	e->klen = klen;
	memcpy(e->ver, ver->v, sizeof(e->ver));
	e->until_ms = until_ms;
}
