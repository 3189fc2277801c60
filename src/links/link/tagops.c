/*
 * tagops.c -- renaming and deleting an account's tags (tagops.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "db.h"
#include "link/tagops.h"
#include "store/tags.h"
#include "verr.h"

/* account's tag of name into *id and its name into out: 0, or -1 with
 * e (404 for none). */
static int
find(struct lz_db *db, int64_t account, const char *name, int64_t *id,
    char *out, struct lz_verr *e)
{
	char	 n[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128];
	int	 rc;

	if (tag_parse(name, n, fold, why, sizeof(why)) == -1 ||
	    (rc = store_tag_by_fold(db, account, fold, id, out)) == 0) {
		lz_verr_set(e, 404, "not_found", "name", "There is no tag with "
		    "this name.");
		return -1;
	}
	if (rc == -1) {
		lz_verr_set(e, 500, "internal_error", NULL, "The tag could not "
		    "be read.");
		return -1;
	}
	return 0;
}

static int
failed(struct lz_db *db, const char *what, struct lz_verr *e)
{
	lz_db_rollback(db);
	lz_verr_set(e, 500, "internal_error", NULL, "The tag could not be "
	    "%s.", what);
	return -1;
}

int
tagops_rename(struct lz_db *db, int64_t account, const char *old,
    const char *name, struct tag_renamed *out, struct lz_verr *e)
{
	char	 fold[TAG_FOLD_BYTES], why[128], other[TAG_BYTES];
	int64_t	 id, into = 0;
	int	 rc;

	memset(out, 0, sizeof(*out));
	if (tag_parse(name, out->name, fold, why, sizeof(why)) == -1) {
		lz_verr_set(e, 400, "invalid_field", "name", "The new name %s.",
		    why);
		return -1;
	}
	if (find(db, account, old, &id, out->from, e) == -1)
		return -1;
	if (lz_db_begin(db) == -1)
		return failed(db, "renamed", e);
	/* Into a tag the account has already (another, or this one in
	 * another case): its links carry that one. */
	if ((rc = store_tag_by_fold(db, account, fold, &into, other)) == -1)
		return failed(db, "renamed", e);
	out->merged = rc == 1 && into != id;
	if ((out->merged ? store_tag_merge(db, id, into) :
	    store_tag_rename(db, id, out->name, fold)) == -1 ||
	    lz_db_commit(db) == -1)
		return failed(db, "renamed", e);
	if (out->merged)
		snprintf(out->name, sizeof(out->name), "%s", other);
	return 0;
}

int
tagops_delete(struct lz_db *db, int64_t account, const char *name,
    char *out, struct lz_verr *e)
{
	int64_t	 id;

	if (find(db, account, name, &id, out, e) == -1)
		return -1;
	if (lz_db_begin(db) == -1 || store_tag_delete(db, id) == -1 ||
	    lz_db_commit(db) == -1)
		return failed(db, "deleted", e);
	return 0;
}
