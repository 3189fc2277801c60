/*
 * safebrowsing.c -- Google Safe Browsing v4 Lookup API client
 * (safebrowsing.h).
 *
 * One POST of
 *   {"client": {"clientId": "lz", "clientVersion": VERSION},
 *    "threatInfo": {"threatTypes": [...], "platformTypes": ["ANY_PLATFORM"],
 *     "threatEntryTypes": ["URL"], "threatEntries": [{"url": ...}, ...]}}
 * to .../v4/threatMatches:find?key=KEY; the answer is {} or
 * {"matches": [{"threatType": ..., "threat": {"url": ...}, ...}]}.
 * The easy handle is kept for the life of the process, so a worker
 * reuses its connection to the API.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "conf.h"
#include "safety/safebrowsing.h"
#include "util.h"

#define SB_REPLY_MAX	(1024 * 1024)

static CURL	*sb_curl;

struct sink {
	struct lz_buf	 b;
	int		 over;
};

static size_t
sink_write(char *p, size_t size, size_t nmemb, void *arg)
{
	struct sink	*s = arg;
	size_t		 n = size * nmemb;

	if (s->b.len + n > SB_REPLY_MAX) {
		s->over = 1;
		return 0;
	}
	lz_buf_add(&s->b, p, n);
	return n;
}

static char *
request_body(const char *const *urls, size_t n)
{
	json_t	*entries, *body;
	char	*s;
	size_t	 i;

	entries = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(entries, json_pack("{s:s}", "url",
		    urls[i]));
	body = json_pack("{s:{s:s, s:s}, s:{s:[s, s, s, s], s:[s], s:[s], "
	    "s:o}}",
	    "client", "clientId", "lz", "clientVersion", PACKAGE_VERSION,
	    "threatInfo",
	    "threatTypes", "MALWARE", "SOCIAL_ENGINEERING",
	    "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION",
	    "platformTypes", "ANY_PLATFORM",
	    "threatEntryTypes", "URL",
	    "threatEntries", entries);
	s = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	return s;
}

/* The API address with "?key=KEY" appended (escaped); caller frees with
 * curl_free. */
static char *
request_url(const struct lz_conf *conf)
{
	CURLU	*u;
	char	*q, *out = NULL;

	if ((u = curl_url()) == NULL)
		return NULL;
	q = xasprintf("key=%s", conf->safe_browsing_key);
	if (curl_url_set(u, CURLUPART_URL, conf->safe_browsing_url, 0) ==
	    CURLUE_OK && curl_url_set(u, CURLUPART_QUERY, q,
	    CURLU_APPENDQUERY | CURLU_URLENCODE) == CURLUE_OK)
		curl_url_get(u, CURLUPART_URL, &out, 0);
	free(q);
	curl_url_cleanup(u);
	return out;
}

static int
parse_reply(const char *text, size_t len, const char *const *urls, size_t n,
    size_t *hit, char *threat, size_t threatlen, char *err, size_t errlen)
{
	json_error_t	 jerr;
	json_t		*j, *matches, *m, *t;
	const char	*url, *type;
	size_t		 i, k;
	int		 rc = -1;

	if ((j = json_loadb(text, len, 0, &jerr)) == NULL ||
	    !json_is_object(j)) {
		snprintf(err, errlen, "the reply is not a JSON object");
		goto out;
	}
	matches = json_object_get(j, "matches");
	if (matches == NULL || (json_is_array(matches) &&
	    json_array_size(matches) == 0)) {
		rc = 0;
		goto out;
	}
	if (!json_is_array(matches)) {
		snprintf(err, errlen, "'matches' in the reply is not an array");
		goto out;
	}
	json_array_foreach(matches, i, m) {
		t = json_object_get(m, "threat");
		url = json_string_value(json_object_get(t, "url"));
		type = json_string_value(json_object_get(m, "threatType"));
		*hit = 0;
		for (k = 0; url != NULL && k < n; k++)
			if (strcmp(url, urls[k]) == 0) {
				*hit = k;
				break;
			}
		snprintf(threat, threatlen, "%s", type ? type : "THREAT");
		rc = 1;
		if (url != NULL && k < n)
			break;		/* one we can name */
	}
out:
	json_decref(j);
	return rc;
}

int
sb_lookup(const struct lz_conf *conf, const char *const *urls, size_t n,
    size_t *hit, char *threat, size_t threatlen, char *err, size_t errlen)
{
	struct curl_slist	*hdrs = NULL;
	struct sink		 sink;
	char			*body = NULL, *url = NULL, ebuf[CURL_ERROR_SIZE];
	long			 status = 0;
	CURLcode		 cc;
	int			 rc = -1;

	memset(&sink, 0, sizeof(sink));
	if (n == 0)
		return 0;
	if (n > SB_URLS_MAX) {
		snprintf(err, errlen, "more than %d URLs", SB_URLS_MAX);
		return -1;
	}
	if (sb_curl == NULL && (sb_curl = curl_easy_init()) == NULL) {
		snprintf(err, errlen, "curl_easy_init failed");
		return -1;
	}
	curl_easy_reset(sb_curl);
	if ((url = request_url(conf)) == NULL) {
		snprintf(err, errlen, "safe_browsing_url is not a URL");
		goto out;
	}
	body = request_body(urls, n);
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	ebuf[0] = '\0';
	curl_easy_setopt(sb_curl, CURLOPT_URL, url);
	curl_easy_setopt(sb_curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(sb_curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(sb_curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(sb_curl, CURLOPT_TIMEOUT_MS,
	    (long)conf->safe_browsing_timeout_ms);
	curl_easy_setopt(sb_curl, CURLOPT_CONNECTTIMEOUT_MS,
	    (long)conf->safe_browsing_timeout_ms);
	curl_easy_setopt(sb_curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(sb_curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(sb_curl, CURLOPT_USERAGENT, "lz/" PACKAGE_VERSION);
	curl_easy_setopt(sb_curl, CURLOPT_WRITEFUNCTION, sink_write);
	curl_easy_setopt(sb_curl, CURLOPT_WRITEDATA, &sink);
	curl_easy_setopt(sb_curl, CURLOPT_ERRORBUFFER, ebuf);
	cc = curl_easy_perform(sb_curl);
	if (cc != CURLE_OK) {
		/* The error buffer names host and port, never the key. */
		snprintf(err, errlen, "%s", sink.over ? "reply too large" :
		    ebuf[0] ? ebuf : curl_easy_strerror(cc));
		goto out;
	}
	curl_easy_getinfo(sb_curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		snprintf(err, errlen, "HTTP status %ld", status);
		goto out;
	}
	rc = parse_reply(lz_buf_str(&sink.b), sink.b.len, urls, n, hit,
	    threat, threatlen, err, errlen);
out:
	/* Nothing of this request may outlive it in the kept handle. */
	curl_easy_setopt(sb_curl, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(sb_curl, CURLOPT_POSTFIELDS, NULL);
	curl_easy_setopt(sb_curl, CURLOPT_WRITEDATA, NULL);
	curl_easy_setopt(sb_curl, CURLOPT_ERRORBUFFER, NULL);
	curl_slist_free_all(hdrs);
	curl_free(url);
	free(body);
	lz_buf_free(&sink.b);
	return rc;
}
