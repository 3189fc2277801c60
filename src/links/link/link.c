/*
 * link.c -- validation of a link create body and the link representation.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "conf.h"
#include "domain/host.h"
#include "jbody.h"
#include "link/link.h"
#include "link/tag.h"
#include "lztime.h"
#include "safety/dest.h"
#include "stats/amount.h"
#include "utf8.h"
#include "util.h"
#include "verr.h"

const char *const link_mode_names[] = { "simple", "ab", "device", "geo",
    NULL };
const char *const link_pixel_names[] = { "pixel_fb", "pixel_ga", "pixel_gtm",
    "pixel_tiktok", "pixel_line", NULL };
const char *const link_status_names[] = { "active", "expired", "capped",
    "disabled", NULL };

/* DESIGN 3.2; lz.conf reserved_slugs adds more. */
static const char *const reserved_builtin[] = {
	"api", "dashboard", "static", "assets", ".well-known", "favicon.ico",
	"robots.txt", "login", "logout", "signup", "admin", "healthz",
	"metrics",
};

#define AB_MIN		2
#define AB_MAX		10
#define WEIGHT_MAX	100
#define MAX_CLICKS_MAX	1000000000LL
#define GEO_MAX		250

/* The create body (spec 2.1); the bounds of texts are in characters. */
enum {
	F_TARGET_URL, F_SLUG, F_TITLE, F_MODE, F_VARIANTS, F_REDIRECT_TYPE,
	F_OG, F_PIXEL_FB, F_PIXEL_GA, F_PIXEL_GTM, F_PIXEL_TIKTOK,
	F_PIXEL_LINE, F_ESCAPE_INAPP, F_EXPIRES_AT, F_MAX_CLICKS, F_UTM,
	F_PASSWORD, F_EXPIRED_URL, F_DOMAIN, F_TAGS, F_NOTES, F_ARCHIVED,
	F__MAX
};

static const struct lz_jfield create_fields[F__MAX] = {
	[F_TARGET_URL] =	{ "target_url", LZ_JT_STRING, LZ_JF_REQUIRED },
	[F_SLUG] =		{ "slug", LZ_JT_STRING | LZ_JT_NULL, 0, 1,
				  SLUG_MAX },
	[F_TITLE] =		{ "title", LZ_JT_STRING | LZ_JT_NULL, 0, 1,
				  500 },
	[F_MODE] =		{ "mode", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_VARIANTS] =		{ "variants",
				  LZ_JT_ARRAY | LZ_JT_OBJECT | LZ_JT_NULL, 0 },
	[F_REDIRECT_TYPE] =	{ "redirect_type", LZ_JT_INTEGER | LZ_JT_NULL,
				  0 },
	[F_OG] =		{ "og", LZ_JT_OBJECT | LZ_JT_NULL, 0 },
	[F_PIXEL_FB] =		{ "pixel_fb", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_PIXEL_GA] =		{ "pixel_ga", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_PIXEL_GTM] =		{ "pixel_gtm", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_PIXEL_TIKTOK] =	{ "pixel_tiktok", LZ_JT_STRING | LZ_JT_NULL,
				  0 },
	[F_PIXEL_LINE] =	{ "pixel_line", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_ESCAPE_INAPP] =	{ "escape_inapp", LZ_JT_BOOL | LZ_JT_NULL, 0 },
	[F_EXPIRES_AT] =	{ "expires_at", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_MAX_CLICKS] =	{ "max_clicks", LZ_JT_INTEGER | LZ_JT_NULL, 0,
				  0, MAX_CLICKS_MAX },
	[F_UTM] =		{ "utm", LZ_JT_OBJECT | LZ_JT_NULL, 0 },
	[F_PASSWORD] =		{ "password", LZ_JT_STRING | LZ_JT_NULL, 0,
				  4, 128 },
	[F_EXPIRED_URL] =	{ "expired_url", LZ_JT_STRING | LZ_JT_NULL, 0 },
	[F_DOMAIN] =		{ "domain", LZ_JT_STRING | LZ_JT_NULL, 0, 1,
				  HOST_MAX },
	/* At most TAGS_MAX once the same tag in two cases is one:
	 * parse_tags. */
	[F_TAGS] =		{ "tags", LZ_JT_ARRAY | LZ_JT_NULL, 0, 0, 0 },
	/* Bounds and characters: notes_ok (line breaks are fine). */
	[F_NOTES] =		{ "notes", LZ_JT_STRING | LZ_JT_NULL, 0, 0, 0 },
	[F_ARCHIVED] =		{ "archived", LZ_JT_BOOL | LZ_JT_NULL, 0 },
};

