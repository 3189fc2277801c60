/*
 * jbody.h -- JSON request bodies checked against a field table:
 *
 *	enum { F_URL, F_TITLE, F_MAX_CLICKS, F__MAX };
 *	static const struct lz_jfield f[F__MAX] = {
 *	    [F_URL] =	{ "target_url", LZ_JT_STRING, LZ_JF_REQUIRED, 1,
 *			  URL_MAX },
 *	    [F_TITLE] =	{ "title", LZ_JT_STRING | LZ_JT_NULL, 0, 1, 500 },
 *	    [F_MAX_CLICKS] = { "max_clicks", LZ_JT_INTEGER | LZ_JT_NULL, 0 },
 *	};
 *
 * Unknown keys, wrong types and missing required fields give 400 naming
 * the field (prefix + name, e.g. "og.title", "variants[1].url").  The
 * row also holds the field's bounds, which the application checks in its
 * own order with its own messages (formats, bounds): lz_json_chars()
 * counts a text as they are counted.
 */
#ifndef LZ_JBODY_H
#define LZ_JBODY_H

#include <stddef.h>

#include <jansson.h>

struct lz_verr;

#define LZ_JT_OBJECT	(1u << JSON_OBJECT)
#define LZ_JT_ARRAY	(1u << JSON_ARRAY)
#define LZ_JT_STRING	(1u << JSON_STRING)
#define LZ_JT_INTEGER	(1u << JSON_INTEGER)
#define LZ_JT_REAL	(1u << JSON_REAL)
#define LZ_JT_NUMBER	(LZ_JT_INTEGER | LZ_JT_REAL)
#define LZ_JT_BOOL	((1u << JSON_TRUE) | (1u << JSON_FALSE))
#define LZ_JT_NULL	(1u << JSON_NULL)

#define LZ_JF_REQUIRED	0x01	/* present */
#define LZ_JF_NONEMPTY	0x02	/* a text: present and not "" */
#define LZ_JF_MULTILINE	0x04	/* a text may hold line breaks and tabs */

struct lz_jfield {
	const char	*name;
	unsigned	 types;		/* LZ_JT_* mask */
	unsigned	 flags;		/* LZ_JF_* */
	/* Bounds: characters of a text, entries of an array, the value of
	 * an integer (0, 0: none). */
	long long	 min, max;
};

int	lz_json_fields(const json_t *obj, const struct lz_jfield *, size_t n,
	    const char *prefix, struct lz_verr *);

/* The characters of s, a text of f (valid UTF-8), or -1 when it holds a
 * control character (but line breaks and tabs with LZ_JF_MULTILINE). */
long	lz_json_chars(const struct lz_jfield *f, const char *s);

/* "string", "integer", ... for messages. */
const char *lz_json_type_name(const json_t *);

/* ms as an ISO 8601 string (UTC, whole seconds), or null for 0: the
 * times of the JSON answers. */
json_t	*lz_json_time(int64_t ms);

/*
 * Applies patch to target as a JSON merge patch (RFC 7396): an object
 * patch sets its members in target (recursively into objects), a null
 * member removes the member; any other patch replaces target.  Takes
 * over target (NULL: none) and returns the result, a new reference.
 */
json_t	*lz_json_merge_patch(json_t *target, const json_t *patch);

#endif
