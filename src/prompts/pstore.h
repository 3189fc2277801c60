/*
 * pstore.h -- the prompt library's storage (DESIGN 1): its SQL, for the
 * service (reads: pstore.c, pstore_catalog.c) and for "lzctl prompts
 * import" (the build: pstore_build.c), on db.h's statement API.
 *
 * Reads hand each row to a callback; the strings of a row are valid only
 * during the call.  Functions returning counts return -1 on a database
 * error (logged).  Times are ms since the epoch; "now" decides which
 * scheduled prompts are visible.
 */
#ifndef LZ_PSTORE_H
#define LZ_PSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

struct lz_buf;

extern const struct lz_migration lz_prompts_migrations[];
extern const size_t lz_prompts_nmigrations;

/* Opens the database read-only (immutable), checks its schema version
 * and prepares the service's statements.  0, or -1 with err. */
int	pstore_open(struct lz_db *, const char *path, char *err,
	    size_t errlen);

/* ---- names ----------------------------------------------------------- */

/* The tag / tool a normalised name stands for: id, 0 unknown, -1. */
int64_t	pstore_tag_id(struct lz_db *, const char *name);
int64_t	pstore_tool_id(struct lz_db *, const char *name);
/* The slug of tag id into buf; 1, 0, -1. */
int	pstore_tag_slug(struct lz_db *, int64_t id, char *buf, size_t len);

/* ---- prompts ----------------------------------------------------------- */

enum psort {
	PSORT_RECOMMENDED,
	PSORT_UPDATED,
	PSORT_RATING
};

struct pfilter {
	const char	*q;		/* folded query, or NULL */
	int64_t		 tag_id;	/* 0 any; -1 an unknown topic */
	int64_t		 tool_id;	/* 0 any */
	const char	*category;	/* NULL any */
	int		 free_only;
	enum psort	 sort;
	int64_t		 now;
};

/*
 * The visible prompts that pass f: their number (before paging), and the
 * ids of the page [offset, offset + limit) in f->sort order in ids[] (room
 * for limit), *nids of them.  -1 on error.  A search (q or tag) is answered
 * from the stored sets and the gram index (grams.h); a list by facets
 * only, from the orders' indexes and the facet counts.
 */
long long pstore_prompt_find(struct lz_db *, const struct pfilter *f,
	    long long offset, long limit, int64_t *ids, long *nids);

/* Prompts updated at or after since, newest first: the number, and the
 * first limit ids. */
long long pstore_changelog(struct lz_db *, int64_t since, int64_t now,
	    long limit, int64_t *ids, long *nids);

/* When the next scheduled prompt becomes visible after now (INT64_MAX:
 * none); until then every answer that depends on now stays the same.
 * -1 on error. */
int64_t	pstore_next_visible(struct lz_db *, int64_t now);

/*
 * The texts of a prompt in both languages (NULL: untranslated), the
 * members of struct prow and of struct pprompt (the import renders the
 * one from the other).  PRO entries have no full_prompt, full_prompt_en
 * or variables.
 */
#define PSTORE_PROMPT_TEXTS						\
	const char	*title, *title_en, *summary, *summary_en;	\
	const char	*preview, *preview_en, *context, *context_en;	\
	const char	*sample_output, *sample_output_en;		\
	const char	*full_prompt, *full_prompt_en, *variables

struct prow {
	int64_t		 id;
	const char	*slug, *category, *tool, *difficulty;
	const char	*tags;			/* JSON array of slugs */
	int		 is_pro;
	int64_t		 updated_at;
	int		 rated;
	double		 rating_avg;
	long long	 rating_count;
	/* A summary has title and summary only; the rest are set by the
	 * import, which renders the detail answer (prompt_detail_object),
	 * and never read back from the database. */
	PSTORE_PROMPT_TEXTS;
};

typedef void (*prow_fn)(const struct prow *, void *);

