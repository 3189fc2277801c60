/*
 * store.c -- the link service's SQL.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "click.h"
#include "db.h"
#include "link.h"
#include "log.h"
#include "store.h"
#include "util.h"
#include "webhook.h"

#define LINK_COLS \
	"id, account_id, slug, target_url, title, mode, variants, " \
	"redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, " \
	"pixel_line, escape_inapp, expires_at, max_clicks, utm, " \
	"password_hash, clicks, created_at, deleted_at, flagged_at, " \
	"flag_reason, conversions, (SELECT json_group_object(r.currency, " \
	"r.micros) FROM link_revenue r WHERE r.link_id = links.id)"

#define ACCOUNT_COLS \
	"id, email, plan, disabled, password_hash IS NOT NULL, created_at"

#define WEBHOOK_COLS \
	"w.id, w.account_id, w.url, w.events, w.secret_box, w.created_at, " \
	"w.rotated_at, w.disabled_at, w.disabled_reason"

#define DELIVERY_COLS \
	"id, uuid, webhook_id, event, body, state, attempts, created_at, " \
	"next_at, finished_at, last_status, last_error"

enum stmt {
	ST_ACCOUNT_ADD,
	ST_ACCOUNT_BY_ID,
	ST_ACCOUNT_BY_EMAIL,
	ST_ACCOUNT_LIST,
	ST_ACCOUNT_SET_PLAN,
	ST_ACCOUNT_SET_DISABLED,
	ST_KEY_ADD,
	ST_KEY_AUTH,
	ST_KEY_LIST,
	ST_KEY_REVOKE,
	ST_KEY_REVOKE_ANY,
	ST_KEY_TOUCH,
	ST_USAGE_TAKE,
	ST_USAGE_GET,
	ST_LINK_COUNT,
	ST_LINK_INSERT,
	ST_LINK_GET,
	ST_LINK_GET_ANY,
	ST_LINK_BY_SLUG,
	ST_SLUG_TAKEN,
	ST_LINK_LIST,
	ST_LINK_LIST_ALL,
	ST_LINK_DELETE,
	ST_WEBHOOK_ADD,
	ST_WEBHOOK_GET,
	ST_WEBHOOK_LIST,
	ST_WEBHOOK_COUNT,
	ST_WEBHOOK_SET_SECRET,
	ST_WEBHOOK_DISABLE,
	ST_WEBHOOK_TARGETS,
	ST_DELIVERY_ADD,
	ST_DELIVERY_CANCEL,
	ST_DELIVERY_DUE,
	ST_DELIVERY_LEASE,
	ST_ATTEMPT_ADD,
	ST_DELIVERY_DELIVERED,
	ST_DELIVERY_FAILED,
	ST_DELIVERY_LIST,
	ST_DELIVERY_BY_UUID,
	ST_ATTEMPT_LIST,
	ST_DELIVERY_PURGE,
	ST_BL_FIND,
	ST_BL_UPSERT,
	ST_BL_PRUNE,
	ST_BL_REMOVE,
	ST_BL_LIST,
	ST_BL_COUNT,
	ST_LINK_SCAN,
	ST_LINK_FLAG,
	ST_LINK_UNFLAG,
	ST_LINK_FLAGGED,
	ST_ACCOUNT_PWHASH,
	ST_ACCOUNT_SET_PASSWORD,
	ST_SESSION_ADD,
	ST_SESSION_GET,
	ST_SESSION_TOUCH,
	ST_SESSION_DELETE,
	ST_SESSION_DELETE_OTHERS,
	ST_SESSION_PURGE,
	ST_LOGIN_FAIL_ADD,
	ST_LOGIN_FAIL_COUNT,
	ST_LOGIN_FAIL_CLEAR,
	ST_LOGIN_FAIL_PURGE,
	ST_LOGIN_FAIL_NTH,
	/* redirects, clicks and statistics */
	ST_LINK_BY_ID,
	ST_CLICK_COUNT,
	ST_CLICK_INSERT,
	ST_CLICK_ADD,
	ST_JOURNAL_GET,
	ST_JOURNAL_SET,
	ST_JOURNAL_DEL,
	ST_JOURNAL_LIST,
	ST_PWTRY_TAKE,
	ST_PWTRY_GET,
	ST_PWTRY_GIVE_BACK,
	ST_PWTRY_PURGE,
	ST_PWTRY_LINK_TAKE,
	ST_PWTRY_LINK_GET,
	ST_PWTRY_LINK_GIVE_BACK,
	ST_PWTRY_LINK_PURGE,
	ST_STATS_TOTALS,
	ST_STATS_SERIES,
	ST_STATS_BY_COUNTRY,
	ST_STATS_BY_DEVICE,
	ST_STATS_BY_OS,
	ST_STATS_BY_BROWSER,
	ST_STATS_BY_REFERRER_HOST,
	ST_STATS_BY_SUFFIX,
	ST_STATS_BY_VARIANT,
	/* conversions (0005-conversions.sql) */
	ST_CONV_SEEN,
	ST_CONV_INSERT,
	ST_CONV_COUNT,
	ST_CONV_REVENUE,
	ST_CLICK_NTH,
	ST_CLICK_LAST,
	ST_CONV_TOTALS,
	ST_CONV_SERIES,
	ST_CONV_BY_SUFFIX,
	ST_CONV_BY_CURRENCY,
	ST_CONV_BY_VARIANT,
	ST__MAX
};

/*
 * Conversions of a link in [?2, ?3) per value of one column and currency,
 * for the ?4 values with most conversions: each row carries its value's
 * count in all currencies (n) and the value's rank, so the limit counts
 * values, not rows.  NULL is a value of its own.
 */
#define CONV_BY(col) \
	"SELECT key, n, currency, cn, rev FROM (SELECT key, n, currency, " \
	"cn, rev, dense_rank() OVER (ORDER BY n DESC, key) AS rk FROM (" \
	"SELECT " col " AS key, currency, count(*) AS cn, sum(value) AS rev, " \
	"sum(count(*)) OVER (PARTITION BY " col ") AS n FROM conversions " \
	"WHERE link_id = ?1 AND at >= ?2 AND at < ?3 GROUP BY " col ", " \
	"currency)) WHERE rk <= ?4 ORDER BY rk, currency"

/* Human clicks of a link in [?2, ?3), grouped by one column. */
#define STATS_BY(col) \
	"SELECT " col ", count(*) AS n FROM clicks WHERE link_id = ?1 AND " \
	"at >= ?2 AND at < ?3 AND bot = 0 GROUP BY " col " ORDER BY n DESC, " \
	col " LIMIT ?4"

