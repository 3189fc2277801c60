/*
 * cache.c -- the answers of a worker, kept by canonical request.
 *
 * A chained hash table (SipHash with a key of the process, so that
 * clients cannot choose colliding keys) over entries that also sit on a
 * list from the most to the least recently used.  An entry is one
 * allocation: header, key, body.  The bound counts those allocations;
 * the bucket array (a pointer per entry at most) comes on top.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "util.h"

struct entry {
	struct entry	*next;		/* in its bucket */
	struct entry	*newer, *older;
	uint64_t	 hash;
	size_t		 keylen, len;
	char		 etag[LZ_ETAG_SIZE];
	char		 data[];	/* the key, then the body */
};

#define BUCKETS_MIN	64

static struct entry	**buckets;
static size_t		  nbuckets;
static struct entry	 *newest, *oldest;
static struct cache_stats st;

static size_t
entry_size(size_t keylen, size_t len)
{
	return sizeof(struct entry) + keylen + len;
}

static struct entry **
slot_of(uint64_t hash, const void *key, size_t keylen)
{
	struct entry	**pp;

	for (pp = &buckets[hash & (nbuckets - 1)]; *pp != NULL;
	    pp = &(*pp)->next)
		if ((*pp)->hash == hash && (*pp)->keylen == keylen &&
		    memcmp((*pp)->data, key, keylen) == 0)
			break;
	return pp;
}

static void
unlink_lru(struct entry *e)
{
	if (e->newer != NULL)
		e->newer->older = e->older;
	else
		newest = e->older;
	if (e->older != NULL)
		e->older->newer = e->newer;
	else
		oldest = e->newer;
}

static void
push_lru(struct entry *e)
{
	e->newer = NULL;
	e->older = newest;
	if (newest != NULL)
		newest->newer = e;
	newest = e;
	if (oldest == NULL)
		oldest = e;
}

static void
drop(struct entry *e)
{
	struct entry	**pp;

	pp = slot_of(e->hash, e->data, e->keylen);
	*pp = e->next;
	unlink_lru(e);
	st.entries--;
	st.bytes -= entry_size(e->keylen, e->len);
	free(e);
}

/* Drops the least recently used until need more bytes fit. */
static void
make_room(size_t need)
{
	while (oldest != NULL && st.bytes + need > st.limit) {
		drop(oldest);
		st.evicted++;
	}
}

static void
grow(void)
{
	struct entry	**nb, *e, *next;
	size_t		  n, i;

	n = nbuckets ? nbuckets * 2 : BUCKETS_MIN;
	nb = xcalloc(n, sizeof(*nb));
	for (i = 0; i < nbuckets; i++)
		for (e = buckets[i]; e != NULL; e = next) {
			next = e->next;
			e->next = nb[e->hash & (n - 1)];
			nb[e->hash & (n - 1)] = e;
		}
	free(buckets);
	buckets = nb;
	nbuckets = n;
}

void
cache_limit(size_t bytes)
{
	st.limit = bytes;
	make_room(0);
}

int
cache_get(const void *key, size_t keylen, struct cache_hit *hit)
{
	struct entry	*e;

	if (st.entries == 0 ||
	    (e = *slot_of(lz_hash_keyed(key, keylen), key, keylen)) == NULL) {
		st.misses++;
		return 0;
	}
	unlink_lru(e);
	push_lru(e);
	hit->body = e->data + e->keylen;
	hit->len = e->len;
	hit->etag = e->etag;
	st.hits++;
	return 1;
}

void
cache_put(const void *key, size_t keylen, const char *body, size_t len,
    const char *etag)
{
	struct entry	*e, **pp;
	size_t		 size = entry_size(keylen, len);

	if (size > st.limit)
		return;
	make_room(size);
	if (st.entries >= nbuckets)
		grow();
	e = xmalloc(size);
	e->hash = lz_hash_keyed(key, keylen);
	e->keylen = keylen;
	e->len = len;
	memcpy(e->etag, etag, LZ_ETAG_SIZE);
	memcpy(e->data, key, keylen);
	memcpy(e->data + keylen, body, len);
	pp = slot_of(e->hash, key, keylen);
	if (*pp != NULL)		/* there already: keep the newer */
		drop(*pp);
	pp = slot_of(e->hash, key, keylen);
	e->next = NULL;
	*pp = e;
	push_lru(e);
	st.entries++;
	st.bytes += size;
	st.stored++;
}

void
cache_clear(void)
{
	while (oldest != NULL)
		drop(oldest);
	st.cleared++;
}

void
cache_stats(struct cache_stats *out)
{
	*out = st;
}
