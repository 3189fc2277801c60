/*
 * linkops.c -- creating, editing and deleting links.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include <sodium.h>

#include "conf.h"
#include "db.h"
#include "domain/domain.h"
#include "domain/host.h"
#include "link/link.h"
#include "link/linkops.h"
#include "log.h"
#include "pwhash.h"
#include "rnd.h"
#include "safety/scan.h"
#include "store/domains.h"
#include "store/accounts.h"
#include "store/links.h"
#include "store/store.h"
#include "store/tags.h"
#include "store/webhooks.h"
#include "util.h"
#include "verr.h"
#include "webhook/events.h"
#include "webhook/webhook.h"

#define SLUG_TRIES	8

#define EDIT_TRIES	3

/*
 * Replaces a new password of l (l->password) by its argon2id hash
 * (pwhash.h: links_workers checks at once must fit in RAM, see
 * lz-links(8)) and forgets the plain text; 0, or -1 with e filled.
 */
static int
take_password(struct link *l, struct lz_verr *e)
{
	char	 out[crypto_pwhash_STRBYTES];
	int	 rc;

	if (l->password == NULL)
		return 0;
	rc = lz_pwhash(l->password, out);
	sodium_memzero(l->password, strlen(l->password));
	free(l->password);
	l->password = NULL;
	if (rc == -1) {
		lz_verr_set(e, 500, "internal_error", NULL, "The password "
		    "could not be hashed.");
		return -1;
	}
	free(l->password_hash);
	l->password_hash = xstrdup(out);
	return 0;
}

/* The checks of a valid link that go beyond its fields: the safety scan
 * of every destination (safety_link: the heuristics and blocklists,
 * then Safe Browsing in one request), and a new password is hashed.
 * 0, or -1 with e. */
static int
checked(struct lz_db *db, const struct lz_conf *conf, struct link *l,
    struct lz_verr *e)
{
	if (safety_link(conf, db, l, e) == -1)
		return -1;
	return take_password(l, e);
}

/* A write that failed: rolled back, l freed, e says so.  -1. */
static int
unstored(struct lz_db *db, struct link *l, struct lz_verr *e)
{
	lz_db_rollback(db);
	lz_verr_set(e, 500, "internal_error", NULL, "The link could not be "
	    "stored.");
	link_free(l);
	return -1;
}

/*
 * A create body read and checked into l, nothing written: the fields,
 * a reserved slug, the domain; not yet the safety scan and the
 * password.  0, or -1 with e (l freed).
 */
static int
prepare_fields(struct lz_db *db, const struct lz_conf *conf,
    const json_t *body, int64_t account_id, int64_t now, struct link *l,
    struct lz_verr *e)
{
	memset(l, 0, sizeof(*l));
	if (link_parse(body, now, l, e) == -1)
		goto fail;
	if (l->slug != NULL && slug_reserved(conf, l->slug)) {
		lz_verr_set(e, 409, "slug_reserved", "slug", "The slug '%s' is "
		    "reserved.", l->slug);
		goto fail;
	}
	if (domain_usable(db, conf, l->domain, account_id, "domain",
	    &l->domain_id, e) == -1)
		goto fail;
	if (l->domain_id == 0) {	/* the default one: no host of its own */
		free(l->domain);
		l->domain = NULL;
	}
	l->account_id = account_id;
	l->created_at = now;
	return 0;
fail:
	link_free(l);
	return -1;
}

/* prepare_fields, then the safety scan and the password: a create body
 * ready to insert.  0, or -1 with e (l freed). */
static int
prepare(struct lz_db *db, const struct lz_conf *conf, const json_t *body,
    int64_t account_id, int64_t now, struct link *l, struct lz_verr *e)
{
	if (prepare_fields(db, conf, body, account_id, now, l, e) == -1)
		return -1;
	if (checked(db, conf, l, e) == -1) {
		link_free(l);
		return -1;
	}
	return 0;
}

/*
 * Inserts the prepared link l in the caller's transaction: its slug (a
 * random one tried again on a collision), its tags, link.created.  1,
 * 0 with e (409 slug_taken), or -1 (the caller rolls back).
 */