static const char *const sql[ST__MAX] = {
	[ST_ACCOUNT_ADD] =
	    "INSERT INTO accounts (email, plan, password_hash, created_at) "
	    "VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
	[ST_ACCOUNT_BY_ID] =
	    "SELECT " ACCOUNT_COLS " FROM accounts WHERE id = ?",
	[ST_ACCOUNT_BY_EMAIL] =
	    "SELECT " ACCOUNT_COLS " FROM accounts WHERE email = ?",
	[ST_ACCOUNT_LIST] =
	    "SELECT " ACCOUNT_COLS " FROM accounts ORDER BY id",
	[ST_ACCOUNT_SET_PLAN] =
	    "UPDATE accounts SET plan = ? WHERE id = ?",
	[ST_ACCOUNT_SET_DISABLED] =
	    "UPDATE accounts SET disabled = ? WHERE id = ?",

	[ST_KEY_ADD] =
	    "INSERT INTO api_keys (account_id, hash, prefix, last4, name, "
	    "created_at) VALUES (?, ?, ?, ?, ?, ?)",
	[ST_KEY_AUTH] =
	    "SELECT k.id, k.account_id, k.prefix, k.last4, k.name, "
	    "k.created_at, k.last_used_at, k.revoked_at, a.plan, a.disabled, "
	    "k.hash FROM api_keys k JOIN accounts a ON a.id = k.account_id "
	    "WHERE k.hash = ?",
	[ST_KEY_LIST] =
	    "SELECT id, account_id, prefix, last4, name, created_at, "
	    "last_used_at, revoked_at FROM api_keys WHERE account_id = ? "
	    "ORDER BY id",
	[ST_KEY_REVOKE] =
	    "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND "
	    "account_id = ? AND revoked_at IS NULL",
	[ST_KEY_REVOKE_ANY] =
	    "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND "
	    "revoked_at IS NULL",
	[ST_KEY_TOUCH] =
	    "UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2 AND "
	    "(last_used_at IS NULL OR last_used_at < ?1 - 60000)",

	[ST_USAGE_TAKE] =
	    "INSERT INTO usage (account_id, month, calls) VALUES (?1, ?2, 1) "
	    "ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + 1 "
	    "WHERE calls < ?3 RETURNING calls",
	[ST_USAGE_GET] =
	    "SELECT calls FROM usage WHERE account_id = ? AND month = ?",

	[ST_LINK_COUNT] =
	    "SELECT count(*) FROM links WHERE account_id = ? AND "
	    "deleted_at IS NULL",
	[ST_LINK_INSERT] =
	    "INSERT INTO links (account_id, slug, target_url, title, mode, "
	    "variants, redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, "
	    "pixel_tiktok, pixel_line, escape_inapp, expires_at, max_clicks, "
	    "utm, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING",
	[ST_LINK_GET] =
	    "SELECT " LINK_COLS " FROM links WHERE id = ? AND account_id = ? "
	    "AND deleted_at IS NULL",
	[ST_LINK_GET_ANY] =
	    "SELECT " LINK_COLS " FROM links WHERE id = ? AND "
	    "deleted_at IS NULL",
	[ST_LINK_BY_SLUG] =
	    "SELECT " LINK_COLS " FROM links WHERE slug = ?",
	[ST_SLUG_TAKEN] =
	    "SELECT 1 FROM links WHERE slug = ?",
	[ST_LINK_LIST] =
	    "SELECT " LINK_COLS " FROM links WHERE account_id = ?1 AND "
	    "deleted_at IS NULL AND (?2 = 0 OR id < ?2) ORDER BY id DESC "
	    "LIMIT ?3",
	[ST_LINK_LIST_ALL] =
	    "SELECT " LINK_COLS " FROM links WHERE deleted_at IS NULL AND "
	    "(?2 = 0 OR id < ?2) ORDER BY id DESC LIMIT ?3",
	[ST_LINK_DELETE] =
	    "UPDATE links SET deleted_at = ?1 WHERE id = ?2 AND "
	    "(?3 = 0 OR account_id = ?3) AND deleted_at IS NULL",

	[ST_WEBHOOK_ADD] =
	    "INSERT INTO webhooks (account_id, url, events, secret_box, "
	    "created_at) VALUES (?, ?, ?, ?, ?)",
	[ST_WEBHOOK_GET] =
	    "SELECT " WEBHOOK_COLS " FROM webhooks w WHERE w.id = ?1 AND "
	    "(?2 = 0 OR w.account_id = ?2)",
	[ST_WEBHOOK_LIST] =
	    "SELECT " WEBHOOK_COLS ", (SELECT count(*) FROM "
	    "webhook_deliveries d WHERE d.webhook_id = w.id AND "
	    "d.next_at IS NOT NULL) FROM webhooks w WHERE "
	    "(?1 = 0 OR w.account_id = ?1) ORDER BY w.id",
	[ST_WEBHOOK_COUNT] =
	    "SELECT count(*) FROM webhooks WHERE account_id = ? AND "
	    "disabled_at IS NULL",
	[ST_WEBHOOK_SET_SECRET] =
	    "UPDATE webhooks SET secret_box = ?1, rotated_at = ?2 WHERE "
	    "id = ?3 AND (?4 = 0 OR account_id = ?4) AND disabled_at IS NULL",
	[ST_WEBHOOK_DISABLE] =
	    "UPDATE webhooks SET disabled_at = ?1, disabled_reason = ?2 WHERE "
	    "id = ?3 AND (?4 = 0 OR account_id = ?4) AND disabled_at IS NULL",
	[ST_WEBHOOK_TARGETS] =
	    "SELECT id FROM webhooks WHERE account_id = ?1 AND "
	    "disabled_at IS NULL AND (events & ?2) != 0 ORDER BY id",

	[ST_DELIVERY_ADD] =
	    "INSERT INTO webhook_deliveries (uuid, webhook_id, event, body, "
	    "created_at, next_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
	[ST_DELIVERY_CANCEL] =
	    "UPDATE webhook_deliveries SET state = 'cancelled', next_at = NULL, "
	    "lease = NULL, finished_at = ?1, last_error = ?2 WHERE "
	    "webhook_id = ?3 AND next_at IS NOT NULL",
	/* Per subscription its oldest due ones: a slow receiver with a
	 * backlog cannot crowd the others out of a run. */
	[ST_DELIVERY_DUE] =
	    "SELECT d.id, d.webhook_id FROM webhooks w JOIN "
	    "webhook_deliveries d ON d.id IN (SELECT x.id FROM "
	    "webhook_deliveries x WHERE x.webhook_id = w.id AND "
	    "x.next_at <= ?1 ORDER BY x.next_at LIMIT ?2) WHERE "
	    "w.disabled_at IS NULL ORDER BY d.next_at, d.id LIMIT ?3",
	[ST_DELIVERY_LEASE] =
	    "UPDATE webhook_deliveries SET next_at = ?1, lease = ?2 WHERE "
	    "id = ?3 AND next_at <= ?4 RETURNING " DELIVERY_COLS,
	[ST_ATTEMPT_ADD] =
	    "INSERT INTO webhook_attempts (delivery_id, at, status, error, "
	    "duration_ms) VALUES (?, ?, ?, ?, ?)",
	[ST_DELIVERY_DELIVERED] =
	    "UPDATE webhook_deliveries SET state = 'delivered', "
	    "attempts = attempts + 1, last_status = ?1, last_error = NULL, "
	    "next_at = NULL, lease = NULL, finished_at = ?2 WHERE id = ?3 AND "
	    "state = 'pending'",
	[ST_DELIVERY_FAILED] =
	    "UPDATE webhook_deliveries SET attempts = attempts + 1, "
	    "last_status = ?1, last_error = ?2, next_at = ?3, lease = NULL, "
	    "state = CASE WHEN ?3 IS NULL THEN 'failed' ELSE 'pending' END, "
	    "finished_at = CASE WHEN ?3 IS NULL THEN ?4 END WHERE id = ?5 AND "
	    "lease = ?6 AND state = 'pending'",
	[ST_DELIVERY_LIST] =
	    "SELECT " DELIVERY_COLS " FROM webhook_deliveries WHERE "
	    "webhook_id = ?1 AND (?2 = 0 OR id < ?2) ORDER BY id DESC "
	    "LIMIT ?3",
	[ST_DELIVERY_BY_UUID] =
	    "SELECT " DELIVERY_COLS " FROM webhook_deliveries WHERE uuid = ?",
	[ST_ATTEMPT_LIST] =
	    "SELECT at, status, error, duration_ms FROM webhook_attempts "
	    "WHERE delivery_id = ? ORDER BY id",
	[ST_DELIVERY_PURGE] =
	    "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM "
	    "webhook_deliveries WHERE finished_at < ?1 ORDER BY finished_at "
	    "LIMIT ?2)",

	[ST_BL_FIND] =
	    "SELECT source, reason FROM blocklist WHERE kind = ?1 AND "
	    "value = ?2 LIMIT 1",
	[ST_BL_UPSERT] =
	    "INSERT INTO blocklist (kind, value, source, reason, added_at, "
	    "seen_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5) ON CONFLICT (kind, "
	    "value, source) DO UPDATE SET reason = excluded.reason, "
	    "seen_at = excluded.seen_at",
	[ST_BL_PRUNE] =
	    "DELETE FROM blocklist WHERE source = ?1 AND seen_at < ?2",
	[ST_BL_REMOVE] =
	    "DELETE FROM blocklist WHERE kind = ?1 AND value = ?2 AND "
	    "(?3 IS NULL OR source = ?3)",
	[ST_BL_LIST] =
	    "SELECT kind, value, source, reason, added_at FROM blocklist "
	    "WHERE ?1 IS NULL OR source = ?1 ORDER BY kind, value, source "
	    "LIMIT ?2",
	[ST_BL_COUNT] =
	    "SELECT source, count(*), max(seen_at) FROM blocklist "
	    "GROUP BY source ORDER BY source",
	[ST_LINK_SCAN] =
	    "SELECT " LINK_COLS " FROM links WHERE id > ?1 AND "
	    "deleted_at IS NULL AND flagged_at IS NULL ORDER BY id LIMIT ?2",
	[ST_LINK_FLAG] =
	    "UPDATE links SET flagged_at = ?1, flag_reason = ?2 WHERE id = ?3 "
	    "AND flagged_at IS NULL",
	[ST_LINK_UNFLAG] =
	    "UPDATE links SET flagged_at = NULL, flag_reason = NULL WHERE "
	    "id = ?1 AND flagged_at IS NOT NULL",
	[ST_LINK_FLAGGED] =
	    "SELECT " LINK_COLS " FROM links WHERE flagged_at IS NOT NULL AND "
	    "deleted_at IS NULL ORDER BY flagged_at DESC, id DESC LIMIT ?1",

	/* ---- the dashboard (0006-dashboard.sql) ---- */
	[ST_ACCOUNT_PWHASH] =
	    "SELECT id, password_hash, disabled FROM accounts WHERE "
	    "(?1 IS NOT NULL AND email = ?1) OR (?1 IS NULL AND id = ?2)",
	[ST_ACCOUNT_SET_PASSWORD] =
	    "UPDATE accounts SET password_hash = ? WHERE id = ?",
	[ST_SESSION_ADD] =
	    "INSERT INTO sessions (hash, account_id, csrf, created_at, "
	    "seen_at) VALUES (?1, ?2, ?3, ?4, ?4)",
	[ST_SESSION_GET] =
	    "SELECT s.id, s.account_id, s.csrf, s.created_at, s.seen_at, "
	    "s.hash FROM sessions s WHERE s.hash = ?",
	[ST_SESSION_TOUCH] =
	    "UPDATE sessions SET seen_at = ?1 WHERE id = ?2 AND "
	    "seen_at < ?1 - 60000",
	[ST_SESSION_DELETE] =
	    "DELETE FROM sessions WHERE id = ?",
	[ST_SESSION_DELETE_OTHERS] =
	    "DELETE FROM sessions WHERE account_id = ?1 AND id != ?2",
	[ST_SESSION_PURGE] =
	    "DELETE FROM sessions WHERE seen_at < ?1 OR created_at < ?2",
	[ST_LOGIN_FAIL_ADD] =
	    "INSERT INTO login_failures (scope, at) VALUES (?, ?)",
	[ST_LOGIN_FAIL_COUNT] =
	    "SELECT count(*), min(at) FROM login_failures WHERE scope = ? "
	    "AND at > ?",
	[ST_LOGIN_FAIL_CLEAR] =
	    "DELETE FROM login_failures WHERE scope = ?",
	[ST_LOGIN_FAIL_PURGE] =
	    "DELETE FROM login_failures WHERE at < ?",
	[ST_LOGIN_FAIL_NTH] =
	    "SELECT at FROM login_failures WHERE scope = ? "
	    "ORDER BY at DESC LIMIT 1 OFFSET ?",
	[ST_LINK_BY_ID] =
	    "SELECT " LINK_COLS " FROM links WHERE id = ?",
	/* The cap is exact: the count only moves while under it. */
	[ST_CLICK_COUNT] =
	    "UPDATE links SET clicks = clicks + 1 WHERE id = ? AND "
	    "(max_clicks = 0 OR clicks < max_clicks)",
	[ST_CLICK_INSERT] =
	    "INSERT INTO clicks (link_id, at, suffix, country, device, os, "
	    "browser, referrer, referrer_host, variant, visitor, bot) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_CLICK_ADD] =
	    "UPDATE links SET clicks = clicks + ?2 WHERE id = ?1",
	[ST_JOURNAL_GET] =
	    "SELECT pos FROM click_journals WHERE name = ?",
	[ST_JOURNAL_SET] =
	    "INSERT INTO click_journals (name, pos) VALUES (?1, ?2) "
	    "ON CONFLICT (name) DO UPDATE SET pos = ?2",
	[ST_JOURNAL_DEL] =
	    "DELETE FROM click_journals WHERE name = ?",
	[ST_JOURNAL_LIST] =
	    "SELECT name FROM click_journals ORDER BY name",
	/* Takes one try unless max (?5) were taken in the window (?4 ms)
	 * that started at window_start; a window that ended starts anew. */
	[ST_PWTRY_TAKE] =
	    "INSERT INTO password_tries (link_id, net, window_start, tries) "
	    "VALUES (?1, ?2, ?3, 1) ON CONFLICT (link_id, net) DO UPDATE SET "
	    "tries = CASE WHEN window_start <= ?3 - ?4 THEN 1 "
	    "ELSE tries + 1 END, "
	    "window_start = CASE WHEN window_start <= ?3 - ?4 THEN ?3 "
	    "ELSE window_start END "
	    "WHERE window_start <= ?3 - ?4 OR tries < ?5 RETURNING tries",
	[ST_PWTRY_GET] =
	    "SELECT window_start FROM password_tries WHERE link_id = ? AND "
	    "net = ?",
	[ST_PWTRY_GIVE_BACK] =
	    "UPDATE password_tries SET tries = tries - 1 WHERE link_id = ? "
	    "AND net = ? AND tries > 0",
	[ST_PWTRY_PURGE] =
	    "DELETE FROM password_tries WHERE window_start <= ?",
	/*
	 * The per-link ceiling (0007-hardening.sql): takes one try at link
	 * ?1 at ?2 unless ?4 were taken in its window.  A window that ended
	 * starts anew at ?2, twice as long (up to ?5 ms) when it was full
	 * and ended less than its length ago, else ?3 ms long.  SET reads
	 * the old row throughout.
	 */
	[ST_PWTRY_LINK_TAKE] =
	    "INSERT INTO password_link_tries (link_id, window_start, "
	    "window_ms, tries) VALUES (?1, ?2, ?3, 1) "
	    "ON CONFLICT (link_id) DO UPDATE SET "
	    "window_ms = CASE WHEN window_start + window_ms > ?2 THEN "
	    "window_ms WHEN tries >= ?4 AND window_start + 2 * window_ms > ?2 "
	    "THEN min(2 * window_ms, ?5) ELSE ?3 END, "
	    "tries = CASE WHEN window_start + window_ms > ?2 THEN tries + 1 "
	    "ELSE 1 END, "
	    "window_start = CASE WHEN window_start + window_ms > ?2 THEN "
	    "window_start ELSE ?2 END "
	    "WHERE window_start + window_ms <= ?2 OR tries < ?4 "
	    "RETURNING tries",
	[ST_PWTRY_LINK_GET] =
	    "SELECT window_start + window_ms FROM password_link_tries "
	    "WHERE link_id = ?",
	[ST_PWTRY_LINK_GIVE_BACK] =
	    "UPDATE password_link_tries SET tries = tries - 1 WHERE "
	    "link_id = ? AND tries > 0",
	[ST_PWTRY_LINK_PURGE] =
	    "DELETE FROM password_link_tries WHERE "
	    "window_start + 2 * window_ms <= ?",
	[ST_STATS_TOTALS] =
	    "SELECT count(*) FILTER (WHERE bot = 0), "
	    "count(*) FILTER (WHERE bot != 0) FROM clicks WHERE link_id = ?1 "
	    "AND at >= ?2 AND at < ?3",
	[ST_STATS_SERIES] =
	    "SELECT at / ?4 AS b, count(*) FROM clicks WHERE link_id = ?1 AND "
	    "at >= ?2 AND at < ?3 AND bot = 0 GROUP BY b ORDER BY b",
	[ST_STATS_BY_COUNTRY] =		STATS_BY("country"),
	[ST_STATS_BY_DEVICE] =		STATS_BY("device"),
	[ST_STATS_BY_OS] =		STATS_BY("os"),
	[ST_STATS_BY_BROWSER] =		STATS_BY("browser"),
	[ST_STATS_BY_REFERRER_HOST] =	STATS_BY("referrer_host"),
	[ST_STATS_BY_SUFFIX] =		STATS_BY("suffix"),
	[ST_STATS_BY_VARIANT] =		STATS_BY("variant"),

	/* ---- conversions (0005-conversions.sql) ---- */
	[ST_CONV_SEEN] =
	    "SELECT 1 FROM conversions WHERE link_id = ?1 AND "
	    "visitor IN (?2, ?3) AND at > ?4 LIMIT 1",
	[ST_CONV_INSERT] =
	    "INSERT INTO conversions (link_id, at, visitor, suffix, currency, "
	    "value, variant, click_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_CONV_COUNT] =
	    "UPDATE links SET conversions = conversions + 1 WHERE id = ?",
	/* A total that would overflow stays as it is (and nothing is
	 * stored): SQLite would turn it into an inexact float. */
	[ST_CONV_REVENUE] =
	    "INSERT INTO link_revenue (link_id, currency, micros) "
	    "VALUES (?1, ?2, ?3) ON CONFLICT (link_id, currency) DO UPDATE "
	    "SET micros = micros + ?3 WHERE micros <= "
	    "9223372036854775807 - ?3",
	[ST_CLICK_NTH] =
	    "SELECT at FROM clicks WHERE link_id = ?1 AND at >= ?2 AND "
	    "at <= ?3 ORDER BY at DESC LIMIT 1 OFFSET ?4",
	[ST_CLICK_LAST] =
	    "SELECT variant, suffix, at FROM clicks WHERE link_id = ?1 AND "
	    "at >= ?2 AND at <= ?3 AND visitor = ?4 AND bot = 0 "
	    "ORDER BY at DESC LIMIT 1",
	[ST_CONV_TOTALS] =
	    "SELECT currency, count(*), sum(value) FROM conversions WHERE "
	    "link_id = ?1 AND at >= ?2 AND at < ?3 GROUP BY currency "
	    "ORDER BY currency",
	[ST_CONV_SERIES] =
	    "SELECT at / ?4 AS b, currency, count(*), sum(value) FROM "
	    "conversions WHERE link_id = ?1 AND at >= ?2 AND at < ?3 "
	    "GROUP BY b, currency ORDER BY b, currency",
	[ST_CONV_BY_SUFFIX] =		CONV_BY("suffix"),
	[ST_CONV_BY_CURRENCY] =		CONV_BY("currency"),
	[ST_CONV_BY_VARIANT] =		CONV_BY("variant"),
};

