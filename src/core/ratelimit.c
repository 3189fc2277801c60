/*
 * ratelimit.c -- sliding-window logs in shared memory (ratelimit.h).
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "addr.h"
#include "log.h"
#include "ratelimit.h"
#include "shm.h"
#include "util.h"

/*
 * One key's log: a ring of its last maxlimit request times, newest at
 * t[head - 1].  Times only grow: a clock read a little earlier by another
 * process is clamped to `last'.
 *
 * Times in the ring are the low 32 bits of the ms clock, compared by
 * their wrapping difference from now.  That is exact while every time
 * that matters is less than 2^31 ms (24 days) old, and they are at most
 * maxlimit windows old: a key unseen for a whole window starts an empty
 * log, and a key seen more often keeps its last entries within
 * maxlimit windows of now.
 */
struct slot {
	uint8_t		 keylen;	/* 0: free */
	uint8_t		 key[LZ_RL_KEYMAX];
	uint16_t	 count;		/* times recorded, <= maxlimit */
	uint16_t	 head;		/* next write, < maxlimit */
	int64_t		 last;		/* newest time seen (for LRU) */
	uint32_t	 t[];		/* maxlimit entries */
};

/*
 * The shared mapping: the buckets' locks side by side, then the buckets'
 * slots (LZ_RL_WAYS each, slotsz bytes each).  Slots sized for a large
 * maxlimit are mostly address space: only the locks are touched at
 * creation, a slot's pages when a key uses them.
 */
struct lz_rl {
	unsigned char	*base;		/* the shared mapping */
	size_t		 maplen;
	size_t		 nbuckets;
	size_t		 slotsz;
	size_t		 slots_at;	/* offset of the first slot */
	unsigned	 maxlimit;
	unsigned char	 hkey[crypto_shorthash_KEYBYTES];
};

#define ALIGN8(n)	(((n) + 7) & ~(size_t)7)

static pthread_mutex_t *
lock_at(const struct lz_rl *rl, size_t bucket)
{
	return (pthread_mutex_t *)(void *)rl->base + bucket;
}

static struct slot *
slot_at(const struct lz_rl *rl, size_t bucket, size_t way)
{
	return (struct slot *)(void *)(rl->base + rl->slots_at +
	    (bucket * LZ_RL_WAYS + way) * rl->slotsz);
}

struct lz_rl *
lz_rl_create(size_t nslots, unsigned maxlimit)
{
	struct lz_rl		*rl;
	void			*p;

	if (maxlimit == 0 || maxlimit > UINT16_MAX || nslots == 0 ||
	    nslots > ((size_t)1 << 24)) {
		errno = EINVAL;
		return NULL;
	}
	rl = xcalloc(1, sizeof(*rl));
	rl->maxlimit = maxlimit;
	rl->nbuckets = (nslots + LZ_RL_WAYS - 1) / LZ_RL_WAYS;
	rl->slotsz = ALIGN8(sizeof(struct slot) + maxlimit * sizeof(uint32_t));
	rl->slots_at = ALIGN8(rl->nbuckets * sizeof(pthread_mutex_t));
	rl->maplen = rl->slots_at + rl->nbuckets * LZ_RL_WAYS * rl->slotsz;
	/* The bucket locks first, then the slots, zero-filled: free. */
	if ((p = lz_shm_make(rl->maplen, 0, rl->nbuckets,
	    sizeof(pthread_mutex_t))) == NULL) {
		free(rl);
		return NULL;
	}
	rl->base = p;
	randombytes_buf(rl->hkey, sizeof(rl->hkey));
	return rl;
}

void
lz_rl_destroy(struct lz_rl *rl)
{
	if (rl == NULL)
		return;
	lz_shm_free(rl->base, rl->maplen);
	free(rl);
}

/* A slot left half-written by a process that died holding the lock is
 * either consistent or cleared. */
static void
bucket_repair(const struct lz_rl *rl, size_t b)
{
	struct slot	*s;
	size_t		 w;

	for (w = 0; w < LZ_RL_WAYS; w++) {
		s = slot_at(rl, b, w);
		if (s->keylen > LZ_RL_KEYMAX || s->count > rl->maxlimit ||
		    s->head >= rl->maxlimit)
			memset(s, 0, rl->slotsz);
	}
}

/* Locks the bucket of key; returns its index, or -1. */
static ssize_t
bucket_lock(struct lz_rl *rl, const void *key, size_t keylen)
{
	unsigned char	 h[crypto_shorthash_BYTES];
	pthread_mutex_t	*mu;
	uint64_t	 v;
	size_t		 b;
	int		 rc;

	crypto_shorthash(h, key, keylen, rl->hkey);
	memcpy(&v, h, sizeof(v));
	b = (size_t)(v % rl->nbuckets);
	mu = lock_at(rl, b);
	if ((rc = lz_shm_lock(mu, "ratelimit")) == -1)
		return -1;
	if (rc == 1) {
		lz_log(LZ_LOG_WARN, "ratelimit: a process died holding a "
		    "bucket lock; repairing the bucket");
		bucket_repair(rl, b);
	}
	return (ssize_t)b;
}