static int
insert(struct lz_db *db, const struct lz_conf *conf, struct link *l,
    int64_t now, int64_t made, struct store_tag_cache *tags, int events,
    int random_slug, int stored, struct lz_verr *e)
{
	char	 slug[SLUG_RANDOM_LEN + 1];
	int	 rc, tries;

	/* stored: inserted already, with the batch's others
	 * (store_link_insert_many); random_slug: its slug was drawn. */
	for (tries = 0; !stored && tries < SLUG_TRIES; tries++) {
		if (random_slug) {
			/* 62^7 slugs; retried on the rare collision (and on
			 * a random hit of a reserved word). */
			lz_rnd_base62(slug, SLUG_RANDOM_LEN);
			if (slug_reserved(conf, slug))
				continue;
			free(l->slug);
			l->slug = xstrdup(slug);
		}
		/* Stored as made at made (an import's, 0: now); l keeps
		 * now, as link.created tells it. */
		if (made != 0)
			l->created_at = made;
		rc = store_link_insert(db, l);
		l->created_at = now;
		if (rc == -1)
			return -1;
		if (rc == 0)
			break;
		if (!random_slug) {
			lz_verr_set(e, 409, "slug_taken", "slug", "The slug "
			    "'%s' is taken.", l->slug);
			return 0;
		}
	}
	if (tries == SLUG_TRIES) {
		lz_log(LZ_LOG_ERR, "no free random slug in %d tries", tries);
		return -1;
	}
	if (l->tags != NULL && store_link_tags_new(db, l->id, l->account_id,
	    l->tags, tags) == -1)
		return -1;
	/* link.created is queued in the transaction that creates the link
	 * (events 0: the caller knows of no webhook to queue it for). */
	if (events == 0)
		return 1;
	return events_link(db, WEBHOOK_EV_LINK_CREATED, l, conf->base_url,
	    now) == -1 ? -1 : 1;
}

static void
set_capped(struct lz_verr *e, const struct lz_plan *plan)
{
	lz_verr_set(e, 403, "link_cap_reached", NULL, "The account has %lld "
	    "links, the cap of plan '%s'; delete links or change plans.",
	    plan->links, plan->name);
}

int
linkops_create(struct lz_db *db, const struct lz_conf *conf,
    const json_t *body, int64_t account_id, const struct lz_plan *plan,
    int64_t now, struct link *l, struct lz_verr *e)
{
	long long	 n = 0;
	int		 rc;

	if (prepare(db, conf, body, account_id, now, l, e) == -1)
		return -1;
	/* The cap at a glance: a full account is told so before anything
	 * is written (and before a slug that is taken). */
	if (!l->archived && plan != NULL && (n = store_link_count(db,
	    account_id)) >= plan->links)
		goto capped;
	if (!l->archived && plan != NULL && n < 0)
		goto dberr;
	if (lz_db_begin(db) == -1 ||
	    (rc = insert(db, conf, l, now, 0, NULL, 1, l->slug == NULL, 0,
	    e)) == -1)
		goto dberr;
	if (rc == 0) {
		lz_db_rollback(db);
		goto fail;
	}
	/* Then the cap exactly, in one statement, last before the commit:
	 * the account's row is held from here to the end of the
	 * transaction, the least a cap allows (on PostgreSQL).  An archived
	 * link holds no place. */
	if (l->archived)
		rc = 1;
	else if ((rc = store_link_slot(db, account_id, plan != NULL ?
	    plan->links : LLONG_MAX)) == -1)
		goto dberr;
	if (rc == 0) {
		lz_db_rollback(db);
		goto capped;
	}
	if (lz_db_commit(db) == -1)
		goto dberr;
	return 0;
capped:
	set_capped(e, plan);
	goto fail;
dberr:
	return unstored(db, l, e);
fail:
	link_free(l);
	return -1;
}

int
linkops_create_many(struct lz_db *db, const struct lz_conf *conf,
    const json_t *const *bodies, size_t n, int64_t account_id,
    const struct lz_plan *plan, int64_t now, struct link *ls,
    struct lz_verr *es)
{
	return linkops_import(db, conf, bodies, NULL, n, account_id, plan,
	    now, 0, ls, es);
}

/* The origins (source and id) of a batch taken: imported before or
 * in this batch.  Open addressing, at most half full. */
struct origins {
	char	**key;
	size_t	  cap;
	const char *source;	/* of seen_row */
};

static char *
origin_key(const char *source, const char *id)
{
	return xasprintf("%s%c%s", source, '\x1f', id);
}