int
store_open(struct lz_db *db, const char *path, char *err, size_t errlen)
{
	if (lz_db_open(db, path, 0, err, errlen) == -1)
		return -1;
	if (lz_db_check_version(db, lz_links_migrations, lz_links_nmigrations,
	    err, errlen) == -1 ||
	    lz_db_prepare(db, sql, ST__MAX, err, errlen) == -1) {
		lz_db_close(db);
		return -1;
	}
	return 0;
}

static void
logerr(struct lz_db *db, const char *what)
{
	lz_log(LZ_LOG_ERR, "sqlite: %s: %s", what, sqlite3_errmsg(db->h));
}

static void
copy_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	snprintf(dst, len, "%s", lz_db_text(st, col));
}

static int64_t
col_int_or0(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? 0 :
	    sqlite3_column_int64(st, col);
}

/* ---- accounts -------------------------------------------------------- */

static void
row_account(sqlite3_stmt *st, struct account *a)
{
	memset(a, 0, sizeof(*a));
	a->id = sqlite3_column_int64(st, 0);
	copy_text(a->email, sizeof(a->email), st, 1);
	copy_text(a->plan, sizeof(a->plan), st, 2);
	a->disabled = sqlite3_column_int(st, 3);
	a->has_password = sqlite3_column_int(st, 4);
	a->created_at = sqlite3_column_int64(st, 5);
}

