/*
 * linkops.c -- creating and deleting links.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "ctx.h"
#include "events.h"
#include "link.h"
#include "linkops.h"
#include "log.h"
#include "pwhash.h"
#include "req.h"
#include "rnd.h"
#include "safety/scan.h"
#include "store/links.h"
#include "store/store.h"
#include "util.h"

#define SLUG_TRIES	8

/*
 * Hashes a link password with argon2id (pwhash.h): links_workers checks
 * at once must fit in RAM, see lz-links(8).
 */
static char *
hash_password(const char *pw)
{
	char	 out[crypto_pwhash_STRBYTES];

	if (lz_pwhash(pw, out) == -1)
		return NULL;
	return xstrdup(out);
}

int
linkops_create(const json_t *body, int64_t account_id,
    const struct lz_plan *plan, int64_t now, struct link *l,
    struct lz_verr *e)
{
	long long	 n;
	int		 rc, tries, random_slug;
	char		 slug[SLUG_RANDOM_LEN + 1];

	memset(l, 0, sizeof(*l));
	if (link_parse(body, now, l, e) == -1)
		goto fail;
	/* The local scan ran in link_parse; Safe Browsing sees every
	 * destination of the link in one request. */
	if (safety_remote(links.conf, l, e) == -1)
		goto fail;
	if (l->slug != NULL && slug_reserved(links.conf, l->slug)) {
		lz_verr_set(e, 409, "slug_reserved", "slug", "The slug '%s' is "
		    "reserved.", l->slug);
		goto fail;
	}
	if (l->password != NULL) {
		if ((l->password_hash = hash_password(l->password)) == NULL) {
			lz_verr_set(e, 500, "internal_error", NULL, "The "
			    "password could not be hashed.");
			goto fail;
		}
		sodium_memzero(l->password, strlen(l->password));
		free(l->password);
		l->password = NULL;
	}
	l->account_id = account_id;
	l->created_at = now;
	random_slug = l->slug == NULL;

	/* The cap: count and insert with the account's row held. */
	if (lz_db_begin(&links.db) == -1 ||
	    store_lock(&links.db, STORE_LOCK_ACCOUNT, account_id) != 1)
		goto dberr;
	if ((n = store_link_count(&links.db, account_id)) < 0)
		goto dberr;
	if (plan != NULL && n >= plan->links) {
		lz_db_rollback(&links.db);
		lz_verr_set(e, 403, "link_cap_reached", NULL, "The account "
		    "has %lld links, the cap of plan '%s'; delete links or "
		    "change plans.", n, plan->name);
		goto fail;
	}
	for (tries = 0; tries < SLUG_TRIES; tries++) {
		if (random_slug) {
			/* 62^7 slugs; retried on the rare collision (and on
			 * a random hit of a reserved word). */
			lz_rnd_base62(slug, SLUG_RANDOM_LEN);
			if (slug_reserved(links.conf, slug))
				continue;
			free(l->slug);
			l->slug = xstrdup(slug);
		}
		if ((rc = store_link_insert(&links.db, l)) == -1)
			goto dberr;
		if (rc == 0)
			break;
		if (!random_slug) {
			lz_db_rollback(&links.db);
			lz_verr_set(e, 409, "slug_taken", "slug", "The slug "
			    "'%s' is taken.", l->slug);
			goto fail;
		}
	}
	if (tries == SLUG_TRIES) {
		lz_log(LZ_LOG_ERR, "no free random slug in %d tries", tries);
		goto dberr;
	}
	/* link.created is queued in the transaction that creates the link. */
	if (events_link_created(&links.db, l, links.conf->base_url, now) == -1)
		goto dberr;
	if (lz_db_commit(&links.db) == -1)
		goto dberr;
	return 0;
dberr:
	lz_db_rollback(&links.db);
	lz_verr_set(e, 500, "internal_error", NULL, "The link could not be "
	    "stored.");
fail:
	link_free(l);
	return -1;
}

int
linkops_delete(int64_t id, int64_t account_id, int64_t now)
{
	return store_link_delete(&links.db, id, account_id, now);
}