/* The summary of prompt id (visibility already checked).  1, 0, -1. */
int	pstore_prompt_summary(struct lz_db *, int64_t id, prow_fn, void *);
/* The stored detail answer of the visible prompt called slug (a JSON
 * object without "url"; en: the English one) appended to out.  1, 0
 * (none, or not visible), -1. */
int	pstore_prompt_detail(struct lz_db *, const char *slug, int64_t now,
	    int en, struct lz_buf *out);

/* ---- tags and tools ---------------------------------------------------- */

struct tagrow {
	const char	*slug, *label, *label_en;
	long long	 count;		/* visible prompts */
};

/* Tags with at least min_count visible prompts whose labels or aliases
 * contain q (folded; NULL: all), most used first: the number, and rows
 * [offset, offset + limit). */
long long pstore_tags(struct lz_db *, const char *q, long long min_count,
	    int64_t now, long long offset, long limit,
	    void (*)(const struct tagrow *, void *), void *);

struct toolrow {
	const char	*key, *label, *label_en, *medium;
	const char	*description, *description_en;
	long long	 count;
};

/* Tools of medium (NULL: all) matching q (NULL: all), in catalogue
 * order; limit -1 for all. */
long long pstore_tools(struct lz_db *, const char *medium, const char *q,
	    int64_t now, long long offset, long limit,
	    void (*)(const struct toolrow *, void *), void *);

struct integrow {
	const char	*key, *tool_key, *name, *vendor, *category;
	const char	*generator_kind, *generator_url;
	const char	*tool;		/* the canonical tool key */
	long long	 count;		/* visible prompts of the tool */
};

long	pstore_integrations(struct lz_db *, int64_t now,
	    void (*)(const struct integrow *, void *), void *);

struct modelrow {
	const char	*key, *name, *category, *version, *vendor;
	const char	*notes, *notes_en, *source_url, *checked_on;
	const char	*verified_on, *verification, *status, *tool_key;
	const char	*generator_url, *record_type;
};

long long pstore_models(struct lz_db *, const char *category, const char *q,
	    long long offset, long limit,
	    void (*)(const struct modelrow *, void *), void *);

/* ---- collections ------------------------------------------------------- */

struct collrow {
	int64_t		 id;
	const char	*slug, *title, *title_en, *summary, *summary_en;
	const char	*kicker, *kicker_en;	/* NULL when none */
	int		 has_cost;
	long long	 unlock_cost;
	int64_t		 updated_at;
	const char	*translation;
};

long long pstore_collections(struct lz_db *, long long offset, long limit,
	    void (*)(const struct collrow *, void *), void *);
int	pstore_collection(struct lz_db *, const char *slug,
	    void (*)(const struct collrow *, void *), void *);

struct itemrow {
	long long	 position;
	const char	*note, *note_en;
	const char	*slug, *title, *title_en;
	int		 is_pro;
};

/* The visible items of collection id in position order. */
long long pstore_collection_items(struct lz_db *, int64_t id, int64_t now,
	    long long offset, long limit,
	    void (*)(const struct itemrow *, void *), void *);

/* ---- tutorials and keywords --------------------------------------------- */

struct tutrow {
	const char	*slug, *title, *summary;
	const char	*markdown;		/* detail only */
	const char	*source_url;
	int64_t		 published_at, updated_at;
};

long long pstore_tutorials(struct lz_db *, const char *q, long long offset,
	    long limit, void (*)(const struct tutrow *, void *), void *);
int	pstore_tutorial(struct lz_db *, const char *slug,
	    void (*)(const struct tutrow *, void *), void *);

struct kwrow {
	const char	*slug, *term, *term_en, *category;
	const char	*definition, *when_to_use, *how_to_ask, *gotcha;
	const char	*related, *tags;	/* JSON arrays of slugs */
	int64_t		 updated_at;
};

long long pstore_keywords(struct lz_db *, const char *q, const char *category,
	    long long offset, long limit,
	    void (*)(const struct kwrow *, void *), void *);
int	pstore_keyword(struct lz_db *, const char *slug,
	    void (*)(const struct kwrow *, void *), void *);