int64_t
store_account_add(struct lz_db *db, const char *email, const char *plan,
    const char *password_hash, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ACCOUNT_ADD);

	lz_db_bind_text(st, 1, email);
	lz_db_bind_text(st, 2, plan);
	lz_db_bind_text(st, 3, password_hash);
	sqlite3_bind_int64(st, 4, now);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "account add");
		return -1;
	}
	if (sqlite3_changes(db->h) == 0)
		return 0;
	return sqlite3_last_insert_rowid(db->h);
}

int
store_account_get(struct lz_db *db, int64_t id, const char *email,
    struct account *a)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (email != NULL) {
		st = lz_db_stmt(db, ST_ACCOUNT_BY_EMAIL);
		lz_db_bind_text(st, 1, email);
	} else {
		st = lz_db_stmt(db, ST_ACCOUNT_BY_ID);
		sqlite3_bind_int64(st, 1, id);
	}
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_account(st, a);
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "account get");
	return -1;
}

long
store_account_list(struct lz_db *db,
    void (*fn)(const struct account *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ACCOUNT_LIST);
	struct account	 a;
	long		 n = 0;
	int		 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_account(st, &a);
		fn(&a, arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "account list");
		return -1;
	}
	return n;
}

static int
changes_of(struct lz_db *db, sqlite3_stmt *st, const char *what)
{
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, what);
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_changes(db->h) > 0 ? 1 : 0;
}

/*
 * Steps st, which answers at most one row, and resets it; with a row, *v
 * gets its first column.  1 a row, 0 none, -1 on error (logged).
 */
static int
row_int64(struct lz_db *db, sqlite3_stmt *st, int64_t *v, const char *what)
{
	int	 rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		logerr(db, what);
		return -1;
	}
	return rc == SQLITE_ROW;
}

int
store_account_set_plan(struct lz_db *db, int64_t id, const char *plan)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ACCOUNT_SET_PLAN);

	lz_db_bind_text(st, 1, plan);
	sqlite3_bind_int64(st, 2, id);
	return changes_of(db, st, "account plan");
}

int
store_account_set_disabled(struct lz_db *db, int64_t id, int disabled)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ACCOUNT_SET_DISABLED);

	sqlite3_bind_int(st, 1, disabled);
	sqlite3_bind_int64(st, 2, id);
	return changes_of(db, st, "account disable");
}

/* ---- API keys -------------------------------------------------------- */

static void
row_key(sqlite3_stmt *st, struct apikey *k)
{
	memset(k, 0, sizeof(*k));
	k->id = sqlite3_column_int64(st, 0);
	k->account_id = sqlite3_column_int64(st, 1);
	copy_text(k->prefix, sizeof(k->prefix), st, 2);
	copy_text(k->last4, sizeof(k->last4), st, 3);
	copy_text(k->name, sizeof(k->name), st, 4);
	k->created_at = sqlite3_column_int64(st, 5);
	k->last_used_at = col_int_or0(st, 6);
	k->revoked_at = col_int_or0(st, 7);
}

int64_t
store_key_add(struct lz_db *db, int64_t account_id, const unsigned char *hash,
    const char *prefix, const char *last4, const char *name, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_KEY_ADD);

	sqlite3_bind_int64(st, 1, account_id);
	sqlite3_bind_blob(st, 2, hash, 32, SQLITE_TRANSIENT);
	lz_db_bind_text(st, 3, prefix);
	lz_db_bind_text(st, 4, last4);
	lz_db_bind_text(st, 5, name ? name : "");
	sqlite3_bind_int64(st, 6, now);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "key add");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_last_insert_rowid(db->h);
}

int
store_key_auth(struct lz_db *db, const unsigned char *hash, struct apikey *k)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_KEY_AUTH);
	int		 rc, found = 0;

	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_key(st, k);
		copy_text(k->plan, sizeof(k->plan), st, 8);
		k->account_disabled = sqlite3_column_int(st, 9);
		/* The index found it; compare in constant time anyway. */
		found = sqlite3_column_bytes(st, 10) == 32 &&
		    sodium_memcmp(sqlite3_column_blob(st, 10), hash, 32) == 0;
	} else if (rc != SQLITE_DONE) {
		logerr(db, "key auth");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return found;
}

long
store_key_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const struct apikey *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_KEY_LIST);
	struct apikey	 k;
	long		 n = 0;
	int		 rc;

	sqlite3_bind_int64(st, 1, account_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_key(st, &k);
		fn(&k, arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "key list");
		return -1;
	}
	return n;
}

int
store_key_revoke(struct lz_db *db, int64_t id, int64_t account_id,
    int64_t now)
{
	sqlite3_stmt	*st;

	if (account_id != 0) {
		st = lz_db_stmt(db, ST_KEY_REVOKE);
		sqlite3_bind_int64(st, 3, account_id);
	} else
		st = lz_db_stmt(db, ST_KEY_REVOKE_ANY);
	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, id);
	return changes_of(db, st, "key revoke");
}

int
store_key_touch(struct lz_db *db, int64_t id, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_KEY_TOUCH);

	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, id);
	return changes_of(db, st, "key touch") < 0 ? -1 : 0;
}

/* ---- usage ----------------------------------------------------------- */

int
store_usage_take(struct lz_db *db, int64_t account_id, const char *month,
    long long quota, long long *calls)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_USAGE_TAKE);
	int		 rc;

	if (quota <= 0) {
		*calls = store_usage_get(db, account_id, month);
		return *calls < 0 ? -1 : 0;
	}
	sqlite3_bind_int64(st, 1, account_id);
	lz_db_bind_text(st, 2, month);
	sqlite3_bind_int64(st, 3, quota);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*calls = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "usage take");
		return -1;
	}
	*calls = quota;		/* the upsert's WHERE refused: used up */
	return 0;
}

long long
store_usage_get(struct lz_db *db, int64_t account_id, const char *month)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_USAGE_GET);
	long long	 n = 0;
	int		 rc;

	sqlite3_bind_int64(st, 1, account_id);
	lz_db_bind_text(st, 2, month);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE) {
		logerr(db, "usage get");
		n = -1;
	}
	sqlite3_reset(st);
	return n;
}

/* ---- links ----------------------------------------------------------- */

static json_t *
col_json(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NULL;
	return json_loads(lz_db_text(st, col), 0, NULL);
}

static char *
col_strdup(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NULL;
	return xstrdup(lz_db_text(st, col));
}

