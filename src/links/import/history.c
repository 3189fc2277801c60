/*
 * history.c -- imported links' clicks moved in (history.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "db.h"
#include "import/history.h"
#include "import/import.h"
#include "link/link.h"
#include "lztime.h"
#include "stats/rollup.h"
#include "store/clicks.h"
#include "store/links.h"
#include "store/tags.h"
#include "util.h"
#include "visit/click.h"
#include "visit/record.h"
#include "visit/ua.h"
#include "visit/visitor.h"

#define HISTORY_BATCH	20000	/* clicks a transaction, cut between links
				   or at a link's day's end */
#define HISTORY_MAX	100000	/* ... or here, a day of more */
#define HISTORY_LINKS	1000	/* links a transaction */
#define HISTORY_TAGS	20	/* a link's tags (link.h: at most 20) */

/* A link of the batch: what its transaction stores of it. */
struct hlink {
	struct link	 link;
	int64_t		 pos;		/* of its last click held */
	int64_t		 counted;	/* people's clicks moved, held too */
	int64_t		 total;		/* the source's count, -1 */
	int		 done;		/* complete: its count set */
};

/* A click held for the next transaction: strings in h->text. */
struct hclick {
	int64_t		 at;
	size_t		 link;			/* in h->links */
	char		 country[3];
	const char	*device, *os, *browser;	/* static (ua.h) */
	size_t		 referrer;		/* offset in h->text */
	unsigned char	 visitor[VISITOR_ID_LEN];
	int		 bot;
};

struct history {
	struct lz_db		*db;
	struct import_stats	*st;
	int64_t			 keep_from;	/* raw rows from here on */
	struct hlink		*links;		/* of the batch, the last the
						   link being read */
	size_t			 nlinks, lcap;
	struct hclick		*v;
	size_t			 n, cap;
	struct lz_buf		 text;
};

struct history *
history_open(struct lz_db *db, const struct lz_conf *conf,
    struct import_stats *st)
{
	struct history	*h = xcalloc(1, sizeof(*h));
	int64_t		 now = lz_now_ms();

	h->db = db;
	h->st = st;
	/* As lz-hooks prunes: whole UTC days past the retention. */
	h->keep_from = conf->clicks_retention_days > 0 ?
	    (now / LZ_DAY_MS - conf->clicks_retention_days) * LZ_DAY_MS :
	    INT64_MIN;
	return h;
}

static void
read_link(struct link *l, void *arg)
{
	struct hlink	*k = arg;

	link_free(&k->link);
	k->link = *l;
	memset(l, 0, sizeof(*l));	/* taken over */
}

