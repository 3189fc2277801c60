/*
 * http.c -- the importers' GET requests (http.h).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

#include "import/http.h"
#include "util.h"

struct http {
	CURL		*curl;
	char		*cacert;
	struct lz_buf	 body;
	int		 over;		/* the body passed HTTP_BODY_MAX */
	long		 retry_after;	/* seconds; -1 none */
};

static size_t
on_body(char *p, size_t size, size_t nmemb, void *arg)
{
	struct http	*h = arg;
	size_t		 n = size * nmemb;

	if (h->body.len + n > HTTP_BODY_MAX) {
		h->over = 1;
		return 0;
	}
	lz_buf_add(&h->body, p, n);
	return n;
}

/* Retry-After in seconds; its other form, an HTTP date, is left to the
 * back-off. */
static size_t
on_header(char *p, size_t size, size_t nmemb, void *arg)
{
	struct http	*h = arg;
	size_t		 n = size * nmemb, i = 12;
	long		 v = 0;

	if (n > 12 && strncasecmp(p, "Retry-After:", 12) == 0) {
		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i < n && isdigit((unsigned char)p[i])) {
			for (; i < n && isdigit((unsigned char)p[i]); i++)
				if (v < 100000)
					v = v * 10 + (p[i] - '0');
			h->retry_after = v;
		}
	}
	return n;
}

struct http *
http_new(const char *cacert)
{
	struct http	*h = xcalloc(1, sizeof(*h));

	if ((h->curl = curl_easy_init()) == NULL) {
		free(h);
		return NULL;
	}
	h->cacert = cacert ? xstrdup(cacert) : NULL;
	return h;
}

void
http_free(struct http *h)
{
	if (h == NULL)
		return;
	curl_easy_cleanup(h->curl);
	lz_buf_free(&h->body);
	free(h->cacert);
	free(h);
}

char *
http_escape(struct http *h, const char *s)
{
	char	*e, *out;

	if ((e = curl_easy_escape(h->curl, s, 0)) == NULL)
		return xstrdup("");
	out = xstrdup(e);
	curl_free(e);
	return out;
}

char *
http_base(const char *url, char *err, size_t errlen)
{
	char	*b;
	size_t	 n;

	if (strncasecmp(url, "https://", 8) != 0 || url[8] == '\0' ||
	    url[8] == '/') {
		snprintf(err, errlen, "--from: expected https://HOST (the API "
		    "is only asked over HTTPS: the requests carry its key)");
		return NULL;
	}
	if (strpbrk(url, "?# \t\r\n") != NULL) {
		snprintf(err, errlen, "--from: a base URL has no query, "
		    "fragment or spaces");
		return NULL;
	}
	b = xstrdup(url);
	for (n = strlen(b); n > 8 && b[n - 1] == '/'; n--)
		b[n - 1] = '\0';
	return b;
}

/* The message of an error answer, when it is JSON and has one
 * (Shlink's problem details, Bitly's and Kutt's own), else its first
 * characters; "" when empty. */
static void
why_of(const char *body, size_t len, char *out, size_t outlen)
{
	static const char *const keys[] = { "detail", "description",
	    "message", "error", "title" };
	json_t		*j;
	const char	*s = NULL;
	size_t		 i;

	out[0] = '\0';
	if ((j = json_loadb(body, len, 0, NULL)) != NULL) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && s == NULL;
		    i++)
			s = json_string_value(json_object_get(j, keys[i]));
		if (s != NULL)
			snprintf(out, outlen, ": %.200s", s);
		json_decref(j);
		return;
	}
	if (len > 0)
		snprintf(out, outlen, " (not the API's JSON: an HTML error "
		    "page or a proxy's?)");
}

/* Whether the body is JSON's text by its first byte. */
static int
looks_json(const char *p, size_t len)
{
	size_t	 i = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
	    p[i] == '\n'))
		i++;
	return i < len && (p[i] == '{' || p[i] == '[');
}

