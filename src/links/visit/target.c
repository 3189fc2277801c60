/*
 * target.c -- the variant pick and the UTM parameters of a visit.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "link/link.h"
#include "query.h"
#include "safety/idn.h"
#include "util.h"
#include "visit/target.h"

/* The link's utm keys, in the order they are appended. */
static const char *const utm_keys[] = {
	"source", "medium", "campaign", "term", "content"
};

static const char *
ab_pick(const struct link *l, uint64_t bucket, char variant[VARIANT_MAX])
{
	const json_t	*item;
	json_int_t	 total = 0, w;
	uint64_t	 at;
	size_t		 i;

	json_array_foreach(l->variants, i, item)
		total += json_integer_value(json_object_get(item, "weight"));
	if (total <= 0)
		return NULL;
	at = bucket % (uint64_t)total;
	json_array_foreach(l->variants, i, item) {
		w = json_integer_value(json_object_get(item, "weight"));
		if (at < (uint64_t)w) {
			/* At most 10 variants (link.c): one digit. */
			variant[0] = (char)('0' + i % 10);
			variant[1] = '\0';
			return json_string_value(json_object_get(item, "url"));
		}
		at -= (uint64_t)w;
	}
	return NULL;
}

static const char *
map_pick(const struct link *l, const char *key, char variant[VARIANT_MAX])
{
	const char	*url;

	if (key == NULL || *key == '\0' || strlen(key) >= VARIANT_MAX)
		return NULL;
	url = json_string_value(json_object_get(l->variants, key));
	if (url != NULL)
		snprintf(variant, VARIANT_MAX, "%s", key);
	return url;
}

/* The device key: the phone and tablet systems, or a desktop; other
 * mobile systems get target_url. */
static const char *
device_key(const struct target_visit *v)
{
	if (strcmp(v->os, "ios") == 0)
		return "ios";
	if (strcmp(v->os, "android") == 0)
		return "android";
	return v->desktop ? "desktop" : NULL;
}

const char *
target_pick(const struct link *l, const struct target_visit *v,
    char variant[VARIANT_MAX])
{
	const char	*url = NULL;

	variant[0] = '\0';
	if (l->variants != NULL)
		switch (l->mode) {
		case MODE_AB:
			if (json_is_array(l->variants))
				url = ab_pick(l, v->bucket, variant);
			break;
		case MODE_DEVICE:
			url = map_pick(l, device_key(v), variant);
			break;
		case MODE_GEO:
			url = map_pick(l, v->country, variant);
			break;
		case MODE_SIMPLE:
			break;
		}
	if (url == NULL) {
		variant[0] = '\0';
		url = l->target_url;
	}
	return url;
}

const char *
target_of_variant(const struct link *l, const char *variant)
{
	const json_t	*item;
	const char	*url = NULL;
	long long	 i;

	if (variant == NULL || *variant == '\0' || l->variants == NULL)
		return l->target_url;
	if (l->mode == MODE_AB) {
		if (lz_parse_ll(variant, 0, 9, &i) == 0 &&
		    (item = json_array_get(l->variants, (size_t)i)) != NULL)
			url = json_string_value(json_object_get(item, "url"));
	} else if (json_is_object(l->variants))
		url = json_string_value(json_object_get(l->variants, variant));
	return url ? url : l->target_url;
}

/* 1 when the query piece "name=value" names one of the utm keys set. */
static int
replaced(const char *piece, size_t len, const json_t *utm)
{
	char	 name[64], dec[64];
	size_t	 nlen, i;
	long	 n;

	nlen = strcspn(piece, "=&");
	if (nlen > len)
		nlen = len;
	if (nlen < 4 || nlen >= sizeof(name))
		return 0;
	memcpy(name, piece, nlen);
	name[nlen] = '\0';
	if ((n = lz_pct_decode(name, nlen, 1, dec)) < 0)
		return 0;
	dec[n] = '\0';
	if (strncmp(dec, "utm_", 4) != 0)
		return 0;
	for (i = 0; i < LZ_NELEM(utm_keys); i++)
		if (strcmp(dec + 4, utm_keys[i]) == 0 &&
		    json_object_get(utm, utm_keys[i]) != NULL)
			return 1;
	return 0;
}

