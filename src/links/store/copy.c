/*
 * copy.c -- the links database table by table, for lzctl db copy: moving
 * an instance from SQLite to PostgreSQL (store/copy.h).
 */
#include "config.h"

#include "db.h"
#include "store/copy.h"
#include "store/store.h"
#include "util.h"

/*
 * Every table, parents before the tables that refer to them, with its
 * columns at the newest schema (t/check_store compares them with the
 * database's).  click_journals is left out: its positions mean
 * something only beside their files, which lzctl db copy moves in
 * first.  So are scope_click_rollups and scope_conversion_rollups: the
 * triggers of click_rollups, conversion_rollups and link_tags make them
 * again as those rows arrive (sql/links/0015-account-stats.sql).  And
 * scope_pause, which holds a row only inside a writer's transaction
 * (0021).
 */
const struct store_table store_tables[] = {
	{ "accounts", 7,
	    "id, email, plan, password_hash, disabled, created_at, "
	    "link_count",
	    "id", 1 },
	{ "users", 4,
	    "id, email, password_hash, created_at",
	    "id", 1 },
	{ "memberships", 4,
	    "user_id, account_id, role, created_at",
	    "user_id, account_id", 0 },
	{ "invitations", 9,
	    "id, account_id, email, role, hash, invited_by, created_at, "
	    "expires_at, accepted_at",
	    "id", 1 },
	{ "mail_outbox", 14,
	    "id, account_id, invitation_id, rcpt, subject, body_box, state, "
	    "attempts, created_at, expires_at, next_at, lease, last_error, "
	    "finished_at",
	    "id", 1 },
	{ "api_keys", 12,
	    "id, account_id, hash, prefix, last4, name, created_at, "
	    "last_used_at, revoked_at, scopes, expires_at, created_by",
	    "id", 1 },
	{ "audit_log", 7,
	    "id, account_id, at, actor, action, target, network",
	    "id", 1 },
	{ "domains", 12,
	    "id, host, account_id, verify_token, verified_at, root_url, "
	    "not_found_url, expired_url, aasa, assetlinks, created_at, "
	    "removed_at",
	    "id", 1 },
	{ "usage", 3,
	    "account_id, month, calls",
	    "account_id, month", 0 },
	{ "links", 30,
	    "id, account_id, slug, target_url, title, mode, variants, "
	    "redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, "
	    "pixel_line, escape_inapp, expires_at, max_clicks, utm, "
	    "password_hash, clicks, created_at, deleted_at, flagged_at, "
	    "flag_reason, conversions, revision, domain_id, expired_url, "
	    "notes, archived",
	    "id", 1 },
	{ "tags", 4,
	    "id, account_id, name, fold",
	    "id", 1 },
	{ "link_imports", 8,
	    "link_id, account_id, source, original_id, imported_at, "
	    "history_pos, history_clicks, total_clicks",
	    "link_id", 0 },
	{ "link_tags", 2,
	    "link_id, tag_id",
	    "link_id, tag_id", 0 },
	{ "clicks", 13,
	    "id, link_id, at, suffix, country, device, os, browser, "
	    "referrer, referrer_host, variant, visitor, bot",
	    "id", 1 },
	{ "webhooks", 9,
	    "id, account_id, url, events, secret_box, created_at, "
	    "rotated_at, disabled_at, disabled_reason",
	    "id", 1 },
	{ "webhook_deliveries", 13,
	    "id, uuid, webhook_id, event, body, state, attempts, "
	    "created_at, next_at, lease, last_status, last_error, "
	    "finished_at",
	    "id", 1 },
	{ "webhook_attempts", 6,
	    "id, delivery_id, at, status, error, duration_ms",
	    "id", 1 },
	{ "blocklist", 6,
	    "kind, value, source, reason, added_at, seen_at",
	    "kind, value, source", 0 },
	{ "conversions", 9,
	    "id, link_id, at, visitor, suffix, currency, value, variant, "
	    "click_at",
	    "id", 1 },
	{ "link_revenue", 3,
	    "link_id, currency, micros",
	    "link_id, currency", 0 },
	{ "sessions", 7,
	    "id, hash, account_id, csrf, created_at, seen_at, user_id",
	    "id", 1 },
	{ "throttles", 4,
	    "scope, window_start, window_ms, tries",
	    "scope", 0 },
	{ "click_rollups", 7,
	    "link_id, dim, span, at, key, bot, n",
	    "link_id, dim, span, at, key, bot", 0 },
	{ "conversion_rollups", 9,
	    "link_id, dim, span, at, key, currency, n, valued, micros",
	    "link_id, dim, span, at, key, currency", 0 },
	{ "click_visitors", 8,
	    "day, link_id, visitor, first_at, last_at, variant, suffix, "
	    "clicks",
	    "day, link_id, visitor", 0 },
	{ NULL, 0, NULL, NULL, 0 }
};