/*
 * The tags of a body (an array) into l->tags, as written, trimmed, once
 * per fold, at most TAGS_MAX.  0, or -1 with e naming "tags".
 */
static int
parse_tags(const json_t *arr, struct link *l, struct lz_verr *e)
{
	char		 name[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128];
	json_t		*v, *folds;
	size_t		 i;

	folds = json_object();
	l->tags = json_array();
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v)) {
			lz_verr_set(e, 400, "invalid_field", "tags", "'tags' "
			    "must be an array of strings.");
			goto fail;
		}
		if (tag_parse(json_string_value(v), name, fold, why,
		    sizeof(why)) == -1) {
			lz_verr_set(e, 400, "invalid_field", "tags", "Tag %zu "
			    "of 'tags' %s.", i + 1, why);
			goto fail;
		}
		if (json_object_get(folds, fold) != NULL)
			continue;	/* the same tag in another case */
		if (json_array_size(l->tags) == TAGS_MAX) {
			lz_verr_set(e, 400, "invalid_field", "tags", "A link "
			    "carries at most %d tags.", TAGS_MAX);
			goto fail;
		}
		json_object_set_new(folds, fold, json_true());
		json_array_append_new(l->tags, json_string(name));
	}
	json_decref(folds);
	if (json_array_size(l->tags) == 0) {
		json_decref(l->tags);
		l->tags = NULL;
	}
	return 0;
fail:
	json_decref(folds);
	return -1;
}

/* Notes: at most NOTES_MAX characters; lines and tabs, no other control
 * characters. */
static int
notes_ok(const char *s, struct lz_verr *e)
{
	const unsigned char	*p;
	long			 n = 0;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\r' && *p != '\t') ||
		    *p == 0x7f) {
			lz_verr_set(e, 400, "invalid_field", "notes", "'notes' "
			    "must not contain control characters but line "
			    "breaks and tabs.");
			return -1;
		}
		if ((*p & 0xc0) != 0x80)
			n++;
	}
	if (n > NOTES_MAX) {
		lz_verr_set(e, 400, "invalid_field", "notes", "'notes' must be "
		    "at most %d characters long.", NOTES_MAX);
		return -1;
	}
	return 0;
}

enum { OG_TITLE, OG_DESCRIPTION, OG_IMAGE, OG__MAX };

static const struct lz_jfield og_fields[OG__MAX] = {
	[OG_TITLE] =		{ "title", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
				  200 },
	[OG_DESCRIPTION] =	{ "description", LZ_JT_STRING | LZ_JT_NULL, 0,
				  0, 1000 },
	[OG_IMAGE] =		{ "image", LZ_JT_STRING | LZ_JT_NULL, 0 },
};

/* Every utm_* value: at most 200 characters. */
enum { UTM_SOURCE, UTM_MEDIUM, UTM_CAMPAIGN, UTM_TERM, UTM_CONTENT,
    UTM__MAX };

static const struct lz_jfield utm_fields[UTM__MAX] = {
	[UTM_SOURCE] =		{ "source", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
				  200 },
	[UTM_MEDIUM] =		{ "medium", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
				  200 },
	[UTM_CAMPAIGN] =	{ "campaign", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
				  200 },
	[UTM_TERM] =		{ "term", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
				  200 },
	[UTM_CONTENT] =		{ "content", LZ_JT_STRING | LZ_JT_NULL, 0, 0,
				  200 },
};

enum { AB_URL, AB_WEIGHT, AB__MAX };

static const struct lz_jfield ab_fields[AB__MAX] = {
	[AB_URL] =	{ "url", LZ_JT_STRING, LZ_JF_REQUIRED },
	[AB_WEIGHT] =	{ "weight", LZ_JT_INTEGER, LZ_JF_REQUIRED, 1,
			  WEIGHT_MAX },
};