static char	*target_utm(const struct link *, const char *);

static int
all_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/*
 * The ASCII form of a URL for a Location header and the pages: the host
 * in punycode (ICU, as browsers do), every other non-ASCII byte
 * %-escaped.  Takes over url; returns a new string or NULL.
 */
static char *
ascii_url(char *url)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	CURLU		*u;
	char		*host = NULL, *whole = NULL, ace[256];
	const char	*p;
	int		 n;

	if (url == NULL || all_ascii(url))
		return url;
	if ((u = curl_url()) == NULL)
		goto fail;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
		goto fail;
	if (!all_ascii(host)) {
		if ((n = idn_to_ascii(host, strlen(host), ace,
		    sizeof(ace))) < 0 ||
		    curl_url_set(u, CURLUPART_HOST, ace, 0) != CURLUE_OK)
			goto fail;
	}
	if (curl_url_get(u, CURLUPART_URL, &whole, 0) != CURLUE_OK)
		goto fail;
	for (p = whole; *p; p++)
		if ((unsigned char)*p >= 0x80)
			lz_buf_printf(&b, "%%%02X", (unsigned char)*p);
		else
			lz_buf_putc(&b, *p);
	curl_free(whole);
	curl_free(host);
	curl_url_cleanup(u);
	free(url);
	return lz_buf_detach(&b);
fail:
	curl_free(host);
	curl_url_cleanup(u);
	free(url);
	return NULL;
}

char *
target_with_utm(const struct link *l, const char *url)
{
	return ascii_url(target_utm(l, url));
}

static char *
target_utm(const struct link *l, const char *url)
{
	struct lz_buf	 kept = LZ_BUF_INIT;
	CURLU		*u;
	CURLUcode	 rc;
	const json_t	*v;
	const char	*p, *end;
	char		*q = NULL, *out = NULL, *piece;
	size_t		 i, len;

	if (l->utm == NULL || json_object_size(l->utm) == 0)
		return xstrdup(url);
	if ((u = curl_url()) == NULL)
		return NULL;
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
		goto out;
	rc = curl_url_get(u, CURLUPART_QUERY, &q, 0);
	if (rc != CURLUE_OK && rc != CURLUE_NO_QUERY)
		goto out;
	/* Keep every piece of the query but the utm_* ones we set. */
	for (p = q ? q : ""; *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "&");
		len = (size_t)(end - p);
		if (len == 0 || replaced(p, len, l->utm))
			continue;
		if (kept.len)
			lz_buf_putc(&kept, '&');
		lz_buf_add(&kept, p, len);
	}
	if (curl_url_set(u, CURLUPART_QUERY, kept.len ? kept.p : NULL, 0) !=
	    CURLUE_OK)
		goto out;
	for (i = 0; i < LZ_NELEM(utm_keys); i++) {
		if ((v = json_object_get(l->utm, utm_keys[i])) == NULL ||
		    !json_is_string(v))
			continue;
		/* URLENCODE with APPENDQUERY encodes all but the first '='
		 * (spaces become '+'). */
		piece = xasprintf("utm_%s=%s", utm_keys[i],
		    json_string_value(v));
		rc = curl_url_set(u, CURLUPART_QUERY, piece,
		    CURLU_APPENDQUERY | CURLU_URLENCODE);
		free(piece);
		if (rc != CURLUE_OK)
			goto out;
	}
	if (curl_url_get(u, CURLUPART_URL, &out, 0) != CURLUE_OK)
		out = NULL;
out:
	lz_buf_free(&kept);
	curl_free(q);
	curl_url_cleanup(u);
	if (out != NULL) {
		char	*copy = xstrdup(out);

		curl_free(out);
		return copy;
	}
	return NULL;
}
