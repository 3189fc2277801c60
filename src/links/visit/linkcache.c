/*
 * linkcache.c -- a small direct-mapped cache of links by domain and slug.
 */
#include "config.h"

#include <string.h>

#include "link/link.h"
#include "store/links.h"
#include "util.h"
#include "visit/linkcache.h"

struct slot {
	struct link	 l;		/* l.domain_id and l.slug are the key;
					   slug NULL: empty */
	int64_t		 loaded;	/* ms */
};

static struct slot	 slots[LINKCACHE_SLOTS];
/* Keyed: slugs chosen to collide gain nothing. */
static struct slot *
slot_of(int64_t domain, const char *slug)
{
	return &slots[(lz_hash_keyed(slug, strlen(slug)) + (uint64_t)domain) %
	    LINKCACHE_SLOTS];
}

int
linkcache_get(struct lz_db *db, int64_t domain, const char *slug,
    int64_t now_ms, const struct link **out)
{
	struct slot	*s = slot_of(domain, slug);
	int		 rc;

	if (s->l.slug != NULL && s->l.domain_id == domain &&
	    strcmp(s->l.slug, slug) == 0 &&
	    now_ms - s->loaded < LINKCACHE_TTL_MS && now_ms >= s->loaded) {
		*out = &s->l;
		return 1;
	}
	link_free(&s->l);
	if ((rc = store_link_by_slug(db, domain, slug, &s->l)) != 1)
		return rc;
	s->loaded = now_ms;
	*out = &s->l;
	/* A capped link's count must be fresh on every visit. */
	if (s->l.max_clicks != 0)
		s->loaded = now_ms - LINKCACHE_TTL_MS;
	return 1;
}

void
linkcache_clear(void)
{
	size_t	 i;

	for (i = 0; i < LINKCACHE_SLOTS; i++)
		link_free(&slots[i].l);
}
