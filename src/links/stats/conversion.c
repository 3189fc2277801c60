/*
 * conversion.c -- conversion reports: checking and storing.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "db.h"
#include "domain/host.h"
#include "jbody.h"
#include "link/link.h"
#include "log.h"
#include "lztime.h"
#include "query.h"
#include "stats/amount.h"
#include "stats/conversion.h"
#include "stats/rollup.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/store.h"
#include "verr.h"
#include "visit/click.h"
#include "visit/visitor.h"

_Static_assert(CLICK_VISITOR_DAYS > CONV_ATTRIBUTION_DAYS,
    "the visitors of every day attribution looks at are kept");

/* ---- the raw number of a JSON member ----------------------------------- */

static size_t
skip_ws(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	return i;
}

/* At a '"': the index after the closing quote, or 0 when unterminated. */
static size_t
skip_string(const char *s, size_t i, size_t n)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return 0;
}

/* The index just after the value at i, or 0 when it runs off the end. */
static size_t
skip_value(const char *s, size_t i, size_t n)
{
	size_t	 depth = 0;

	while (i < n) {
		switch (s[i]) {
		case '"':
			if ((i = skip_string(s, i, n)) == 0)
				return 0;
			if (depth == 0)
				return i;
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0)
				return i;	/* a scalar ends at the close */
			if (--depth == 0)
				return i + 1;
			break;
		case ',':
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			if (depth == 0)
				return i;
			break;
		default:
			break;
		}
		i++;
	}
	return depth == 0 ? i : 0;
}

/* 1 when the string token s[0..len) (quotes included) is key. */
static int
key_is(const char *s, size_t len, const char *key)
{
	json_t	*j;
	int	 eq;

	if (memchr(s, '\\', len) == NULL)
		return len - 2 == strlen(key) && memcmp(s + 1, key, len - 2) == 0;
	/* Escapes ("va\u006cue"): let Jansson decode the token. */
	if ((j = json_loadb(s, len, JSON_DECODE_ANY, NULL)) == NULL)
		return 0;
	eq = json_is_string(j) && json_string_length(j) == strlen(key) &&
	    memcmp(json_string_value(j), key, strlen(key)) == 0;
	json_decref(j);
	return eq;
}

int
conv_json_number(const char *s, size_t n, const char *key, const char **num,
    size_t *numlen)
{
	size_t	 i, k, v;

	i = skip_ws(s, 0, n);
	if (i >= n || s[i] != '{')
		return -1;
	i = skip_ws(s, i + 1, n);
	if (i < n && s[i] == '}')
		return 0;
	for (;;) {
		if (i >= n || s[i] != '"' || (k = skip_string(s, i, n)) == 0)
			return -1;
		v = skip_ws(s, k, n);
		if (v >= n || s[v] != ':')
			return -1;
		v = skip_ws(s, v + 1, n);
		if (v >= n)
			return -1;
		if (key_is(s + i, k - i, key)) {
			if (s[v] != '-' && (s[v] < '0' || s[v] > '9'))
				return 0;
			*num = s + v;
			for (*numlen = 0; v + *numlen < n &&
			    strchr("0123456789+-.eE", s[v + *numlen]) != NULL &&
			    s[v + *numlen] != '\0'; (*numlen)++)
				continue;
			return 1;
		}
		if ((i = skip_value(s, v, n)) == 0)
			return -1;
		i = skip_ws(s, i, n);
		if (i >= n)
			return -1;
		if (s[i] == '}')
			return 0;
		if (s[i] != ',')
			return -1;
		i = skip_ws(s, i + 1, n);
	}
}

/* ---- checking a report ------------------------------------------------ */

enum { R_SLUG, R_VALUE, R_CURRENCY, R_SUFFIX, R_DOMAIN, R__MAX };

/* The bounds of texts are in bytes: slug and suffix are ASCII. */
static const struct lz_jfield report_fields[R__MAX] = {
	[R_SLUG] =	{ "slug", LZ_JT_STRING, LZ_JF_REQUIRED, 1, SLUG_MAX },
	[R_VALUE] =	{ "value", LZ_JT_NUMBER | LZ_JT_STRING | LZ_JT_NULL, 0,
			  0, AMOUNT_MAX },
	[R_CURRENCY] =	{ "currency", LZ_JT_STRING | LZ_JT_NULL, 0, 3, 3 },
	[R_SUFFIX] =	{ "suffix", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
			  SUFFIX_MAX },
	[R_DOMAIN] =	{ "domain", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
			  HOST_MAX },
};

