/*
 * quota.c -- the monthly quota counted out of leases (quota.h).
 */
#include "config.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "auth/quota.h"
#include "log.h"
#include "lztime.h"
#include "shm.h"
#include "store/accounts.h"
#include "util.h"

#define WAYS		8

enum { KIND_QUOTA = 1, KIND_KEY };

/* An account's month, or a key. */
struct entry {
	int64_t		 id;		/* account or key; 0: free */
	int32_t		 kind;
	int32_t		 month;		/* YYYYMM of a quota */
	int64_t		 calls;		/* quota: usage.calls after the last
					   lease; key: when last written */
	int64_t		 held;		/* quota: leased, not counted out */
	int64_t		 used_ms;	/* for the least recently used */
};

struct bucket {
	pthread_mutex_t	 mu;
	struct entry	 e[WAYS];
};

struct quota_table {
	struct bucket	*b;
	size_t		 nb;
	size_t		 maplen;
};

struct quota_table *
quota_create(size_t nslots)
{
	struct quota_table	*t;

	t = xcalloc(1, sizeof(*t));
	t->nb = (nslots + WAYS - 1) / WAYS;
	t->maplen = t->nb * sizeof(struct bucket);
	if ((t->b = lz_shm_make(t->maplen, offsetof(struct bucket, mu), t->nb,
	    sizeof(struct bucket))) == NULL) {
		free(t);
		return NULL;
	}
	return t;
}

void
quota_destroy(struct quota_table *t)
{
	if (t == NULL)
		return;
	lz_shm_free(t->b, t->maplen);
	free(t);
}

/* Locks the bucket of (kind, id); NULL when it cannot be locked. */
static struct bucket *
lock(struct quota_table *t, int kind, int64_t id)
{
	struct bucket	*b;
	uint64_t	 h = (uint64_t)id * 0x9e3779b97f4a7c15ULL + (uint64_t)kind;

	b = &t->b[(h >> 17) % t->nb];
	/* A worker that died in here left its entry as it was, a count at
	 * worst off by its own call: nothing to repair. */
	return lz_shm_lock(&b->mu, "quota") == -1 ? NULL : b;
}

/* The entry of (kind, id, month) in b, made of the free or least
 * recently used one when missing (*fresh then 1). */
static struct entry *
find(struct bucket *b, int kind, int64_t id, int32_t month, int *fresh)
{
	struct entry	*e, *victim = NULL;
	size_t		 w;

	*fresh = 0;
	for (w = 0; w < WAYS; w++) {
		e = &b->e[w];
		if (e->id == id && e->kind == kind && e->month == month)
			return e;
		if (victim == NULL || (victim->id != 0 && (e->id == 0 ||
		    e->used_ms < victim->used_ms)))
			victim = e;
	}
	memset(victim, 0, sizeof(*victim));
	victim->id = id;
	victim->kind = kind;
	victim->month = month;
	*fresh = 1;
	return victim;
}

static int32_t
month_key(const char *month)
{
	return (int32_t)(atoi(month) * 100 + atoi(month + 5));
}

/* Counts a call out of what e holds, into *a.  0 when it holds none. */
static int
count_out(struct entry *e, struct quota_answer *a)
{
	if (e->held <= 0)
		return 0;
	e->held--;
	a->allowed = 1;
	a->used = e->calls - e->held;
	return 1;
}

int
quota_take(struct quota_table *t, struct lz_db *db, int64_t account_id,
    const char *month, long long quota, struct quota_answer *a)
{
	struct bucket	*b;
	struct entry	*e;
	long long	 granted, calls;
	int		 fresh, rc = 0;

	memset(a, 0, sizeof(*a));
	if ((b = lock(t, KIND_QUOTA, account_id)) == NULL)
		return -1;
	e = find(b, KIND_QUOTA, account_id, month_key(month), &fresh);
	e->used_ms = lz_mono_us() / 1000;
	if (count_out(e, a))
		goto out;
	if (!fresh && e->calls >= quota) {	/* used up (until a plan
						   that grows) */
		a->used = e->calls;
		goto out;
	}
	/*
	 * A lease, with the bucket held: the account's other calls wait for
	 * it (they would need it too), so that one lease at a time lands
	 * and what the host tells stays exact.  No lock is taken under a
	 * transaction, so none waits on this one's.
	 */
	if (store_usage_lease(db, account_id, month, quota, QUOTA_BLOCK,
	    &granted, &calls) == -1) {
		rc = -1;
		goto out;
	}
	e->held += granted;
	if (calls > e->calls)
		e->calls = calls;
	if (!count_out(e, a))
		a->used = e->calls - e->held;
out:
	pthread_mutex_unlock(&b->mu);
	return rc;
}

long long
quota_held(struct quota_table *t, int64_t account_id, const char *month)
{
	struct bucket	*b;
	struct entry	*e;
	long long	 held = 0;
	size_t		 w;
	int32_t		 m = month_key(month);

	if ((b = lock(t, KIND_QUOTA, account_id)) == NULL)
		return 0;
	for (w = 0; w < WAYS; w++) {
		e = &b->e[w];
		if (e->id == account_id && e->kind == KIND_QUOTA &&
		    e->month == m)
			held = e->held;
	}
	pthread_mutex_unlock(&b->mu);
	return held;
}

int
quota_touch_due(struct quota_table *t, int64_t key_id, int64_t now)
{
	struct bucket	*b;
	struct entry	*e;
	int		 fresh, due;

	if ((b = lock(t, KIND_KEY, key_id)) == NULL)
		return 1;
	e = find(b, KIND_KEY, key_id, 0, &fresh);
	e->used_ms = lz_mono_us() / 1000;
	if ((due = fresh || now - e->calls >= QUOTA_TOUCH_MS))
		e->calls = now;
	pthread_mutex_unlock(&b->mu);
	return due;
}
