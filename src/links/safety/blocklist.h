/*
 * blocklist.h -- the local blocklists of the safety scan (DESIGN 3.5):
 * reading the usual feed formats, importing them into the links database
 * and matching a destination against them.
 *
 * Entries are of two kinds.  A "host" entry (hosts files, lzctl blocklist
 * add HOST) lists a host and every host under it.  A "url" entry (URL
 * feeds, lzctl blocklist add URL) is the Safe Browsing expression of a
 * canonical URL -- host, path and query without scheme or port -- and
 * matches a destination when it equals one of the destination's lookup
 * expressions (canon_expressions): "evil.example/" lists the whole site,
 * "evil.example/login/" everything under /login/, and
 * "evil.example/a.php?id=1" that page with and without other queries only
 * as Safe Browsing would.
 */
#ifndef LZ_BLOCKLIST_H
#define LZ_BLOCKLIST_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct canon;
struct lz_db;

enum bl_format {
	BL_URLHAUS_CSV = 0,	/* abuse.ch URLhaus CSV dump */
	BL_PHISHTANK_JSON,	/* PhishTank online-valid.json */
	BL_PHISHTANK_CSV,	/* PhishTank online-valid.csv */
	BL_OPENPHISH,		/* OpenPhish feed.txt: one URL a line */
	BL_HOSTS,		/* hosts file, or one host name a line */
	BL__MAX
};

/* "urlhaus-csv", "phishtank-json", ... (the --format names). */
extern const char *const bl_format_names[BL__MAX];
/* The default source name of each format: "urlhaus", "phishtank", ... */
extern const char *const bl_format_sources[BL__MAX];

/* The format called name, or -1. */
int	bl_format_parse(const char *name);

#define BL_REASON_MAX	200

struct bl_entry {
	const char	*kind;			/* "host" or "url" */
	char		*value;			/* canonical */
	char		 reason[BL_REASON_MAX];	/* "phishing; target: ..." */
};

struct bl_stats {
	long	 records;	/* lines or objects read */
	long	 entries;	/* entries found (duplicates included) */
	long	 skipped;	/* records without a usable URL or host */
	long	 pruned;	/* entries of the source no longer listed */
};

/*
 * Reads a feed from f and calls fn for every entry (fn returns 0, or -1
 * to stop).  Returns 0, or -1 with a message in err when the input is not
 * of the format or fn stopped.
 */
int	bl_parse(FILE *f, enum bl_format fmt,
	    int (*fn)(const struct bl_entry *, void *), void *arg,
	    struct bl_stats *st, char *err, size_t errlen);

/*
 * The entry for a URL ("scheme://...": a url entry) or a host name (a host
 * entry) given by hand.  Returns 0 with e->value set (caller frees), or -1
 * when text is neither.
 */
int	bl_entry_from_text(const char *text, struct bl_entry *e);

/*
 * Imports a feed into db under source.  Entries are written in short
 * transactions, so link creation goes on during a long import; unless
 * keep is set, the entries of source that the feed no longer lists are
 * dropped at the end.  A feed without any entry changes nothing and is an
 * error (a failed download must not empty a list).  Tells progress (NULL:
 * nobody) how far it is: bytes of a regular file read, else entries.
 * Returns 0, or -1 with err.
 */
int	bl_import(struct lz_db *, FILE *f, enum bl_format fmt,
	    const char *source, int keep, int64_t now, lz_progress_fn *progress,
	    struct bl_stats *st, char *err, size_t errlen);

/*
 * Matches the canonical destination c: its host and each parent domain
 * against host entries, its lookup expressions against url entries.
 * Returns 1 when listed (why: a sentence fragment naming the entry and
 * list), 0 when not, -1 on a database error.  A batch of one.
 */
int	bl_match(struct lz_db *, const struct canon *c, char *why,
	    size_t whylen);

/*
 * bl_match of many destinations at once (a batch's: an import's thousand
 * links, a bulk call's): each one's look-ups put with bl_batch_add
 * (which numbers the destinations 0, 1, ...), the distinct ones asked of
 * the database in one go by bl_batch_run (one statement on PostgreSQL),
 * then each destination's answer read by bl_batch_why -- the same as
 * bl_match's.  Zero the struct to start; bl_batch_free when done.
 */
struct bl_batch {
	struct lz_strtab	  q;		/* "kind\x1fvalue", distinct */
	size_t			 *at;		/* each destination's questions */
	size_t			  nat, atcap;	/* (numbers in q), in order */
	size_t			 *dest;		/* destination k's: at[dest[3k]],
						   dest[3k+1] of them, the
						   first dest[3k+2] hosts */
	size_t			  ndest, dcap;
	char			**hit;		/* by question: "source\x1freason"
						   when listed, else NULL */
};

size_t	bl_batch_add(struct bl_batch *, const struct canon *c);
/* 0, or -1 on a database error. */
int	bl_batch_run(struct lz_db *, struct bl_batch *);
/* Destination k's answer after bl_batch_run: 1 listed with why, 0 not. */
int	bl_batch_why(const struct bl_batch *, size_t k, char *why,
	    size_t whylen);
void	bl_batch_free(struct bl_batch *);

#endif
