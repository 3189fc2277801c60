/*
 * dest.h -- the syntax of a destination URL (target_url, variant URLs,
 * a webhook's receiving URL), checked before anything looks at where it
 * leads.  Pure: link_parse() (link.h) and the webhook URL check call
 * it; the scan of where a link's destinations lead is scan.h's.
 */
#ifndef LZ_DEST_H
#define LZ_DEST_H

struct lz_verr;

/*
 * Checks url as a link destination's syntax.  param names the field for
 * errors.  Returns 0, or -1 with e filled: 400 invalid_url for a URL
 * that does not parse; 400 unsafe_destination for another scheme than
 * http or https, or more than URL_MAX (2,048) bytes.
 */
int	dest_syntax(const char *url, const char *param, struct lz_verr *e);

/* Syntax only: an absolute http(s) URL with a host, at most URL_MAX
 * bytes. */
int	dest_url_ok(const char *url);

#endif
