/*
 * click.c -- what every writer of a click does to its referrer (click.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "utf8.h"
#include "util.h"
#include "visit/click.h"

void
click_referrer(const char *raw, char *out, size_t outlen)
{
	size_t	 n;

	out[0] = '\0';
	if (raw == NULL || outlen == 0)
		return;
	n = strlen(raw);
	if (n >= outlen) {
		n = outlen - 1;
		/* Back up to the start of a UTF-8 character. */
		while (n > 0 && ((unsigned char)raw[n] & 0xc0) == 0x80)
			n--;
	}
	if (lz_utf8_count(raw, n, LZ_UTF8_NOCTRL) < 0)
		return;
	memcpy(out, raw, n);
	out[n] = '\0';
}

void
click_referrer_host(const char *referrer, char *out, size_t outlen)
{
	CURLU	*u;
	char	*host = NULL;
	size_t	 i;

	out[0] = '\0';
	if (referrer == NULL || *referrer == '\0' || (u = curl_url()) == NULL)
		return;
	if (curl_url_set(u, CURLUPART_URL, referrer,
	    CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		for (i = 0; host[i] != '\0'; i++)
			host[i] = (char)tolower((unsigned char)host[i]);
		/* Cut as a referrer is, on a character: a rollup key and a
		 * column of text, which PostgreSQL refuses unless UTF-8. */
		click_referrer(host, out, outlen);
	}
	curl_free(host);
	curl_url_cleanup(u);
}
