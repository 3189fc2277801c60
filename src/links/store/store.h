/*
 * store/store.h -- the link service's storage (DESIGN 1, 7).
 *
 * One file per subsystem in this folder holds its statements (db.h's
 * tables, indexed by an enum) next to the functions that run them,
 * behind a header named for what it stores:
 *
 *	accounts.h	accounts, API keys, passwords, monthly usage
 *	links.h		links
 *	clicks.h	clicks, click journals, the statistics read from them
 *	conversions.h	conversions and revenue
 *	webhooks.h	subscriptions, the outbox, delivery attempts
 *	safety.h	blocklist entries, flagged links
 *	sessions.h	dashboard sessions, sign-in failures, password tries
 *
 * Store functions take the connection first and speak only db.h's
 * statement API, so another engine runs them unchanged; no SQL is ever
 * built from data.  They return what db.h's steps return: 1 found or
 * changed, 0 not, -1 on an error (logged), or a count or -1.
 *
 * An account id of 0 matches nothing; "any account" is ACCOUNT_ANY of
 * store/admin.h, which only admin tools include.
 */
#ifndef LZ_STORE_H
#define LZ_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

extern const struct lz_migration lz_links_migrations[];
extern const size_t lz_links_nmigrations;

/* Opens the links database and checks its schema version (statements
 * are prepared on first use).  0, or -1 with err. */
int	store_open(struct lz_db *, const char *path, char *err, size_t errlen);
/* The same, read-only: a reader of its own (an export's thread). */
int	store_open_reader(struct lz_db *, const char *path, char *err,
	    size_t errlen);

/*
 * A long writer's commits (an import's batches) not waited for: on
 * PostgreSQL a commit returns before the server has flushed it
 * (synchronous_commit off), as SQLite's WAL commits do already
 * (synchronous=NORMAL).  A crash of the server may then take the last
 * batches committed, at most three wal_writer_delay (0.6 s by default),
 * and nothing else: the database stays whole, and the import run again
 * writes them (each link remembers its origin).  store_lazy_commits(db,
 * 0) puts the server's setting back, and returns once all that was
 * committed is flushed (as that setting flushes).  0 or -1.
 */
int	store_lazy_commits(struct lz_db *, int on);

/* Every statement set of the service, NULL-terminated: the unit suite
 * and lz-links -t prepare them all. */
extern struct lz_sqlset *const store_sqlsets[];

/*
 * A transaction that checks, then writes (the link cap, a conversion's
 * de-duplication, the webhook cap) takes the row it depends on first,
 * inside lz_db_begin(): on PostgreSQL, whose transactions run side by
 * side (read committed), another such transaction waits for this one's
 * commit, and what it checks then includes what this one wrote; SQLite's
 * BEGIN IMMEDIATE serialises every writer already (DESIGN 7).  1 locked,
 * 0 no such row, -1.
 */
enum store_lock { STORE_LOCK_ACCOUNT, STORE_LOCK_LINK, STORE_LOCK__MAX };
int	store_lock(struct lz_db *, enum store_lock, int64_t id);

/*
 * A statement whose rows a row reader reads, and how many columns the
 * reader reads: where a store file's .sql splices a column list
 * (@ACCOUNT_COLS@), the list's count is beside it (ACCOUNT_NCOLS) for
 * its reader, and its statements are listed here.  store_reads[] holds
 * each file's list ({ NULL }-terminated), NULL-terminated; t/check_store
 * prepares each statement on both engines and compares its columns.
 */
struct store_read {
	struct lz_sqlset	*set;
	size_t			 st;
	int			 ncols;
};

extern const struct store_read *const store_reads[];

/* ---- for the store files --------------------------------------------- */

extern const struct store_read store_accounts_reads[], store_links_reads[],
	    store_safety_reads[], store_webhooks_reads[], store_domains_reads[],
	    store_tags_reads[];

extern struct lz_sqlset store_accounts_sql, store_links_sql,
	    store_clicks_sql, store_conversions_sql, store_webhooks_sql,
	    store_safety_sql, store_sessions_sql, store_throttles_sql,
	    store_copy_sql, store_domains_sql, store_tags_sql,
	    store_audit_sql, store_members_sql, store_mails_sql;

/*
 * Statement own of set for account_id, with v[0..n) bound and account_id
 * as $n+1; or statement any, with v alone, for ACCOUNT_ANY.  NULL
 * (logged) when a process that did not call store_admin() asks for any
 * account.
 */