static int
check_slug(const char *s, struct conv_report *rep, struct lz_verr *e)
{
	if (!slug_valid(s)) {
		lz_verr_set(e, 400, "invalid_field", "slug", "'slug' must be "
		    "1-%d of the characters A-Z a-z 0-9 _ -.", SLUG_MAX);
		return -1;
	}
	snprintf(rep->slug, sizeof(rep->slug), "%s", s);
	return 0;
}

static int
check_value(const char *s, size_t len, struct conv_report *rep,
    struct lz_verr *e)
{
	const char	*why;

	if (amount_parse(s, len, &rep->value, &why) == -1) {
		lz_verr_set(e, 400, "invalid_field", "value", "'value' %s.",
		    why);
		return -1;
	}
	rep->has_value = 1;
	return 0;
}

static int
check_currency(const char *s, struct conv_report *rep, struct lz_verr *e)
{
	if (amount_currency(s, rep->currency) == -1) {
		lz_verr_set(e, 400, "invalid_field", "currency", "'currency' "
		    "must be an ISO 4217 code of three letters, like USD.");
		return -1;
	}
	return 0;
}

static int
check_suffix(const char *s, struct conv_report *rep, struct lz_verr *e)
{
	if (*s != '\0' && !suffix_valid(s)) {
		lz_verr_set(e, 400, "invalid_field", "suffix", "'suffix' must "
		    "be 1-%d of the characters A-Z a-z 0-9 _ . -, like the "
		    "suffix of a short URL.", SUFFIX_MAX);
		return -1;
	}
	snprintf(rep->suffix, sizeof(rep->suffix), "%s", s);
	return 0;
}

/* The short domain of the slug, as the host of a Host header. */
static int
check_domain(const char *s, struct conv_report *rep, struct lz_verr *e)
{
	if (*s != '\0' && host_of_header(s, rep->domain,
	    sizeof(rep->domain)) == -1) {
		lz_verr_set(e, 400, "invalid_field", "domain", "'domain' must "
		    "be the host name of a short domain, like s.example.com.");
		return -1;
	}
	return 0;
}

int
conv_report_json(const json_t *obj, const char *text, size_t len,
    struct conv_report *rep, struct lz_verr *e)
{
	const json_t	*v;
	const char	*num;
	size_t		 numlen;

	memset(rep, 0, sizeof(*rep));
	if (lz_json_fields(obj, report_fields, R__MAX, NULL, e) == -1)
		return -1;
	if (check_slug(json_string_value(json_object_get(obj, "slug")), rep,
	    e) == -1)
		return -1;
	v = json_object_get(obj, "value");
	if (json_is_number(v)) {
		/* The number as written, not Jansson's double of it. */
		if (conv_json_number(text, len, "value", &num, &numlen) != 1) {
			lz_verr_set(e, 400, "invalid_field", "value", "'value' "
			    "could not be read.");
			return -1;
		}
		if (check_value(num, numlen, rep, e) == -1)
			return -1;
	} else if (json_is_string(v) && check_value(json_string_value(v),
	    json_string_length(v), rep, e) == -1)
		return -1;
	v = json_object_get(obj, "currency");
	if (json_is_string(v) && check_currency(json_string_value(v), rep,
	    e) == -1)
		return -1;
	v = json_object_get(obj, "suffix");
	if (json_is_string(v) && check_suffix(json_string_value(v), rep,
	    e) == -1)
		return -1;
	v = json_object_get(obj, "domain");
	if (json_is_string(v) && check_domain(json_string_value(v), rep,
	    e) == -1)
		return -1;
	return 0;
}

int
conv_report_query(const struct lz_query *q, struct conv_report *rep,
    struct lz_verr *e)
{
	const char	*s;

	memset(rep, 0, sizeof(*rep));
	if ((s = lz_query_get(q, "slug")) == NULL || *s == '\0') {
		lz_verr_set(e, 400, "missing_field", "slug", "'slug' is "
		    "required.");
		return -1;
	}
	if (check_slug(s, rep, e) == -1)
		return -1;
	if ((s = lz_query_get(q, "value")) != NULL && *s != '\0' &&
	    check_value(s, strlen(s), rep, e) == -1)
		return -1;
	if ((s = lz_query_get(q, "currency")) != NULL && *s != '\0' &&
	    check_currency(s, rep, e) == -1)
		return -1;
	if ((s = lz_query_get(q, "suffix")) != NULL && check_suffix(s, rep,
	    e) == -1)
		return -1;
	if ((s = lz_query_get(q, "domain")) != NULL && check_domain(s, rep,
	    e) == -1)
		return -1;
	return 0;
}

