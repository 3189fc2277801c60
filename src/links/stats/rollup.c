/*
 * rollup.c -- a batch of clicks summed in memory and written as rollups;
 * rebuilding the rollups from the raw rows (rollup.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "db.h"
#include "log.h"
#include "lztime.h"
#include "stats/rollup.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"

/*
 * An entry is a sum of the batch, found by its identity, a string of
 * bytes: a kind, then the fields that tell entries of that kind apart.
 *
 *	'h'	a row of click_rollups of an hour (and so of its day):
 *		link (8), at (8), dim (1), bot (1), key (the rest)
 *	'v'	a visitor-day: link (8), day (8), visitor (16)
 */
#define K_HOUR		'h'
#define K_VISIT		'v'
#define K_SCOPE		's'	/* write_scopes: owner (8), at (8), kind,
				   span, domain (8), dim, bot, key */
#define ID_HEAD		(1 + 8 + 8)	/* kind, link, at or day */

struct ru_entry {
	uint64_t	 hash;
	size_t		 off, len;	/* the identity in bytes */
	int64_t		 n;		/* a row's count, a visit's
					   clicks */
	int64_t		 first, last;	/* a visit's first and last */
	size_t		 texts;		/* in bytes: the last click's
					   "variant\0suffix\0" */
	int64_t		 old;		/* a visit's first click stored
					   before (store_visitor_addv) */
	int		 answer;	/* and A_NEW or A_OLD, 0 none */
};

enum { A_NEW = 1, A_OLD };

_Static_assert(sizeof(((struct rollup *)0)->key) ==
    crypto_shorthash_KEYBYTES, "a rollup holds a SipHash key");

/* ---- the table of entries -------------------------------------------- */

static const unsigned char *
ident(const struct rollup *ru, const struct ru_entry *e)
{
	return (const unsigned char *)ru->bytes.p + e->off;
}

static void
slot_put(struct rollup *ru, size_t i)
{
	size_t	 mask = ru->nslots - 1, s;

	for (s = ru->e[i].hash & mask; ru->slots[s] != 0; s = (s + 1) & mask)
		continue;
	ru->slots[s] = (uint32_t)i + 1;
}

static void
grow(struct rollup *ru)
{
	size_t	 i;

	if (ru->n == ru->cap) {
		ru->cap = ru->cap ? ru->cap * 2 : 1024;
		ru->e = xreallocarray(ru->e, ru->cap, sizeof(*ru->e));
	}
	if ((ru->n + 1) * 2 <= ru->nslots)
		return;
	/* A key of its own (SipHash): the texts come from visitors. */
	if (ru->nslots == 0 && sodium_init() >= 0)
		randombytes_buf(ru->key, sizeof(ru->key));
	free(ru->slots);
	ru->nslots = ru->nslots ? ru->nslots * 2 : 4096;
	ru->slots = xcalloc(ru->nslots, sizeof(*ru->slots));
	for (i = 0; i < ru->n; i++)
		slot_put(ru, i);
}

/* The entry of the identity in ru->id, added (zeroed) when missing. */
static size_t
find(struct rollup *ru)
{
	struct ru_entry	*e;
	uint64_t	 h;
	size_t		 mask, s;
	uint32_t	 i;

	grow(ru);
	crypto_shorthash((unsigned char *)&h, (unsigned char *)ru->id.p,
	    ru->id.len, ru->key);
	mask = ru->nslots - 1;
	for (s = h & mask; (i = ru->slots[s]) != 0; s = (s + 1) & mask) {
		e = &ru->e[i - 1];
		if (e->hash == h && e->len == ru->id.len &&
		    memcmp(ident(ru, e), ru->id.p, e->len) == 0)
			return i - 1;
	}
	e = &ru->e[ru->n];
	memset(e, 0, sizeof(*e));
	e->hash = h;
	e->off = ru->bytes.len;
	e->len = ru->id.len;
	lz_buf_add(&ru->bytes, ru->id.p, ru->id.len);
	ru->slots[s] = (uint32_t)ru->n + 1;
	return ru->n++;
}

