/*
 * hostmap.c -- the short domains by host, per worker (hostmap.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "domain/domain.h"
#include "domain/hostmap.h"
#include "util.h"
#include "visit/linkcache.h"

static struct {
	struct domain	*v;		/* sorted by host */
	size_t		 n, cap;
	struct domain	 def;		/* the default domain: id 0 */
	int64_t		 loaded;	/* ms; 0: never */
} map;

static void
take(const struct domain *d, void *arg)
{
	(void)arg;
	if (map.n == map.cap) {
		map.cap = map.cap ? map.cap * 2 : 16;
		map.v = xreallocarray(map.v, map.cap, sizeof(*map.v));
	}
	/* The row's strings are freed after the call: copied. */
	map.v[map.n] = *d;
	map.v[map.n].root_url = d->root_url ? xstrdup(d->root_url) : NULL;
	map.v[map.n].not_found_url = d->not_found_url ?
	    xstrdup(d->not_found_url) : NULL;
	map.v[map.n].expired_url = d->expired_url ?
	    xstrdup(d->expired_url) : NULL;
	map.v[map.n].aasa = d->aasa ? xstrdup(d->aasa) : NULL;
	map.v[map.n].assetlinks = d->assetlinks ? xstrdup(d->assetlinks) :
	    NULL;
	map.n++;
}

void
hostmap_clear(void)
{
	size_t	 i;

	for (i = 0; i < map.n; i++)
		store_domain_free(&map.v[i]);
	map.n = 0;
	map.loaded = 0;
}

static int
by_host(const void *a, const void *b)
{
	return strcmp(((const struct domain *)a)->host,
	    ((const struct domain *)b)->host);
}

static int
load(struct lz_db *db, const struct lz_conf *c, int64_t now)
{
	hostmap_clear();
	memset(&map.def, 0, sizeof(map.def));
	(void)domain_default_host(c, map.def.host, sizeof(map.def.host));
	map.def.verified_at = 1;
	if (store_domain_list(db, 0, take, NULL) < 0) {
		hostmap_clear();
		return -1;
	}
	/* The list comes by host already, but in the engine's collation. */
	if (map.n > 1)
		qsort(map.v, map.n, sizeof(*map.v), by_host);
	map.loaded = now;
	return 0;
}

int
hostmap_find(struct lz_db *db, const struct lz_conf *c, const char *host,
    int64_t now, const struct domain **d)
{
	struct domain	 key;

	if (map.loaded == 0 || now - map.loaded >= LINKCACHE_TTL_MS ||
	    now < map.loaded)
		if (load(db, c, now) == -1)
			return -1;
	if (host == NULL || strcmp(host, map.def.host) == 0) {
		*d = &map.def;
		return 1;
	}
	if (map.n == 0 || strlen(host) >= sizeof(key.host))
		return 0;
	memcpy(key.host, host, strlen(host) + 1);
	*d = bsearch(&key, map.v, map.n, sizeof(*map.v), by_host);
	return *d != NULL;
}
