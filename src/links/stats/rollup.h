/*
 * rollup.h -- what clicks add to the statistics' rollups (DESIGN 3.10,
 * sql/links/0008-rollups.sql), and rebuilding them from the raw rows.
 *
 * A struct rollup sums a batch of clicks in memory: per link and hour,
 * the total and each value of each breakdown, people and bots apart, and
 * each visitor-day's first and last click.  rollup_write() then writes
 * one upsert per (link, hour, breakdown, value) of the batch, which also
 * adds to its day's row -- not one per click -- and one upsert per
 * visitor-day, in the caller's transaction: the click mover's, with the clicks and the
 * journal's position (visit/click.h), so a crash neither loses nor
 * repeats a sum.
 *
 * Visitors: a visitor id is a keyed hash with a daily salt (visitor.h),
 * so a visitor-day is (link, UTC day, id).  click_visitors keeps each
 * one's first and last click for the last CLICK_VISITOR_DAYS days; a
 * visitor-day counts once, in the hour of its first click (moved back
 * when an earlier click of the day arrives later), so the visitors of a
 * range are the visitor-days whose first click is in it, and a day's
 * are exactly its visitor-days.  A click of a day older than that
 * (moved more than 30 days late) is added to every sum but visitors;
 * rollup_rebuild() counts it.
 */
#ifndef LZ_ROLLUP_H
#define LZ_ROLLUP_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct click;
struct lz_db;

/* UTC days of visitors kept, today's included: conversion.h's
 * attribution looks CONV_ATTRIBUTION_DAYS back from now. */
#define CLICK_VISITOR_DAYS	31

struct ru_entry;

/*
 * Who sums a link's rows besides it: its account and its tags, on its
 * domain (sql/links/0015-account-stats.sql).  A writer that gives them
 * (struct rollup's owners) has rollup_write() write the scopes' sums of
 * the batch itself, summed in memory across its links, with the
 * triggers that would add each row's paused (0021, pg/0023).  The tags
 * may be read by owners_read, which rollup_write() calls once the links'
 * rows are written: on PostgreSQL, whose writers run side by side, it
 * takes the accounts' scope locks (store_scope_lock) first, as the
 * triggers do after their rows, so that a tag put on meanwhile is
 * either seen there or adds these rows itself.
 */
struct rollup_owner {
	int64_t		 link_id;
	int64_t		 account_id;
	int64_t		 domain_id;	/* 0 the default */
	const int64_t	*tags;
	size_t		 ntags;
};

/* A batch's sums.  Zeroed, it is empty; its fields are rollup.c's but
 * owners, which the writer sets (or leaves NULL: the triggers). */
struct rollup {
	const struct rollup_owner *owners;	/* by link_id */
	size_t		 nowners;
	int		(*owners_read)(struct lz_db *, void *);	/* 0, -1 */
	void		*owners_arg;
	struct ru_entry	*e;		/* in the order first added */
	size_t		 n, cap;
	uint32_t	*slots;		/* hash table: index + 1, 0 empty */
	size_t		 nslots;
	struct lz_buf	 bytes;		/* identities and texts of e */
	struct lz_buf	 id;		/* the identity being looked up */
	unsigned char	 key[16];	/* of the hash */
};

/* Adds click c, whose referrer's host is rhost. */
void	rollup_click(struct rollup *, const struct click *c,
	    const char *rhost);

/*
 * Writes the sums in the caller's transaction and empties ru (also on
 * failure).  now: the clock for the visitors' horizon.  whole: ru holds
 * every click of its link-days (a rebuild), so the visitors of days past
 * the horizon are counted from it.  0 or -1.
 */
int	rollup_write(struct lz_db *, struct rollup *, int64_t now, int whole);

/* Empties ru without writing and frees its memory. */
void	rollup_free(struct rollup *);

/* Where a rebuild is, for its progress. */
struct rollup_progress {
	int64_t	 link_id;
	int64_t	 day;		/* ms of the UTC day just rebuilt */
	long	 links, days;	/* done, this one included */
	long	 clicks, conversions;
};

/*
 * Recomputes the rollups of link_id (0: of every link) from its raw
 * clicks and conversions, from the UTC day holding since on: each
 * link-day that has raw rows or rollups in one short write transaction
 * of its own (its rollups and visitors deleted, then its clicks and
 * conversions added again), so the pools' writers wait at most one day
 * of one link.  Days before since keep their rollups (raw clicks past
 * retention are gone).  progress, when not NULL, is called after each
 * day.  0 or -1.
 */
int	rollup_rebuild(struct lz_db *, int64_t link_id, int64_t since,
	    int64_t now, void (*progress)(const struct rollup_progress *,
	    void *), void *arg);

#endif