/* Starts an identity in ru->id. */
static void
id_head(struct rollup *ru, char kind, int64_t link_id, int64_t t)
{
	lz_buf_reset(&ru->id);
	lz_buf_putc(&ru->id, kind);
	lz_buf_add(&ru->id, &link_id, sizeof(link_id));
	lz_buf_add(&ru->id, &t, sizeof(t));
}

/* Adds n to a row of click_rollups of the hour at (and of its day). */
static void
add_row(struct rollup *ru, int64_t link_id, int64_t at, int dim, int bot,
    const char *key, size_t keylen, int64_t n)
{
	size_t	 i;

	id_head(ru, K_HOUR, link_id, at);
	lz_buf_putc(&ru->id, (char)dim);
	lz_buf_putc(&ru->id, (char)(bot != 0));
	lz_buf_add(&ru->id, key, keylen);
	i = find(ru);		/* before ru->e is read: it may move */
	ru->e[i].n += n;
}

static const char *
str(const char *s)
{
	return s ? s : "";
}

void
rollup_click(struct rollup *ru, const struct click *c, const char *rhost)
{
	const char	*keys[STATS_DIM__MAX] = {
		[STATS_COUNTRY] = c->country,
		[STATS_DEVICE] = str(c->device),
		[STATS_OS] = str(c->os),
		[STATS_BROWSER] = str(c->browser),
		[STATS_REFERRER_HOST] = str(rhost),
		[STATS_SUFFIX] = str(c->suffix),
		[STATS_VARIANT] = str(c->variant),
	};
	struct ru_entry	*e;
	int64_t		 hour = c->at / LZ_HOUR_MS * LZ_HOUR_MS;
	size_t		 i, before;

	add_row(ru, c->link_id, hour, ROLLUP_ALL, c->bot, "", 0, 1);
	for (i = 0; i < STATS_DIM__MAX; i++)
		add_row(ru, c->link_id, hour, ROLLUP_DIM(i), c->bot,
		    keys[i], strlen(keys[i]), 1);
	if (c->bot)
		return;
	id_head(ru, K_VISIT, c->link_id, c->at / LZ_DAY_MS);
	lz_buf_add(&ru->id, c->visitor, VISITOR_ID_LEN);
	before = ru->n;
	i = find(ru);
	e = &ru->e[i];
	e->n++;
	if (ru->n > before || c->at < e->first)
		e->first = c->at;
	/* The newest click, the one stored last on a tie. */
	if (ru->n > before || c->at >= e->last) {
		e->last = c->at;
		e->texts = ru->bytes.len;
		lz_buf_add(&ru->bytes, str(c->variant),
		    strlen(str(c->variant)) + 1);
		lz_buf_add(&ru->bytes, str(c->suffix),
		    strlen(str(c->suffix)) + 1);
	}
}

/* ---- writing ---------------------------------------------------------- */

static void
empty(struct rollup *ru)
{
	if (ru->slots != NULL)
		memset(ru->slots, 0, ru->nslots * sizeof(*ru->slots));
	ru->n = 0;
	lz_buf_reset(&ru->bytes);
}

void
rollup_free(struct rollup *ru)
{
	free(ru->e);
	free(ru->slots);
	lz_buf_free(&ru->bytes);
	lz_buf_free(&ru->id);
	memset(ru, 0, sizeof(*ru));
}

