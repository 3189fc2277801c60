/*
 * store/links.h -- links (link.h has the representation, linkops.h the
 * rules; these are only the SQL).
 */
#ifndef LZ_STORE_LINKS_H
#define LZ_STORE_LINKS_H

#include <stdint.h>

#include <jansson.h>

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
/* store_link_slot of n places at once (a batch's): 1 all taken, 0 none
 * (they would pass cap), -1; store_link_unslots gives n back. */
int	store_link_slots(struct lz_db *, int64_t account_id, long long n,
	    long long cap);
int	store_link_unslots(struct lz_db *, int64_t account_id, long long n);
/* Inserts l (slug set); sets l->id.  0, 1 when the slug is taken, -1. */
int	store_link_insert(struct lz_db *, struct link *);
/* store_link_insert of each ls[i] with take[i] (slug set) in one
 * statement, stored as made at made[i] (made NULL or 0: created_at): each
 * one inserted gets its id; one whose slug is taken, a second of one
 * domain and slug, or one JSON cannot carry keeps id 0.  0, or -1. */
int	store_link_insert_many(struct lz_db *, struct link *ls,
	    const char *take, const int64_t *made, size_t n);
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
/*
 * Calls fn(id, counted clicks) for account_id's live links of domain
 * (-1: any) carrying tag (0: any), most clicks first (ties: newest
 * first), until fn answers 0.  0 or -1.
 */
int	store_link_by_clicks(struct lz_db *, int64_t account_id,
	    int64_t domain, int64_t tag, int (*fn)(int64_t id, int64_t clicks,
	    void *), void *arg);
/* 1 when account_id has a link imported from source with original_id
 * there, 0 not, -1. */
int	store_import_seen(struct lz_db *, int64_t account_id,
	    const char *source, const char *original_id);
/* Notes link_id as imported from source's original_id, with the
 * source's count of its clicks (-1 unknown) and, when history, its
 * clicks to follow (0019).  0 or -1. */
int	store_import_add(struct lz_db *, int64_t link_id, int64_t account_id,
	    const char *source, const char *original_id, int64_t total_clicks,
	    int history, int64_t now);

/* A link whose click history is still to be moved in (0019). */
struct store_import_pending {
	int64_t		 link_id;
	const char	*id;		/* at the source (the call's only) */
	int64_t		 pos;		/* how far: the source's meaning */
	int64_t		 counted;	/* people's clicks moved so far */
	int64_t		 total;		/* the source's count; -1 unknown */
};

/* Calls fn for each link of account_id imported from source whose
 * history is pending, by id, until fn answers 0.  0 or -1. */
int	store_import_pending(struct lz_db *, int64_t account_id,
	    const char *source, int (*fn)(const struct store_import_pending *,
	    void *), void *arg);
/* How far link_id's history has been moved: pos (-1 all of it) with
 * counted people's clicks.  0 or -1. */
int	store_import_progress(struct lz_db *, int64_t link_id, int64_t pos,
	    int64_t counted);
/* For a batch of items: calls fn for each original id among ids (a JSON
 * array of strings) account_id imported from source before; -1, or
 * the count. */
long	store_import_seen_many(struct lz_db *, int64_t account_id,
	    const char *source, const json_t *ids,
	    void (*fn)(const char *original_id, void *), void *arg);
/* store_import_add of a batch in one statement: rows a JSON array of
 * [link id, source, original id, history_pos (0 history to follow, -1
 * none), total clicks].  0 or -1. */
int	store_import_add_many(struct lz_db *, int64_t account_id, int64_t now,
	    const json_t *rows);
/* Sets when link id was made (an import's).  0 or -1. */
int	store_link_set_created(struct lz_db *, int64_t id, int64_t at);
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
