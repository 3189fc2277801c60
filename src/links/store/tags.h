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

#endif