/* ---- storing one ------------------------------------------------------- */

/*
 * The visitor's newest human click of l in [since, now], since the
 * window's start: the visitor's id changes every UTC day, so each day is
 * looked up with that day's id, newest first -- one look-up in
 * click_visitors per day, however many clicks the link has, and
 * whether or not the raw clicks are still kept.  1 found, 0 not, -1
 * error.
 */
static int
attribute(struct lz_db *db, const struct link *l, const char *addr,
    const char *ua, int64_t now, char *variant, char *suffix, int64_t *at)
{
	unsigned char	 id[VISITOR_ID_LEN];
	int64_t		 since, day;
	int		 rc;

	since = now - CONV_ATTRIBUTION_DAYS * LZ_DAY_MS;
	if (l->created_at > since)
		since = l->created_at;
	for (day = now / LZ_DAY_MS; day >= since / LZ_DAY_MS && day >= 0;
	    day--) {
		visitor_id(addr, ua, day * LZ_DAY_MS, id);
		if ((rc = store_visitor_last(db, day, l->id, id, since, now,
		    variant, VARIANT_MAX, suffix, SUFFIX_MAX + 1, at)) != 0)
			return rc;
	}
	return 0;
}

enum conv_result
conv_record(struct lz_db *db, const struct link *l,
    const struct conv_report *rep, const char *default_currency,
    const char *addr, const char *ua, int64_t now, int64_t window_ms)
{
	struct conversion	 c;
	unsigned char		 prev[VISITOR_ID_LEN];
	char			 variant[VARIANT_MAX];
	char			 suffix[SUFFIX_MAX + 1];
	int64_t			 click_at = 0;
	int			 rc;

	memset(&c, 0, sizeof(c));
	c.link_id = l->id;
	c.at = now;
	visitor_id(addr, ua, now, c.visitor);
	/* The id of the day before matters while the window reaches back
	 * into it; otherwise it is today's again. */
	if ((now - window_ms) / LZ_DAY_MS < now / LZ_DAY_MS)
		visitor_id(addr, ua, now - LZ_DAY_MS, prev);
	else
		memcpy(prev, c.visitor, sizeof(prev));
	c.currency = rep->currency[0] != '\0' ? rep->currency :
	    default_currency;
	c.has_value = rep->has_value;
	c.value = rep->value;
	c.suffix = rep->suffix;

	/* A duplicate is plain without the attribution's reads: a counted
	 * conversion is never taken back.  Else the attribution reads
	 * outside the write transaction, which checks again. */
	if ((rc = store_conv_seen(db, l->id, c.visitor, prev,
	    now - window_ms)) != 0)
		return rc == 1 ? CONV_DUPLICATE : CONV_ERROR;
	if ((rc = attribute(db, l, addr, ua, now, variant, suffix,
	    &click_at)) == -1)
		return CONV_ERROR;
	if (rc == 1) {
		c.variant = variant;
		c.click_at = click_at;
		if (rep->suffix[0] == '\0')
			c.suffix = suffix;
	}

	/* The check again, with the link's row held: concurrent reports of
	 * one visitor (on any host) are counted once. */
	if (lz_db_begin(db) == -1)
		return CONV_ERROR;
	if ((rc = store_lock(db, STORE_LOCK_LINK, l->id)) == 1)
		rc = store_conv_seen(db, l->id, c.visitor, prev,
		    now - window_ms);
	else if (rc == 0)
		rc = -1;
	if (rc == 1) {
		lz_db_rollback(db);
		return CONV_DUPLICATE;
	}
	if (rc == 0)
		rc = store_conv_insert(db, &c);
	if (rc == 1 && lz_db_commit(db) == 0)
		return CONV_COUNTED;
	lz_db_rollback(db);
	if (rc == 0) {
		lz_log(LZ_LOG_WARN, "link %lld: revenue in %s would pass "
		    "%lld micro-units; conversion not counted",
		    (long long)l->id, c.currency, (long long)INT64_MAX);
		return CONV_LIMIT;
	}
	return CONV_ERROR;
}

const char *
conv_result_reason(enum conv_result r)
{
	switch (r) {
	case CONV_COUNTED:	return NULL;
	case CONV_DUPLICATE:	return "duplicate";
	case CONV_LIMIT:	return "revenue_limit";
	case CONV_ERROR:	break;
	}
	return "error";
}
