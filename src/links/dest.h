/*
 * dest.h -- checks of a destination URL (target_url, variant URLs) before
 * a link may point there.
 */
#ifndef LZ_DEST_H
#define LZ_DEST_H

struct lz_verr;

/*
 * Checks url as a link destination.  param names the field for errors.
 * Returns 0, or -1 with e filled: 400 invalid_url for a URL that does not
 * parse or is not http(s).
 */
int	dest_check(const char *url, const char *param, struct lz_verr *e);

/* Syntax only: an absolute http(s) URL with a host, at most 2048 bytes. */
int	dest_url_ok(const char *url);

#endif
