/*
 * store/safety.h -- what the safety scan stores: blocklist entries and
 * flagged links (safety/scan.h has the scan, safety/blocklist.h the
 * feeds; these are only the SQL).
 */
#ifndef LZ_STORE_SAFETY_H
#define LZ_STORE_SAFETY_H

#include <stddef.h>
#include <stdint.h>

struct link;
struct lz_db;

/* One blocklist entry as listed (strings valid during the callback). */
struct bl_row {
	const char	*kind;		/* "host" or "url" */
	const char	*value;
	const char	*source;
	const char	*reason;
	int64_t		 added_at;
};

/* Looks up an entry of kind ("host", "url") and value; 1 found (source
 * and reason copied), 0 not, -1 error. */
int	store_bl_find(struct lz_db *, const char *kind, const char *value,
	    char *source, size_t srclen, char *reason, size_t reasonlen);
/*
 * Which of the entries kind[i], value[i] (i < n) are listed: fn(i, its
 * source, its reason, arg) for each (one source when several list it).
 * In one read transaction on SQLite (a look-up each, in process), one
 * statement on PostgreSQL (a batch's every question in one round trip).
 * 0 or -1.
 */
int	store_bl_find_many(struct lz_db *, const char *const *kind,
	    const char *const *value, size_t n,
	    void (*fn)(size_t, const char *, const char *, void *), void *arg);
/* Adds an entry, or marks it seen at now; 0 or -1. */
int	store_bl_upsert(struct lz_db *, const char *kind, const char *value,
	    const char *source, const char *reason, int64_t now);
/* Drops the entries of source not seen since before; count or -1. */
long	store_bl_prune(struct lz_db *, const char *source, int64_t before);
/* Drops an entry from source (NULL: from every source); count or -1. */
long	store_bl_remove(struct lz_db *, const char *kind, const char *value,
	    const char *source);
/* Calls fn for up to limit entries (of source, or all when NULL) in
 * order; returns the count or -1. */
long	store_bl_list(struct lz_db *, const char *source, long limit,
	    void (*fn)(const struct bl_row *, void *), void *arg);
/* Calls fn with the entry count and last import of every source. */
long	store_bl_count(struct lz_db *, void (*fn)(const char *source,
	    long long entries, int64_t seen_at, void *), void *arg);

/* Live, unflagged links with id above after, in id order, up to limit;
 * returns the count or -1. */
long	store_link_scan(struct lz_db *, int64_t after, long limit,
	    void (*fn)(struct link *, void *), void *arg);
/* Flags (disables) a live link with a reason.  1, 0 (already flagged or
 * none), -1. */
int	store_link_flag(struct lz_db *, int64_t id, int64_t now,
	    const char *reason);
/* Clears the flag of a link.  1, 0 (not flagged), -1. */
int	store_link_unflag(struct lz_db *, int64_t id);
/* Flagged live links, most recently flagged first; count or -1. */
long	store_link_flagged(struct lz_db *, long limit,
	    void (*fn)(struct link *, void *), void *arg);

#endif
