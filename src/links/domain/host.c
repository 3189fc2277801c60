/*
 * host.c -- host names of short domains (host.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "domain/host.h"
#include "safety/idn.h"

/* Checks the ASCII name s[0..len): 0, or -1 with why. */
static int
check_labels(const char *s, size_t len, char *why, size_t whylen)
{
	size_t	 i, label = 0;

	if (len == 0) {
		snprintf(why, whylen, "is empty");
		return -1;
	}
	if (len > HOST_MAX) {
		snprintf(why, whylen, "is longer than %d characters",
		    HOST_MAX);
		return -1;
	}
	for (i = 0; i <= len; i++) {
		if (i == len || s[i] == '.') {
			if (label == 0) {
				snprintf(why, whylen, "has an empty label");
				return -1;
			}
			if (label > 63) {
				snprintf(why, whylen, "has a label longer "
				    "than 63 characters");
				return -1;
			}
			if (s[i - 1] == '-' || s[i - label] == '-') {
				snprintf(why, whylen, "has a label that "
				    "begins or ends with '-'");
				return -1;
			}
			label = 0;
			continue;
		}
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-')) {
			snprintf(why, whylen, "may hold only letters, digits, "
			    "'-' and '.'");
			return -1;
		}
		label++;
	}
	return 0;
}

int
host_parse(const char *in, char *out, size_t outlen, char *why,
    size_t whylen)
{
	size_t	 len = strlen(in), i;
	int	 ascii = 1, n;

	if (strstr(in, "://") != NULL) {
		snprintf(why, whylen, "is a URL: give the host name alone");
		return -1;
	}
	for (i = 0; i < len; i++) {
		if ((unsigned char)in[i] >= 0x80)
			ascii = 0;
		else if (in[i] == ':') {
			snprintf(why, whylen, "has a port: give the host "
			    "name alone");
			return -1;
		} else if (in[i] == '/' || in[i] == '?' || in[i] == '#') {
			snprintf(why, whylen, "has a path: give the host "
			    "name alone");
			return -1;
		}
	}
	if (len > 0 && in[len - 1] == '.')	/* the root's dot */
		len--;
	if (ascii) {
		if (len + 1 > outlen || len > HOST_MAX) {
			snprintf(why, whylen, "is longer than %d characters",
			    HOST_MAX);
			return -1;
		}
		for (i = 0; i < len; i++)
			out[i] = (in[i] >= 'A' && in[i] <= 'Z') ?
			    in[i] - 'A' + 'a' : in[i];
		out[len] = '\0';
	} else if ((n = idn_to_ascii(in, len, out, outlen)) < 0) {
		snprintf(why, whylen, "is not a valid internationalised "
		    "name");
		return -1;
	} else
		len = (size_t)n;
	return check_labels(out, len, why, whylen);
}

int
host_of_header(const char *hdr, char *out, size_t outlen)
{
	size_t	 len, i;
	char	 why[80];

	if (hdr == NULL)
		return -1;
	len = strcspn(hdr, ":");
	/* A port: digits only, after the colon. */
	if (hdr[len] == ':' && (hdr[len + 1] == '\0' ||
	    strspn(hdr + len + 1, "0123456789") != strlen(hdr + len + 1)))
		return -1;
	if (len > 0 && hdr[len - 1] == '.')
		len--;
	if (len + 1 > outlen || len > HOST_MAX)
		return -1;
	for (i = 0; i < len; i++)
		out[i] = (hdr[i] >= 'A' && hdr[i] <= 'Z') ?
		    hdr[i] - 'A' + 'a' : hdr[i];
	out[len] = '\0';
	return check_labels(out, len, why, sizeof(why));
}

int
host_of_url(const char *url, char *out, size_t outlen)
{
	CURLU	*u;
	char	*host = NULL;
	int	 rc = -1;

	if ((u = curl_url()) == NULL)
		return -1;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
		rc = host_of_header(host, out, outlen);
	curl_free(host);
	curl_url_cleanup(u);
	return rc;
}
