/*
 * copy.c -- the links database table by table, for lzctl db copy: moving
 * an instance from SQLite to PostgreSQL (store/copy.h).
 */
#include "config.h"

#include "db.h"
#include "store/copy.h"
#include "store/store.h"
#include "util.h"

/* $1, ... $n. */
#define V1	"$1"
#define V2	V1 ", $2"
#define V3	V2 ", $3"
#define V4	V3 ", $4"
#define V5	V4 ", $5"
#define V6	V5 ", $6"
#define V7	V6 ", $7"
#define V8	V7 ", $8"
#define V9	V8 ", $9"
#define V10	V9 ", $10"
#define V11	V10 ", $11"
#define V12	V11 ", $12"
#define V13	V12 ", $13"
#define V14	V13 ", $14"
#define V15	V14 ", $15"
#define V16	V15 ", $16"
#define V17	V16 ", $17"
#define V18	V17 ", $18"
#define V19	V18 ", $19"
#define V20	V19 ", $20"
#define V21	V20 ", $21"
#define V22	V21 ", $22"
#define V23	V22 ", $23"
#define V24	V23 ", $24"
#define V25	V24 ", $25"
#define V26	V25 ", $26"

/*
 * X(e, table, columns, n, order, ids): every table, parents before
 * the tables that refer to them, with its n columns at the newest schema
 * (t/check_store compares them with the database's), and whether its
 * ids come from a sequence on PostgreSQL.  click_journals is left out:
 * its positions mean something only beside their files, which lzctl db
 * copy moves in first.
 */
#define TABLES(X) \
	X(ACCOUNTS, "accounts", \
	    "id, email, plan, password_hash, disabled, created_at", \
	    6, "id", 1) \
	X(API_KEYS, "api_keys", \
	    "id, account_id, hash, prefix, last4, name, " \
	    "created_at, last_used_at, revoked_at", \
	    9, "id", 1) \
	X(USAGE, "usage", \
	    "account_id, month, calls", \
	    3, "account_id, month", 0) \
	X(LINKS, "links", \
	    "id, account_id, slug, target_url, title, mode, " \
	    "variants, redirect_type, og, pixel_fb, pixel_ga, " \
	    "pixel_gtm, pixel_tiktok, pixel_line, escape_inapp, " \
	    "expires_at, max_clicks, utm, password_hash, clicks, " \
	    "created_at, deleted_at, flagged_at, flag_reason, " \
	    "conversions, revision", \
	    26, "id", 1) \
	X(CLICKS, "clicks", \
	    "id, link_id, at, suffix, country, device, os, " \
	    "browser, referrer, referrer_host, variant, visitor, " \
	    "bot", \
	    13, "id", 1) \
	X(WEBHOOKS, "webhooks", \
	    "id, account_id, url, events, secret_box, created_at, " \
	    "rotated_at, disabled_at, disabled_reason", \
	    9, "id", 1) \
	X(DELIVERIES, "webhook_deliveries", \
	    "id, uuid, webhook_id, event, body, state, attempts, " \
	    "created_at, next_at, lease, last_status, last_error, " \
	    "finished_at", \
	    13, "id", 1) \
	X(ATTEMPTS, "webhook_attempts", \
	    "id, delivery_id, at, status, error, duration_ms", \
	    6, "id", 1) \
	X(BLOCKLIST, "blocklist", \
	    "kind, value, source, reason, added_at, seen_at", \
	    6, "kind, value, source", 0) \
	X(CONVERSIONS, "conversions", \
	    "id, link_id, at, visitor, suffix, currency, value, " \
	    "variant, click_at", \
	    9, "id", 1) \
	X(REVENUE, "link_revenue", \
	    "link_id, currency, micros", \
	    3, "link_id, currency", 0) \
	X(SESSIONS, "sessions", \
	    "id, hash, account_id, csrf, created_at, seen_at", \
	    6, "id", 1) \
	X(THROTTLES, "throttles", \
	    "scope, window_start, window_ms, tries", \
	    4, "scope", 0) \
	X(CLICK_ROLLUPS, "click_rollups", \
	    "link_id, dim, span, at, key, bot, n", \
	    7, "link_id, dim, span, at, key, bot", 0) \
	X(CONVERSION_ROLLUPS, "conversion_rollups", \
	    "link_id, dim, span, at, key, currency, n, valued, micros", \
	    9, "link_id, dim, span, at, key, currency", 0) \
	X(CLICK_VISITORS, "click_visitors", \
	    "day, link_id, visitor, first_at, last_at, variant, suffix, " \
	    "clicks", \
	    8, "day, link_id, visitor", 0)

enum {
#define ENUM(e, t, c, n, o, ids)	TABLE_##e,
	TABLES(ENUM)
	TABLE__MAX
};

/* Each table's four statements: read all, write one (bulk), count, and
 * move its sequence past the ids copied. */
enum { ST_READ, ST_WRITE, ST_COUNT, ST_SEQUENCE, ST__PER };

/* dialect: setval() of the identity's sequence is PostgreSQL's; SQLite
 * takes the next rowid from the table itself. */
#define SEQ_PG(t) \
	"SELECT setval(pg_get_serial_sequence('" t "', 'id'), " \
	"coalesce(max(id), 0) + 1, false) FROM " t
#define ROWS(e, t, cols, n, order, ids) \
	[TABLE_##e * ST__PER + ST_READ] = { "read " t, \
	    "SELECT " cols " FROM " t " ORDER BY " order }, \
	[TABLE_##e * ST__PER + ST_WRITE] = { "write " t, \
	    "INSERT INTO " t " (" cols ") VALUES (" V##n ")", \
	    "COPY " t " (" cols ") FROM STDIN" }, \
	[TABLE_##e * ST__PER + ST_COUNT] = { "count " t, \
	    "SELECT count(*) FROM " t }, \
	[TABLE_##e * ST__PER + ST_SEQUENCE] = { "sequence " t, \
	    "SELECT 0", (ids) ? SEQ_PG(t) : "SELECT 0" },

static const struct lz_sql sql[TABLE__MAX * ST__PER] = {
	TABLES(ROWS)
};

struct lz_sqlset store_copy_sql = LZ_SQLSET("copy", sql);
static struct lz_sqlset *const set = &store_copy_sql;

const struct store_table store_tables[STORE_TABLES + 1] = {
#define TABLE(e, t, c, n, o, ids)	{ t, n },
	TABLES(TABLE)
	{ NULL, 0 }
};

_Static_assert(TABLE__MAX == STORE_TABLES, "STORE_TABLES is the tables'");

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
