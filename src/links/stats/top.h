/*
 * top.h -- the links of a scope with most clicks in a range: the
 * top_links of GET /api/v1/stats (DESIGN 3.13).
 *
 * Exact without reading every link's rollups: the links are walked
 * most counted clicks first (links.clicks, every human click a link
 * ever had, on an index), each one's clicks in the range read from its
 * rollups, and the walk stops once the next link's clicks ever could
 * not pass the last of the STATS_TOP_LINKS found.  A range that holds
 * most of the clicks (the last 30 days of links made in them, the
 * common case) stops after a few more than STATS_TOP_LINKS links; a
 * range far in the past, where today's big links had nothing, walks
 * further: at worst every link of the scope.
 */
#ifndef LZ_TOP_H
#define LZ_TOP_H

#include <stdint.h>

#include <jansson.h>

struct lz_db;
struct stats_range;
struct store_scope;

#define STATS_TOP_LINKS	10

/* A link of the top: its id, human clicks and conversions in the range. */
struct top_link {
	int64_t	 id, clicks, conversions;
};

/*
 * The top links of account_id's scope sc (an account's or a tag's, of a
 * domain or all) in r (whole hours, as stats_add_scope left it) into
 * top (STATS_TOP_LINKS), most clicks first (ties: newest first); links
 * without clicks in r are left out.  The number found, or -1.
 */
int	stats_top_links(struct lz_db *, int64_t account_id,
	    const struct store_scope *sc, const struct stats_range *r,
	    struct top_link *top);

#endif