/* ---- building a database (lzctl prompts import) ------------------------ */

/*
 * Creates a new database at path (which must not exist), applies the
 * schema and prepares the build statements; the caller then puts
 * everything inside pstore_build_begin / pstore_build_end.
 */
int	pstore_create(struct lz_db *, const char *path, char *err,
	    size_t errlen);
int	pstore_build_begin(struct lz_db *);
/* Computes ranks, counts, facets and the stored sets and orders of
 * searches, commits, switches the file to
 * rollback-journal mode (nothing writes it again) and checks it. */
int	pstore_build_end(struct lz_db *, char *err, size_t errlen);

int	pstore_put_meta(struct lz_db *, const char *key, const char *value);

struct ptool {
	const char	*key, *label, *label_en, *medium;
	const char	*description, *description_en, *search;
};
int64_t	pstore_put_tool(struct lz_db *, const struct ptool *);
/* 0, 1 when the name is taken already, -1. */
int	pstore_put_tool_name(struct lz_db *, const char *name, int64_t tool);

struct ptag {
	const char	*slug, *label, *label_en, *search;
};
int64_t	pstore_put_tag(struct lz_db *, const struct ptag *);
/* 0, or the id of the tag that has name already, or -1. */
int64_t	pstore_put_tag_name(struct lz_db *, const char *name, int64_t tag);

struct pprompt {
	int64_t		 id;		/* position in recommended order */
	const char	*slug, *category, *difficulty, *tags;
	int64_t		 visible_at, tool_id, updated_at;
	int		 is_pro, rated;
	double		 rating_avg;
	long long	 rating_count;
	PSTORE_PROMPT_TEXTS;
	/* The detail answers rendered from the fields above (stored; the
	 * fields only the detail shows are not). */
	const char	*detail, *detail_en;
};
int	pstore_put_prompt(struct lz_db *, const struct pprompt *);
/* The search index (grams.h) of the prompts put so far. */
struct gram_build;
int	pstore_put_grams(struct lz_db *, struct gram_build *);
int	pstore_put_prompt_tag(struct lz_db *, int64_t tag, int64_t prompt);

struct pcoll {
	const char	*slug, *title, *title_en, *summary, *summary_en;
	const char	*kicker, *kicker_en, *translation;
	int		 has_cost;
	long long	 unlock_cost;
	int64_t		 updated_at;
};
int64_t	pstore_put_collection(struct lz_db *, const struct pcoll *);
int	pstore_put_item(struct lz_db *, int64_t coll, long long position,
	    int64_t prompt, const char *note, const char *note_en);

int	pstore_put_model(struct lz_db *, const struct modelrow *,
	    const char *search);
int	pstore_put_integration(struct lz_db *, const struct integrow *,
	    int64_t tool_id);
int	pstore_put_tutorial(struct lz_db *, const struct tutrow *,
	    const char *search);
int	pstore_put_keyword(struct lz_db *, const struct kwrow *,
	    const char *search);

/* ---- for the pstore files ---------------------------------------------- */

/* The statements of the service (the unit suite prepares them all on an
 * imported database), and of the build. */
extern struct lz_sqlset *const pstore_sqlsets[];
extern struct lz_sqlset pstore_read_sql, pstore_catalog_sql,
	    pstore_build_sql;

/* Visible prompts of table p of a scheduled time (published ones have
 * 0), by the time of parameter n ("$1"). */
#define PSTORE_SCHEDULED(p, n) \
	p ".visible_at > 0 AND " p ".visible_at <= " n

#define PSTORE_MODEL_COLS \
	"key, name, category, version, vendor, notes, notes_en, source_url, " \
	"checked_on, verified_on, verification, status, tool_key, " \
	"generator_url, record_type"

#define PSTORE_KW_COLS \
	"slug, term, term_en, category, definition, when_to_use, how_to_ask, " \
	"gotcha, related, tags, updated_at"

/* The first column of st's one row (a count); -1 on error. */
long long pstore_count(struct lz_stmt *);

#endif