static int64_t
get64(const unsigned char *p)
{
	int64_t	 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
add_visitor(struct rollup *ru, int64_t link_id, int64_t at, int64_t n)
{
	add_row(ru, link_id, at / LZ_HOUR_MS * LZ_HOUR_MS,
	    ROLLUP_VISITORS, 0, "", 0, n);
}

/*
 * The visitor-day of entry i written to click_visitors, where its first
 * click was old before (a new row: isnew): counted once, in the hour of
 * its first click.  1, or -1.
 */
static int
visit_written(struct lz_db *db, struct rollup *ru, size_t i, int64_t old,
    int isnew)
{
	const unsigned char	*id = ident(ru, &ru->e[i]);
	int64_t			 link_id = get64(id + 1), day = get64(id + 9);
	int64_t			 first = ru->e[i].first;

	if (isnew) {
		add_visitor(ru, link_id, first, 1);
		return 1;
	}
	if (first >= old)
		return 1;
	/* An earlier click of the day arrived late: the visitor-day moves
	 * to its hour. */
	if (store_visitor_first(db, day, link_id, id + ID_HEAD, first) == -1)
		return -1;
	if (first / LZ_HOUR_MS < old / LZ_HOUR_MS) {
		add_visitor(ru, link_id, old, -1);
		add_visitor(ru, link_id, first, 1);
	}
	return 1;
}

/*
 * The visitor-day of entry i, past the horizon (day < horizon): counted
 * from memory when ru holds the whole day (whole).  1 counted, 0 not.
 */
static int
visit_past(struct rollup *ru, size_t i, int whole)
{
	if (whole)
		add_visitor(ru, get64(ident(ru, &ru->e[i]) + 1),
		    ru->e[i].first, 1);
	return whole;
}

/* What click_visitors answers of a visitor-day, kept in its entry. */
static void
visit_answer(int64_t day, int64_t link_id, const unsigned char *visitor,
    int64_t old, int64_t clicks, void *arg)
{
	struct rollup	*ru = arg;
	size_t		 i;

	id_head(ru, K_VISIT, link_id, day);
	lz_buf_add(&ru->id, visitor, VISITOR_ID_LEN);
	i = find(ru);
	ru->e[i].old = old;
	ru->e[i].answer = clicks == ru->e[i].n ? A_NEW : A_OLD;
}

/*
 * The visitor-days of entries [0, n), in one store call: what it answers
 * is kept in the entries (visit_answer), then counted.  Those past the
 * horizon add to *late when not counted.  0 or -1.
 */
static int
write_visits(struct lz_db *db, struct rollup *ru, size_t n, int64_t horizon,
    int whole, long *late)
{
	const unsigned char	*id;
	struct visitor_row	*r;
	const char		*variant;
	size_t			 i, nr = 0;
	long			 rc;

	r = xreallocarray(NULL, n + 1, sizeof(*r));
	for (i = 0; i < n; i++) {
		id = ident(ru, &ru->e[i]);
		ru->e[i].answer = 0;
		if (id[0] != K_VISIT || get64(id + 9) < horizon)
			continue;
		variant = ru->bytes.p + ru->e[i].texts;
		r[nr++] = (struct visitor_row){ .day = get64(id + 9),
		    .link_id = get64(id + 1), .visitor = id + ID_HEAD,
		    .first_at = ru->e[i].first, .last_at = ru->e[i].last,
		    .variant = variant, .suffix = variant +
		    strlen(variant) + 1, .clicks = ru->e[i].n };
	}
	rc = store_visitor_addv(db, r, nr, visit_answer, ru);
	free(r);
	if (rc != (long)nr)
		return -1;
	for (i = 0; i < n; i++) {
		id = ident(ru, &ru->e[i]);
		if (id[0] != K_VISIT)
			continue;
		if (get64(id + 9) < horizon)
			*late += !visit_past(ru, i, whole);
		else if (ru->e[i].answer == 0 || visit_written(db, ru, i,
		    ru->e[i].old, ru->e[i].answer == A_NEW) == -1)
			return -1;
	}
	return 0;
}

/* Rows in the order of their table's key: a batch of many links' and
 * hours' rows writes B-tree pages one after another instead of all
 * over (an import's history). */
static int
by_key(const void *a, const void *b)
{
	const struct rollup_row	*x = a, *y = b;
	size_t			 n = x->keylen < y->keylen ? x->keylen :
				    y->keylen;
	int			 c;

	if (x->link_id != y->link_id)
		return x->link_id < y->link_id ? -1 : 1;
	if (x->dim != y->dim)
		return x->dim < y->dim ? -1 : 1;
	if (x->span != y->span)
		return x->span - y->span;
	if (x->hour != y->hour)
		return x->hour < y->hour ? -1 : 1;
	if ((c = memcmp(x->key, y->key, n)) != 0)
		return c;
	if (x->keylen != y->keylen)
		return x->keylen < y->keylen ? -1 : 1;
	return (x->bot > y->bot) - (x->bot < y->bot);
}

static int
scope_by_key(const void *a, const void *b)
{
	const struct scope_row	*x = a, *y = b;
	size_t			 n = x->keylen < y->keylen ? x->keylen :
				    y->keylen;
	int			 c;

	if (x->owner != y->owner)
		return x->owner < y->owner ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->dim != y->dim)
		return x->dim - y->dim;
	if (x->span != y->span)
		return x->span - y->span;
	if (x->hour != y->hour)
		return x->hour < y->hour ? -1 : 1;
	if ((c = memcmp(x->key, y->key, n)) != 0)
		return c;
	if (x->keylen != y->keylen)
		return x->keylen < y->keylen ? -1 : 1;
	return (x->bot > y->bot) - (x->bot < y->bot);
}

