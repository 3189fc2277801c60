/*
 * import_load.h -- what the loaders of the data file share: the rows of
 * a list's field table (struct ifield), the description of a list
 * (struct records) by which import_load.c reads it, and the lists
 * themselves, each defined beside its table and reader: the prompts in
 * import_prompts.c, the rest in import_catalog.c.
 *
 * Include it last: its shorthands for the tables' rows are short names.
 */
#ifndef LZ_IMPORT_LOAD_H
#define LZ_IMPORT_LOAD_H

#include <stddef.h>

#include <jansson.h>

#include "import_check.h"

/* Shorthands of the tables' rows. */
#define S	LZ_JT_STRING
#define SN	(LZ_JT_STRING | LZ_JT_NULL)
#define A	LZ_JT_ARRAY
#define AN	(LZ_JT_ARRAY | LZ_JT_NULL)
#define REQ	(LZ_JF_REQUIRED | LZ_JF_NONEMPTY)	/* there, not empty */
#define ML	LZ_JF_MULTILINE

#define SLUG_LEN	100	/* slugs, keys and the values of sets */
#define URL_LEN		2000
#define TIME_LEN	40
#define DATE_LEN	10

/*
 * A row of a list's field table: the field (what lz_json_fields checks),
 * how its value is read and where it goes in the loader's record, so
 * that imp_read_fields reads a record from its rows.  The rows are in
 * the order the values are read and reported.
 */
enum { V_OWN, V_TEXT, V_SLUG, V_ONEOF, V_URL, V_DATE, V_TIME, V_STRINGS };
#define V_KIND		0x0f
#define V_SEARCH	0x10	/* in the entry's search text */

struct ifield {
	struct lz_jfield	 f;
	unsigned		 how;	/* V_*: V_OWN, the loader reads it */
	size_t			 off;	/* of the value in the record */
	const char *const	*set;	/* V_ONEOF: the values */
};

/* The first row of every list: its key, a slug unique in the list. */
#define KEY(name, off)	{ { (name), S, REQ, 1, SLUG_LEN }, V_SLUG, (off) }

/*
 * The rows i and i_EN of a text and its English translation, which may
 * be absent and is bounded as the text is (lz-prompts-data(5)); at(m)
 * is where member m of the record is.
 */
#define TEXT_EN(i, name, flags, max, at, m)				\
	[i] = { { name, S, REQ | (flags), 0, (max) }, V_TEXT, at(m) },	\
	[i##_EN] = { { name "_en", SN, (flags), 0, (max) }, V_TEXT,	\
	    at(m##_en) }

/* A field table and its number of rows, for a list's description. */
#define TABLE(f)	(f), LZ_NELEM(f)

/*
 * A list of the file whose objects are records (struct itool, struct
 * imodel, ...), each read from the rows of the list's field table: by
 * read, when the list has checks of its own, else by imp_read_fields.
 * A record with errors is dropped, unless the list keeps it (its key
 * read) so that references to it add no errors of their own.  The
 * records' keys must be unique in the list.
 */
struct records {
	const char		*name;		/* "models" */
	const struct ifield	*fields;	/* the key first */
	size_t			 nfields;
	size_t			 search;	/* of its search text, or 0 */
	int			 faulty;	/* keeps records with errors */
	/* Reads o into rec; 0 drops the record. */
	int			(*read)(struct import *, const json_t *o,
				    const struct imp_at *, void *rec);
	/* The list's checks once all of it is read (NULL: none). */
	void			(*after)(struct import *);
};

/* The lists, in the order of the file (import.c). */
extern const struct records imp_tools_list, imp_tags_list,
	    imp_prompts_list, imp_collections_list, imp_models_list,
	    imp_integrations_list, imp_tutorials_list, imp_keywords_list;

/* Reads the values of rows [from, to) of fl from o into rec. */
void	imp_read_fields(struct import *, const json_t *o, const char *pre,
	    const struct ifield *fl, size_t from, size_t to, void *rec);
/* The slug of o, and its path with it ("prompts[3] (slug)") in pre once
 * known, so that what is reported after names the entry. */
const char *imp_slug_path(struct import *, const json_t *o,
	    const struct imp_at *, const struct lz_jfield *f, char *pre,
	    size_t len);

#endif
