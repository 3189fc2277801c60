/*
 * history.h -- imported links' clicks moved in from their source
 * (lzctl(8) import yourls; sql/links/0019-import-history.sql).
 *
 * After its links, a source with history hands each pending link's
 * clicks here, link after link, oldest first, each with its position at
 * the source.  They enter storage as clicks of the past (record.h,
 * RECORD_PAST): the links' counts, their rollups (and their accounts'
 * and tags' sums), a raw row while within clicks_retention_days -- no
 * webhook event.  Some thousands go in one short transaction, of as many
 * links as they are (on SQLite the scopes' sums of them all summed in
 * memory: rollup.h's owners), cut between links or where a link's UTC
 * day ends, so each visitor-day is whole in one (visitors of days past
 * the rollups' horizon are counted from it).  The transaction also
 * stores how far each of its links' history got: an import stopped
 * half-way goes on from there, and no click moves twice.  Once its
 * history is in, a link's count is set to the source's own when it has
 * one: clicks it counted beyond its log have no breakdown.
 *
 * The visitor id is lz's (visitor.h), of the address and User-Agent the
 * source kept; the address itself is dropped.
 */
#ifndef LZ_HISTORY_H
#define LZ_HISTORY_H

#include <stdint.h>

struct import_stats;
struct lz_conf;
struct lz_db;
struct store_import_pending;

/* One click as a source kept it. */
struct import_click {
	int64_t		 at;		/* ms since the epoch */
	const char	*referrer;	/* "" or NULL none */
	const char	*user_agent;	/* "" or NULL unknown */
	const char	*country;	/* ISO 3166-1 alpha-2; "" or NULL */
	const char	*addr;		/* the client's address; "" or NULL */
	int		 bot;		/* 1 the source says so, else from
					   the User-Agent */
};

struct history;

/* Starts moving histories in; counts go to st. */
struct history	*history_open(struct lz_db *, const struct lz_conf *,
		    struct import_stats *st);

/* The next link, pending link p (store/links.h): its clicks follow.  0,
 * or -1 when the database failed. */
int		 history_link(struct history *, const struct store_import_pending
		    *p);

/* Adds click c of the link, at position pos of the source.  0, or -1
 * when the database failed (each link stays pending from its last
 * stored position). */
int		 history_add(struct history *, int64_t pos,
		    const struct import_click *c);

/* The link's clicks end here; complete: the source has no more (the
 * link is done with the transaction of its last clicks, its count set
 * to the source's), else it stays pending. */
void		 history_link_end(struct history *, int complete);

/* The last clicks written, h freed.  0 or -1. */
int		 history_close(struct history *);

/* One link alone: history_open() and history_link() (NULL when the link
 * cannot be read); history_link_end() and history_close(). */
struct history	*history_begin(struct lz_db *, const struct lz_conf *,
		    const struct store_import_pending *p,
		    struct import_stats *st);
int		 history_end(struct history *, int complete);

#endif
