/*
 * dest.c -- destination URL checks (libcurl's URL parser, never ours).
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "dest.h"
#include "link.h"
#include "req.h"
#include "utf8.h"

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

int
dest_check(const char *url, const char *param, struct lz_verr *e)
{
	if (strlen(url) > URL_MAX) {
		lz_verr_set(e, 400, "invalid_url", param, "'%s' is longer "
		    "than %d bytes.", param, URL_MAX);
		return -1;
	}
	if (!dest_url_ok(url)) {
		lz_verr_set(e, 400, "invalid_url", param, "'%s' must be an "
		    "absolute http:// or https:// URL.", param);
		return -1;
	}
	return 0;
}
