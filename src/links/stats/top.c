/*
 * top.c -- the links of a scope with most clicks in a range (top.h).
 */
#include "config.h"

#include <string.h>

#include "stats/stats.h"
#include "stats/top.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/links.h"
#include "store/store.h"

struct walk {
	struct lz_db		*db;
	struct store_range	 sr;
	struct top_link		*top;
	int			 n;
	int			 failed;
};

/* a before b: more clicks, then the newer (higher id). */
static int
before(int64_t ca, int64_t ida, int64_t cb, int64_t idb)
{
	return ca > cb || (ca == cb && ida > idb);
}

/*
 * Link id with clicks counted ever: its clicks in the range into the
 * top.  0 stops the walk: no link after it (fewer clicks ever, or as
 * many and older) could pass the last of a full top.
 */
static int
visit(int64_t id, int64_t ever, void *arg)
{
	struct walk			*w = arg;
	const struct store_scope	 link = { STORE_SCOPE_LINK, id, -1 };
	struct top_link			*last = &w->top[STATS_TOP_LINKS - 1];
	int64_t				 clicks, bots, visitors;
	int				 i;

	if (ever == 0 || (w->n == STATS_TOP_LINKS &&
	    !before(ever, id, last->clicks, last->id)))
		return 0;
	if (store_stats_totals(w->db, &link, &w->sr, &clicks, &bots,
	    &visitors) == -1) {
		w->failed = 1;
		return 0;
	}
	if (clicks == 0 || (w->n == STATS_TOP_LINKS &&
	    !before(clicks, id, last->clicks, last->id)))
		return 1;
	/* In its place; the last one falls out of a full top. */
	i = w->n < STATS_TOP_LINKS ? w->n++ : STATS_TOP_LINKS - 1;
	for (; i > 0 && before(clicks, id, w->top[i - 1].clicks,
	    w->top[i - 1].id); i--)
		w->top[i] = w->top[i - 1];
	w->top[i] = (struct top_link){ id, clicks, 0 };
	return 1;
}

static void
add_convs(const char *currency, int64_t n, int has_rev, int64_t micros,
    void *arg)
{
	(void)currency;
	(void)has_rev;
	(void)micros;
	*(int64_t *)arg += n;
}

int
stats_top_links(struct lz_db *db, int64_t account_id,
    const struct store_scope *sc, const struct stats_range *r,
    struct top_link *top)
{
	struct walk	 w;
	int		 i;

	memset(&w, 0, sizeof(w));
	w.db = db;
	w.top = top;
	store_range(r->from, r->to, 1, &w.sr);
	if (store_link_by_clicks(db, account_id, sc->domain,
	    sc->kind == STORE_SCOPE_TAG ? sc->id : 0, visit, &w) == -1 ||
	    w.failed)
		return -1;
	for (i = 0; i < w.n; i++) {
		const struct store_scope link = { STORE_SCOPE_LINK, top[i].id,
		    -1 };

		if (store_conv_totals(db, &link, &w.sr, add_convs,
		    &top[i].conversions) == -1)
			return -1;
	}
	return w.n;
}
