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
 * parse; 400 unsafe_destination for one the safety scan refuses (another
 * scheme than http or https, over 2,048 bytes, the heuristics and
 * blocklists of safety.h, with the configuration and database of the
 * process, links.conf and links.db, when they are open); 500 when the
 * blocklists cannot be read.
 */
int	dest_check(const char *url, const char *param, struct lz_verr *e);

/* Syntax only: an absolute http(s) URL with a host, at most 2048 bytes. */
int	dest_url_ok(const char *url);

#endif
