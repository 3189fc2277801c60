/*
 * import.h -- moving links in from another shortener (lz-links(8)
 * "Importing", lzctl(8) import).  Each source (src_csv.c, src_yourls.c)
 * reads its own format and hands this engine one item per link: a create
 * body and where it comes from.  The engine writes them a thousand at a
 * time through linkops_import(), under every rule of a create (the
 * safety scan, the link cap unless told otherwise), each link
 * remembering its source and id there so that an import run again makes
 * nothing twice; a slug taken or outside lz's rules is renamed or the
 * item skipped, as the import was told.  A source with click history
 * moves it in afterwards (history.h), link by link.  The same engine
 * serves lzctl and the dashboard.
 */
#ifndef LZ_IMPORT_H
#define LZ_IMPORT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "util.h"

struct lz_conf;
struct lz_db;
struct lz_plan;

#define IMPORT_BATCH	1000

struct import_opts {
	int64_t			 account_id;
	const struct lz_plan	*plan;		/* NULL: no link cap */
	const char		*domain;	/* items without one; NULL default */
	int			 rename;	/* on a taken or bad slug: rename,
						   else skip */
	int			 dry;		/* check all, keep nothing */
	/* An item skipped: its line (0 none), id at the source, the error's
	 * code and message.  May be NULL. */
	void			(*skipped)(long line, const char *id,
				    const char *code, const char *msg,
				    void *arg);
	/* An item made under another slug than its own.  May be NULL. */
	void			(*renamed)(long line, const char *id,
				    const char *slug, void *arg);
	lz_progress_fn		*progress;	/* may be NULL */
	void			*arg;
};

struct import_stats {
	long	 rows;		/* read */
	long	 imported;	/* made (with dry: would be) */
	long	 renamed;	/* of them, under another slug */
	long	 already;	/* imported before: left alone */
	long	 skipped;	/* refused: bad rows, unsafe, capped, ... */
	/* Sources with history (history.h): */
	long	 links_history;	/* links whose clicks were moved in */
	long	 clicks;	/* clicks moved in: rollups, and raw rows ... */
	long	 clicks_raw;	/* ... for those within clicks_retention_days */
	long	 clicks_bots;	/* of clicks, bots' (never counted) */
	long	 no_breakdown;	/* clicks of the sources' counts beyond their
				   history: in the links' counts only */
};

/* A link read from a source, on its way in. */
struct import_item {
	long		 line;		/* where it was read; 0 none */
	json_t		*body;		/* its create body: taken over */
	const char	*id;		/* its id at the source */
	const char	*slug;		/* as the source has it; NULL none */
	int64_t		 created_at;	/* made there, ms; 0 unknown */
	int64_t		 total_clicks;	/* the source's count; -1 unknown */
	int		 history;	/* its clicks follow (history.h) */
};

struct import_run;

/* Starts an import from source ("csv", "yourls", ...): the stats are
 * zeroed. */
struct import_run *import_begin(struct lz_db *, const struct lz_conf *,
	    const char *source, const struct import_opts *,
	    struct import_stats *);

/* Adds an item (written when a batch is full).  Counts a row read. */
void	import_add(struct import_run *, struct import_item *);

/* A row read that could not be made into an item: counted as read and
 * as skipped, and reported. */
void	import_refuse(struct import_run *, long line, const char *id,
	    const char *code, const char *msg);

/* Stops the import: why, for the caller (o->skipped's "failed"); how:
 * -1 the database failed, -2 the source. */
void	import_fail(struct import_run *, int how, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* 0 while the import goes on, else import_fail()'s how. */
int	import_failed(const struct import_run *);

/* Writes every item added so far, renamed ones included: before what
 * needs them in the database (a source's history). */
void	import_drain(struct import_run *);

/* The last items written; 0 or how it failed (then reported as
 * "failed" to o->skipped).  Frees the run. */
int	import_end(struct import_run *);

/*
 * Imports the CSV file in (csv.h; "csv" its source name) into db under
 * conf's rules.  0; -1 when the database failed, -2 when the file could
 * not be read or has no header of a URL column (what was written before
 * stays: run it again to go on).  Why goes to o->skipped as "failed".
 */
int	import_csv(struct lz_db *, const struct lz_conf *, FILE *in,
	    const struct import_opts *, struct import_stats *);

/* Where a YOURLS database is (lzctl import yourls). */
struct yourls_source {
	const char	*url;		/* mysql://USER:PASS@HOST[:PORT]/DB
					   [?socket=PATH] */
	const char	*prefix;	/* of its tables; NULL "yourls_" */
	const char	*timezone;	/* of its times; NULL the server's */
};

/*
 * Imports the links of a YOURLS database, then their click history
 * (history.h), source name "yourls".  0; -1 when lz's database failed,
 * -2 when YOURLS's could not be read.
 */
int	import_yourls(struct lz_db *, const struct lz_conf *,
	    const struct yourls_source *, const struct import_opts *,
	    struct import_stats *);

#endif
