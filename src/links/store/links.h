/*
 * store/links.h -- links (link.h has the representation, linkops.h the
 * rules; these are only the SQL).
 */
#ifndef LZ_STORE_LINKS_H
#define LZ_STORE_LINKS_H

#include <stdint.h>

struct link;
struct lz_db;
struct lz_stmt;

/* Live links of an account, as its row counts them; -1 on error. */
long long store_link_count(struct lz_db *, int64_t account_id);
/* The link cap, in the caller's transaction: one more live link of the
 * account unless it has cap.  1 counted, 0 at the cap, -1. */
int	store_link_slot(struct lz_db *, int64_t account_id, long long cap);
/* Gives a place of the cap back (a link archived).  0 or -1. */
int	store_link_unslot(struct lz_db *, int64_t account_id);
/* Inserts l (slug set); sets l->id.  0, 1 when the slug is taken, -1. */
int	store_link_insert(struct lz_db *, struct link *);
/* A live link by id of account_id (ACCOUNT_ANY: of anyone).  1, 0, -1. */
int	store_link_get(struct lz_db *, int64_t id, int64_t account_id,
	    struct link *);
/* A link by id, live or deleted (clicks read back from journals).
 * 1, 0, -1. */
int	store_link_by_id(struct lz_db *, int64_t id, struct link *);
/* A link by slug on domain (its id, 0: the default one), live or
 * deleted.  1, 0, -1. */
int	store_link_by_slug(struct lz_db *, int64_t domain, const char *slug,
	    struct link *);
/* Which links a list shows (DESIGN 3.9); { NULL, -1, 0 } is all. */
/* Which links a list shows of the archived and the others. */
enum { LINK_ARCHIVED_EXCLUDE, LINK_ARCHIVED_INCLUDE, LINK_ARCHIVED_ONLY };

struct link_filter {
	const char	*q;		/* a text slug, title or target_url
					   holds, A-Z in any case, or NULL */
	int		 status;	/* enum link_status, or -1 */
	int64_t		 now;		/* for status, ms */
	int		 by_domain;	/* only the links of domain: */
	int64_t		 domain;	/* its id (0: the default one) */
	const char	*tags;		/* a JSON array of the folds of tags
					   every link must carry, or NULL */
	int		 archived;	/* LINK_ARCHIVED_* */
};

/*
 * Live links of account_id (ACCOUNT_ANY: of all accounts) that f lets
 * through (NULL: all), newest first, with id below before (0: from the
 * newest).  Calls fn for up to limit links; returns the count or -1.
 */
long	store_link_list(struct lz_db *, int64_t account_id, int64_t before,
	    long limit, const struct link_filter *f,
	    void (*fn)(struct link *, void *), void *arg);
/* Calls fn for each link, deleted or not, whose id is among ids[0..n)
 * (in no order); returns the rows or -1. */
long	store_link_by_ids(struct lz_db *, const int64_t *ids, size_t n,
	    void (*fn)(struct link *, void *), void *arg);
/*
 * Writes the create fields and password hash of l over those of the
 * live link l->id of account_id (ACCOUNT_ANY: of anyone), if it is still
 * at l->revision, and counts the edit.  1 written, 0 when there is no
 * such live link or it was edited since it was read, -1.
 */
int	store_link_update(struct lz_db *, struct link *l, int64_t account_id);
/* Marks a live link of account_id (ACCOUNT_ANY: of anyone) deleted, one
 * live link fewer in its account's count unless it was archived (the
 * caller's transaction); its
 * slug (SLUG_MAX + 1 bytes), account and domain (0: the default one)
 * into slug, *owner and *domain.  1, 0 (no such live link), -1. */
int	store_link_delete(struct lz_db *, int64_t id, int64_t account_id,
	    int64_t now, char *slug, int64_t *owner, int64_t *domain);

/* ---- for the store files --------------------------------------------- */

/*
 * The columns store_link_each reads, of a table called links: SQLite's,
 * then PostgreSQL's, whose aggregate of a JSON object is json_object_agg
 * where SQLite's is json_group_object (NULL, not {}, without revenue:
 * both read as no revenue).
 */
#define STORE_LINK_COLS \
	"id, account_id, slug, target_url, title, mode, variants, " \
	"redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, " \
	"pixel_line, escape_inapp, expires_at, max_clicks, utm, " \
	"password_hash, clicks, created_at, deleted_at, flagged_at, " \
	"flag_reason, conversions, (SELECT json_group_object(r.currency, " \
	"r.micros) FROM link_revenue r WHERE r.link_id = links.id), revision, " \
	STORE_LINK_COLS_DOMAIN ", notes, archived, (SELECT " \
	"json_group_array(name) FROM (SELECT t.name FROM link_tags lt JOIN " \
	"tags t ON t.id = lt.tag_id WHERE lt.link_id = links.id ORDER BY " \
	"t.fold))"
#define STORE_LINK_COLS_PG \
	"id, account_id, slug, target_url, title, mode, variants, " \
	"redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, " \
	"pixel_line, escape_inapp, expires_at, max_clicks, utm, " \
	"password_hash, clicks, created_at, deleted_at, flagged_at, " \
	"flag_reason, conversions, (SELECT json_object_agg(r.currency, " \
	"r.micros) FROM link_revenue r WHERE r.link_id = links.id), revision, " \
	STORE_LINK_COLS_DOMAIN ", notes, archived, (SELECT " \
	"coalesce(json_agg(t.name ORDER BY t.fold), '[]') FROM link_tags lt " \
	"JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = links.id)"
/* The domain (its id, 0 the default, and host) and expired_url. */
#define STORE_LINK_COLS_DOMAIN \
	"coalesce(domain_id, 0), (SELECT d.host FROM domains d " \
	"WHERE d.id = links.domain_id), expired_url"
#define STORE_LINK_NCOLS	33
/* Reads each row of STORE_LINK_COLS, hands it to fn and frees it;
 * returns the rows or -1. */
long	store_link_each(struct lz_stmt *, void (*fn)(struct link *, void *),
	    void *arg);

#endif
