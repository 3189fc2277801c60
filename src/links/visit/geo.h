/*
 * geo.h -- the visitor's country from the IP-range database of Debian's
 * tor-geoipdb (DESIGN 3.4): "FROM,TO,CC" lines, IPv4 ranges as integers
 * in /usr/share/tor/geoip, IPv6 ranges as addresses in geoip6; '#'
 * starts a comment.
 *
 * geo_load() runs once in the pool supervisor, before the workers are
 * forked (lz_app.pre_fork).  It builds compact sorted tables in one
 * read-only shared mapping, so all workers use the same pages, and
 * geo_lookup() is a binary search over them: no allocation, no I/O.
 */
#ifndef LZ_GEO_H
#define LZ_GEO_H

#include <stddef.h>

struct lz_addr;

/*
 * Loads both files, replacing any table loaded before only on success.
 * A path that is "" or a file that does not exist leaves that family
 * empty (logged, not an error).  Returns 0, or -1 with a message naming
 * file and line in err for a file that cannot be read or parsed.
 */
int	 geo_load(const char *v4path, const char *v6path, char *err,
	    size_t errlen);

/*
 * Looks a up (IPv4 as ::ffff:a.b.c.d).  Returns 1 with cc set to the
 * upper-case two-letter code and NUL, or 0 with cc set to "" when the
 * address is in no range, in a range marked "??", or nothing is loaded.
 */
int	 geo_lookup(const struct lz_addr *a, char cc[3]);

/* What geo_load built, for logs and tests. */
struct geo_stats {
	size_t	 v4_ranges;	/* lines read */
	size_t	 v6_ranges;
	size_t	 v4_entries;	/* rows after merging, with gaps */
	size_t	 v6_entries;
	size_t	 v6_fine;	/* rows of the 128-bit table */
	size_t	 bytes;		/* size of the shared mapping */
};

void	 geo_stats(struct geo_stats *);

/* Unmaps the tables; lookups then return 0. */
void	 geo_unload(void);

#endif