/* Each table's four statements: read all, write one (bulk), count, and
 * move its sequence past the ids copied. */
enum { ST_READ, ST_WRITE, ST_COUNT, ST_SEQUENCE, ST__PER };

/* Made by copy_sql() of the rows of store_tables. */
static struct lz_sql sql[STORE_TABLES * ST__PER];

struct lz_sqlset store_copy_sql = LZ_SQLSET("copy", sql);
static struct lz_sqlset *const set = &store_copy_sql;

/*
 * The statements of table t into q[0..ST__PER).  The write binds $1 to
 * $ncols on SQLite and is a COPY on PostgreSQL.  dialect: setval() of
 * the identity's sequence is PostgreSQL's; SQLite takes the next rowid
 * from the table itself.
 */
static void
table_sql(const struct store_table *t, struct lz_sql *q)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	int		 i;

	lz_buf_printf(&b, "INSERT INTO %s (%s) VALUES (", t->name, t->cols);
	for (i = 1; i <= t->ncols; i++)
		lz_buf_printf(&b, "%s$%d", i > 1 ? ", " : "", i);
	lz_buf_putc(&b, ')');
	q[ST_READ] = (struct lz_sql){ xasprintf("read %s", t->name),
	    xasprintf("SELECT %s FROM %s ORDER BY %s", t->cols, t->name,
	    t->key), NULL };
	q[ST_WRITE] = (struct lz_sql){ xasprintf("write %s", t->name),
	    lz_buf_detach(&b), xasprintf("COPY %s (%s) FROM STDIN", t->name,
	    t->cols) };
	q[ST_COUNT] = (struct lz_sql){ xasprintf("count %s", t->name),
	    xasprintf("SELECT count(*) FROM %s", t->name), NULL };
	q[ST_SEQUENCE] = (struct lz_sql){ xasprintf("sequence %s", t->name),
	    "SELECT 0", t->ids ? xasprintf("SELECT setval("
	    "pg_get_serial_sequence('%s', 'id'), coalesce(max(id), 0) + 1, "
	    "false) FROM %s", t->name, t->name) : "SELECT 0" };
}

/*
 * The statements are made before main(), of the constant rows above
 * (never of data), so that they are there for whoever prepares the
 * registry (store_sqlsets) first; they last as long as the process.
 */
__attribute__((constructor)) static void
copy_sql(void)
{
	size_t	 t;

	for (t = 0; t < STORE_TABLES; t++)
		table_sql(&store_tables[t], &sql[t * ST__PER]);
}

_Static_assert(LZ_NELEM(store_tables) == STORE_TABLES + 1,
    "STORE_TABLES is the tables'");

long long
store_table_count(struct lz_db *db, size_t t)
{
	int64_t	 n;

	return lz_one_i64(lz_db_stmt(db, set, t * ST__PER + ST_COUNT), &n) ==
	    1 ? n : -1;
}

long
store_table_each(struct lz_db *db, size_t t,
    void (*fn)(struct lz_stmt *, void *), void *arg)
{
	return lz_each(lz_db_stmt(db, set, t * ST__PER + ST_READ), fn, arg);
}

int
store_table_put(struct lz_db *db, size_t t, const struct lz_val *v)
{
	return lz_bulk_row(db, set, t * ST__PER + ST_WRITE, v,
	    (size_t)store_tables[t].ncols);
}

int
store_table_sequence(struct lz_db *db, size_t t)
{
	int64_t	 unused;

	return lz_one_i64(lz_db_stmt(db, set, t * ST__PER + ST_SEQUENCE),
	    &unused) == 1 ? 0 : -1;
}
