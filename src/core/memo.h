/*
 * memo.h -- what a worker read from its database, kept while the
 * database has not changed since.  Each entry carries the connection's
 * data version from before it was read (lz_db_data_version: any commit
 * of any process moves it) and is used only while the version is still
 * that, and before the entry's own deadline (a link that expires at a
 * time answers differently after it, with no commit).  So an answer
 * from the memo is the answer the database would give: nothing is ever
 * stale by a second, unlike the redirects' link cache (linkcache.h).
 * With an engine that cannot tell its version cheaply (PostgreSQL)
 * nothing is kept.
 *
 * A memo is a fixed table of slots, one entry a slot (a newer one takes
 * the place of an older one with the same slot), made once per process
 * and not shared: a worker's requests come one at a time.
 */
#ifndef LZ_MEMO_H
#define LZ_MEMO_H

#include <stddef.h>
#include <stdint.h>

struct lz_db;
struct lz_memo;

#define LZ_MEMO_KEY	32	/* the longest key, in bytes */

/* Where the database stood before a read: lz_memo_begin(). */
struct lz_memo_ver {
	uint64_t	v[3];
	int		ok;	/* 0: the engine cannot tell; keep nothing */
};

/* A memo of slots entries (rounded up to a power of two). */
struct lz_memo	*lz_memo_new(unsigned slots);
void		 lz_memo_free(struct lz_memo *);

/*
 * The value kept under key (klen <= LZ_MEMO_KEY bytes) when db has not
 * changed since it was read and its deadline has not come, with *len;
 * else NULL.  Valid until the next call on the memo.
 */
const void	*lz_memo_get(struct lz_memo *, struct lz_db *, const void *key,
		    size_t klen, int64_t now_ms, size_t *len);

/* Before reading what is to be kept: where db stands now. */
void		 lz_memo_begin(struct lz_db *, struct lz_memo_ver *);

/*
 * Keeps len bytes of val under key, read at version ver (from
 * lz_memo_begin before the read), until until_ms at the latest
 * (INT64_MAX: no deadline).  Nothing when ver is not ok.
 */
void		 lz_memo_put(struct lz_memo *, const struct lz_memo_ver *,
		    const void *key, size_t klen, const void *val, size_t len,
		    int64_t until_ms);

/* Forgets everything (after a connection is closed and opened again
 * the versions differ anyway; for tests). */
void		 lz_memo_clear(struct lz_memo *);

#endif