struct lz_stmt *store_stmt_of(struct lz_db *, struct lz_sqlset *, size_t own,
	    size_t any, int64_t account_id, const struct lz_val *v, size_t n);
/* The record of id for account_id (statement own or any, as
 * store_stmt_of), its row read by fn into rec: 1, 0 none, -1. */
int	store_get_of(struct lz_db *, struct lz_sqlset *, size_t own,
	    size_t any, int64_t id, int64_t account_id,
	    void (*fn)(struct lz_stmt *, void *), void *rec);

/*
 * A range of whole hours [from, to) as the rollups hold it (DESIGN
 * 3.10): the whole UTC days [day[0], day[1]) from the rows of days, the
 * hours [head[0], head[1]) before them and [tail[0], tail[1]) after them
 * from the rows of hours.  Empty parts are empty ranges.
 */
struct store_range {
	int64_t	 day[2], head[2], tail[2];
};

/* r for [from, to), both on whole hours; with days 0, in hours alone
 * (a series by hour). */
void	store_range(int64_t from, int64_t to, int days,
	    struct store_range *r);

/*
 * Whose rollups the statistics sum: a link's (click_rollups and
 * conversion_rollups), or an account's or a tag's, of one domain or all
 * (scope_click_rollups and scope_conversion_rollups, kept by triggers:
 * sql/links/0015-account-stats.sql).  kind is the scope tables' own.
 */
enum store_scope_kind {
	STORE_SCOPE_ACCOUNT = 0,
	STORE_SCOPE_TAG = 1,
	STORE_SCOPE_LINK = 2
};

struct store_scope {
	enum store_scope_kind	 kind;
	int64_t			 id;
	int64_t			 domain;	/* 0 default, -1 every one */
};

/*
 * The statistics' statement of scope sc: link (of a link) or scope,
 * with the owner as $1 and a range as $2 to $7 (day, head, tail), each
 * part read with "at >= $2 AND at < $3" and so on: three plain ranges
 * of the rollups' primary key (link_id or owner, ..., dim, span, at,
 * ...), whatever the planner.  The caller binds its own from $8 on,
 * nown of them; the scope statements take the kind and the domain after
 * those.
 */
struct lz_stmt *store_stmt_range(struct lz_db *, struct lz_sqlset *,
	    size_t link, size_t scope, const struct store_scope *sc,
	    const struct store_range *, const struct lz_val *own,
	    size_t nown);
/* A series: each row of statement link or scope (as store_stmt_range)
 * in buckets of bucket_ms ($8), to fn(arg).  0 or -1. */
int	store_series(struct lz_db *, struct lz_sqlset *, size_t link,
	    size_t scope, const struct store_scope *,
	    const struct store_range *, int64_t bucket_ms,
	    void (*fn)(struct lz_stmt *, void *), void *arg);

/* The first column of the row of a min(), NULL when nothing matched: 1
 * with *v, 0, -1. */
int	store_min(struct lz_stmt *, int64_t *v);

/* Runs statement i of set, a DELETE of at most $2 rows older than $1:
 * the rows deleted, or -1 (store_purge's fn). */
long	store_purge_rows(struct lz_db *, struct lz_sqlset *, size_t i,
	    int64_t before, long limit);

/*
 * Deletes in short write transactions of batch rows each: fn(db, before,
 * batch) deletes at most batch rows older than before and returns how
 * many, or -1.  Goes on while batches are full, up to max rows in all
 * (the next run goes on).  Returns the rows deleted, or -1.
 */
long	store_purge(struct lz_db *, long (*fn)(struct lz_db *, int64_t before,
	    long batch), int64_t before, long batch, long max);

/*
 * A list of values for one parameter: the JSON array of v[0..n) ("[1,2]",
 * which the caller frees), read by json_each() on SQLite and
 * json_array_elements_text() on PostgreSQL: one statement for a whole
 * batch, whatever its size, its text never built from data.
 */
char	*store_json_ids(const int64_t *v, size_t n);

/*
 * The row of st, found by the hash bound to it: 1 when its column col
 * holds hash (compared in constant time: the index found it, but the
 * comparison must not tell how much of it matched), readable until
 * lz_reset(); 0 when there is none (or another); -1.
 */
int	store_row_by_hash(struct lz_stmt *, int col, const unsigned char *hash,
	    size_t len);

#endif
