/*
 * csv.h -- CSV files as other shorteners export them (RFC 4180): a
 * reader of records, and the columns an import takes from them
 * (lz-links(8) "Importing", lzctl(8) import csv).
 *
 * The reader takes the bytes as they come (any size of chunk), a BOM at
 * the start skipped, records ended by CRLF or LF, fields separated by
 * the delimiter the header line uses (',' or ';': the first of them
 * outside quotes), quoted fields with "" for a quote and line breaks
 * inside.  A record's fields are copies, each at most CSV_FIELD_MAX
 * bytes and at most CSV_FIELDS of them; a record over either, a quote
 * in the middle of an unquoted field, text after a closing quote, or
 * bytes that are not UTF-8 make it bad: reported with its line (the
 * line it starts on) and skipped whole, never half read.
 */
#ifndef LZ_CSV_H
#define LZ_CSV_H

#include <stddef.h>

#include "util.h"

#define CSV_FIELD_MAX	8192
#define CSV_FIELDS	64

struct csv_record {
	size_t		 nfields;
	const char	*field[CSV_FIELDS];	/* NUL-terminated, in buf */
	long		 line;			/* where it starts, from 1 */
	const char	*bad;			/* NULL, or why it is bad */
};

struct csv {
	int		 delim;		/* 0 until the header is seen */
	int		 state;
	long		 line, start;
	int		 bom;		/* bytes of a BOM seen so far */
	int		 at_start;
	const char	*bad;
	struct lz_buf	 field;
	struct lz_buf	 rec;		/* the record's fields, NUL after each */
	size_t		 off[CSV_FIELDS];
	size_t		 nf;
	int		 quoted;	/* the field began with a quote */
	int		 any;		/* the record has a byte of its own */
	void		(*fn)(const struct csv_record *, void *);
	void		*arg;
};

/* Starts reading: fn is called with each record, the header first. */
void	csv_init(struct csv *, void (*fn)(const struct csv_record *, void *),
	    void *arg);
/* Reads the next len bytes of the file. */
void	csv_feed(struct csv *, const char *p, size_t len);
/* Ends the file (a last record without its line break) and frees. */
void	csv_end(struct csv *);

/* The columns an import knows, and the header's name for each. */
enum csv_col {
	CSV_URL, CSV_SLUG, CSV_DOMAIN, CSV_TITLE, CSV_TAGS, CSV_NOTES,
	CSV_CREATED, CSV_EXPIRES, CSV_MAX_CLICKS, CSV_SHORT_URL,
	CSV_COL__MAX
};

/*
 * The column of header name h: compared without case, spaces and
 * underscores (so "Long URL", "long_url" and "longUrl" are one), the
 * names of lzctl(8) and those of Shlink's and Dub's exports; -1 for a
 * column an import leaves out.
 */
int	csv_column(const char *h);

#endif
