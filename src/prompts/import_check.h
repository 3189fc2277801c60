/*
 * import_check.h -- the importer's own (import.h is what lzctl sees):
 * what it reads a data file into, and the checks its loaders share.
 *
 * The loaders (import_load.h) check each object of the file against its
 * field table (lz_json_fields: unknown keys, types, required fields),
 * then each value against its row: the checks below take the row, which
 * holds the field's name, whether it may be empty or hold line breaks
 * (LZ_JF_NONEMPTY, LZ_JF_MULTILINE) and its bounds.  A problem is
 * reported with its JSON path and does not stop the check, so one run
 * lists them all.
 */
#ifndef LZ_IMPORT_CHECK_H
#define LZ_IMPORT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "jbody.h"
#include "pstore.h"
#include "util.h"


enum status { S_PUBLISHED, S_DRAFT, S_SCHEDULED };

struct itool {
	struct ptool	 t;
	json_t		*aliases;
	int64_t		 id;
};

struct itag {
	struct ptag	 t;
	json_t		*aliases;
	int64_t		 id;
};

struct iprompt {
	struct pprompt	 p;		/* ids filled when written */
	enum status	 status;
	long long	 rank;
	size_t		 tool;		/* index in tools[] */
	size_t		*tags;		/* indexes in tags[] */
	size_t		 ntags;
	json_t		*variables;	/* as given */
	char		*tags_json, *vars_json, *preview, *preview_en;
	char		*search;
};

struct iitem {
	size_t		 prompt;	/* index in prompts[] */
	const char	*note, *note_en;
};

struct icoll {
	struct pcoll	 c;
	int		 published;
	struct iitem	*items;
	size_t		 nitems;
};

struct imodel {
	struct modelrow	 m;
	char		*search;
};

struct iinteg {
	struct integrow	 i;
	size_t		 tool;
};

struct itut {
	struct tutrow	 t;
	char		*search;
};

struct ikw {
	struct kwrow	 k;
	json_t		*related, *tags;
	char		*related_json, *tags_json, *search;
};

struct import {
	const char	*file;
	FILE		*errs;
	int		 nerr;
	int64_t		 now;
	json_t		*root;

	struct itool	*tools;
	size_t		 ntools;
	struct itag	*tags;
	size_t		 ntags;
	struct iprompt	*prompts;
	size_t		 nprompts;
	struct icoll	*colls;
	size_t		 ncolls;
	struct imodel	*models;
	size_t		 nmodels;
	struct iinteg	*integs;
	size_t		 ninteg;
	struct itut	*tuts;
	size_t		 ntuts;
	struct ikw	*kws;
	size_t		 nkws;

	/* Sorted views for look-ups by slug or name. */
	size_t		*prompt_by_slug;
	/* Names the tool and tag filters accept, with their owner. */
	struct name	*toolnames, *tagnames;
	size_t		 ntoolnames, ntagnames;

	/* What the build stored and left out. */
	size_t		 stored_prompts, drafts, scheduled, due;
	size_t		 stored_colls, dropped_items;
};

struct name {
	char		*name;
	size_t		 owner;
};

/* Reports a problem at path (a JSON path, or a list's name). */
void	imp_bad(struct import *, const char *path, const char *fmt, ...)
	    LZ_PRINTF(3, 4);

/* Where an object of a list is. */
struct imp_at {
	const char	*path;		/* "tools[3]" */
	size_t		 i;		/* its index in the list */
	void		*arg;		/* imp_list's */
};

/*
 * Calls fn(m, o, at) for each object o of the list called name ("tools",
 * or a path: "prompts[3] (slug).variables") once o passed its field
 * table f[0..n).
 */
void	imp_list(struct import *, const json_t *arr, const char *name,
	    const struct lz_jfield *f, size_t n,
	    void (*fn)(struct import *, const json_t *o,
	    const struct imp_at *at), void *arg);
/* o against its field table, prefix the path of its fields; 0, or -1
 * after reporting. */
int	imp_fields(struct import *, const json_t *o, const struct lz_jfield *,
	    size_t, const char *prefix);

/*
 * The values of field f of o, at path pre.  Absent, null (or "" for
 * texts) is NULL, "", 0 or def, and an error with LZ_JF_NONEMPTY; a
 * value that fails its check is reported and read as absent.
 */
/* A text: no control characters (but line breaks and tabs with
 * LZ_JF_MULTILINE), at most f->max characters. */
const char *imp_text(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f);
/* A slug: 1 to f->max of a-z, 0-9 and '-'. */
const char *imp_slug(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f);
/* One of set (never absent: set[0] then). */
const char *imp_oneof(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f, const char *const *set);
/* An http(s) URL with a host, as libcurl parses it; "" when absent. */
const char *imp_url(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f);
/* An ISO 8601 time with an offset, in ms; 0 when absent. */
int64_t	imp_time(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f);
/* A YYYY-MM-DD date; "" when absent. */
const char *imp_date(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f);
/* An integer in f->min..f->max; def when absent. */
long long imp_integer(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f, long long def);
/* An array of at most f->max non-empty strings without control
 * characters; NULL when absent. */
json_t	*imp_strings(struct import *, const json_t *o, const char *pre,
	    const struct lz_jfield *f);

/* ---- look-ups ---------------------------------------------------------- */

void	imp_name_add(struct name **, size_t *, char *name, size_t owner);
/* Sorts names and reports a name given to two different owners (the same
 * owner may name itself twice); what names the list, label an owner. */
void	imp_names_check(struct import *, struct name *, size_t *,
	    const char *what, const char *(*label)(struct import *, size_t));
/* Reports slugs used twice in the list called list of n objects. */
void	imp_unique(struct import *, const char *list, size_t n,
	    const char *(*slugof)(struct import *, size_t));
/* Sorts the prompts by slug, for imp_prompt_find. */
void	imp_prompts_sort(struct import *);
/* The index of the prompt called s, or -1. */
long	imp_prompt_find(struct import *, const char *s);
/* The index of the tool with key s (or, with aliases, named s), or -1. */
long	imp_tool_find(struct import *, const char *s, int aliases);
/* The index of the tag called s, or -1. */
long	imp_tag_find(struct import *, const char *s);

/* ---- the loaders (import_load.c), in the order of the file ------------- */

void	imp_load_tools(struct import *, const json_t *);
void	imp_load_tags(struct import *, const json_t *);
void	imp_load_prompts(struct import *, const json_t *);
void	imp_load_collections(struct import *, const json_t *);
void	imp_load_models(struct import *, const json_t *);
void	imp_load_integrations(struct import *, const json_t *);
void	imp_load_tutorials(struct import *, const json_t *);
void	imp_load_keywords(struct import *, const json_t *);

#endif