static size_t
origin_slot(const struct origins *o, const char *key)
{
	uint64_t	 h = lz_hash_keyed(key, strlen(key));
	size_t		 i;

	for (i = h & (o->cap - 1); o->key[i] != NULL &&
	    strcmp(o->key[i], key) != 0; i = (i + 1) & (o->cap - 1))
		;
	return i;
}

/* 1 when source's id is among o, else 0; put there with put. */
static int
origin_has(struct origins *o, const char *source, const char *id, int put)
{
	char	*key = origin_key(source, id);
	size_t	 i = origin_slot(o, key);

	if (o->key[i] != NULL) {
		free(key);
		return 1;
	}
	if (put)
		o->key[i] = key;
	else
		free(key);
	return 0;
}

static void
seen_row(const char *id, void *arg)
{
	struct origins	*o = arg;

	origin_has(o, o->source, id, 1);
}

static void
origins_free(struct origins *o)
{
	size_t	 i;

	for (i = 0; i < o->cap; i++)
		free(o->key[i]);
	free(o->key);
}

/*
 * Fills o with the origins of from[0..n) (those ready) imported before:
 * one question when they are all of one source (as an import's are),
 * else one an item.  0 or -1.
 */
static int
origins_seen(struct lz_db *db, int64_t account_id,
    const struct link_origin *from, const char *ready, size_t n,
    struct origins *o)
{
	json_t	*ids;
	size_t	 i;
	int	 rc = 0;

	for (o->cap = 16; o->cap < 2 * n + 2; o->cap *= 2)
		;
	o->key = xcalloc(o->cap, sizeof(*o->key));
	o->source = NULL;
	for (i = 0; i < n; i++)
		if (ready[i] && (o->source == NULL ? (o->source =
		    from[i].source, 0) : strcmp(o->source, from[i].source)))
			break;
	if (o->source == NULL)
		return 0;	/* none ready */
	if (i < n) {		/* of several sources */
		for (i = 0; rc == 0 && i < n; i++)
			if (ready[i] && (rc = store_import_seen(db, account_id,
			    from[i].source, from[i].id)) == 1) {
				origin_has(o, from[i].source, from[i].id, 1);
				rc = 0;
			}
		return rc;
	}
	ids = json_array();
	for (i = 0; rc == 0 && i < n; i++) {
		json_t	*id;

		if (!ready[i])
			continue;
		if ((id = json_string(from[i].id)) != NULL)
			json_array_append_new(ids, id);
		/* Not UTF-8, which JSON cannot carry: asked alone. */
		else if ((rc = store_import_seen(db, account_id,
		    from[i].source, from[i].id)) == 1) {
			origin_has(o, from[i].source, from[i].id, 1);
			rc = 0;
		}
	}
	if (rc == -1) {
		json_decref(ids);
		return -1;
	}
	rc = store_import_seen_many(db, account_id, o->source, ids, seen_row,
	    o) == -1 ? -1 : 0;
	json_decref(ids);
	return rc;
}

/*
 * The links of a batch whose places of the cap are taken (in the
 * batch's) inserted in one statement (store_link_insert_many): each
 * ready one not imported before (seen) and the first of its origin in
 * the batch, its slug drawn when rnd.  Each one stored has its id; the
 * others are left as they were, to linkops_import's loop.  0 or -1.
 */
static int
pre_insert(struct lz_db *db, const struct lz_conf *conf,
    const struct link_origin *from, struct origins *seen, const char *ready,
    const char *rnd, size_t n, struct link *ls)
{
	struct origins	 firsts = { NULL, 0, NULL };
	char		 slug[SLUG_RANDOM_LEN + 1], *take;
	int64_t		*made = NULL;
	size_t		 i, k = 0;
	int		 rc;

	take = xcalloc(n ? n : 1, 1);
	if (from != NULL) {
		for (firsts.cap = 16; firsts.cap < 2 * n + 2; firsts.cap *= 2)
			;
		firsts.key = xcalloc(firsts.cap, sizeof(*firsts.key));
		made = xcalloc(n ? n : 1, sizeof(*made));
	}
	for (i = 0; i < n; i++) {
		if (!ready[i] || ls[i].id != 0)
			continue;
		if (from != NULL && (origin_has(seen, from[i].source,
		    from[i].id, 0) || origin_has(&firsts, from[i].source,
		    from[i].id, 1)))
			continue;
		if (rnd[i]) {
			lz_rnd_base62(slug, SLUG_RANDOM_LEN);
			if (slug_reserved(conf, slug))
				continue;	/* the loop draws again */
			free(ls[i].slug);
			ls[i].slug = xstrdup(slug);
		}
		if (made != NULL)
			made[i] = from[i].created_at;
		take[i] = 1;
		k++;
	}
	rc = k > 1 ? store_link_insert_many(db, ls, take, made, n) : 0;
	for (i = 0; i < n; i++)
		if (take[i] && rnd[i] && ls[i].id == 0) {
			free(ls[i].slug);	/* drawn again by the loop */
			ls[i].slug = NULL;
		}
	if (from != NULL)
		origins_free(&firsts);
	free(made);
	free(take);
	return rc;
}