static void
wait_s(long s)
{
	struct timespec	 ts = { s, 0 };

	while (nanosleep(&ts, &ts) == -1)
		continue;
}

/* One try.  0 with the answer's status, or -1 with why (a network
 * error: tried again). */
static int
perform(struct http *h, const char *url, struct curl_slist *hl,
    long *status, char *err, size_t errlen)
{
	char		 ebuf[CURL_ERROR_SIZE];
	CURLcode	 cc;
	CURL		*c = h->curl;

	curl_easy_reset(c);
	lz_buf_reset(&h->body);
	h->over = 0;
	h->retry_after = -1;
	ebuf[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 600L);
	/* A stalled answer fails long before the whole time-out. */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (h->cacert != NULL)
		curl_easy_setopt(c, CURLOPT_CAINFO, h->cacert);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)HTTP_BODY_MAX);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "lzctl/" PACKAGE_VERSION);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
	cc = curl_easy_perform(c);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	if (cc != CURLE_OK) {
		snprintf(err, errlen, "%s", h->over ||
		    cc == CURLE_FILESIZE_EXCEEDED ? "the answer is larger "
		    "than 32 MiB" : ebuf[0] ? ebuf : curl_easy_strerror(cc));
		return cc == CURLE_FILESIZE_EXCEEDED || h->over ||
		    cc == CURLE_PEER_FAILED_VERIFICATION ||
		    cc == CURLE_SSL_CACERT_BADFILE ||
		    cc == CURLE_UNSUPPORTED_PROTOCOL ||
		    cc == CURLE_URL_MALFORMAT ? -2 : -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	return 0;
}

int
http_get(struct http *h, const char *url, const char *const *hdrs,
    char **body, size_t *len, char *err, size_t errlen)
{
	struct curl_slist	*hl = NULL;
	char			 why[256];
	long			 status = 0, backoff = 1, wait;
	int			 try, rc;

	*body = NULL;
	*len = 0;
	for (; hdrs != NULL && *hdrs != NULL; hdrs++)
		hl = curl_slist_append(hl, *hdrs);
	hl = curl_slist_append(hl, "Accept: application/json");
	for (try = 1;; try++) {
		rc = perform(h, url, hl, &status, err, errlen);
		if (rc == -2)
			break;		/* no try will do better */
		if (rc == 0 && status >= 200 && status < 300) {
			if (!looks_json(h->body.p, h->body.len)) {
				snprintf(err, errlen, "HTTP %ld: the answer is "
				    "not JSON (an HTML page?)", status);
				rc = -2;
				break;
			}
			*len = h->body.len;
			*body = lz_buf_detach(&h->body);
			curl_slist_free_all(hl);
			return 0;
		}
		if (rc == 0) {
			why_of(h->body.p, h->body.len, why, sizeof(why));
			snprintf(err, errlen, "HTTP %ld%s", status, why);
		}
		/* Tried again: a network error, too many requests, the
		 * server's own trouble.  Anything else is an answer. */
		if (rc == 0 && status != 429 && status < 500)
			break;
		if (try == HTTP_TRIES)
			break;
		wait = backoff;
		if (rc == 0 && status == 429 && h->retry_after >= 0)
			wait = h->retry_after;
		if (wait > HTTP_WAIT_MAX)
			wait = HTTP_WAIT_MAX;
		wait_s(wait);
		backoff *= 2;
	}
	curl_slist_free_all(hl);
	lz_buf_reset(&h->body);
	if (rc == 0 && (status == 401 || status == 403))
		return HTTP_DENIED;
	if (rc == 0 && status == 404)
		return HTTP_NOTFOUND;
	if (rc == 0 && status >= 300 && status < 400) {
		char	*loc = NULL;

		curl_easy_getinfo(h->curl, CURLINFO_REDIRECT_URL, &loc);
		snprintf(err, errlen, "HTTP %ld: the API moved%s%.200s", status,
		    loc ? " to " : "", loc ? loc : "");
	}
	return HTTP_FAIL;
}