static void
row_link(sqlite3_stmt *st, struct link *l)
{
	const char	*mode;
	size_t		 i;

	memset(l, 0, sizeof(*l));
	l->id = sqlite3_column_int64(st, 0);
	l->account_id = sqlite3_column_int64(st, 1);
	l->slug = col_strdup(st, 2);
	l->target_url = col_strdup(st, 3);
	l->title = col_strdup(st, 4);
	mode = lz_db_text(st, 5);
	for (i = 0; link_mode_names[i]; i++)
		if (strcmp(mode, link_mode_names[i]) == 0)
			l->mode = (enum link_mode)i;
	l->variants = col_json(st, 6);
	l->redirect_type = sqlite3_column_int(st, 7);
	l->og = col_json(st, 8);
	for (i = 0; i < PIXEL__MAX; i++)
		l->pixel[i] = col_strdup(st, 9 + (int)i);
	l->escape_inapp = sqlite3_column_int(st, 14);
	l->expires_at = col_int_or0(st, 15);
	l->max_clicks = sqlite3_column_int64(st, 16);
	l->utm = col_json(st, 17);
	l->password_hash = col_strdup(st, 18);
	l->clicks = sqlite3_column_int64(st, 19);
	l->created_at = sqlite3_column_int64(st, 20);
	l->deleted_at = col_int_or0(st, 21);
	l->flagged_at = col_int_or0(st, 22);
	l->flag_reason = col_strdup(st, 23);
	l->conversions = sqlite3_column_int64(st, 24);
	l->revenue = col_json(st, 25);
}

long long
store_link_count(struct lz_db *db, int64_t account_id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_COUNT);
	long long	 n = -1;

	sqlite3_bind_int64(st, 1, account_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		logerr(db, "link count");
	sqlite3_reset(st);
	return n;
}

static void
bind_json(sqlite3_stmt *st, int idx, const json_t *j)
{
	char	*s;

	if (j == NULL) {
		sqlite3_bind_null(st, idx);
		return;
	}
	s = json_dumps(j, JSON_COMPACT);
	sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
	free(s);
}

int
store_link_insert(struct lz_db *db, struct link *l)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_INSERT);
	size_t		 i;

	sqlite3_bind_int64(st, 1, l->account_id);
	lz_db_bind_text(st, 2, l->slug);
	lz_db_bind_text(st, 3, l->target_url);
	lz_db_bind_text(st, 4, l->title);
	lz_db_bind_text(st, 5, link_mode_names[l->mode]);
	bind_json(st, 6, l->variants);
	sqlite3_bind_int(st, 7, l->redirect_type);
	bind_json(st, 8, l->og);
	for (i = 0; i < PIXEL__MAX; i++)
		lz_db_bind_text(st, 9 + (int)i, l->pixel[i]);
	sqlite3_bind_int(st, 14, l->escape_inapp);
	if (l->expires_at)
		sqlite3_bind_int64(st, 15, l->expires_at);
	sqlite3_bind_int64(st, 16, l->max_clicks);
	bind_json(st, 17, l->utm);
	lz_db_bind_text(st, 18, l->password_hash);
	sqlite3_bind_int64(st, 19, l->created_at);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "link insert");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	if (sqlite3_changes(db->h) == 0)
		return 1;
	l->id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

static int
one_link(struct lz_db *db, sqlite3_stmt *st, struct link *l, const char *what)
{
	int	 rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		row_link(st, l);
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, what);
	return -1;
}

int
store_link_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct link *l)
{
	sqlite3_stmt	*st;

	if (account_id != 0) {
		st = lz_db_stmt(db, ST_LINK_GET);
		sqlite3_bind_int64(st, 2, account_id);
	} else
		st = lz_db_stmt(db, ST_LINK_GET_ANY);
	sqlite3_bind_int64(st, 1, id);
	return one_link(db, st, l, "link get");
}

int
store_link_by_slug(struct lz_db *db, const char *slug, struct link *l)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_BY_SLUG);

	lz_db_bind_text(st, 1, slug);
	return one_link(db, st, l, "link by slug");
}

int
store_slug_taken(struct lz_db *db, const char *slug)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SLUG_TAKEN);
	int		 rc;

	lz_db_bind_text(st, 1, slug);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "slug taken");
	return -1;
}

long
store_link_list(struct lz_db *db, int64_t account_id, int64_t before,
    long limit, void (*fn)(struct link *, void *), void *arg)
{
	sqlite3_stmt	*st;
	struct link	 l;
	long		 n = 0;
	int		 rc;

	st = lz_db_stmt(db, account_id ? ST_LINK_LIST : ST_LINK_LIST_ALL);
	if (account_id)
		sqlite3_bind_int64(st, 1, account_id);
	sqlite3_bind_int64(st, 2, before);
	sqlite3_bind_int64(st, 3, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_link(st, &l);
		fn(&l, arg);
		link_free(&l);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "link list");
		return -1;
	}
	return n;
}

int
store_link_delete(struct lz_db *db, int64_t id, int64_t account_id,
    int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_DELETE);

	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, id);
	sqlite3_bind_int64(st, 3, account_id);
	return changes_of(db, st, "link delete");
}

/* ---- webhooks -------------------------------------------------------- */

static void
row_webhook(sqlite3_stmt *st, struct webhook *w)
{
	memset(w, 0, sizeof(*w));
	w->id = sqlite3_column_int64(st, 0);
	w->account_id = sqlite3_column_int64(st, 1);
	copy_text(w->url, sizeof(w->url), st, 2);
	w->events = (unsigned)sqlite3_column_int(st, 3);
	if (sqlite3_column_bytes(st, 4) == WEBHOOK_BOX_LEN)
		memcpy(w->box, sqlite3_column_blob(st, 4), WEBHOOK_BOX_LEN);
	w->created_at = sqlite3_column_int64(st, 5);
	w->rotated_at = col_int_or0(st, 6);
	w->disabled_at = col_int_or0(st, 7);
	copy_text(w->disabled_reason, sizeof(w->disabled_reason), st, 8);
}

int64_t
store_webhook_add(struct lz_db *db, int64_t account_id, const char *url,
    unsigned events, const unsigned char *box, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_ADD);

	sqlite3_bind_int64(st, 1, account_id);
	lz_db_bind_text(st, 2, url);
	sqlite3_bind_int(st, 3, (int)events);
	sqlite3_bind_blob(st, 4, box, WEBHOOK_BOX_LEN, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, now);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "webhook add");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_last_insert_rowid(db->h);
}

int
store_webhook_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct webhook *w)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_GET);
	int		 rc;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, account_id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		row_webhook(st, w);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "webhook get");
	return -1;
}

long
store_webhook_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const struct webhook *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_LIST);
	struct webhook	 w;
	long		 n = 0;
	int		 rc;

	sqlite3_bind_int64(st, 1, account_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_webhook(st, &w);
		w.pending = sqlite3_column_int64(st, 9);
		fn(&w, arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "webhook list");
		return -1;
	}
	return n;
}

long long
store_webhook_count(struct lz_db *db, int64_t account_id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_COUNT);
	long long	 n = -1;

	sqlite3_bind_int64(st, 1, account_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		logerr(db, "webhook count");
	sqlite3_reset(st);
	return n;
}

int
store_webhook_set_secret(struct lz_db *db, int64_t id, int64_t account_id,
    const unsigned char *box, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_SET_SECRET);

	sqlite3_bind_blob(st, 1, box, WEBHOOK_BOX_LEN, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, id);
	sqlite3_bind_int64(st, 4, account_id);
	return changes_of(db, st, "webhook rotate");
}

int
store_webhook_disable(struct lz_db *db, int64_t id, int64_t account_id,
    const char *reason, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_DISABLE);

	sqlite3_bind_int64(st, 1, now);
	lz_db_bind_text(st, 2, reason);
	sqlite3_bind_int64(st, 3, id);
	sqlite3_bind_int64(st, 4, account_id);
	return changes_of(db, st, "webhook disable");
}

int
store_webhook_targets(struct lz_db *db, int64_t account_id, unsigned bit,
    int64_t *ids, int max)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_WEBHOOK_TARGETS);
	int		 rc, n = 0;

	sqlite3_bind_int64(st, 1, account_id);
	sqlite3_bind_int(st, 2, (int)bit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		logerr(db, "webhook targets");
		return -1;
	}
	return n;
}

/* ---- the outbox ------------------------------------------------------ */

static void
row_delivery(sqlite3_stmt *st, struct webhook_delivery *d)
{
	memset(d, 0, sizeof(*d));
	d->id = sqlite3_column_int64(st, 0);
	copy_text(d->uuid, sizeof(d->uuid), st, 1);
	d->webhook_id = sqlite3_column_int64(st, 2);
	copy_text(d->event, sizeof(d->event), st, 3);
	d->bodylen = (size_t)sqlite3_column_bytes(st, 4);
	d->body = xstrndup(lz_db_text(st, 4), d->bodylen);
	copy_text(d->state, sizeof(d->state), st, 5);
	d->attempts = sqlite3_column_int(st, 6);
	d->created_at = sqlite3_column_int64(st, 7);
	d->next_at = col_int_or0(st, 8);
	d->finished_at = col_int_or0(st, 9);
	d->last_status = (int)col_int_or0(st, 10);
	copy_text(d->last_error, sizeof(d->last_error), st, 11);
}

