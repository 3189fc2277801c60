/*
 * store/tags.h -- the SQL of tags (link/tag.h has the rules of a tag's
 * text, link/tags.h what renames and deletes do).
 */
#ifndef LZ_STORE_TAGS_H
#define LZ_STORE_TAGS_H

#include <stdint.h>

#include <jansson.h>

struct lz_db;

/*
 * Sets the tags of link_id of account_id to names (a JSON array of
 * checked names, or NULL: none), making the account's tags that are
 * new; in the caller's transaction.  0 or -1.
 */
int	store_link_tags_set(struct lz_db *, int64_t link_id,
	    int64_t account_id, const json_t *names);

/*
 * The tags of a new link (no tags yet: nothing to take off), as
 * store_link_tags_set; with cache (or NULL), the ids of the account's
 * tags already upserted in the caller's transaction are asked once (a
 * cache is only good inside the transaction it was filled in: the
 * upsert holds the tag's row to its end), and the link's tags are put
 * on at store_tag_cache_flush.
 */
struct store_tag_cache;
struct store_tag_cache	*store_tag_cache_new(void);
void	store_tag_cache_free(struct store_tag_cache *);
int	store_link_tags_new(struct lz_db *, int64_t link_id,
	    int64_t account_id, const json_t *names, struct store_tag_cache *);
/* Fills the cache with the account's tags that names[0..n) (arrays of
 * tag names, or NULL) name, in one statement: on PostgreSQL, where each
 * store_link_tags_new would otherwise ask for its new ones a round trip
 * each; nothing on SQLite (in process).  0 or -1. */
int	store_tag_cache_fill(struct lz_db *, struct store_tag_cache *,
	    int64_t account_id, const json_t *const *names, size_t n);
/* With a cache, the links' tags are put on in one statement, by this,
 * before the transaction's commit.  0 or -1. */
int	store_tag_cache_flush(struct lz_db *, struct store_tag_cache *);

/* Calls fn(name, live links) for each tag of account_id on a live link,
 * by fold.  The count, or -1. */
long	store_tag_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const char *name, long long links, void *), void *arg);

/* The id of account_id's tag of fold (and its name into name, TAG_BYTES):
 * 1, 0 none, -1. */
int	store_tag_by_fold(struct lz_db *, int64_t account_id, const char *fold,
	    int64_t *id, char *name);
/* Renames tag id.  0 or -1. */
int	store_tag_rename(struct lz_db *, int64_t id, const char *name,
	    const char *fold);
/* Puts tag from's links under tag into, then deletes from.  0 or -1. */
int	store_tag_merge(struct lz_db *, int64_t from, int64_t into);
/* Takes tag id off every link and deletes it.  0 or -1. */
int	store_tag_delete(struct lz_db *, int64_t id);

/* The ids of link_id's tags, at most max of them, into ids: their
 * number or -1. */
long	store_link_tag_ids(struct lz_db *, int64_t link_id, int64_t *ids,
	    size_t max);

#endif