static int
by_owner_link(const void *a, const void *b)
{
	const struct rollup_owner	*x = a, *y = b;

	return (x->link_id > y->link_id) - (x->link_id < y->link_id);
}

/* Adds n to the scope row (owner, kind) of a link's row of span at at,
 * whose identity is id (its dim, bot and key). */
static void
add_scope(struct rollup *sc, int64_t owner, int kind, int span, int64_t at,
    int64_t domain_id, const unsigned char *id, size_t len, int64_t n)
{
	size_t	 i;

	id_head(sc, K_SCOPE, owner, at);
	lz_buf_putc(&sc->id, (char)kind);
	lz_buf_putc(&sc->id, (char)span);
	lz_buf_add(&sc->id, &domain_id, sizeof(domain_id));
	lz_buf_add(&sc->id, id + ID_HEAD, len - ID_HEAD);
	i = find(sc);
	sc->e[i].n += n;
}

/* The scopes' rows of a rollup's link rows of span (1 or 24) into sc. */
static void
scopes_of(struct rollup *sc, const struct rollup *ru, int span)
{
	struct rollup_owner	 key, *o;
	const unsigned char	*id;
	size_t			 i, t;

	for (i = 0; i < ru->n; i++) {
		id = ident(ru, &ru->e[i]);
		if (id[0] != K_HOUR || ru->e[i].n == 0)
			continue;
		key.link_id = get64(id + 1);
		if ((o = bsearch(&key, ru->owners, ru->nowners,
		    sizeof(*ru->owners), by_owner_link)) == NULL)
			continue;	/* its link is gone */
		add_scope(sc, o->account_id, 0, span, get64(id + 9),
		    o->domain_id, id, ru->e[i].len, ru->e[i].n);
		for (t = 0; t < o->ntags; t++)
			add_scope(sc, o->tags[t], 1, span, get64(id + 9),
			    o->domain_id, id, ru->e[i].len, ru->e[i].n);
	}
}

/*
 * The scopes' sums of the batch's hours (ru) and days (days), summed in
 * memory across its links (rows of one account's hour merge), written
 * with the scope triggers paused (rollup.h).  0 or -1.
 */
static int
write_scopes(struct lz_db *db, const struct rollup *ru,
    struct rollup *days)
{
	struct rollup		 sc;
	struct scope_row	*r;
	const unsigned char	*id;
	size_t			 i, n = 0;
	int			 rc;

	memset(&sc, 0, sizeof(sc));
	days->owners = ru->owners;
	days->nowners = ru->nowners;
	scopes_of(&sc, ru, 1);
	scopes_of(&sc, days, 24);
	r = xreallocarray(NULL, sc.n + 1, sizeof(*r));
	for (i = 0; i < sc.n; i++) {
		id = ident(&sc, &sc.e[i]);
		if (sc.e[i].n == 0)
			continue;
		r[n++] = (struct scope_row){ .owner = get64(id + 1),
		    .hour = get64(id + 9), .kind = id[ID_HEAD],
		    .span = id[ID_HEAD + 1],
		    .domain_id = get64(id + ID_HEAD + 2),
		    .dim = id[ID_HEAD + 10], .bot = id[ID_HEAD + 11],
		    .key = (const char *)id + ID_HEAD + 12,
		    .keylen = sc.e[i].len - ID_HEAD - 12, .n = sc.e[i].n };
	}
	qsort(r, n, sizeof(*r), scope_by_key);
	rc = store_scope_addv(db, r, n);
	free(r);
	rollup_free(&sc);
	return rc;
}

