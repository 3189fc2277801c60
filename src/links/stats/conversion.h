/*
 * conversion.h -- a conversion report (spec 2.4, DESIGN 3.7): checking
 * one, as a pixel's query or as a JSON body, and storing one under the
 * rules, once.
 *
 * The rules of conv_record():
 *   - The visitor is the daily visitor id of DESIGN 3.4 (visitor.h), the
 *     same as a click's: the browser that clicked is the one that
 *     converts.
 *   - De-duplication: a visitor's conversion of a link counts when no
 *     counted conversion of the same visitor and link is less than
 *     window_ms old (spec rule 4: 10 minutes; lz.conf
 *     conversion_dedup_window).  Checked and stored in one BEGIN
 *     IMMEDIATE transaction, so it is exact across workers; across
 *     midnight UTC the visitor's id of the day before is checked too.
 *   - Attribution: the conversion belongs to the visitor's newest human
 *     click of the link in the CONV_ATTRIBUTION_DAYS before it, found by
 *     the visitor's id of each of those days in the visitors of each
 *     day (rollup.h): a look-up per day, however popular the link and
 *     however long raw clicks are kept.  Its variant goes to the
 *     statistics per variant; its suffix is the conversion's when the
 *     report names none.
 *   - The link's running totals (conversions, revenue per currency) move
 *     in the same transaction.
 */
#ifndef LZ_CONVERSION_H
#define LZ_CONVERSION_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "sizes.h"

struct link;
struct lz_db;
struct lz_query;
struct lz_verr;

#define CONV_ATTRIBUTION_DAYS	30

/* A checked report. */
struct conv_report {
	char	 slug[SLUG_MAX + 1];
	int	 has_value;
	int64_t	 value;			/* micro-units, when has_value */
	char	 currency[4];		/* "" when the report has none */
	char	 suffix[SUFFIX_MAX + 1]; /* "" when none */
	char	 domain[HOST_MAX + 1];	/* the slug's short domain; "":
					   the request's host's, else the
					   default one */
};

/*
 * The raw text of the number that is the value of member key of the JSON
 * object in text[0..len): lz_req_json() parses bodies with Jansson, which
 * turns numbers into doubles; amounts are read from their text instead.
 * Returns 1 with *num and *numlen, 0 when the object has no such member
 * or its value is not a number, -1 when text is not an object.
 */
int	conv_json_number(const char *text, size_t len, const char *key,
	    const char **num, size_t *numlen);

/*
 * Checks the body of POST /api/conv: the object obj parsed from
 * text[0..len).  Fields: slug (string, required), value (number, or a
 * decimal string; null: none), currency (string; null: none), suffix
 * (string; "" or null: none).  Unknown fields and bad values give 400
 * naming the field.  Returns 0, or -1 with e.
 */
int	conv_report_json(const json_t *obj, const char *text, size_t len,
	    struct conv_report *, struct lz_verr *e);

/*
 * Checks the query of the pixel, GET /api/conv: slug, value, currency,
 * suffix; other parameters are ignored (cache busters), an empty value
 * counts as absent.  Returns 0, or -1 with e (what would have been the
 * 400).
 */
int	conv_report_query(const struct lz_query *, struct conv_report *,
	    struct lz_verr *e);

enum conv_result {
	CONV_COUNTED = 0,
	CONV_DUPLICATE,		/* same visitor and link within the window */
	CONV_LIMIT,		/* the link's total in the currency would
				   pass INT64_MAX micro-units */
	CONV_ERROR		/* the database failed; logged */
};

/*
 * Records rep for link l from the visitor addr + ua at now_ms (rules
 * above).  currency is the report's, or default_currency when it has
 * none.  Returns the result.
 */
enum conv_result conv_record(struct lz_db *, const struct link *l,
	    const struct conv_report *rep, const char *default_currency,
	    const char *addr, const char *ua, int64_t now_ms,
	    int64_t window_ms);

/* "duplicate", "revenue_limit", ...: the reason of a result not counted,
 * or NULL for CONV_COUNTED. */
const char *conv_result_reason(enum conv_result);


#endif
