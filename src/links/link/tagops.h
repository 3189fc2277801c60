/*
 * tagops.h -- what happens to an account's tags as a whole (DESIGN 3.13):
 * renamed on every link (into a tag of that name, in any case: merged)
 * and deleted from every link.  The API and lzctl both call these.
 */
#ifndef LZ_TAGOPS_H
#define LZ_TAGOPS_H

#include <stdint.h>

#include "link/tag.h"

struct lz_db;
struct lz_verr;

/* What a rename did. */
struct tag_renamed {
	char	 from[TAG_BYTES];	/* the tag's name before */
	char	 name[TAG_BYTES];	/* after: the new, or the merged into */
	int	 merged;
};

/*
 * Renames account's tag old (any case) to name, in a transaction of its
 * own.  0, or -1 with e: 404 not_found naming "name" for no such tag, 400
 * invalid_field naming "name" for a new name that is no tag, 500.
 */
int	tagops_rename(struct lz_db *, int64_t account, const char *old,
	    const char *name, struct tag_renamed *out, struct lz_verr *e);

/* Takes account's tag name off every link; its name as it was into
 * out (TAG_BYTES).  0, or -1 with e (404, 500). */
int	tagops_delete(struct lz_db *, int64_t account, const char *name,
	    char *out, struct lz_verr *e);

#endif