/* The slot of key in bucket b, claiming the free or least recently used
 * one. */
static struct slot *
slot_find(const struct lz_rl *rl, size_t b, const void *key, size_t keylen)
{
	struct slot	*s, *victim = NULL;
	size_t		 w;

	for (w = 0; w < LZ_RL_WAYS; w++) {
		s = slot_at(rl, b, w);
		if (s->keylen == keylen && memcmp(s->key, key, keylen) == 0)
			return s;
		if (victim == NULL || (victim->keylen != 0 &&
		    (s->keylen == 0 || s->last < victim->last)))
			victim = s;
	}
	victim->keylen = 0;
	victim->count = 0;
	victim->head = 0;
	victim->last = 0;
	memcpy(victim->key, key, keylen);
	victim->keylen = (uint8_t)keylen;
	return victim;
}

/* How long ago (ms) the i-th most recent request of s was (0 = newest);
 * i < s->count. */
static int64_t
nth_age(const struct lz_rl *rl, const struct slot *s, unsigned i,
    int64_t now)
{
	return (uint32_t)((uint32_t)now -
	    s->t[(s->head + rl->maxlimit - 1 - i) % rl->maxlimit]);
}

static int
ceil_seconds(int64_t ms)
{
	int64_t	 s = (ms + 999) / 1000;

	return s < 1 ? 1 : s > INT32_MAX ? INT32_MAX : (int)s;
}

int
lz_rl_take(struct lz_rl *rl, const void *key, size_t keylen, unsigned limit,
    int64_t window_ms, int64_t now, struct lz_rl_result *res)
{
	struct slot	*s;
	ssize_t		 b;
	unsigned	 i, inwin, n;
	int64_t		 age, oldest = 0;

	/* Refused until counted: a limiter that cannot count fails closed. */
	memset(res, 0, sizeof(*res));
	res->limit = limit;
	res->retry_after = 1;
	res->reset = 1;
	if (rl == NULL || keylen == 0 || keylen > LZ_RL_KEYMAX || limit == 0 ||
	    limit > rl->maxlimit || window_ms <= 0) {
		lz_log(LZ_LOG_ERR, "ratelimit: unusable arguments (limit %u "
		    "of at most %u, key of %zu bytes, window %lld ms); "
		    "refusing", limit, rl ? rl->maxlimit : 0, keylen,
		    (long long)window_ms);
		return -1;
	}
	if ((b = bucket_lock(rl, key, keylen)) == -1)
		return -1;
	res->allowed = 1;
	res->retry_after = 0;
	res->reset = 0;
	s = slot_find(rl, (size_t)b, key, keylen);
	if (now < s->last)
		now = s->last;
	if (now - s->last >= window_ms)
		s->count = 0;		/* all it holds is out of the window */
	s->last = now;

	/* Refused when the limit-th most recent request is still inside
	 * the window (now - window, now]. */
	if (s->count >= limit &&
	    (age = nth_age(rl, s, limit - 1, now)) < window_ms) {
		res->allowed = 0;
		res->retry_after = ceil_seconds(window_ms - age);
	} else {
		s->t[s->head] = (uint32_t)now;
		s->head = (uint16_t)((s->head + 1) % rl->maxlimit);
		if (s->count < rl->maxlimit)
			s->count++;
	}

	/* What is left: requests counted in the window, among the last
	 * limit (older ones no longer matter). */
	n = s->count < limit ? s->count : limit;
	for (inwin = 0, i = 0; i < n; i++) {
		if ((age = nth_age(rl, s, i, now)) >= window_ms)
			break;
		oldest = age;
		inwin++;
	}
	pthread_mutex_unlock(lock_at(rl, (size_t)b));

	res->remaining = limit - inwin;
	if (inwin > 0)
		res->reset = ceil_seconds(window_ms - oldest);
	if (!res->allowed)
		res->reset = res->retry_after;
	return 0;
}

size_t
lz_rl_addr_key(const char *addr, unsigned char tag,
    unsigned char key[LZ_RL_KEYMAX])
{
	static const uint8_t	 v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0xff, 0xff };
	struct lz_addr		 a;
	size_t			 len;

	key[0] = tag;
	if (lz_addr_parse(addr, &a) == 0) {
		if (a.v4 || memcmp(a.b, v4mapped, sizeof(v4mapped)) == 0) {
			key[1] = 4;
			memcpy(key + 2, a.b + 12, 4);
			return 6;
		}
		key[1] = 6;
		memcpy(key + 2, a.b, 8);	/* the /64 */
		return 10;
	}
	key[1] = 0;
	len = strlen(addr);
	if (len > LZ_RL_KEYMAX - 2)
		len = LZ_RL_KEYMAX - 2;
	memcpy(key + 2, addr, len);
	return len + 2;
}

int
lz_rl_test_lock(struct lz_rl *rl, const void *key, size_t keylen)
{
	return bucket_lock(rl, key, keylen) == -1 ? -1 : 0;
}