int
store_delivery_add(struct lz_db *db, int64_t webhook_id, const char *uuid,
    const char *event, const char *body, size_t len, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_ADD);

	lz_db_bind_text(st, 1, uuid);
	sqlite3_bind_int64(st, 2, webhook_id);
	lz_db_bind_text(st, 3, event);
	sqlite3_bind_text(st, 4, body, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, now);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "delivery add");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return 0;
}

int
store_delivery_cancel(struct lz_db *db, int64_t webhook_id, const char *why,
    int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_CANCEL);

	sqlite3_bind_int64(st, 1, now);
	lz_db_bind_text(st, 2, why);
	sqlite3_bind_int64(st, 3, webhook_id);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "delivery cancel");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_changes(db->h);
}

long
store_delivery_due(struct lz_db *db, int64_t now, int per_hook, long limit,
    void (*fn)(int64_t, int64_t, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_DUE);
	long		 n = 0;
	int		 rc;

	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int(st, 2, per_hook);
	sqlite3_bind_int64(st, 3, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fn(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		    arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "delivery due");
		return -1;
	}
	return n;
}

int
store_delivery_lease(struct lz_db *db, int64_t id, const char *lease,
    int64_t until, int64_t now, struct webhook_delivery *d)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_LEASE);
	int		 rc;

	sqlite3_bind_int64(st, 1, until);
	lz_db_bind_text(st, 2, lease);
	sqlite3_bind_int64(st, 3, id);
	sqlite3_bind_int64(st, 4, now);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_delivery(st, d);
		rc = sqlite3_step(st);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "delivery lease");
		return -1;
	}
	return sqlite3_changes(db->h) > 0 ? 1 : 0;
}

int
store_attempt_add(struct lz_db *db, int64_t delivery_id,
    const struct webhook_attempt *a)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ATTEMPT_ADD);

	sqlite3_bind_int64(st, 1, delivery_id);
	sqlite3_bind_int64(st, 2, a->at);
	if (a->status > 0)
		sqlite3_bind_int(st, 3, a->status);
	lz_db_bind_text(st, 4, a->error[0] ? a->error : NULL);
	sqlite3_bind_int64(st, 5, a->duration_ms);
	return changes_of(db, st, "attempt add") < 0 ? -1 : 0;
}

int
store_delivery_delivered(struct lz_db *db, int64_t id, int status,
    int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_DELIVERED);

	sqlite3_bind_int(st, 1, status);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, id);
	return changes_of(db, st, "delivery delivered");
}

int
store_delivery_failed(struct lz_db *db, int64_t id, const char *lease,
    int status, const char *error, int64_t next_at, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_FAILED);

	if (status > 0)
		sqlite3_bind_int(st, 1, status);
	lz_db_bind_text(st, 2, error);
	if (next_at > 0)
		sqlite3_bind_int64(st, 3, next_at);
	sqlite3_bind_int64(st, 4, now);
	sqlite3_bind_int64(st, 5, id);
	lz_db_bind_text(st, 6, lease);
	return changes_of(db, st, "delivery failed");
}

long
store_delivery_list(struct lz_db *db, int64_t webhook_id, int64_t before,
    long limit, void (*fn)(const struct webhook_delivery *, void *),
    void *arg)
{
	sqlite3_stmt		*st = lz_db_stmt(db, ST_DELIVERY_LIST);
	struct webhook_delivery	 d;
	long			 n = 0;
	int			 rc;

	sqlite3_bind_int64(st, 1, webhook_id);
	sqlite3_bind_int64(st, 2, before);
	sqlite3_bind_int64(st, 3, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_delivery(st, &d);
		fn(&d, arg);
		webhook_delivery_free(&d);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "delivery list");
		return -1;
	}
	return n;
}

int
store_delivery_by_uuid(struct lz_db *db, const char *uuid,
    struct webhook_delivery *d)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_BY_UUID);
	int		 rc;

	lz_db_bind_text(st, 1, uuid);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		row_delivery(st, d);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "delivery by uuid");
	return -1;
}

long
store_attempt_list(struct lz_db *db, int64_t delivery_id,
    void (*fn)(const struct webhook_attempt *, void *), void *arg)
{
	sqlite3_stmt		*st = lz_db_stmt(db, ST_ATTEMPT_LIST);
	struct webhook_attempt	 a;
	long			 n = 0;
	int			 rc;

	sqlite3_bind_int64(st, 1, delivery_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&a, 0, sizeof(a));
		a.at = sqlite3_column_int64(st, 0);
		a.status = (int)col_int_or0(st, 1);
		copy_text(a.error, sizeof(a.error), st, 2);
		a.duration_ms = sqlite3_column_int64(st, 3);
		fn(&a, arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "attempt list");
		return -1;
	}
	return n;
}

long
store_delivery_purge(struct lz_db *db, int64_t before, long limit)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_DELIVERY_PURGE);

	sqlite3_bind_int64(st, 1, before);
	sqlite3_bind_int64(st, 2, limit);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "delivery purge");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_changes(db->h);
}

/* ---- safety scan: blocklists and flagged links ------------------------ */

int
store_bl_find(struct lz_db *db, const char *kind, const char *value,
    char *source, size_t srclen, char *reason, size_t reasonlen)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_BL_FIND);
	int		 rc;

	/* Called ~35 times per destination: no copies of the strings, which
	 * outlive the step (the statement is reset before returning). */
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		copy_text(source, srclen, st, 0);
		copy_text(reason, reasonlen, st, 1);
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "blocklist find");
	return -1;
}

int
store_bl_upsert(struct lz_db *db, const char *kind, const char *value,
    const char *source, const char *reason, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_BL_UPSERT);

	lz_db_bind_text(st, 1, kind);
	lz_db_bind_text(st, 2, value);
	lz_db_bind_text(st, 3, source);
	lz_db_bind_text(st, 4, reason ? reason : "");
	sqlite3_bind_int64(st, 5, now);
	return changes_of(db, st, "blocklist upsert") < 0 ? -1 : 0;
}

long
store_bl_prune(struct lz_db *db, const char *source, int64_t before)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_BL_PRUNE);

	lz_db_bind_text(st, 1, source);
	sqlite3_bind_int64(st, 2, before);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "blocklist prune");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_changes(db->h);
}

long
store_bl_remove(struct lz_db *db, const char *kind, const char *value,
    const char *source)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_BL_REMOVE);

	lz_db_bind_text(st, 1, kind);
	lz_db_bind_text(st, 2, value);
	lz_db_bind_text(st, 3, source);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "blocklist remove");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_changes(db->h);
}

long
store_bl_list(struct lz_db *db, const char *source, long limit,
    void (*fn)(const struct bl_row *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_BL_LIST);
	struct bl_row	 r;
	long		 n = 0;
	int		 rc;

	lz_db_bind_text(st, 1, source);
	sqlite3_bind_int64(st, 2, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.kind = lz_db_text(st, 0);
		r.value = lz_db_text(st, 1);
		r.source = lz_db_text(st, 2);
		r.reason = lz_db_text(st, 3);
		r.added_at = sqlite3_column_int64(st, 4);
		fn(&r, arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "blocklist list");
		return -1;
	}
	return n;
}

long
store_bl_count(struct lz_db *db, void (*fn)(const char *source,
    long long entries, int64_t seen_at, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_BL_COUNT);
	long		 n = 0;
	int		 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fn(lz_db_text(st, 0), sqlite3_column_int64(st, 1),
		    sqlite3_column_int64(st, 2), arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "blocklist count");
		return -1;
	}
	return n;
}

static long
link_rows(struct lz_db *db, sqlite3_stmt *st, void (*fn)(struct link *,
    void *), void *arg, const char *what)
{
	struct link	 l;
	long		 n = 0;
	int		 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_link(st, &l);
		fn(&l, arg);
		link_free(&l);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, what);
		return -1;
	}
	return n;
}

long
store_link_scan(struct lz_db *db, int64_t after, long limit,
    void (*fn)(struct link *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_SCAN);

	sqlite3_bind_int64(st, 1, after);
	sqlite3_bind_int64(st, 2, limit);
	return link_rows(db, st, fn, arg, "link scan");
}

int
store_link_flag(struct lz_db *db, int64_t id, int64_t now,
    const char *reason)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_FLAG);

	sqlite3_bind_int64(st, 1, now);
	lz_db_bind_text(st, 2, reason);
	sqlite3_bind_int64(st, 3, id);
	return changes_of(db, st, "link flag");
}

int
store_link_unflag(struct lz_db *db, int64_t id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_UNFLAG);

	sqlite3_bind_int64(st, 1, id);
	return changes_of(db, st, "link unflag");
}

long
store_link_flagged(struct lz_db *db, long limit,
    void (*fn)(struct link *, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_FLAGGED);

	sqlite3_bind_int64(st, 1, limit);
	return link_rows(db, st, fn, arg, "flagged links");
}

