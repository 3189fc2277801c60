/*
 * guard.c -- the SSRF guard of webhooks (guard.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "addr.h"
#include "resolve.h"
#include "safety/dest.h"
#include "util.h"
#include "verr.h"
#include "webhook/guard.h"
#include "webhook/webhook.h"

int
webhook_addr_allowed(const struct lz_addr *a, int allow_loopback,
    int plain_http, char *why, size_t whylen)
{
	enum lz_addr_class	 c = lz_addr_class(a);
	char			 text[64];

	if (c == LZ_ADDR_LOOPBACK && allow_loopback)
		return 1;
	lz_addr_fmt(a, text, sizeof(text));
	if (c != LZ_ADDR_PUBLIC) {
		snprintf(why, whylen, "%s is a %s address", text,
		    lz_addr_class_name(c));
		return 0;
	}
	if (plain_http) {
		snprintf(why, whylen, "%s is public and plain http is only "
		    "allowed to loopback", text);
		return 0;
	}
	return 1;
}

int
webhook_url_check(const char *url, int allow_loopback, struct lz_verr *e)
{
	struct lz_addr	*addrs = NULL;
	CURLU		*u = NULL;
	char		*scheme = NULL, *host = NULL, *user = NULL;
	char		*zone = NULL, why[160], name[256];
	size_t		 len, i, n;
	int		 rc = -1, plain_http;
	enum lz_resolve_rc res;

	if (!dest_url_ok(url)) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "must be an absolute https:// URL of at most %d bytes.",
		    URL_MAX);
		return -1;
	}
	if ((u = curl_url()) == NULL ||
	    curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, CURLU_PUNYCODE) !=
	    CURLUE_OK) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "does not parse.");
		goto done;
	}
	plain_http = strcasecmp(scheme, "http") == 0;
	if (plain_http && !allow_loopback) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "must use https.");
		goto done;
	}
	if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK) {
		lz_verr_set(e, 400, "invalid_url", "url", "The receiving URL "
		    "must not carry a user name or password; deliveries are "
		    "authenticated by their signature.");
		goto done;
	}
	if (curl_url_get(u, CURLUPART_ZONEID, &zone, 0) == CURLUE_OK) {
		lz_verr_set(e, 400, "unsafe_url", "url", "The receiving URL "
		    "must not name a network interface.");
		goto done;
	}
	/* "[v6]" as libcurl gives it; the resolver wants it bare.  A DNS
	 * name has at most 253 characters: never check a shortened one. */
	if ((len = strlen(host)) >= sizeof(name)) {
		lz_verr_set(e, 400, "invalid_url", "url", "The host of the "
		    "receiving URL is too long.");
		goto done;
	}
	if (len >= 2 && host[0] == '[' && host[len - 1] == ']')
		snprintf(name, sizeof(name), "%.*s", (int)(len - 2), host + 1);
	else
		snprintf(name, sizeof(name), "%s", host);

	/*
	 * Resolve as the sender's resolver will: any literal notation
	 * ("127.1", "0x7f000001", ...) comes out as the address it means.
	 * Every address must pass, not just one: DNS may hand the sender
	 * any of them.  The sender checks again at every connection.  No
	 * request waits on DNS longer than WEBHOOK_DNS_TIMEOUT_MS.
	 */
	if ((res = lz_resolve(name, WEBHOOK_DNS_TIMEOUT_MS, &addrs, &n)) !=
	    LZ_RESOLVE_OK) {
		lz_verr_set(e, 400, "unsafe_url", "url", "The host '%.100s' "
		    "of the receiving URL does not resolve (%s).", name,
		    lz_resolve_strerror(res));
		goto done;
	}
	for (i = 0; i < n; i++)
		if (!webhook_addr_allowed(&addrs[i], allow_loopback,
		    plain_http, why, sizeof(why))) {
			lz_verr_set(e, 400, "unsafe_url", "url", "The host "
			    "'%.100s' of the receiving URL resolves to %s; "
			    "receiving URLs must be public.", name, why);
			goto done;
		}
	rc = 0;
done:
	free(addrs);
	curl_free(scheme);
	curl_free(host);
	curl_free(user);
	curl_free(zone);
	curl_url_cleanup(u);
	return rc;
}