/* The tags the batch's ready links name, asked once (one statement on
 * PostgreSQL, store_tag_cache_fill).  0 or -1. */
static int
fill_tags(struct lz_db *db, struct store_tag_cache *tags, int64_t account_id,
    const struct link *ls, const char *ready, size_t n)
{
	const json_t	**names;
	size_t		  i, k = 0;
	int		  rc;

	names = xcalloc(n ? n : 1, sizeof(*names));
	for (i = 0; i < n; i++)
		if (ready[i] && ls[i].tags != NULL)
			names[k++] = ls[i].tags;
	rc = store_tag_cache_fill(db, tags, account_id, names, k);
	free(names);
	return rc;
}

int
linkops_import(struct lz_db *db, const struct lz_conf *conf,
    const json_t *const *bodies, const struct link_origin *from, size_t n,
    int64_t account_id, const struct lz_plan *plan, int64_t now, int dry,
    struct link *ls, struct lz_verr *es)
{
	struct store_tag_cache	*tags = NULL;
	struct origins		 seen = { NULL, 0, NULL };
	long long		 pool = 0;	/* places of the cap held */
	json_t			*adds = NULL;
	int64_t			 hooks[WEBHOOK_MAX_PER_ACCOUNT];
	char			*ready, *scanned, *rnd = NULL;
	size_t			 i;
	int			 rc, reading, events, batch = 0;

