/*
 * host.h -- host names of short domains (DESIGN 3.12): lower case, IDN
 * as punycode, no port, no trailing dot; labels of letters, digits and
 * hyphens (1 to 63 each, no hyphen at either end), 253 in all.
 */
#ifndef LZ_DOMAIN_HOST_H
#define LZ_DOMAIN_HOST_H

#include <stddef.h>

#include "sizes.h"		/* HOST_MAX */

/*
 * A host name as an admin or an account gives it (lzctl domain add, POST
 * /api/v1/domains): "Example.COM", "例え.jp", "links.example.com." into
 * out (HOST_MAX + 1 bytes or more).  0, or -1 with why (a sentence
 * fragment: "has a port") when it is no host name: a URL, a port, a
 * path, spaces, an empty label.
 */
int	host_parse(const char *in, char *out, size_t outlen, char *why,
	    size_t whylen);

/*
 * The host of a request's Host header (or SERVER_NAME): lower-cased,
 * its port and a trailing dot removed, into out.  0, or -1 when it is no
 * host name lz could serve (then no domain matches: the 404 page).
 */
int	host_of_header(const char *hdr, char *out, size_t outlen);

/* The host of an http(s) URL (base_url) as host_of_header reads it,
 * into out.  0, or -1. */
int	host_of_url(const char *url, char *out, size_t outlen);

#endif
