/*
 * query.c -- query-string parsing and validation.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "utf8.h"
#include "util.h"
#include "verr.h"

#define QUERY_MAX_PARAMS	64

long
lz_pct_decode(const char *s, size_t len, int plus, char *out)
{
	size_t	 i, o = 0;
	int	 hi, lo;

	for (i = 0; i < len; i++) {
		if (s[i] == '%') {
			if (i + 2 >= len)
				return -1;
			if ((hi = lz_hexval((unsigned char)s[i + 1])) < 0 ||
			    (lo = lz_hexval((unsigned char)s[i + 2])) < 0)
				return -1;
			out[o++] = (char)(hi << 4 | lo);
			i += 2;
		} else if (plus && s[i] == '+')
			out[o++] = ' ';
		else
			out[o++] = s[i];
	}
	out[o] = '\0';
	return (long)o;
}

/* Decodes one name or value; NULL (with verr filled) when unacceptable. */
static char *
decode_part(const char *s, size_t len, const char *what, const char *name,
    struct lz_verr *e)
{
	char	*out;
	long	 n;

	out = xmalloc(len + 1);
	if ((n = lz_pct_decode(s, len, 1, out)) < 0) {
		lz_verr_set(e, 400, "invalid_query", name,
		    "The %s of a query parameter has a malformed %%-escape.",
		    what);
		goto bad;
	}
	if (lz_utf8_count(out, (size_t)n, LZ_UTF8_NOCTRL) < 0) {
		lz_verr_set(e, 400, "invalid_query", name,
		    "The %s of a query parameter holds invalid UTF-8, NUL or a "
		    "control character.", what);
		goto bad;
	}
	return out;
bad:
	free(out);
	return NULL;
}

/* lz_query_parse, or with repeated names kept when !strict. */
static int
parse(const char *qs, struct lz_query *q, int strict, struct lz_verr *e)
{
	const char	*p, *amp, *eq;
	char		*key, *val;
	size_t		 i;

	q->kv = NULL;
	q->n = 0;
	for (p = qs ? qs : ""; *p; p = *amp ? amp + 1 : amp) {
		if ((amp = strchr(p, '&')) == NULL)
			amp = p + strlen(p);
		if (amp == p)		/* "a=1&&b=2": tolerate empty pieces */
			continue;
		if (q->n >= QUERY_MAX_PARAMS) {
			lz_verr_set(e, 400, "invalid_query", NULL,
			    "Too many query parameters (at most %d).",
			    QUERY_MAX_PARAMS);
			goto fail;
		}
		eq = memchr(p, '=', (size_t)(amp - p));
		if ((key = decode_part(p, (size_t)((eq ? eq : amp) - p),
		    "name", NULL, e)) == NULL)
			goto fail;
		if (*key == '\0') {
			free(key);
			lz_verr_set(e, 400, "invalid_query", NULL,
			    "A query parameter has an empty name.");
			goto fail;
		}
		for (i = 0; strict && i < q->n; i++)
			if (strcmp(q->kv[i].key, key) == 0) {
				lz_verr_set(e, 400, "duplicate_parameter", key,
				    "The query parameter '%s' is given more "
				    "than once.", key);
				free(key);
				goto fail;
			}
		if (eq)
			val = decode_part(eq + 1, (size_t)(amp - eq - 1),
			    "value", key, e);
		else
			val = xstrdup("");
		if (val == NULL) {
			free(key);
			goto fail;
		}
		q->kv = xreallocarray(q->kv, q->n + 1, sizeof(*q->kv));
		q->kv[q->n].key = key;
		q->kv[q->n].val = val;
		q->n++;
	}
	return 0;
fail:
	lz_query_free(q);
	return -1;
}

int
lz_query_parse(const char *qs, struct lz_query *q, struct lz_verr *e)
{
	return parse(qs, q, 1, e);
}

int
lz_query_parse_all(const char *qs, struct lz_query *q, struct lz_verr *e)
{
	return parse(qs, q, 0, e);
}

const char *
lz_query_get(const struct lz_query *q, const char *key)
{
	size_t	 i;

	for (i = 0; i < q->n; i++)
		if (strcmp(q->kv[i].key, key) == 0)
			return q->kv[i].val;
	return NULL;
}