	/* Read and check each, outside the write transaction: the safety
	 * scan (and a password's hash) take their time.  Their reads share
	 * one snapshot: one lock of the database, not one a statement. */
	ready = xcalloc(n ? n : 1, 1);
	if ((reading = lz_db_begin_read(db)) == -1) {
		free(ready);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (bodies[i] != NULL)
			ready[i] = prepare_fields(db, conf, bodies[i],
			    account_id, now, &ls[i], &es[i]) == 0;
	/* The safety scan of the batch's destinations: the database asked
	 * twice for all of them (safety_links), not twice a link. */
	scanned = xmalloc(n ? n : 1);
	memcpy(scanned, ready, n);
	safety_links(conf, db, ls, ready, n, es);
	for (i = 0; i < n; i++)
		if (scanned[i] && !ready[i])
			link_free(&ls[i]);	/* refused by the scan */
		else if (ready[i] && take_password(&ls[i], &es[i]) == -1) {
			link_free(&ls[i]);
			ready[i] = 0;
		}
	free(scanned);
	if (reading == 1 && lz_db_commit(db) == -1)
		goto dberr;
	if (lz_db_begin(db) == -1)
		goto dberr;
	/* The items' tags asked of the database once a transaction, and
	 * whether the account has a webhook for link.created. */
	tags = store_tag_cache_new();
	if (fill_tags(db, tags, account_id, ls, ready, n) == -1)
		goto dberr;
	if ((events = store_webhook_targets(db, account_id,
	    WEBHOOK_EV_LINK_CREATED, hooks, (int)LZ_NELEM(hooks))) == -1)
		goto dberr;
	/* The items' places of the cap taken at once when they all fit
	 * (those not used given back at the end): the same as one an item
	 * then, as none would be capped; else one an item. */
	for (i = 0; i < n; i++)
		if (ready[i] && !ls[i].archived)
			pool++;
	if (pool > 1 && (batch = store_link_slots(db, account_id, pool,
	    plan != NULL ? plan->links : LLONG_MAX)) == -1)
		goto dberr;
	if (!batch)
		pool = 0;
	/* Which items were imported before, asked once for the batch; the
	 * imports noted in one statement at the end. */
	if (from != NULL) {
		if (origins_seen(db, account_id, from, ready, n, &seen) == -1)
			goto dberr;
		adds = json_array();
	}
	rnd = xcalloc(n ? n : 1, 1);
	for (i = 0; i < n; i++)
		rnd[i] = ready[i] && ls[i].slug == NULL;
	/* On PostgreSQL, a round trip a link saved: the batch's links
	 * that the loop below cannot refuse go in in one statement first
	 * (a place of the cap each is in the batch's; those imported
	 * before, or a second of one origin, are left to the loop, and so
	 * is each that the statement does not store: a slug taken, a
	 * random one drawn again). */
	if (batch && !lz_db_is_sqlite(db) && pre_insert(db, conf, from, &seen,
	    ready, rnd, n, ls) == -1)
		goto dberr;
	for (i = 0; i < n; i++) {
		if (!ready[i])
			continue;
		/* Imported before (or earlier in the batch): once is
		 * enough. */
		if (from != NULL && origin_has(&seen, from[i].source,
		    from[i].id, 0)) {
			lz_verr_set(&es[i], 409, "already_imported", NULL, "This "
			    "link was imported before (%s %s).",
			    from[i].source, from[i].id);
			goto refused;
		}
		/* The item's place of the cap first, given back when its
		 * slug is taken: each item is capped as a single create. */
		if (ls[i].archived)
			rc = 1;
		else if (batch) {
			rc = pool > 0;	/* one of the batch's places */
			pool -= rc;
		} else if ((rc = store_link_slot(db, account_id, plan != NULL ?
		    plan->links : LLONG_MAX)) == -1)
			goto dberr;
		if (rc == 0) {
			set_capped(&es[i], plan);
			goto refused;
		}
		if ((rc = insert(db, conf, &ls[i], now, from != NULL ?
		    from[i].created_at : 0, tags, events, rnd[i],
		    ls[i].id != 0, &es[i])) == -1)
			goto dberr;
		if (rc == 1 && from != NULL) {
			json_t	*add;

			origin_has(&seen, from[i].source, from[i].id, 1);
			/* An id JSON cannot carry (not UTF-8): noted alone. */
			if ((add = json_pack("[I,s,s,I,I]",
			    (json_int_t)ls[i].id, from[i].source, from[i].id,
			    (json_int_t)(from[i].history ? 0 : -1),
			    (json_int_t)from[i].total_clicks)) != NULL)
				json_array_append_new(adds, add);
			else if (store_import_add(db, ls[i].id, account_id,
			    from[i].source, from[i].id, from[i].total_clicks,
			    from[i].history, now) == -1)
				goto dberr;
		}
		if (rc == 1)
			continue;
		if (!ls[i].archived && batch)
			pool++;
		else if (!ls[i].archived && store_link_unslot(db, account_id) ==
		    -1)
			goto dberr;
refused:
		link_free(&ls[i]);
		ready[i] = 0;
	}
	if (store_tag_cache_flush(db, tags) == -1 ||
	    store_link_unslots(db, account_id, pool) == -1 ||
	    (adds != NULL && store_import_add_many(db, account_id, now,
	    adds) == -1))
		goto dberr;
	if (dry)
		lz_db_rollback(db);	/* all checked, nothing kept */
	else if (lz_db_commit(db) == -1)
		goto dberr;
	store_tag_cache_free(tags);
	origins_free(&seen);
	json_decref(adds);
	free(ready);
	free(rnd);
	return 0;
dberr:
	lz_db_rollback(db);
	store_tag_cache_free(tags);
	origins_free(&seen);
	json_decref(adds);
	for (i = 0; i < n; i++)
		if (ready[i])
			link_free(&ls[i]);
	free(ready);
	free(rnd);
	return -1;
}

/*
 * The cap's side of l being archived (a place given back) or taken out
 * of the archive (a place taken, if its account's plan has one free):
 * 1 done, 0 with e (403 link_cap_reached), -1.
 */
static int
archive_slot(struct lz_db *db, const struct lz_conf *conf,
    const struct link *l, struct lz_verr *e)
{
	const struct lz_plan	*plan;
	struct account		 a;
	int			 rc;

	if (l->archived)
		return store_link_unslot(db, l->account_id) == -1 ? -1 : 1;
	if (store_account_get(db, l->account_id, NULL, &a) != 1)
		return -1;
	if ((plan = lz_conf_plan(conf, a.plan)) == NULL)
		plan = lz_conf_plan(conf, conf->default_plan);
	if ((rc = store_link_slot(db, l->account_id, plan != NULL ?
	    plan->links : LLONG_MAX)) == 0)
		lz_verr_set(e, 403, "link_cap_reached", "archived", "The account "
		    "has %lld links, the cap of plan '%s': a link taken out "
		    "of the archive needs a place.", plan->links, plan->name);
	return rc;
}

/*
 * One try of an edit: the link as stored, patched, checked and written
 * if nobody edited it meanwhile.  0 done, 1 edited meanwhile (try
 * again), -1 with e filled.
 */
static int
update_once(struct lz_db *db, const struct lz_conf *conf, int64_t id,
    int64_t account_id, const json_t *patch, int64_t now, struct link *out,
    struct lz_verr *e)
{
	struct link	 stored, l;
	int		 rc, was_archived;