/* The link rows of a rollup (of span: 0 an hour's with its day's, 1 an
 * hour's alone, 24 a day's) appended to r at *n. */
static void
rows_of(const struct rollup *ru, int span, struct rollup_row *r, size_t *n)
{
	const unsigned char	*id;
	size_t			 i;

	for (i = 0; i < ru->n; i++) {
		id = ident(ru, &ru->e[i]);
		if (id[0] != K_HOUR || ru->e[i].n == 0)
			continue;
		r[(*n)++] = (struct rollup_row){ .link_id = get64(id + 1),
		    .dim = id[ID_HEAD], .hour = get64(id + 9), .span = span,
		    .key = (const char *)id + ID_HEAD + 2,
		    .keylen = ru->e[i].len - ID_HEAD - 2,
		    .bot = id[ID_HEAD + 1], .n = ru->e[i].n };
	}
}

/*
 * Each hour's row with its day's, in one store call.  A writer that
 * keeps the scopes (rollup.h: an import's history, rows of many links
 * and hours) sums the days in memory first -- a day's row once, not
 * once an hour of it (PostgreSQL's statement sums them from the hours
 * itself) -- writes the rows in the order of the table's key, then the
 * scopes' (after owners_read).  0 or -1.
 */
static int
write_rows(struct lz_db *db, struct rollup *ru)
{
	const unsigned char	*id;
	struct rollup		 days;
	struct rollup_row	*r;
	size_t			 i, n = 0;
	int			 rc, own = ru->owners != NULL,
				 sq = lz_db_is_sqlite(db);

	memset(&days, 0, sizeof(days));
	if (own)
		for (i = 0; i < ru->n; i++) {
			id = ident(ru, &ru->e[i]);
			if (id[0] == K_HOUR && ru->e[i].n != 0)
				add_row(&days, get64(id + 1), get64(id + 9) /
				    LZ_DAY_MS * LZ_DAY_MS, id[ID_HEAD],
				    id[ID_HEAD + 1], (const char *)id +
				    ID_HEAD + 2, ru->e[i].len - ID_HEAD - 2,
				    ru->e[i].n);
		}
	r = xreallocarray(NULL, ru->n + days.n + 1, sizeof(*r));
	rows_of(ru, own ? 1 : 0, r, &n);
	/* PostgreSQL's statement makes each hour's day row itself. */
	if (sq)
		rows_of(&days, 24, r, &n);
	if (own)
		qsort(r, n, sizeof(*r), by_key);
	if (own && store_scope_pause(db, 1) == -1)
		rc = -1;
	else
		rc = store_rollup_addv(db, r, n);
	free(r);
	if (own && rc == 0 && ru->owners_read != NULL)
		rc = ru->owners_read(db, ru->owners_arg);
	if (own && rc == 0)
		rc = write_scopes(db, ru, &days) == -1 ||
		    store_scope_pause(db, 0) == -1 ? -1 : 0;
	rollup_free(&days);
	return rc;
}

int
rollup_write(struct lz_db *db, struct rollup *ru, int64_t now, int whole)
{
	int64_t			 horizon;
	long			 late = 0;

	horizon = now / LZ_DAY_MS - (CLICK_VISITOR_DAYS - 1);
	/* Visitors first: they add to the hours' rows. */
	if (write_visits(db, ru, ru->n, horizon, whole, &late) == -1)
		goto fail;
	if (write_rows(db, ru) == -1)
		goto fail;
	if (late > 0)
		lz_log(LZ_LOG_WARN, "rollups: %ld visitor-days of clicks more "
		    "than %d days old not counted (lzctl stats rebuild counts "
		    "them)", late, CLICK_VISITOR_DAYS - 1);
	empty(ru);
	return 0;
fail:
	empty(ru);
	return -1;
}