void
lz_query_free(struct lz_query *q)
{
	size_t	 i;

	for (i = 0; i < q->n; i++) {
		free(q->kv[i].key);
		free(q->kv[i].val);
	}
	free(q->kv);
	q->kv = NULL;
	q->n = 0;
}

static int
check_one(const struct lz_param *p, const char *v, struct lz_pval *out,
    struct lz_verr *e)
{
	long		 chars;
	size_t		 j;

	out->set = 1;
	out->s = v;
	switch (p->type) {
	case LZ_PT_STR:
		chars = lz_utf8_count(v, strlen(v), LZ_UTF8_NOCTRL);
		if (chars < p->min || chars > p->max) {
			if (p->min > 0 && chars == 0)
				lz_verr_set(e, 400, "invalid_parameter",
				    p->name, "'%s' must not be empty.",
				    p->name);
			else
				lz_verr_set(e, 400, "invalid_parameter",
				    p->name, "'%s' must be %lld to %lld "
				    "characters long.", p->name, p->min,
				    p->max);
			return -1;
		}
		return 0;
	case LZ_PT_INT:
		if (lz_parse_ll(v, p->min, p->max, &out->i) == -1 ||
		    (v[0] == '0' && v[1] != '\0') || (v[0] == '-' &&
		    v[1] == '0')) {
			lz_verr_set(e, 400, "invalid_parameter", p->name,
			    "'%s' must be an integer from %lld to %lld.",
			    p->name, p->min, p->max);
			return -1;
		}
		return 0;
	case LZ_PT_ENUM:
		for (j = 0; p->enums[j] != NULL; j++)
			if (strcmp(p->enums[j], v) == 0) {
				out->i = (long long)j;
				return 0;
			}
		{
			struct lz_buf	 b = LZ_BUF_INIT;

			for (j = 0; p->enums[j] != NULL; j++)
				lz_buf_printf(&b, "%s%s", j ? ", " : "",
				    p->enums[j]);
			lz_verr_set(e, 400, "invalid_parameter", p->name,
			    "'%s' must be one of: %s.", p->name,
			    lz_buf_str(&b));
			lz_buf_free(&b);
		}
		return -1;
	}
	return -1;
}

int
lz_params(const struct lz_query *q, const struct lz_param *params, size_t n,
    struct lz_pval *out, struct lz_verr *e)
{
	size_t	 i, j, k;

	for (j = 0; j < n; j++) {
		out[j].set = 0;
		out[j].s = NULL;
		out[j].i = params[j].def;
	}
	/* A name given twice: refused first, unless its parameter may
	 * repeat (lz_query_parse_all kept them). */
	for (i = 0; i < q->n; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(params[j].name, q->kv[i].key) == 0)
				break;
		if (j < n && (params[j].flags & LZ_PF_MULTI))
			continue;
		for (k = 0; k < i; k++)
			if (strcmp(q->kv[k].key, q->kv[i].key) == 0) {
				lz_verr_set(e, 400, "duplicate_parameter",
				    q->kv[i].key, "The query parameter '%s' is "
				    "given more than once.", q->kv[i].key);
				return -1;
			}
	}
	for (i = 0; i < q->n; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(params[j].name, q->kv[i].key) == 0)
				break;
		if (j == n) {
			lz_verr_set(e, 400, "unknown_parameter", q->kv[i].key,
			    "Unknown query parameter '%s'.", q->kv[i].key);
			return -1;
		}
		/* A repeated one: each value checked, the first kept. */
		if (out[j].set) {
			struct lz_pval	 again;

			if (check_one(&params[j], q->kv[i].val, &again, e) ==
			    -1)
				return -1;
			continue;
		}
		if (check_one(&params[j], q->kv[i].val, &out[j], e) == -1)
			return -1;
	}
	for (j = 0; j < n; j++)
		if ((params[j].flags & LZ_PF_REQUIRED) && !out[j].set) {
			lz_verr_set(e, 400, "missing_parameter",
			    params[j].name, "The query parameter '%s' is "
			    "required.", params[j].name);
			return -1;
		}
	return 0;
}
