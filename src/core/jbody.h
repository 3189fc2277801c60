/*
 * jbody.h -- JSON request bodies checked against a field table:
 *
 *	static const struct lz_jfield f[] = {
 *	    { "target_url", LZ_JT_STRING, LZ_JF_REQUIRED },
 *	    { "max_clicks", LZ_JT_INTEGER | LZ_JT_NULL, 0 },
 *	};
 *
 * Unknown keys, wrong types and missing required fields give 400 naming
 * the field (prefix + name, e.g. "og.title", "variants[1].url").
 * Semantic checks (formats, bounds) belong to the application.
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

#define LZ_JF_REQUIRED	0x01

struct lz_jfield {
	const char	*name;
	unsigned	 types;		/* LZ_JT_* mask */
	unsigned	 flags;
};

int	lz_json_fields(const json_t *obj, const struct lz_jfield *, size_t n,
	    const char *prefix, struct lz_verr *);

/* "string", "integer", ... for messages. */
const char *lz_json_type_name(const json_t *);

#endif