static int
by_id(const void *a, const void *b)
{
	const int64_t	*x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static int
by_count_link(const void *a, const void *b)
{
	const struct store_click_count	*x = a, *y = b;

	return (x->link_id > y->link_id) - (x->link_id < y->link_id);
}

static int
by_link(const void *a, const void *b)
{
	const struct rollup_owner	*x = a, *y = b;

	return (x->link_id > y->link_id) - (x->link_id < y->link_id);
}

/* The batch's links' tags, for owners (by link), read late. */
struct owners_late {
	struct rollup_owner	*own;
	size_t			 n;
	int64_t			*tags;		/* HISTORY_TAGS an owner */
};

/*
 * rollup.h's owners_read, once the batch's rows are written: the
 * accounts' scope locks (the batch's accounts, in order; owners are by
 * link, most of one account: PostgreSQL's), then each link's tags.
 * 0 or -1.
 */
static int
read_owners(struct lz_db *db, void *arg)
{
	struct owners_late	*ol = arg;
	int64_t			*acc;
	size_t			 i, k = 0;
	long			 nt;
	int			 rc = 0;

	acc = xcalloc(ol->n + 1, sizeof(*acc));
	for (i = 0; i < ol->n; i++)
		acc[k++] = ol->own[i].account_id;
	qsort(acc, k, sizeof(*acc), by_id);
	for (i = 0; rc == 0 && i < k; i++)
		if (i == 0 || acc[i] != acc[i - 1])
			rc = store_scope_lock(db, acc[i]);
	free(acc);
	for (i = 0; rc == 0 && i < ol->n; i++) {
		if ((nt = store_link_tag_ids(db, ol->own[i].link_id,
		    ol->tags + i * HISTORY_TAGS, HISTORY_TAGS)) == -1)
			rc = -1;
		else {
			ol->own[i].tags = ol->tags + i * HISTORY_TAGS;
			ol->own[i].ntags = (size_t)nt;
		}
	}
	return rc;
}

/*
 * The clicks held, of the batch's links, in one transaction with how far
 * each link got (done: its count set).  The link being read stays, as
 * the batch's first.  0 or -1.
 */
static int
flush(struct history *h)
{
	struct record_tally	 tally;
	struct owners_late	 late = { NULL, 0, NULL };
	struct rollup_owner	*own;
	struct store_click_count *beyond = NULL;
	struct click		 c;
	int64_t			 now = lz_now_ms();
	long			 raw = 0, bots = 0, none = 0;
	size_t			 i, nb = 0;

	if (h->nlinks == 0)
		return 0;
	memset(&tally, 0, sizeof(tally));
	tally.whole = 1;	/* cut at days' ends (history.h) */
	own = xcalloc(h->nlinks, sizeof(*own));
	if (lz_db_begin(h->db) == -1)
		goto fail;
	/* Whose sums the rows add to: the links' accounts and domains,
	 * and their tags, read in the transaction once the rows are
	 * written and the accounts locked (read_owners). */
	for (i = 0; i < h->nlinks; i++) {
		struct hlink	*k = &h->links[i];

		own[i] = (struct rollup_owner){ k->link.id,
		    k->link.account_id, k->link.domain_id, NULL, 0 };
	}
	qsort(own, h->nlinks, sizeof(*own), by_link);
	late.own = own;
	late.n = h->nlinks;
	late.tags = xcalloc(h->nlinks * HISTORY_TAGS, sizeof(*late.tags));
	tally.ru.owners = own;
	tally.ru.nowners = h->nlinks;
	tally.ru.owners_read = read_owners;
	tally.ru.owners_arg = &late;
	for (i = 0; i < h->n; i++) {
		struct hclick	*x = &h->v[i];
		struct hlink	*k = &h->links[x->link];
		int		 old = x->at < h->keep_from;

		memset(&c, 0, sizeof(c));
		c.link_id = k->link.id;
		c.at = x->at;
		c.suffix = "";
		memcpy(c.country, x->country, sizeof(c.country));
		c.device = x->device;
		c.os = x->os;
		c.browser = x->browser;
		c.referrer = h->text.p + x->referrer;
		c.variant = "";
		c.target = k->link.target_url;
		memcpy(c.visitor, x->visitor, sizeof(c.visitor));
		c.bot = x->bot;
		if (record_click(h->db, &k->link, &c, now, RECORD_PAST |
		    (old ? RECORD_NO_ROW : 0), &tally) == -1)
			goto fail;
		raw += !old;
		bots += x->bot;
	}
	if (record_flush(h->db, &tally, now) == -1)
		goto fail;
	beyond = xcalloc(h->nlinks, sizeof(*beyond));
	for (i = 0; i < h->nlinks; i++) {
		struct hlink	*k = &h->links[i];
		int64_t		 more;

		/* Done: the count is the source's, what its log lacks
		 * without a breakdown (or what its log has beyond its count
		 * taken off); the batch's links' in one statement. */
		more = k->done && k->total >= 0 ? k->total - k->counted : 0;
		if (more > 0)
			none += (long)more;
		if (more != 0)
			beyond[nb++] = (struct store_click_count){ k->link.id,
			    more };
		if (store_import_progress(h->db, k->link.id, k->done ? -1 :
		    k->pos, k->counted) == -1)
			goto fail;
	}
	qsort(beyond, nb, sizeof(*beyond), by_count_link);
	if (nb > 0 && store_click_add(h->db, beyond, nb) == -1)
		goto fail;
	if (lz_db_commit(h->db) == -1)
		goto fail;
	record_tally_free(&tally);
	free(own);
	free(late.tags);
	free(beyond);
	h->st->clicks += (long)h->n;
	h->st->clicks_raw += raw;
	h->st->clicks_bots += bots;
	h->st->no_breakdown += none;
	for (i = 0; i < h->nlinks; i++)
		if (h->links[i].done)
			h->st->links_history++;
	/* The link being read, when not done, goes on in the next. */
	for (i = 0; i + 1 < h->nlinks; i++)
		link_free(&h->links[i].link);
	if (h->nlinks > 0 && !h->links[h->nlinks - 1].done) {
		if (h->nlinks > 1) {
			h->links[0] = h->links[h->nlinks - 1];
			memset(&h->links[h->nlinks - 1], 0,
			    sizeof(h->links[0]));
		}
		h->nlinks = 1;
	} else {
		if (h->nlinks > 0)
			link_free(&h->links[h->nlinks - 1].link);
		h->nlinks = 0;
	}
	h->n = 0;
	lz_buf_reset(&h->text);
	return 0;
fail:
	lz_db_rollback(h->db);
	record_tally_free(&tally);
	free(own);
	free(late.tags);
	free(beyond);
	return -1;
}

int
history_link(struct history *h, const struct store_import_pending *p)
{
	struct hlink	*k;

	/* A batch ends between links once it is big enough. */
	if ((h->n >= HISTORY_BATCH || h->nlinks >= HISTORY_LINKS) &&
	    flush(h) == -1)
		return -1;
	if (h->nlinks == h->lcap) {
		h->lcap = h->lcap ? h->lcap * 2 : 64;
		h->links = xreallocarray(h->links, h->lcap, sizeof(*h->links));
	}
	k = &h->links[h->nlinks];
	memset(k, 0, sizeof(*k));
	if (store_link_by_ids(h->db, &p->link_id, 1, read_link, k) != 1) {
		link_free(&k->link);
		return -1;
	}
	k->pos = p->pos;
	k->counted = p->counted;
	k->total = p->total;
	h->nlinks++;
	return 0;
}

int
history_add(struct history *h, int64_t pos, const struct import_click *c)
{
	struct ua_info	 ua;
	struct hclick	*x;
	struct hlink	*k = &h->links[h->nlinks - 1];
	char		 ref[CLICK_REFERRER_MAX];

	/* A big link's batch ends where its UTC day does (history.h). */
	if (h->n >= HISTORY_MAX || (h->n >= HISTORY_BATCH && h->n > 0 &&
	    c->at / LZ_DAY_MS != h->v[h->n - 1].at / LZ_DAY_MS)) {
		if (flush(h) == -1)
			return -1;
		k = &h->links[h->nlinks - 1];
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 1024;
		h->v = xreallocarray(h->v, h->cap, sizeof(*h->v));
	}
	x = &h->v[h->n++];
	memset(x, 0, sizeof(*x));
	x->at = c->at;
	x->link = h->nlinks - 1;
	if (c->country != NULL && strlen(c->country) == 2 &&
	    strspn(c->country, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz") == 2) {
		x->country[0] = (char)(c->country[0] & ~0x20);
		x->country[1] = (char)(c->country[1] & ~0x20);
	}
	ua_parse(c->user_agent ? c->user_agent : "", &ua);
	x->device = ua.device == UA_MOBILE ? "mobile" : ua.device ==
	    UA_TABLET ? "tablet" : "desktop";
	x->os = ua.os;
	x->browser = ua.browser;
	x->bot = c->bot || ua.bot;
	click_referrer(c->referrer ? c->referrer : "", ref, sizeof(ref));
	x->referrer = h->text.len;
	lz_buf_add(&h->text, ref, strlen(ref) + 1);
	visitor_id(c->addr ? c->addr : "", c->user_agent ? c->user_agent : "",
	    c->at, x->visitor);
	k->pos = pos;
	k->counted += !x->bot;
	return 0;
}

void
history_link_end(struct history *h, int complete)
{
	/* Not complete: left pending where it got, stored with the
	 * batch. */
	if (h->nlinks > 0)
		h->links[h->nlinks - 1].done = complete;
}

int
history_close(struct history *h)
{
	size_t	 i;
	int	 rc;

	rc = flush(h);
	for (i = 0; i < h->nlinks; i++)
		link_free(&h->links[i].link);
	free(h->links);
	free(h->v);
	lz_buf_free(&h->text);
	free(h);
	return rc;
}

struct history *
history_begin(struct lz_db *db, const struct lz_conf *conf,
    const struct store_import_pending *p, struct import_stats *st)
{
	struct history	*h = history_open(db, conf, st);

	if (history_link(h, p) == -1) {
		history_close(h);
		return NULL;
	}
	return h;
}

int
history_end(struct history *h, int complete)
{
	history_link_end(h, complete);
	return history_close(h);
}