/* ---- rebuilding ------------------------------------------------------- */

static void
add_click(const struct click *c, const char *rhost, void *arg)
{
	rollup_click(arg, c, rhost);
}

/* A day's conversions, copied: they are written once all are read. */
struct convs {
	struct conversion	*v;
	size_t			 n;
};

static void
add_conv(const struct conversion *c, void *arg)
{
	struct convs		*cs = arg;
	struct conversion	*d;

	cs->v = xreallocarray(cs->v, cs->n + 1, sizeof(*cs->v));
	d = &cs->v[cs->n++];
	*d = *c;
	d->suffix = xstrdup(c->suffix);
	d->currency = xstrdup(c->currency);
	d->variant = c->variant ? xstrdup(c->variant) : NULL;
}

static void
convs_free(struct convs *cs)
{
	size_t	 i;

	for (i = 0; i < cs->n; i++) {
		free((char *)(uintptr_t)cs->v[i].suffix);
		free((char *)(uintptr_t)cs->v[i].currency);
		free((char *)(uintptr_t)cs->v[i].variant);
	}
	free(cs->v);
}

/* One link-day, in one write transaction.  The link's row is taken
 * first, as the click mover and conversions take it before they write
 * its rollups: on PostgreSQL they wait for each other instead of
 * deadlocking on the rollups' rows.  0 or -1. */
static int
rebuild_day(struct lz_db *db, struct rollup *ru, int64_t link_id,
    int64_t day, int64_t now, struct rollup_progress *p)
{
	struct convs	 cs = { NULL, 0 };
	long		 n;
	size_t		 i;
	int		 rc = -1;

	if (lz_db_begin(db) == -1)
		return -1;
	if (store_lock(db, STORE_LOCK_LINK, link_id) == -1 ||
	    store_rollup_clear(db, link_id, day) == -1 ||
	    store_conv_rollup_clear(db, link_id, day) == -1 ||
	    (n = store_click_each(db, link_id, day, day + LZ_DAY_MS,
	    add_click, ru)) < 0 || rollup_write(db, ru, now, 1) == -1 ||
	    store_conv_each(db, link_id, day, day + LZ_DAY_MS, add_conv,
	    &cs) < 0)
		goto out;
	for (i = 0; i < cs.n; i++)
		if (store_conv_rollup(db, &cs.v[i]) == -1)
			goto out;
	if (lz_db_commit(db) == -1)
		goto out;
	p->link_id = link_id;
	p->day = day;
	p->days++;
	p->clicks += n;
	p->conversions += (long)cs.n;
	rc = 0;
out:
	if (rc == -1) {
		lz_db_rollback(db);
		rollup_free(ru);
	}
	convs_free(&cs);
	return rc;
}

int
rollup_rebuild(struct lz_db *db, int64_t link_id, int64_t since, int64_t now,
    void (*progress)(const struct rollup_progress *, void *), void *arg)
{
	struct rollup		 ru;
	struct rollup_progress	 p;
	int64_t			 link = link_id, day;
	int			 rc;

	memset(&ru, 0, sizeof(ru));
	memset(&p, 0, sizeof(p));
	since = since > 0 ? since / LZ_DAY_MS * LZ_DAY_MS : 0;
	if (link == 0 && (rc = store_rollup_next_link(db, 0, &link)) != 1)
		return rc;
	for (;;) {
		p.links++;
		p.link_id = link;
		day = since;
		while ((rc = store_rollup_next(db, link, day, &day)) == 1) {
			day = day / LZ_DAY_MS * LZ_DAY_MS;
			if (rebuild_day(db, &ru, link, day, now, &p) == -1)
				return -1;
			if (progress != NULL)
				progress(&p, arg);
			day += LZ_DAY_MS;
		}
		if (rc == -1 || link_id != 0 ||
		    (rc = store_rollup_next_link(db, link, &link)) != 1)
			break;
	}
	rollup_free(&ru);
	return rc == -1 ? -1 : 0;
}
