/*
 * scan.h -- the destination safety scan (DESIGN 3.5).
 *
 * Every destination of a link -- target_url and each variant URL -- is
 * scanned when the link is created or edited (safety_link, from
 * linkops.c, once link_parse has checked their syntax): the heuristics
 * below, then the local blocklists (blocklist.h); a link whose
 * destinations all pass is then looked up with Google Safe Browsing
 * when a key is configured (one request per link).  After a blocklist
 * import the existing links are scanned again (safety_recheck) and the
 * listed ones flagged: they answer 410.
 *
 * Heuristics, on the URL canonicalised the Safe Browsing way (canon.h):
 *  - only http and https;
 *  - no user name or password ("https://bank.example@evil.example/"),
 *    no backslash in the authority, a valid port;
 *  - no IP address as host in any notation (dotted, decimal, octal, hex,
 *    fewer parts, IPv6, IPv4-mapped) unless allow_ip_hosts is set, and
 *    then only public addresses;
 *  - a host name with a domain (not "localhost", "intranet", ".local",
 *    ".internal", ".home.arpa");
 *  - not this service (the host of base_url, own_hosts) and not another
 *    link shortener (shorteners): no loops, no chains;
 *  - IDN labels in one script (or Latin with Han-based CJK), without
 *    symbols, invisible characters or mixed digits, and not made only of
 *    characters that look like Latin ones (ICU, idn.h);
 *  - at most URL_MAX (2,048) bytes.
 */
#ifndef LZ_SCAN_H
#define LZ_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct link;
struct lz_conf;
struct lz_db;
struct lz_verr;

/*
 * Scans url as a link destination with conf (NULL: the built-in
 * defaults) and the blocklists of db (NULL: none).  Returns 0 when it
 * passes; 1 when it is refused, with why set to a sentence fragment
 * ("it points to an IP address (127.0.0.1) instead of a host name");
 * -1 when the blocklists could not be read (why says so).
 */
int	safety_scan(const struct lz_conf *, struct lz_db *, const char *url,
	    char *why, size_t whylen);

/* A destination of a link and the field that holds it. */
struct safety_dest {
	char		 param[48];	/* "target_url", "variants[1].url",
					   "variants.ios", "variants.TW" */
	const char	*url;		/* points into the link */
};

/*
 * The destinations of l: target_url, then the variant URLs.  Returns a
 * new array (caller frees) and its length in *n.
 */
struct safety_dest *safety_dests(const struct link *l, size_t *n);

/*
 * Scans every destination of l (safety_dests) with safety_scan, then
 * looks them up with safety_remote.  Returns 0 when they pass; -1 with
 * e filled: 400 unsafe_destination naming the field at fault, 500 when
 * the blocklists cannot be read, 503 as safety_remote says.
 */
int	safety_link(const struct lz_conf *, struct lz_db *,
	    const struct link *l, struct lz_verr *e);

/*
 * safety_link of n links at once (an import's or a bulk call's batch):
 * the same answers, with the database asked twice for all their
 * destinations instead of twice for each.  ok[i]: link i is to be
 * scanned; set to 0 when it is refused, with es[i] filled as
 * safety_link's e.  Returns the number refused.
 */
size_t	safety_links(const struct lz_conf *, struct lz_db *,
	    const struct link *ls, char *ok, size_t n, struct lz_verr *es);
/*
 * Looks the destinations of l up with Google Safe Browsing when
 * safe_browsing_key is set.  Returns 0 when none is listed, when no key is
 * set, or when the lookup failed and safe_browsing_fail is open; -1 with
 * e filled: 400 unsafe_destination naming the field, or 503
 * scan_unavailable when the lookup failed and safe_browsing_fail is
 * closed.
 */
int	safety_remote(const struct lz_conf *, const struct link *l,
	    struct lz_verr *e);

/*
 * Scans the destinations of every live, unflagged link against the
 * blocklists of db and flags the links with a listed one (flag_reason
 * says which).  Returns 0 with the counts, or -1 on a database error.
 */
int	safety_recheck(struct lz_db *, int64_t now, long *checked,
	    long *flagged);

#endif
