/*
 * store.h -- every SQL statement of the link service, in one place
 * (DESIGN 1: a second storage engine would replace this file only).
 *
 * Statements are prepared once per process (store_open) from the table in
 * store.c, indexed by enum stmt.  No SQL is ever built from user data.
 */
#ifndef LZ_STORE_H
#define LZ_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "click.h"
#include "db.h"

struct click;
struct conversion;
struct link;
struct webhook;
struct webhook_attempt;
struct webhook_delivery;

extern const struct lz_migration lz_links_migrations[];
extern const size_t lz_links_nmigrations;

/* Opens the links database, checks its schema version and prepares the
 * statements.  0, or -1 with err. */
int	store_open(struct lz_db *, const char *path, char *err, size_t errlen);

/* ---- accounts -------------------------------------------------------- */

struct account {
	int64_t	 id;
	char	 email[256];
	char	 plan[64];
	int	 disabled;
	int	 has_password;
	int64_t	 created_at;
};

/* Returns the new id, 0 when the e-mail is taken, -1 on error. */
int64_t	store_account_add(struct lz_db *, const char *email, const char *plan,
	    const char *password_hash, int64_t now);
/* By id (email NULL) or by e-mail (id 0).  1 found, 0 not, -1 error. */
int	store_account_get(struct lz_db *, int64_t id, const char *email,
	    struct account *);
/* Calls fn for every account in id order; returns the count or -1. */
long	store_account_list(struct lz_db *,
	    void (*fn)(const struct account *, void *), void *arg);
/* 1 changed, 0 no such account, -1 error. */
int	store_account_set_plan(struct lz_db *, int64_t id, const char *plan);
int	store_account_set_disabled(struct lz_db *, int64_t id, int disabled);

/* ---- API keys -------------------------------------------------------- */

struct apikey {
	int64_t	 id;
	int64_t	 account_id;
	char	 prefix[16];
	char	 last4[8];
	char	 name[128];
	int64_t	 created_at;
	int64_t	 last_used_at;
	int64_t	 revoked_at;
	/* filled by store_key_auth: */
	char	 plan[64];
	int	 account_disabled;
};

int64_t	store_key_add(struct lz_db *, int64_t account_id,
	    const unsigned char *hash, const char *prefix, const char *last4,
	    const char *name, int64_t now);
/* Looks a key up by hash.  1 found (revoked or not), 0 not, -1 error. */
int	store_key_auth(struct lz_db *, const unsigned char *hash,
	    struct apikey *);
long	store_key_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const struct apikey *, void *), void *arg);
/* Revokes key id (of account_id, or of anyone when 0).  1, 0, -1. */
int	store_key_revoke(struct lz_db *, int64_t id, int64_t account_id,
	    int64_t now);
/* Notes the use of a key (at most once a minute per key). */
int	store_key_touch(struct lz_db *, int64_t id, int64_t now);

/* ---- monthly usage --------------------------------------------------- */

/*
 * Counts one call of account in month ("YYYY-MM") unless quota calls were
 * already counted.  Returns 1 (counted) or 0 (quota used up), with the
 * calls counted so far in *calls; -1 on error.
 */
int	store_usage_take(struct lz_db *, int64_t account_id, const char *month,
	    long long quota, long long *calls);
long long store_usage_get(struct lz_db *, int64_t account_id,
	    const char *month);

/* ---- links ----------------------------------------------------------- */

/* Live links of an account (for the link cap); -1 on error. */
long long store_link_count(struct lz_db *, int64_t account_id);
/* Inserts l (slug set); sets l->id.  0, 1 when the slug is taken, -1. */
int	store_link_insert(struct lz_db *, struct link *);
/* A live link by id (of account_id, or of anyone when 0).  1, 0, -1. */
int	store_link_get(struct lz_db *, int64_t id, int64_t account_id,
	    struct link *);
