/*
 * dest.c -- a destination URL's syntax (libcurl's URL parser, never
 * ours).
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "safety/dest.h"
#include "sizes.h"
#include "utf8.h"
#include "verr.h"

int
dest_url_ok(const char *url)
{
	CURLU	*u;
	char	*scheme = NULL, *host = NULL;
	size_t	 len = strlen(url);
	int	 ok = 0;

	if (len == 0 || len > URL_MAX)
		return 0;
	/* No spaces or controls anywhere: libcurl would encode them. */
	if (lz_utf8_count(url, len, LZ_UTF8_NOCTRL) < 0 || strpbrk(url, " "))
		return 0;
	if ((u = curl_url()) == NULL)
		return 0;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    (strcasecmp(scheme, "http") == 0 ||
	    strcasecmp(scheme, "https") == 0) && host[0] != '\0' &&
	    (strncasecmp(url, "http://", 7) == 0 ||
	    strncasecmp(url, "https://", 8) == 0))
		ok = 1;
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return ok;
}

/* The scheme of "scheme:..." (RFC 3986 syntax) into buf, or "". */
static const char *
scheme_of(const char *url, char *buf, size_t len)
{
	size_t	 n;

	n = strspn(url, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+.-");
	if (n == 0 || url[n] != ':' || !((url[0] | 0x20) >= 'a' &&
	    (url[0] | 0x20) <= 'z') || n >= len)
		return "";
	memcpy(buf, url, n);
	buf[n] = '\0';
	return buf;
}

int
dest_syntax(const char *url, const char *param, struct lz_verr *e)
{
	char		 scheme[32];
	const char	*sch;

	if (strlen(url) > URL_MAX) {
		lz_verr_set(e, 400, "unsafe_destination", param, "'%s' is "
		    "refused by the safety scan: it is longer than 2,048 "
		    "bytes.", param);
		return -1;
	}
	if (!dest_url_ok(url)) {
		sch = scheme_of(url, scheme, sizeof(scheme));
		if (*sch != '\0' && strcasecmp(sch, "http") != 0 &&
		    strcasecmp(sch, "https") != 0)
			lz_verr_set(e, 400, "unsafe_destination", param, "'%s' "
			    "is refused by the safety scan: only http:// and "
			    "https:// destinations are allowed, not %s:.",
			    param, sch);
		else
			lz_verr_set(e, 400, "invalid_url", param, "'%s' must "
			    "be an absolute http:// or https:// URL.", param);
		return -1;
	}
	return 0;
}
