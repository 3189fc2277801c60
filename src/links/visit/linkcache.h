/*
 * linkcache.h -- links by domain and slug, kept for a second in each worker, so a
 * redirect usually costs no SQLite read (DESIGN 5: with WAL, every read
 * transaction is two fcntl(2) locks on the shared-memory index besides
 * the query itself).
 *
 * Links never change after creation except for being deleted, flagged by
 * the safety scan, and clicked; a cached link is used for at most
 * LINKCACHE_TTL_MS, so a deletion or a flag takes effect within that
 * time.  Links with a click cap are never cached: their count must be
 * fresh, and their redirects write to the database anyway.  Unknown
 * slugs are not cached, so a new link works at once.
 */
#ifndef LZ_LINKCACHE_H
#define LZ_LINKCACHE_H

#include <stdint.h>

struct link;
struct lz_db;

#define LINKCACHE_TTL_MS	1000
#define LINKCACHE_SLOTS		256

/*
 * The link with slug on domain (its id, 0: the default one; a click is
 * the link's of the host it came to), live or deleted: from the cache when it was read
 * less than LINKCACHE_TTL_MS ago (now_ms), else from the database.
 * Returns 1 with *l pointing to the cache's copy (valid until the next
 * call), 0 when there is none, -1 on error.
 */
int	linkcache_get(struct lz_db *, int64_t domain, const char *slug,
	    int64_t now_ms, const struct link **l);

/* Empties the cache. */
void	linkcache_clear(void);

#endif