/* A link by slug, live or deleted.  1, 0, -1. */
int	store_link_by_slug(struct lz_db *, const char *slug, struct link *);
/* 1 when a link (live or deleted) has slug, 0 when not, -1. */
int	store_slug_taken(struct lz_db *, const char *slug);
/*
 * Live links of account_id (0: all accounts), newest first, with id below
 * before (0: from the newest).  Calls fn for up to limit links; returns
 * the count or -1.
 */
long	store_link_list(struct lz_db *, int64_t account_id, int64_t before,
	    long limit, void (*fn)(struct link *, void *), void *arg);
/* Marks a live link deleted.  1, 0 (no such live link), -1. */
int	store_link_delete(struct lz_db *, int64_t id, int64_t account_id,
	    int64_t now);

/* ---- webhooks (webhook.h has the rules; these are only the SQL) ------ */

/* Returns the new id, or -1. */
int64_t	store_webhook_add(struct lz_db *, int64_t account_id, const char *url,
	    unsigned events, const unsigned char *box, int64_t now);
/* A subscription by id (of account_id, or of anyone when 0).  1, 0, -1. */
int	store_webhook_get(struct lz_db *, int64_t id, int64_t account_id,
	    struct webhook *);
/* Subscriptions of account_id (0: all) in id order; the count or -1. */
long	store_webhook_list(struct lz_db *, int64_t account_id,
	    void (*fn)(const struct webhook *, void *), void *arg);
/* Active subscriptions of an account; -1 on error. */
long long store_webhook_count(struct lz_db *, int64_t account_id);
/* New secret box of an active subscription.  1, 0, -1. */
int	store_webhook_set_secret(struct lz_db *, int64_t id, int64_t account_id,
	    const unsigned char *box, int64_t now);
/* Marks an active subscription disabled.  1, 0, -1. */
int	store_webhook_disable(struct lz_db *, int64_t id, int64_t account_id,
	    const char *reason, int64_t now);
/*
 * Ids of the active subscriptions of account_id to an event (a
 * WEBHOOK_EV_* bit), at most max of them, into ids.  Returns the count or
 * -1.  One look-up in the index of active subscriptions by account.
 */
int	store_webhook_targets(struct lz_db *, int64_t account_id, unsigned bit,
	    int64_t *ids, int max);

/* ---- the outbox ------------------------------------------------------ */

/* Queues a delivery, due at once.  0 or -1. */
int	store_delivery_add(struct lz_db *, int64_t webhook_id, const char *uuid,
	    const char *event, const char *body, size_t len, int64_t now);
/* Cancels the unfinished deliveries of a subscription.  Count or -1. */
int	store_delivery_cancel(struct lz_db *, int64_t webhook_id,
	    const char *why, int64_t now);
/*
 * Due deliveries of active subscriptions: for each subscription its
 * per_hook oldest ones due at now, oldest first, at most limit in all.
 * Calls fn(delivery id, webhook id, arg); returns the count or -1.
 */
long	store_delivery_due(struct lz_db *, int64_t now, int per_hook,
	    long limit, void (*fn)(int64_t, int64_t, void *), void *arg);
/*
 * Leases delivery id to the run lease until `until`, when it is still due
 * at now.  Returns 1 with the delivery (body allocated: free with
 * webhook_delivery_free), 0 when someone else took it, -1.
 */
int	store_delivery_lease(struct lz_db *, int64_t id, const char *lease,
	    int64_t until, int64_t now, struct webhook_delivery *);
/* Logs one attempt.  0 or -1. */
int	store_attempt_add(struct lz_db *, int64_t delivery_id,
	    const struct webhook_attempt *);
/* Marks a pending delivery delivered (whoever holds its lease).  1, 0, -1. */
int	store_delivery_delivered(struct lz_db *, int64_t id, int status,
	    int64_t now);
/*
 * Records a failed attempt of a delivery leased to lease: due again at
 * next_at, or failed for good when next_at is 0.  1, 0 (the lease was
 * lost: the delivery moved on without this run), -1.
 */
int	store_delivery_failed(struct lz_db *, int64_t id, const char *lease,
	    int status, const char *error, int64_t next_at, int64_t now);
/* Deliveries of a subscription, newest first, with id below before (0:
 * from the newest), at most limit.  Count or -1. */
