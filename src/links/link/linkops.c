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

int
linkops_create(struct lz_db *db, const struct lz_conf *conf,
    const json_t *body, int64_t account_id, const struct lz_plan *plan,
    int64_t now, struct link *l, struct lz_verr *e)
{
	long long	 n = 0;
	int		 rc, tries, random_slug;
	char		 slug[SLUG_RANDOM_LEN + 1];

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
	if (checked(db, conf, l, e) == -1)
		goto fail;
	l->account_id = account_id;
	l->created_at = now;
	random_slug = l->slug == NULL;

	/* The cap at a glance: a full account is told so before anything
	 * is written (and before a slug that is taken). */
	if (!l->archived && plan != NULL && (n = store_link_count(db,
	    account_id)) >= plan->links)
		goto capped;
	if (!l->archived && plan != NULL && n < 0)
		goto dberr;
	if (lz_db_begin(db) == -1)
		goto dberr;
	for (tries = 0; tries < SLUG_TRIES; tries++) {
		if (random_slug) {
			/* 62^7 slugs; retried on the rare collision (and on
			 * a random hit of a reserved word). */
			lz_rnd_base62(slug, SLUG_RANDOM_LEN);
			if (slug_reserved(conf, slug))
				continue;
			free(l->slug);
			l->slug = xstrdup(slug);
		}
		if ((rc = store_link_insert(db, l)) == -1)
			goto dberr;
		if (rc == 0)
			break;
		if (!random_slug) {
			lz_db_rollback(db);
			lz_verr_set(e, 409, "slug_taken", "slug", "The slug "
			    "'%s' is taken.", l->slug);
			goto fail;
		}
	}
	if (tries == SLUG_TRIES) {
		lz_log(LZ_LOG_ERR, "no free random slug in %d tries", tries);
		goto dberr;
	}
	if (l->tags != NULL && store_link_tags_set(db, l->id, account_id,
	    l->tags) == -1)
		goto dberr;
	/* link.created is queued in the transaction that creates the link. */
	if (events_link(db, WEBHOOK_EV_LINK_CREATED, l,
	    conf->base_url, now) == -1)
		goto dberr;
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
	lz_verr_set(e, 403, "link_cap_reached", NULL, "The account has %lld "
	    "links, the cap of plan '%s'; delete links or change plans.",
	    plan->links, plan->name);
	goto fail;
dberr:
	return unstored(db, l, e);
fail:
	link_free(l);
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
