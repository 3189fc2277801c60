/*
 * linkops.h -- what happens to links, independent of who asks: the public
 * API and the dashboard (both through api_links.c) create links here, and
 * they and lzctl edit and delete them here, so the rules (validation,
 * slugs, reservation, link cap, password hashing, the link events) exist
 * once.  Each takes the database it works on and the configuration
 * whose rules apply (reserved slugs, base_url, the safety scan's
 * settings).
 */
#ifndef LZ_LINKOPS_H
#define LZ_LINKOPS_H

#include <stdint.h>

#include <jansson.h>

struct link;
struct lz_conf;
struct lz_db;
struct lz_plan;
struct lz_verr;

/*
 * Creates a link for account_id from a create body (spec 2.1).  On
 * success returns 0 with the stored link in *out (caller frees with
 * link_free).  On failure returns -1 with e filled: 400 invalid field,
 * 403 link cap, 409 slug taken or reserved, 500 storage failure.
 */
int	linkops_create(struct lz_db *, const struct lz_conf *,
	    const json_t *body, int64_t account_id, const struct lz_plan *plan,
	    int64_t now, struct link *out, struct lz_verr *e);

/*
 * Creates links for account_id from bodies[0..n) (a NULL body is
 * skipped), each under every rule of linkops_create, in one write
 * transaction: a bulk call.  Item i succeeds with the stored link in
 * ls[i] (caller frees) and es[i].status 0, or fails with es[i] filled
 * (ls[i] left empty).  0, or -1 when the transaction failed: then none
 * is stored, and every ls[i] is empty.
 */
int	linkops_create_many(struct lz_db *, const struct lz_conf *,
	    const json_t *const *bodies, size_t n, int64_t account_id,
	    const struct lz_plan *plan, int64_t now, struct link *ls,
	    struct lz_verr *es);

/* Where an imported link comes from (link_imports). */
struct link_origin {
	const char	*source;	/* "csv", "yourls", ... */
	const char	*id;		/* its id there */
	int64_t		 created_at;	/* made there, ms; 0 unknown */
	int64_t		 total_clicks;	/* the source's count; -1 unknown */
	int		 history;	/* its clicks are to follow */
};

/*
 * linkops_create_many for an import: item i from from[i] (a link already
 * imported from there fails with 409 already_imported; a new one
 * remembers it, and keeps its created_at when known).  dry: everything
 * checked and written, then rolled back (an import's --dry-run).
 */
int	linkops_import(struct lz_db *, const struct lz_conf *,
	    const json_t *const *bodies, const struct link_origin *from,
	    size_t n, int64_t account_id, const struct lz_plan *plan,
	    int64_t now, int dry, struct link *ls, struct lz_verr *es);

/* The live link id of account_id (ACCOUNT_ANY: of anyone) into l
 * (caller frees): 0, or -1 with e filled: 404 not_found, 500. */
int	linkops_get(struct lz_db *, int64_t id, int64_t account_id,
	    struct link *l, struct lz_verr *e);

/*
 * Edits the live link id of account_id (ACCOUNT_ANY: of anyone) with
 * patch, a JSON merge patch of its create fields (link_parse_patch: every
 * rule of create holds for the result).  The slug never changes.  On
 * success returns 0 with the stored link in *out (caller frees).  On
 * failure returns -1 with e filled: 400 invalid or read-only field, 404
 * no such live link, 409 edited by others meanwhile, again and again,
 * 500 storage failure.  Written, with the link.updated event, only if
 * the link is as it was read (store_link_update); else read and tried
 * again.
 */
int	linkops_update(struct lz_db *, const struct lz_conf *, int64_t id,
	    int64_t account_id, const json_t *patch, int64_t now,
	    struct link *out, struct lz_verr *e);

/* Deletes (tombstones) a link of account_id (ACCOUNT_ANY: of anyone),
 * with the link.deleted event.  1, 0, -1. */
int	linkops_delete(struct lz_db *, int64_t id, int64_t account_id,
	    int64_t now);

#endif