static const char *const device_keys[] = { "ios", "android", "desktop" };

void
link_free(struct link *l)
{
	size_t	 i;

	free(l->slug);
	free(l->target_url);
	free(l->title);
	json_decref(l->variants);
	json_decref(l->og);
	json_decref(l->utm);
	json_decref(l->revenue);
	for (i = 0; i < PIXEL__MAX; i++)
		free(l->pixel[i]);
	if (l->password) {
		sodium_memzero(l->password, strlen(l->password));
		free(l->password);
	}
	free(l->password_hash);
	free(l->flag_reason);
	free(l->domain);
	free(l->expired_url);
	json_decref(l->tags);
	free(l->notes);
	memset(l, 0, sizeof(*l));
}

#define SLUG_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

/* 1 when s is 1 to max bytes, each of them in chars. */
static int
of_chars(const char *s, size_t max, const char *chars)
{
	size_t	 n = strlen(s);

	return n >= 1 && n <= max && strspn(s, chars) == n;
}

int
slug_valid(const char *s)
{
	return of_chars(s, SLUG_MAX, SLUG_CHARS);
}

int
suffix_valid(const char *s)
{
	return of_chars(s, SUFFIX_MAX, SLUG_CHARS ".");
}

int
slug_reserved(const struct lz_conf *c, const char *s)
{
	char	**extra;
	size_t	  i, n;
	int	  hit = 0;

	for (i = 0; i < LZ_NELEM(reserved_builtin); i++)
		if (strcasecmp(s, reserved_builtin[i]) == 0)
			return 1;
	if (c == NULL || c->reserved_slugs[0] == '\0')
		return 0;
	n = lz_strlist_split(c->reserved_slugs, &extra);
	for (i = 0; i < n && !hit; i++)
		hit = strcasecmp(s, extra[i]) == 0;
	lz_strlist_free(extra, n);
	return hit;
}

/* A string of only spaces counts as blank (spec 2.1: "blank"). */
static int
blank(const char *s)
{
	return s[strspn(s, " \t")] == '\0';
}

/* A text field f (named param): no control characters, f's bounds in
 * characters. */
static int
text_ok(const char *s, const struct lz_jfield *f, const char *param,
    struct lz_verr *e)
{
	long	 n = lz_json_chars(f, s);

	if (n < 0) {
		lz_verr_set(e, 400, "invalid_field", param, "'%s' must not "
		    "contain control characters.", param);
		return -1;
	}
	if (n < f->min || n > f->max) {
		lz_verr_set(e, 400, "invalid_field", param, "'%s' must be "
		    "%lld to %lld characters long.", param, f->min, f->max);
		return -1;
	}
	return 0;
}

static int
all_of(const char *s, size_t min, size_t max, const char *set)
{
	size_t	 n = strlen(s);

	return n >= min && n <= max && strspn(s, set) == n;
}

#define DIGITS	"0123456789"
#define UPPERNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#define ALNUMDASH \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"

/* DESIGN 3.2: pixel ids by format, so nothing else reaches a script. */
static int
pixel_ok(enum link_pixel p, const char *v)
{
	const char	*dash;

	switch (p) {
	case PIXEL_FB:
		return all_of(v, 5, 20, DIGITS);
	case PIXEL_GA:
		if (strncmp(v, "G-", 2) == 0)
			return all_of(v + 2, 4, 20, UPPERNUM);
		if (strncmp(v, "UA-", 3) == 0 &&
		    (dash = strchr(v + 3, '-')) != NULL) {
			char	 num[16];
			size_t	 n = (size_t)(dash - (v + 3));

			if (n >= sizeof(num))
				return 0;
			memcpy(num, v + 3, n);
			num[n] = '\0';
			return all_of(num, 4, 10, DIGITS) &&
			    all_of(dash + 1, 1, 4, DIGITS);
		}
		return 0;
	case PIXEL_GTM:
		return strncmp(v, "GTM-", 4) == 0 &&
		    all_of(v + 4, 4, 12, UPPERNUM);
	case PIXEL_TIKTOK:
	case PIXEL_LINE:
		return all_of(v, 8, 40, ALNUMDASH);
	default:
		return 0;
	}
}

