/*
 * query.h -- query strings: parsing and table-driven validation.
 *
 * lz_query_parse() splits on '&', decodes names and values ('+' is a
 * space), and refuses bad escapes, %00, control characters, invalid UTF-8
 * and repeated names (DESIGN 4), naming the parameter at fault.
 *
 * lz_params() then checks the parsed query against a table of the
 * parameters an endpoint takes, so handlers only see typed, bounded
 * values (kcgi's kvalid_*):
 *
 *	static const struct lz_param p[] = {
 *	    { "limit", LZ_PT_INT, 1, 50, 20, NULL, 0 },
 *	    { "sort",  LZ_PT_ENUM, 0, 0, 0, sorts, 0 },
 *	};
 */
#ifndef LZ_QUERY_H
#define LZ_QUERY_H

#include <stddef.h>

struct lz_verr;

struct lz_kv {
	char	*key;
	char	*val;
};

struct lz_query {
	struct lz_kv	*kv;
	size_t		 n;
};

enum lz_ptype {
	LZ_PT_STR,	/* min..max characters */
	LZ_PT_INT,	/* decimal integer in min..max */
	LZ_PT_ENUM	/* one of enums[]; the index is the value */
};

#define LZ_PF_REQUIRED	0x01	/* must be present */
#define LZ_PF_ANY	0x02	/* ENUM: absent means any value, not def
				   (only .set tells); for readers of v */
#define LZ_PF_MULTI	0x04	/* may be given more than once (each value
				   checked; v holds the first, the query
				   all of them) */

struct lz_param {
	const char		*name;
	enum lz_ptype		 type;
	long long		 min, max;
	long long		 def;	/* INT: default; ENUM: default index */
	const char *const	*enums;	/* ENUM: NULL-terminated */
	unsigned		 flags;
};

struct lz_pval {
	int		 set;	/* present in the query */
	long long	 i;	/* INT value or ENUM index (default if !set) */
	const char	*s;	/* the string as given (NULL if !set) */
};

/* Parses a query string; a name given twice is 400 duplicate_parameter. */
int	 lz_query_parse(const char *qs, struct lz_query *, struct lz_verr *);
/* The same, keeping every value of a repeated name: lz_params refuses
 * the repeats its parameters do not allow (LZ_PF_MULTI). */
int	 lz_query_parse_all(const char *qs, struct lz_query *,
	    struct lz_verr *);
const char *lz_query_get(const struct lz_query *, const char *key);
void	 lz_query_free(struct lz_query *);

/*
 * Validates q against params[0..n): unknown names, empty or out-of-range
 * values are refused with 400 naming the parameter.  out[i] is filled for
 * params[i].  Returns 0 or -1.
 */
int	 lz_params(const struct lz_query *q, const struct lz_param *params,
	    size_t n, struct lz_pval *out, struct lz_verr *);

/* Decodes %XX and (when plus) '+'; returns the length or -1 for a bad
 * escape.  out must hold len + 1 bytes. */
long	 lz_pct_decode(const char *s, size_t len, int plus, char *out);

#endif