long	store_delivery_list(struct lz_db *, int64_t webhook_id, int64_t before,
	    long limit, void (*fn)(const struct webhook_delivery *, void *),
	    void *arg);
/* A delivery by its X-Lz-Delivery id.  1, 0, -1. */
int	store_delivery_by_uuid(struct lz_db *, const char *uuid,
	    struct webhook_delivery *);
/* The attempts of a delivery, oldest first.  Count or -1. */
long	store_attempt_list(struct lz_db *, int64_t delivery_id,
	    void (*fn)(const struct webhook_attempt *, void *), void *arg);
/* Deletes up to limit deliveries (and their attempts) finished before
 * before.  Count or -1. */
long	store_delivery_purge(struct lz_db *, int64_t before, long limit);

/* ---- safety scan: blocklists and flagged links ------------------------ */

/* One blocklist entry as listed (strings valid during the callback). */
struct bl_row {
	const char	*kind;		/* "host" or "url" */
	const char	*value;
	const char	*source;
	const char	*reason;
	int64_t		 added_at;
};

/* Looks up an entry of kind ("host", "url") and value; 1 found (source
 * and reason copied), 0 not, -1 error. */
int	store_bl_find(struct lz_db *, const char *kind, const char *value,
	    char *source, size_t srclen, char *reason, size_t reasonlen);
/* Adds an entry, or marks it seen at now; 0 or -1. */
int	store_bl_upsert(struct lz_db *, const char *kind, const char *value,
	    const char *source, const char *reason, int64_t now);
/* Drops the entries of source not seen since before; count or -1. */
long	store_bl_prune(struct lz_db *, const char *source, int64_t before);
/* Drops an entry from source (NULL: from every source); count or -1. */
long	store_bl_remove(struct lz_db *, const char *kind, const char *value,
	    const char *source);
/* Calls fn for up to limit entries (of source, or all when NULL) in
 * order; returns the count or -1. */
long	store_bl_list(struct lz_db *, const char *source, long limit,
	    void (*fn)(const struct bl_row *, void *), void *arg);
/* Calls fn with the entry count and last import of every source. */
long	store_bl_count(struct lz_db *, void (*fn)(const char *source,
	    long long entries, int64_t seen_at, void *), void *arg);

/* Live, unflagged links with id above after, in id order, up to limit;
 * returns the count or -1. */
long	store_link_scan(struct lz_db *, int64_t after, long limit,
	    void (*fn)(struct link *, void *), void *arg);
/* Flags (disables) a live link with a reason.  1, 0 (already flagged or
 * none), -1. */
int	store_link_flag(struct lz_db *, int64_t id, int64_t now,
	    const char *reason);
/* Clears the flag of a link.  1, 0 (not flagged), -1. */
int	store_link_unflag(struct lz_db *, int64_t id);
/* Flagged live links, most recently flagged first; count or -1. */
long	store_link_flagged(struct lz_db *, long limit,
	    void (*fn)(struct link *, void *), void *arg);

/* ---- dashboard: passwords, sessions, sign-in failures ---------------- */

/*
 * The password hash of an account, by e-mail (when not NULL) or id.  1
 * found (hash "" when the account has no password), 0 not, -1 error.
 */
int	store_account_pwhash(struct lz_db *, int64_t id, const char *email,
	    int64_t *idp, char *hash, size_t hashlen, int *disabled);
int	store_account_set_password(struct lz_db *, int64_t id,
	    const char *hash);

struct session {
	int64_t	 id;
	int64_t	 account_id;
	char	 csrf[64];
	int64_t	 created_at;
	int64_t	 seen_at;
};

/* Returns the new session's id or -1. */
int64_t	store_session_add(struct lz_db *, const unsigned char *hash,
	    int64_t account_id, const char *csrf, int64_t now);
/* By the hash of the cookie token.  1, 0, -1. */
int	store_session_get(struct lz_db *, const unsigned char *hash,
	    struct session *);