/* ---- dashboard: passwords, sessions, sign-in failures ---------------- */

int
store_account_pwhash(struct lz_db *db, int64_t id, const char *email,
    int64_t *idp, char *hash, size_t hashlen, int *disabled)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ACCOUNT_PWHASH);
	int		 rc;

	lz_db_bind_text(st, 1, email);
	sqlite3_bind_int64(st, 2, id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*idp = sqlite3_column_int64(st, 0);
		copy_text(hash, hashlen, st, 1);
		*disabled = sqlite3_column_int(st, 2);
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "account password");
	return -1;
}

int
store_account_set_password(struct lz_db *db, int64_t id, const char *hash)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_ACCOUNT_SET_PASSWORD);

	lz_db_bind_text(st, 1, hash);
	sqlite3_bind_int64(st, 2, id);
	return changes_of(db, st, "account set password");
}

int64_t
store_session_add(struct lz_db *db, const unsigned char *hash,
    int64_t account_id, const char *csrf, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SESSION_ADD);

	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 2, account_id);
	lz_db_bind_text(st, 3, csrf);
	sqlite3_bind_int64(st, 4, now);
	if (sqlite3_step(st) != SQLITE_DONE) {
		logerr(db, "session add");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return sqlite3_last_insert_rowid(db->h);
}

int
store_session_get(struct lz_db *db, const unsigned char *hash,
    struct session *s)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SESSION_GET);
	int		 rc, found = 0;

	sqlite3_bind_blob(st, 1, hash, 32, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(s, 0, sizeof(*s));
		s->id = sqlite3_column_int64(st, 0);
		s->account_id = sqlite3_column_int64(st, 1);
		copy_text(s->csrf, sizeof(s->csrf), st, 2);
		s->created_at = sqlite3_column_int64(st, 3);
		s->seen_at = sqlite3_column_int64(st, 4);
		found = sqlite3_column_bytes(st, 5) == 32 &&
		    sodium_memcmp(sqlite3_column_blob(st, 5), hash, 32) == 0;
	} else if (rc != SQLITE_DONE) {
		logerr(db, "session get");
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return found;
}

int
store_session_touch(struct lz_db *db, int64_t id, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SESSION_TOUCH);

	sqlite3_bind_int64(st, 1, now);
	sqlite3_bind_int64(st, 2, id);
	return changes_of(db, st, "session touch") < 0 ? -1 : 0;
}

int
store_session_delete(struct lz_db *db, int64_t id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SESSION_DELETE);

	sqlite3_bind_int64(st, 1, id);
	return changes_of(db, st, "session delete");
}

int
store_session_delete_others(struct lz_db *db, int64_t account_id,
    int64_t keep_id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SESSION_DELETE_OTHERS);

	sqlite3_bind_int64(st, 1, account_id);
	sqlite3_bind_int64(st, 2, keep_id);
	return changes_of(db, st, "session delete others") < 0 ? -1 : 0;
}

int
store_session_purge(struct lz_db *db, int64_t idle_before,
    int64_t created_before)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_SESSION_PURGE);

	sqlite3_bind_int64(st, 1, idle_before);
	sqlite3_bind_int64(st, 2, created_before);
	return changes_of(db, st, "session purge") < 0 ? -1 : 0;
}

int
store_login_fail_add(struct lz_db *db, const char *scope, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LOGIN_FAIL_ADD);

	lz_db_bind_text(st, 1, scope);
	sqlite3_bind_int64(st, 2, now);
	return changes_of(db, st, "login failure add") < 0 ? -1 : 0;
}

long long
store_login_fail_count(struct lz_db *db, const char *scope, int64_t since,
    int64_t *oldest)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LOGIN_FAIL_COUNT);
	long long	 n = -1;

	lz_db_bind_text(st, 1, scope);
	sqlite3_bind_int64(st, 2, since);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_int64(st, 0);
		*oldest = col_int_or0(st, 1);
	} else
		logerr(db, "login failure count");
	sqlite3_reset(st);
	return n;
}

int
store_login_fail_clear(struct lz_db *db, const char *scope)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LOGIN_FAIL_CLEAR);

	lz_db_bind_text(st, 1, scope);
	return changes_of(db, st, "login failure clear") < 0 ? -1 : 0;
}

int
store_login_fail_purge(struct lz_db *db, int64_t before)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LOGIN_FAIL_PURGE);

	sqlite3_bind_int64(st, 1, before);
	return changes_of(db, st, "login failure purge") < 0 ? -1 : 0;
}

int
store_login_fail_nth(struct lz_db *db, const char *scope, long long n,
    int64_t *at)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LOGIN_FAIL_NTH);

	lz_db_bind_text(st, 1, scope);
	sqlite3_bind_int64(st, 2, n - 1);
	*at = 0;
	return row_int64(db, st, at, "login failure nth");
}

/* ---- redirects, clicks and statistics -------------------------------- */

int
store_link_by_id(struct lz_db *db, int64_t id, struct link *l)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_LINK_BY_ID);

	sqlite3_bind_int64(st, 1, id);
	return one_link(db, st, l, "link by id");
}

int
store_click_count(struct lz_db *db, int64_t link_id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CLICK_COUNT);

	sqlite3_bind_int64(st, 1, link_id);
	return changes_of(db, st, "click count");
}

int
store_click_add(struct lz_db *db, int64_t link_id, int64_t n)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CLICK_ADD);

	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_int64(st, 2, n);
	return changes_of(db, st, "click add") < 0 ? -1 : 0;
}

int
store_click_insert(struct lz_db *db, const struct click *c,
    const char *referrer_host)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CLICK_INSERT);

	sqlite3_bind_int64(st, 1, c->link_id);
	sqlite3_bind_int64(st, 2, c->at);
	lz_db_bind_text(st, 3, c->suffix ? c->suffix : "");
	lz_db_bind_text(st, 4, c->country);
	lz_db_bind_text(st, 5, c->device ? c->device : "");
	lz_db_bind_text(st, 6, c->os ? c->os : "");
	lz_db_bind_text(st, 7, c->browser ? c->browser : "");
	lz_db_bind_text(st, 8, c->referrer ? c->referrer : "");
	lz_db_bind_text(st, 9, referrer_host ? referrer_host : "");
	lz_db_bind_text(st, 10, c->variant ? c->variant : "");
	sqlite3_bind_blob(st, 11, c->visitor, VISITOR_ID_LEN, SQLITE_STATIC);
	sqlite3_bind_int(st, 12, c->bot != 0);
	return changes_of(db, st, "click insert") < 0 ? -1 : 0;
}

int64_t
store_journal_get(struct lz_db *db, const char *name)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_JOURNAL_GET);
	int64_t		 pos = 0;
	int		 rc;

	lz_db_bind_text(st, 1, name);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pos = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE) {
		logerr(db, "journal get");
		pos = -1;
	}
	sqlite3_reset(st);
	return pos;
}

int
store_journal_set(struct lz_db *db, const char *name, int64_t pos)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_JOURNAL_SET);

	lz_db_bind_text(st, 1, name);
	sqlite3_bind_int64(st, 2, pos);
	return changes_of(db, st, "journal set") < 0 ? -1 : 0;
}

int
store_journal_del(struct lz_db *db, const char *name)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_JOURNAL_DEL);

	lz_db_bind_text(st, 1, name);
	return changes_of(db, st, "journal del") < 0 ? -1 : 0;
}

long
store_journal_list(struct lz_db *db, void (*fn)(const char *, void *),
    void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_JOURNAL_LIST);
	long		 n = 0;
	int		 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fn(lz_db_text(st, 0), arg);
		n++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "journal list");
		return -1;
	}
	return n;
}

int
store_pwtry_take(struct lz_db *db, int64_t link_id, const unsigned char *net,
    size_t netlen, int64_t now, int64_t window, int max,
    int64_t *window_start)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_PWTRY_TAKE);
	int		 rc;

	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_blob(st, 2, net, (int)netlen, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now);
	sqlite3_bind_int64(st, 4, window);
	sqlite3_bind_int(st, 5, max);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE) {
		logerr(db, "password try");
		return -1;
	}
	/* Refused: when did the full window start? */
	st = lz_db_stmt(db, ST_PWTRY_GET);
	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_blob(st, 2, net, (int)netlen, SQLITE_STATIC);
	*window_start = now;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*window_start = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		logerr(db, "password try window");
		return -1;
	}
	return 0;
}

int
store_pwtry_give_back(struct lz_db *db, int64_t link_id,
    const unsigned char *net, size_t netlen)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_PWTRY_GIVE_BACK);

	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_blob(st, 2, net, (int)netlen, SQLITE_STATIC);
	return changes_of(db, st, "password try give back") < 0 ? -1 : 0;
}