	memset(&l, 0, sizeof(l));
	if (linkops_get(db, id, account_id, &stored, e) == -1)
		return -1;
	was_archived = stored.archived;
	rc = link_parse_patch(&stored, patch, now, &l, e);
	link_free(&stored);
	if (rc == -1 || checked(db, conf, &l, e) == -1) {
		link_free(&l);
		return -1;
	}
	if (lz_db_begin(db) == -1 ||
	    (rc = store_link_update(db, &l, account_id)) == -1)
		goto dberr;
	if (rc == 0) {
		lz_db_rollback(db);
		link_free(&l);
		return 1;
	}
	/* The tags are rows of their own: written only when the patch
	 * names them, not at every edit. */
	if (json_object_get(patch, "tags") != NULL &&
	    store_link_tags_set(db, l.id, l.account_id, l.tags) == -1)
		goto dberr;
	/* Archived, a link gives its place of the cap back; taken out of the
	 * archive, it needs one. */
	if (l.archived != was_archived && (rc = archive_slot(db, conf, &l,
	    e)) != 1) {
		if (rc == -1)
			goto dberr;
		lz_db_rollback(db);	/* the cap is full */
		link_free(&l);
		return -1;
	}
	/* link.updated is queued in the transaction of the edit. */
	if (store_link_get(db, id, account_id, out) != 1)
		goto dberr;
	if (events_link(db, WEBHOOK_EV_LINK_UPDATED, out,
	    conf->base_url, now) == -1 || lz_db_commit(db) == -1) {
		link_free(out);
		goto dberr;
	}
	link_free(&l);
	return 0;
dberr:
	return unstored(db, &l, e);
}

int
linkops_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct link *l, struct lz_verr *e)
{
	int	 rc;

	if ((rc = store_link_get(db, id, account_id, l)) == 1)
		return 0;
	if (rc == 0)
		lz_verr_set(e, 404, "not_found", "id", "There is no link with "
		    "this id.");
	else
		lz_verr_set(e, 500, "internal_error", NULL, "The link could "
		    "not be read.");
	return -1;
}

int
linkops_update(struct lz_db *db, const struct lz_conf *conf, int64_t id,
    int64_t account_id, const json_t *patch, int64_t now, struct link *out,
    struct lz_verr *e)
{
	int	 tries, rc = 1;

	memset(out, 0, sizeof(*out));
	for (tries = 0; tries < EDIT_TRIES && rc == 1; tries++)
		rc = update_once(db, conf, id, account_id, patch, now, out,
		    e);
	if (rc == 1)
		lz_verr_set(e, 409, "edit_conflict", NULL, "The link was "
		    "edited by another request at the same time; try again.");
	return rc == 0 ? 0 : -1;
}

int
linkops_delete(struct lz_db *db, int64_t id, int64_t account_id, int64_t now)
{
	struct link	 l;
	char		 slug[SLUG_MAX + 1], host[HOST_MAX + 1];
	int		 rc;

	if (lz_db_begin(db) == -1)
		return -1;
	memset(&l, 0, sizeof(l));
	rc = store_link_delete(db, id, account_id, now, slug,
	    &l.account_id, &l.domain_id);
	l.id = id;
	l.slug = slug;
	if (rc == 1 && l.domain_id != 0) {
		if (store_domain_host(db, l.domain_id, host) == -1)
			rc = -1;
		else
			l.domain = host;
	}
	/* link.deleted is queued in the transaction of the delete. */
	if (rc == 1 && (events_link(db, WEBHOOK_EV_LINK_DELETED, &l,
	    NULL, now) == -1 || lz_db_commit(db) == -1))
		rc = -1;
	if (rc != 1)
		lz_db_rollback(db);
	return rc;
}