/* Notes activity (at most once a minute per session). */
int	store_session_touch(struct lz_db *, int64_t id, int64_t now);
int	store_session_delete(struct lz_db *, int64_t id);
/* Ends every session of account_id but keep_id (0: all). */
int	store_session_delete_others(struct lz_db *, int64_t account_id,
	    int64_t keep_id);
/* Drops sessions idle since idle_before or made before created_before. */
int	store_session_purge(struct lz_db *, int64_t idle_before,
	    int64_t created_before);

int	store_login_fail_add(struct lz_db *, const char *scope, int64_t now);
/* Failures of scope after since (and the oldest of them); -1 on error. */
long long store_login_fail_count(struct lz_db *, const char *scope,
	    int64_t since, int64_t *oldest);
int	store_login_fail_clear(struct lz_db *, const char *scope);
int	store_login_fail_purge(struct lz_db *, int64_t before);
/* The time of the n-th newest failure of scope (n >= 1): 1, 0, -1. */
int	store_login_fail_nth(struct lz_db *, const char *scope, long long n,
	    int64_t *at);

/* ---- redirects, clicks and statistics -------------------------------- */

/* A link by id, live or deleted (clicks read back from journals).
 * 1, 0, -1. */
int	store_link_by_id(struct lz_db *, int64_t id, struct link *);
/*
 * Counts one human click of a link: 1, or 0 when the link has reached
 * max_clicks (then nothing changed: the cap is exact), -1 on error.
 */
int	store_click_count(struct lz_db *, int64_t link_id);
/* Adds n human clicks to a link's count, cap or not.  0 or -1. */
int	store_click_add(struct lz_db *, int64_t link_id, int64_t n);
/* Stores one click; 0 or -1. */
int	store_click_insert(struct lz_db *, const struct click *,
	    const char *referrer_host);

/* Click journals: how far each has been moved into the clicks table. */
int64_t	store_journal_get(struct lz_db *, const char *name); /* 0 unknown */
int	store_journal_set(struct lz_db *, const char *name, int64_t pos);
int	store_journal_del(struct lz_db *, const char *name);
long	store_journal_list(struct lz_db *, void (*fn)(const char *, void *),
	    void *arg);

/*
 * Takes one password try of a client network at a link, unless max tries
 * were taken in the window of window ms.  1 taken, 0 refused (with
 * *window_start the start of the full window), -1 on error.
 */
int	store_pwtry_take(struct lz_db *, int64_t link_id,
	    const unsigned char *net, size_t netlen, int64_t now,
	    int64_t window, int max, int64_t *window_start);
/* Gives a try back (the password was right).  0 or -1. */
int	store_pwtry_give_back(struct lz_db *, int64_t link_id,
	    const unsigned char *net, size_t netlen);
/* Forgets windows that started before before.  0 or -1. */
int	store_pwtry_purge(struct lz_db *, int64_t before);
/*
 * The per-link ceiling over every network (0007-hardening.sql): takes one
 * try at a link unless max were taken in its window, which is window ms
 * long, or twice as long as the last one (up to longest) after a full
 * one.  1 taken, 0 refused (with *until the end of the full window), -1
 * on error.
 */
int	store_pwtry_link_take(struct lz_db *, int64_t link_id, int64_t now,
	    int64_t window, int max, int64_t longest, int64_t *until);
/* Gives a try back (the password was right).  0 or -1. */
int	store_pwtry_link_give_back(struct lz_db *, int64_t link_id);
/* Forgets windows that ended a window's length before now.  0 or -1. */
int	store_pwtry_link_purge(struct lz_db *, int64_t now);

/* Statistics of a link's clicks in [from, to). */
enum stats_dim {
	STATS_COUNTRY = 0,
	STATS_DEVICE,
	STATS_OS,
	STATS_BROWSER,
	STATS_REFERRER_HOST,
	STATS_SUFFIX,
	STATS_VARIANT,
	STATS_DIM__MAX
};

/* Human clicks and bot visits.  0 or -1. */
int	store_stats_totals(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, int64_t *clicks, int64_t *bots);
/* Human clicks per bucket (at / bucket_ms), in bucket order; empty
 * buckets are not reported.  0 or -1. */