int
store_pwtry_purge(struct lz_db *db, int64_t before)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_PWTRY_PURGE);

	sqlite3_bind_int64(st, 1, before);
	return changes_of(db, st, "password try purge") < 0 ? -1 : 0;
}

int
store_pwtry_link_take(struct lz_db *db, int64_t link_id, int64_t now,
    int64_t window, int max, int64_t longest, int64_t *until)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_PWTRY_LINK_TAKE);
	int64_t		 tries;
	int		 rc;

	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_int64(st, 3, window);
	sqlite3_bind_int(st, 4, max);
	sqlite3_bind_int64(st, 5, longest);
	if ((rc = row_int64(db, st, &tries, "link password try")) != 0)
		return rc;
	/* Refused: when does the full window end? */
	st = lz_db_stmt(db, ST_PWTRY_LINK_GET);
	sqlite3_bind_int64(st, 1, link_id);
	*until = now;
	return row_int64(db, st, until, "link password try window") == -1 ?
	    -1 : 0;
}

int
store_pwtry_link_give_back(struct lz_db *db, int64_t link_id)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_PWTRY_LINK_GIVE_BACK);

	sqlite3_bind_int64(st, 1, link_id);
	return changes_of(db, st, "link password try give back") < 0 ? -1 : 0;
}

int
store_pwtry_link_purge(struct lz_db *db, int64_t now)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_PWTRY_LINK_PURGE);

	sqlite3_bind_int64(st, 1, now);
	return changes_of(db, st, "link password try purge") < 0 ? -1 : 0;
}

static void
bind_range(sqlite3_stmt *st, int64_t link_id, int64_t from, int64_t to)
{
	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to);
}

int
store_stats_totals(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, int64_t *clicks, int64_t *bots)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_STATS_TOTALS);
	int		 rc;

	bind_range(st, link_id, from, to);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*clicks = sqlite3_column_int64(st, 0);
		*bots = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW) {
		logerr(db, "stats totals");
		return -1;
	}
	return 0;
}

int
store_stats_series(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, int64_t bucket_ms,
    void (*fn)(int64_t bucket, int64_t clicks, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_STATS_SERIES);
	int		 rc;

	bind_range(st, link_id, from, to);
	sqlite3_bind_int64(st, 4, bucket_ms);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		    arg);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "stats series");
		return -1;
	}
	return 0;
}

int
store_stats_breakdown(struct lz_db *db, enum stats_dim dim, int64_t link_id,
    int64_t from, int64_t to, long limit,
    void (*fn)(const char *key, int64_t clicks, void *), void *arg)
{
	static const enum stmt	 by[STATS_DIM__MAX] = {
		[STATS_COUNTRY] = ST_STATS_BY_COUNTRY,
		[STATS_DEVICE] = ST_STATS_BY_DEVICE,
		[STATS_OS] = ST_STATS_BY_OS,
		[STATS_BROWSER] = ST_STATS_BY_BROWSER,
		[STATS_REFERRER_HOST] = ST_STATS_BY_REFERRER_HOST,
		[STATS_SUFFIX] = ST_STATS_BY_SUFFIX,
		[STATS_VARIANT] = ST_STATS_BY_VARIANT,
	};
	sqlite3_stmt	*st;
	int		 rc;

	if ((unsigned)dim >= STATS_DIM__MAX)
		return -1;
	st = lz_db_stmt(db, by[dim]);
	bind_range(st, link_id, from, to);
	sqlite3_bind_int64(st, 4, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(lz_db_text(st, 0), sqlite3_column_int64(st, 1), arg);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "stats breakdown");
		return -1;
	}
	return 0;
}

/* ---- conversions ----------------------------------------------------- */

int
store_conv_seen(struct lz_db *db, int64_t link_id, const unsigned char *a,
    const unsigned char *b, int64_t since)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CONV_SEEN);
	int		 rc;

	sqlite3_bind_int64(st, 1, link_id);
	sqlite3_bind_blob(st, 2, a, VISITOR_ID_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, b, VISITOR_ID_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, since);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "conversion seen");
	return -1;
}

int
store_conv_insert(struct lz_db *db, const struct conversion *c)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CONV_INSERT);
	int		 rc;

	sqlite3_bind_int64(st, 1, c->link_id);
	sqlite3_bind_int64(st, 2, c->at);
	sqlite3_bind_blob(st, 3, c->visitor, VISITOR_ID_LEN, SQLITE_STATIC);
	lz_db_bind_text(st, 4, c->suffix ? c->suffix : "");
	lz_db_bind_text(st, 5, c->currency);
	if (c->has_value)
		sqlite3_bind_int64(st, 6, c->value);
	lz_db_bind_text(st, 7, c->variant);
	if (c->click_at != 0)
		sqlite3_bind_int64(st, 8, c->click_at);
	if (changes_of(db, st, "conversion insert") != 1)
		return -1;
	st = lz_db_stmt(db, ST_CONV_COUNT);
	sqlite3_bind_int64(st, 1, c->link_id);
	if (changes_of(db, st, "conversion count") != 1)
		return -1;
	if (!c->has_value)
		return 1;
	st = lz_db_stmt(db, ST_CONV_REVENUE);
	sqlite3_bind_int64(st, 1, c->link_id);
	lz_db_bind_text(st, 2, c->currency);
	sqlite3_bind_int64(st, 3, c->value);
	if ((rc = changes_of(db, st, "conversion revenue")) == -1)
		return -1;
	return rc;
}

int
store_click_nth(struct lz_db *db, int64_t link_id, int64_t since,
    int64_t until, long n, int64_t *at)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CLICK_NTH);
	int		 rc;

	if (n < 1)
		return 0;
	bind_range(st, link_id, since, until);
	sqlite3_bind_int64(st, 4, n - 1);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*at = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "click nth");
	return -1;
}

int
store_click_last(struct lz_db *db, int64_t link_id,
    const unsigned char *visitor, int64_t since, int64_t until,
    char *variant, size_t varlen, char *suffix, size_t suflen, int64_t *at)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CLICK_LAST);
	int		 rc;

	bind_range(st, link_id, since, until);
	sqlite3_bind_blob(st, 4, visitor, VISITOR_ID_LEN, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		copy_text(variant, varlen, st, 0);
		copy_text(suffix, suflen, st, 1);
		*at = sqlite3_column_int64(st, 2);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	logerr(db, "click last");
	return -1;
}

int
store_conv_totals(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, conv_row_fn *fn, void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CONV_TOTALS);
	int		 rc;

	bind_range(st, link_id, from, to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(lz_db_text(st, 0), sqlite3_column_int64(st, 1),
		    sqlite3_column_type(st, 2) != SQLITE_NULL,
		    sqlite3_column_int64(st, 2), arg);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "conversion totals");
		return -1;
	}
	return 0;
}

int
store_conv_series(struct lz_db *db, int64_t link_id, int64_t from,
    int64_t to, int64_t bucket_ms,
    void (*fn)(int64_t bucket, const char *currency, int64_t n, int has_rev,
    int64_t micros, void *), void *arg)
{
	sqlite3_stmt	*st = lz_db_stmt(db, ST_CONV_SERIES);
	int		 rc;

	bind_range(st, link_id, from, to);
	sqlite3_bind_int64(st, 4, bucket_ms);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(sqlite3_column_int64(st, 0), lz_db_text(st, 1),
		    sqlite3_column_int64(st, 2),
		    sqlite3_column_type(st, 3) != SQLITE_NULL,
		    sqlite3_column_int64(st, 3), arg);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "conversion series");
		return -1;
	}
	return 0;
}

int
store_conv_breakdown(struct lz_db *db, enum conv_dim dim, int64_t link_id,
    int64_t from, int64_t to, long limit,
    void (*fn)(const char *key, int64_t key_n, const char *currency,
    int64_t n, int has_rev, int64_t micros, void *), void *arg)
{
	static const enum stmt	 by[CONV_DIM__MAX] = {
		[CONV_BY_SUFFIX] = ST_CONV_BY_SUFFIX,
		[CONV_BY_CURRENCY] = ST_CONV_BY_CURRENCY,
		[CONV_BY_VARIANT] = ST_CONV_BY_VARIANT,
	};
	sqlite3_stmt	*st;
	int		 rc;

	if ((unsigned)dim >= CONV_DIM__MAX)
		return -1;
	st = lz_db_stmt(db, by[dim]);
	bind_range(st, link_id, from, to);
	sqlite3_bind_int64(st, 4, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(sqlite3_column_type(st, 0) == SQLITE_NULL ? NULL :
		    lz_db_text(st, 0), sqlite3_column_int64(st, 1),
		    lz_db_text(st, 2), sqlite3_column_int64(st, 3),
		    sqlite3_column_type(st, 4) != SQLITE_NULL,
		    sqlite3_column_int64(st, 4), arg);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		logerr(db, "conversion breakdown");
		return -1;
	}
	return 0;
}