static const char *
str_or_null(const json_t *body, const char *key)
{
	const json_t	*v = json_object_get(body, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int
parse_variants_ab(const json_t *v, struct lz_verr *e)
{
	const json_t	*item;
	size_t		 i;
	char		 prefix[32], param[48];
	json_int_t	 w;

	if (!json_is_array(v)) {
		lz_verr_set(e, 400, "invalid_field", "variants", "For mode "
		    "'ab', 'variants' must be an array of {url, weight}.");
		return -1;
	}
	if (json_array_size(v) < AB_MIN || json_array_size(v) > AB_MAX) {
		lz_verr_set(e, 400, "invalid_field", "variants", "For mode "
		    "'ab', 'variants' must have %d to %d entries.", AB_MIN,
		    AB_MAX);
		return -1;
	}
	json_array_foreach(v, i, item) {
		snprintf(prefix, sizeof(prefix), "variants[%zu].", i);
		if (!json_is_object(item)) {
			snprintf(param, sizeof(param), "variants[%zu]", i);
			lz_verr_set(e, 400, "invalid_field", param, "'%s' "
			    "must be an object {url, weight}.", param);
			return -1;
		}
		if (lz_json_fields(item, ab_fields, AB__MAX, prefix, e) == -1)
			return -1;
		snprintf(param, sizeof(param), "variants[%zu].url", i);
		if (dest_syntax(json_string_value(json_object_get(item, "url")),
		    param, e) == -1)
			return -1;
		w = json_integer_value(json_object_get(item, "weight"));
		if (w < ab_fields[AB_WEIGHT].min ||
		    w > ab_fields[AB_WEIGHT].max) {
			snprintf(param, sizeof(param), "variants[%zu].weight",
			    i);
			lz_verr_set(e, 400, "invalid_field", param, "'%s' must "
			    "be an integer from %lld to %lld.", param,
			    ab_fields[AB_WEIGHT].min, ab_fields[AB_WEIGHT].max);
			return -1;
		}
	}
	return 0;
}

static int
parse_variants_map(const json_t *v, enum link_mode mode, struct lz_verr *e)
{
	const char	*key;
	json_t		*url;
	char		 param[48];
	size_t		 i;

	if (!json_is_object(v) || json_object_size(v) == 0) {
		lz_verr_set(e, 400, "invalid_field", "variants", mode ==
		    MODE_DEVICE ? "For mode 'device', 'variants' must be an "
		    "object with one or more of ios, android, desktop." :
		    "For mode 'geo', 'variants' must be an object of "
		    "ISO 3166-1 alpha-2 country codes to URLs.");
		return -1;
	}
	if (mode == MODE_GEO && json_object_size(v) > GEO_MAX) {
		lz_verr_set(e, 400, "invalid_field", "variants", "At most %d "
		    "countries.", GEO_MAX);
		return -1;
	}
	json_object_foreach((json_t *)(uintptr_t)v, key, url) {
		snprintf(param, sizeof(param), "variants.%.32s", key);
		if (mode == MODE_DEVICE) {
			for (i = 0; i < LZ_NELEM(device_keys); i++)
				if (strcmp(key, device_keys[i]) == 0)
					break;
			if (i == LZ_NELEM(device_keys)) {
				lz_verr_set(e, 400, "unknown_field", param,
				    "Device variants are ios, android and "
				    "desktop; '%s' is not one.", param);
				return -1;
			}
		} else if (!(strlen(key) == 2 && isupper((unsigned char)key[0])
		    && isupper((unsigned char)key[1]))) {
			lz_verr_set(e, 400, "invalid_field", param, "Geo "
			    "variant keys are upper-case ISO 3166-1 alpha-2 "
			    "country codes such as TW or JP.");
			return -1;
		}
		if (!json_is_string(url)) {
			lz_verr_set(e, 400, "invalid_field", param, "'%s' must "
			    "be a URL string.", param);
			return -1;
		}
		if (dest_syntax(json_string_value(url), param, e) == -1)
			return -1;
	}
	return 0;
}

static int
parse_og(const json_t *og, struct lz_verr *e)
{
	const char	*s;

	if (lz_json_fields(og, og_fields, OG__MAX, "og.", e) == -1)
		return -1;
	if ((s = str_or_null(og, "title")) != NULL &&
	    text_ok(s, &og_fields[OG_TITLE], "og.title", e) == -1)
		return -1;
	if ((s = str_or_null(og, "description")) != NULL &&
	    text_ok(s, &og_fields[OG_DESCRIPTION], "og.description", e) == -1)
		return -1;
	if ((s = str_or_null(og, "image")) != NULL && *s != '\0' &&
	    !dest_url_ok(s)) {
		lz_verr_set(e, 400, "invalid_url", "og.image", "'og.image' "
		    "must be an absolute http:// or https:// URL.");
		return -1;
	}
	return 0;
}

/* Copies the non-null, non-empty string members of o; NULL when none. */
static json_t *
compact_object(const json_t *o)
{
	const char	*key;
	json_t		*v, *out;

	out = json_object();
	json_object_foreach((json_t *)(uintptr_t)o, key, v)
		if (json_is_string(v) && json_string_length(v) > 0)
			json_object_set(out, key, v);
	if (json_object_size(out) == 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

static int
parse_utm(const json_t *utm, struct lz_verr *e)
{
	const char	*key;
	json_t		*v;
	char		 param[32];
	size_t		 i;

	if (lz_json_fields(utm, utm_fields, UTM__MAX, "utm.", e) == -1)
		return -1;
	json_object_foreach((json_t *)(uintptr_t)utm, key, v) {
		if (!json_is_string(v))
			continue;
		snprintf(param, sizeof(param), "utm.%s", key);
		/* lz_json_fields let only known keys through. */
		for (i = 0; strcmp(utm_fields[i].name, key) != 0; i++)
			continue;
		if (text_ok(json_string_value(v), &utm_fields[i], param,
		    e) == -1)
			return -1;
	}
	return 0;
}

int
link_parse(const json_t *body, int64_t now, struct link *l,
    struct lz_verr *e)
{
	const json_t	*v;
	const char	*s;
	size_t		 i;

	l->mode = MODE_SIMPLE;
	l->redirect_type = 302;
	if (lz_json_fields(body, create_fields, F__MAX, NULL, e) == -1)
		return -1;

	s = str_or_null(body, "target_url");
	if (dest_syntax(s, "target_url", e) == -1)
		return -1;
	l->target_url = xstrdup(s);

	if ((s = str_or_null(body, "slug")) != NULL && !blank(s)) {
		if (!slug_valid(s)) {
			lz_verr_set(e, 400, "invalid_field", "slug", "'slug' "
			    "must be 1 to %d characters of A-Z, a-z, 0-9, '_' "
			    "and '-'.", SLUG_MAX);
			return -1;
		}
		l->slug = xstrdup(s);
	}

	if ((s = str_or_null(body, "domain")) != NULL && !blank(s)) {
		char	 host[HOST_MAX + 1], why[128];

		if (host_parse(s, host, sizeof(host), why, sizeof(why)) ==
		    -1) {
			lz_verr_set(e, 400, "invalid_field", "domain",
			    "'domain' %s.", why);
			return -1;
		}
		l->domain = xstrdup(host);
	}

	if ((s = str_or_null(body, "expired_url")) != NULL && !blank(s)) {
		if (dest_syntax(s, "expired_url", e) == -1)
			return -1;
		l->expired_url = xstrdup(s);
	}

	if ((s = str_or_null(body, "title")) != NULL && !blank(s)) {
		if (text_ok(s, &create_fields[F_TITLE], "title", e) == -1)
			return -1;
		l->title = xstrdup(s);
	}

	if ((s = str_or_null(body, "mode")) != NULL) {
		for (i = 0; link_mode_names[i]; i++)
			if (strcmp(s, link_mode_names[i]) == 0)
				break;
		if (link_mode_names[i] == NULL) {
			lz_verr_set(e, 400, "invalid_field", "mode", "'mode' "
			    "must be one of simple, ab, device, geo.");
			return -1;
		}
		l->mode = (enum link_mode)i;
	}
	v = json_object_get(body, "variants");
	if (v != NULL && json_is_null(v))
		v = NULL;
	if (l->mode == MODE_SIMPLE) {
		if (v != NULL) {
			lz_verr_set(e, 400, "invalid_field", "variants",
			    "'variants' must be absent or null for mode "
			    "'simple'.");
			return -1;
		}
	} else {
		if (v == NULL) {
			lz_verr_set(e, 400, "missing_field", "variants",
			    "Mode '%s' needs 'variants'.",
			    link_mode_names[l->mode]);
			return -1;
		}
		if (l->mode == MODE_AB ? parse_variants_ab(v, e) :
		    parse_variants_map(v, l->mode, e))
			return -1;
		l->variants = json_deep_copy(v);
	}

	v = json_object_get(body, "redirect_type");
	if (json_is_integer(v)) {
		if (json_integer_value(v) != 301 &&
		    json_integer_value(v) != 302) {
			lz_verr_set(e, 400, "invalid_field", "redirect_type",
			    "'redirect_type' must be 301 or 302.");
			return -1;
		}
		l->redirect_type = (int)json_integer_value(v);
	}

	v = json_object_get(body, "og");
	if (json_is_object(v)) {
		if (parse_og(v, e) == -1)
			return -1;
		l->og = compact_object(v);
	}

	for (i = 0; i < PIXEL__MAX; i++) {
		s = str_or_null(body, link_pixel_names[i]);
		if (s == NULL || *s == '\0')
			continue;
		if (!pixel_ok((enum link_pixel)i, s)) {
			lz_verr_set(e, 400, "invalid_field",
			    link_pixel_names[i], "'%s' is not a valid id (%s).",
			    link_pixel_names[i],
			    i == PIXEL_FB ? "5 to 20 digits" :
			    i == PIXEL_GA ? "G-XXXXXXXX or UA-NNNN-N" :
			    i == PIXEL_GTM ? "GTM-XXXXXX" :
			    "8 to 40 of A-Z, a-z, 0-9 and '-'");
			return -1;
		}
		l->pixel[i] = xstrdup(s);
	}

	v = json_object_get(body, "escape_inapp");
	l->escape_inapp = json_is_true(v);

	v = json_object_get(body, "tags");
	if (json_is_array(v) && parse_tags(v, l, e) == -1)
		return -1;
	if ((s = str_or_null(body, "notes")) != NULL && *s != '\0') {
		if (notes_ok(s, e) == -1)
			return -1;
		l->notes = xstrdup(s);
	}
	l->archived = json_is_true(json_object_get(body, "archived"));

	if ((s = str_or_null(body, "expires_at")) != NULL) {
		if (lz_time_parse_iso(s, &l->expires_at) == -1) {
			lz_verr_set(e, 400, "invalid_field", "expires_at",
			    "'expires_at' must be an ISO 8601 time with a "
			    "time zone, such as 2030-01-31T12:00:00Z.");
			return -1;
		}
		if (l->expires_at <= now) {
			lz_verr_set(e, 400, "invalid_field", "expires_at",
			    "'expires_at' must be in the future.");
			return -1;
		}
	}

	v = json_object_get(body, "max_clicks");
	if (json_is_integer(v)) {
		if (json_integer_value(v) < create_fields[F_MAX_CLICKS].min ||
		    json_integer_value(v) > create_fields[F_MAX_CLICKS].max) {
			lz_verr_set(e, 400, "invalid_field", "max_clicks",
			    "'max_clicks' must be an integer from 0 "
			    "(unlimited) to %lld.",
			    create_fields[F_MAX_CLICKS].max);
			return -1;
		}
		l->max_clicks = json_integer_value(v);
	}

	v = json_object_get(body, "utm");
	if (json_is_object(v)) {
		if (parse_utm(v, e) == -1)
			return -1;
		l->utm = compact_object(v);
	}

	if ((s = str_or_null(body, "password")) != NULL) {
		if (text_ok(s, &create_fields[F_PASSWORD], "password", e) ==
		    -1)
			return -1;
		l->password = xstrdup(s);
	}
	return 0;
}

/* The representation's members an edit cannot change. */
static const char *const read_only[] = {
	"id", "slug", "domain", "short_url", "has_password", "status",
	"created_at", "stats",
};

json_t *
link_body(const struct link *l)
{
	json_t	*j;
	char	 ts[40];
	size_t	 i;

	j = json_object();
	json_object_set_new(j, "target_url", json_string(l->target_url));
	if (l->title != NULL)
		json_object_set_new(j, "title", json_string(l->title));
	json_object_set_new(j, "mode", json_string(link_mode_names[l->mode]));
	if (l->variants != NULL)
		json_object_set_new(j, "variants", json_deep_copy(l->variants));
	json_object_set_new(j, "redirect_type", json_integer(l->redirect_type));
	if (l->og != NULL)
		json_object_set_new(j, "og", json_deep_copy(l->og));
	for (i = 0; i < PIXEL__MAX; i++)
		if (l->pixel[i] != NULL)
			json_object_set_new(j, link_pixel_names[i],
			    json_string(l->pixel[i]));
	json_object_set_new(j, "escape_inapp", json_boolean(l->escape_inapp));
	if (l->expires_at != 0) {
		lz_time_fmt_iso(l->expires_at, ts, sizeof(ts), 1);
		json_object_set_new(j, "expires_at", json_string(ts));
	}
	json_object_set_new(j, "max_clicks", json_integer(l->max_clicks));
	if (l->expired_url != NULL)
		json_object_set_new(j, "expired_url",
		    json_string(l->expired_url));
	if (l->utm != NULL)
		json_object_set_new(j, "utm", json_deep_copy(l->utm));
	if (l->tags != NULL)
		json_object_set_new(j, "tags", json_deep_copy(l->tags));
	if (l->notes != NULL)
		json_object_set_new(j, "notes", json_string(l->notes));
	if (l->archived)
		json_object_set_new(j, "archived", json_true());
	return j;
}

/* The members of a patch: create fields but slug; read-only and unknown
 * ones refused. */
static int
patch_keys_ok(const json_t *patch, struct lz_verr *e)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach((json_t *)(uintptr_t)patch, key, v) {
		for (i = 0; i < LZ_NELEM(read_only); i++)
			if (strcmp(key, read_only[i]) == 0) {
				lz_verr_set(e, 400, "read_only_field", key,
				    "'%s' cannot be changed%s.", key,
				    strcmp(key, "slug") == 0 ||
				    strcmp(key, "domain") == 0 ? ": a short "
				    "URL keeps its meaning once shared" : "");
				return -1;
			}
		for (i = 0; i < F__MAX; i++)
			if (strcmp(key, create_fields[i].name) == 0)
				break;
		if (i == F__MAX) {
			lz_verr_set(e, 400, "unknown_field", key, "Unknown "
			    "field '%.64s'.", key);
			return -1;
		}
	}
	return 0;
}

int
link_parse_patch(const struct link *stored, const json_t *patch,
    int64_t now, struct link *l, struct lz_verr *e)
{
	json_t		*body;
	const json_t	*pw;
	int		 rc;

	if (patch_keys_ok(patch, e) == -1)
		return -1;
	body = lz_json_merge_patch(link_body(stored), patch);
	/* A kept expiry stands as it is; a new one must be ahead. */
	rc = link_parse(body, json_is_string(json_object_get(patch,
	    "expires_at")) ? now : INT64_MIN, l, e);
	json_decref(body);
	if (rc == -1)
		return -1;
	pw = json_object_get(patch, "password");
	if (pw == NULL && stored->password_hash != NULL)
		l->password_hash = xstrdup(stored->password_hash);
	l->id = stored->id;
	l->account_id = stored->account_id;
	l->slug = xstrdup(stored->slug);
	l->revision = stored->revision;
	l->domain_id = stored->domain_id;
	free(l->domain);
	l->domain = stored->domain ? xstrdup(stored->domain) : NULL;
	return 0;
}

enum link_status
link_status(const struct link *l, int64_t now)
{
	if (l->flagged_at != 0)
		return STATUS_DISABLED;
	if (l->expires_at != 0 && now >= l->expires_at)
		return STATUS_EXPIRED;
	if (l->max_clicks != 0 && l->clicks >= l->max_clicks)
		return STATUS_CAPPED;
	return STATUS_ACTIVE;
}

char *
link_base(const char *base_url, const struct link *l)
{
	const char	*sep;

	if (l->domain == NULL || (sep = strstr(base_url, "://")) == NULL)
		return xstrdup(base_url);
	return xasprintf("%.*s://%s", (int)(sep - base_url), base_url,
	    l->domain);
}

char *
link_short_url(const char *base_url, const struct link *l,
    const char *suffix)
{
	char	*base = link_base(base_url, l), *s;

	s = suffix ? xasprintf("%s/%s/%s", base, l->slug, suffix) :
	    xasprintf("%s/%s", base, l->slug);
	free(base);
	return s;
}

static json_t *
str_or_jnull(const char *s)
{
	json_t	*j;

	if (s == NULL || (j = json_string(s)) == NULL)
		return json_null();
	return j;
}

/* base_url's host, read once per thread (NULL when it has none). */
static const char *
default_host(const char *base_url)
{
	static _Thread_local char	*base, host[HOST_MAX + 1];
	static _Thread_local int	 ok;

	if (base == NULL || strcmp(base, base_url) != 0) {
		free(base);
		base = xstrdup(base_url);
		ok = host_of_url(base_url, host, sizeof(host)) == 0;
	}
	return ok ? host : NULL;
}

json_t *
link_json(const struct link *l, const char *base_url, int64_t now)
{
	json_t		*j, *stats, *revenue, *amt;
	const char	*cur;
	char		*short_url;
	size_t		 i;

	j = json_object();
	short_url = link_short_url(base_url, l, NULL);
	json_object_set_new(j, "id", json_integer(l->id));
	json_object_set_new(j, "slug", json_string(l->slug));
	if (l->domain != NULL)
		json_object_set_new(j, "domain", json_string(l->domain));
	else
		json_object_set_new(j, "domain", str_or_jnull(
		    default_host(base_url)));
	json_object_set_new(j, "short_url", json_string(short_url));
	free(short_url);
	json_object_set_new(j, "target_url", str_or_jnull(l->target_url));
	json_object_set_new(j, "title", str_or_jnull(l->title));
	json_object_set_new(j, "mode", json_string(link_mode_names[l->mode]));
	json_object_set(j, "variants", l->variants ? l->variants :
	    json_null());
	json_object_set_new(j, "redirect_type", json_integer(l->redirect_type));
	json_object_set(j, "og", l->og ? l->og : json_null());
	for (i = 0; i < PIXEL__MAX; i++)
		json_object_set_new(j, link_pixel_names[i],
		    str_or_jnull(l->pixel[i]));
	json_object_set_new(j, "escape_inapp", json_boolean(l->escape_inapp));
	json_object_set_new(j, "expires_at", lz_json_time(l->expires_at));
	json_object_set_new(j, "max_clicks", json_integer(l->max_clicks));
	json_object_set_new(j, "expired_url", str_or_jnull(l->expired_url));
	json_object_set_new(j, "tags", l->tags ? json_deep_copy(l->tags) :
	    json_array());
	json_object_set_new(j, "notes", str_or_jnull(l->notes));
	json_object_set_new(j, "archived", json_boolean(l->archived));
	json_object_set_new(j, "expired_url", str_or_jnull(l->expired_url));
	json_object_set(j, "utm", l->utm ? l->utm : json_null());
	json_object_set_new(j, "has_password",
	    json_boolean(l->password_hash != NULL));
	json_object_set_new(j, "status",
	    json_string(link_status_names[link_status(l, now)]));
	json_object_set_new(j, "created_at", lz_json_time(l->created_at));

	stats = json_object();
	json_object_set_new(stats, "clicks", json_integer(l->clicks));
	json_object_set_new(stats, "conversions", json_integer(l->conversions));
	revenue = json_object();
	json_object_foreach(l->revenue, cur, amt)
		if (json_is_integer(amt))
			json_object_set_new(revenue, cur,
			    amount_json(json_integer_value(amt)));
	json_object_set_new(stats, "revenue", revenue);
	json_object_set_new(stats, "conversion_rate",
	    json_real(conv_rate(l->conversions, l->clicks)));
	json_object_set_new(j, "stats", stats);
	return j;
}