int	store_stats_series(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, int64_t bucket_ms,
	    void (*fn)(int64_t bucket, int64_t clicks, void *), void *arg);
/* Human clicks per value of dim, most first, at most limit values.
 * 0 or -1. */
int	store_stats_breakdown(struct lz_db *, enum stats_dim, int64_t link_id,
	    int64_t from, int64_t to, long limit,
	    void (*fn)(const char *key, int64_t clicks, void *), void *arg);

/* ---- conversions (conversion.h has the rules; these are only the SQL) - */

/* One conversion as stored.  Strings live as long as the caller's. */
struct conversion {
	int64_t		 link_id;
	int64_t		 at;
	unsigned char	 visitor[VISITOR_ID_LEN];
	const char	*suffix;	/* "" none */
	const char	*currency;	/* ISO 4217 */
	int		 has_value;
	int64_t		 value;		/* micro-units */
	const char	*variant;	/* of the attributed click; NULL none */
	int64_t		 click_at;	/* its time; 0 none */
};

/* 1 when link_id has a conversion by visitor a or b after since, 0 when
 * not, -1 on error. */
int	store_conv_seen(struct lz_db *, int64_t link_id, const unsigned char *a,
	    const unsigned char *b, int64_t since);
/*
 * Stores c and adds it to the link's running totals, in the caller's
 * transaction.  1 stored, 0 refused (the link's revenue in c's currency
 * would pass INT64_MAX micro-units; roll back), -1 on error.
 */
int	store_conv_insert(struct lz_db *, const struct conversion *c);
/*
 * The time of the n-th newest click (bots too) of link_id in [since,
 * until], read from the index alone: 1 with *at, 0 when there are fewer,
 * -1 on error.
 */
int	store_click_nth(struct lz_db *, int64_t link_id, int64_t since,
	    int64_t until, long n, int64_t *at);
/*
 * The newest human click of link_id by visitor in [since, until]: 1 with
 * its variant, suffix (cut to fit) and time, 0 when none, -1 on error.
 * The index of (link_id, at, visitor) holds the visitor, so only the
 * visitor's own clicks are read from the table.
 */
int	store_click_last(struct lz_db *, int64_t link_id,
	    const unsigned char *visitor, int64_t since, int64_t until,
	    char *variant, size_t varlen, char *suffix, size_t suflen,
	    int64_t *at);

/*
 * Conversion statistics of a link in [from, to).  A row is a group of
 * conversions in one currency: its count and, when any of them had a
 * value, has_rev and the sum of their values in micro-units.
 */
typedef void conv_row_fn(const char *currency, int64_t n, int has_rev,
	    int64_t micros, void *arg);

/* Per currency, in currency order.  0 or -1. */
int	store_conv_totals(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, conv_row_fn *, void *arg);
/* Per bucket (at / bucket_ms) and currency, in bucket order; empty
 * buckets are not reported.  0 or -1. */
int	store_conv_series(struct lz_db *, int64_t link_id, int64_t from,
	    int64_t to, int64_t bucket_ms,
	    void (*fn)(int64_t bucket, const char *currency, int64_t n,
	    int has_rev, int64_t micros, void *), void *arg);

enum conv_dim {
	CONV_BY_SUFFIX = 0,
	CONV_BY_CURRENCY,
	CONV_BY_VARIANT,
	CONV_DIM__MAX
};

/*
 * Per value of dim and currency, for the limit values with most
 * conversions: fn(key, key_n, currency, n, has_rev, micros) with key
 * NULL for conversions without one (not attributed, for CONV_BY_VARIANT)
 * and key_n the key's conversions in all currencies; rows of a key come
 * together, keys with most conversions first.  0 or -1.
 */
int	store_conv_breakdown(struct lz_db *, enum conv_dim, int64_t link_id,
	    int64_t from, int64_t to, long limit,
	    void (*fn)(const char *key, int64_t key_n, const char *currency,
	    int64_t n, int has_rev, int64_t micros, void *), void *arg);

#endif
