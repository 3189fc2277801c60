/*
 * webhooks.c -- the SQL of webhook subscriptions and the outbox.
 */
#include "config.h"

#include <string.h>

#include "db.h"
#include "store/store.h"
#include "store/webhooks.h"
#include "util.h"
#include "webhook/webhook.h"

/* The columns row_webhook reads (a list's one more after them). */
#define WEBHOOK_COLS \
	"w.id, w.account_id, w.url, w.events, w.secret_box, w.created_at, " \
	"w.rotated_at, w.disabled_at, w.disabled_reason"
#define WEBHOOK_NCOLS	9

/* The columns row_delivery reads. */
#define DELIVERY_COLS \
	"id, uuid, webhook_id, event, body, state, attempts, created_at, " \
	"next_at, finished_at, last_status, last_error"
#define DELIVERY_NCOLS	12

#include "webhooks.sql.h"

struct lz_sqlset store_webhooks_sql = LZ_SQLSET("webhooks", sql);
static struct lz_sqlset *const set = &store_webhooks_sql;

const struct store_read store_webhooks_reads[] = {
	{ &store_webhooks_sql, ST_WEBHOOK_GET, WEBHOOK_NCOLS },
	{ &store_webhooks_sql, ST_WEBHOOK_GET_ANY, WEBHOOK_NCOLS },
	{ &store_webhooks_sql, ST_WEBHOOK_LIST, WEBHOOK_NCOLS + 1 },
	{ &store_webhooks_sql, ST_WEBHOOK_LIST_ANY, WEBHOOK_NCOLS + 1 },
	{ &store_webhooks_sql, ST_DELIVERY_LEASE, DELIVERY_NCOLS },
	{ &store_webhooks_sql, ST_DELIVERY_LIST, DELIVERY_NCOLS },
	{ &store_webhooks_sql, ST_DELIVERY_BY_UUID, DELIVERY_NCOLS },
	{ NULL, 0, 0 }
};

/* ---- subscriptions --------------------------------------------------- */

static void
row_webhook(struct lz_stmt *st, void *arg)
{
	struct webhook	*w = arg;
	const void	*box;
	size_t		 len;

	memset(w, 0, sizeof(*w));
	w->id = lz_col_i64(st, 0);
	w->account_id = lz_col_i64(st, 1);
	lz_col_copy(st, 2, w->url, sizeof(w->url));
	w->events = (unsigned)lz_col_int(st, 3);
	if ((box = lz_col_blob(st, 4, &len)) != NULL &&
	    len == WEBHOOK_BOX_LEN)
		memcpy(w->box, box, WEBHOOK_BOX_LEN);
	w->created_at = lz_col_i64(st, 5);
	w->rotated_at = lz_col_i64(st, 6);
	w->disabled_at = lz_col_i64(st, 7);
	lz_col_copy(st, 8, w->disabled_reason, sizeof(w->disabled_reason));
}

int64_t
store_webhook_add(struct lz_db *db, int64_t account_id, const char *url,
    unsigned events, const unsigned char *box, int64_t now)
{
	return lz_run_id(LZ_STMT(db, set, ST_WEBHOOK_ADD, LZ_I64(account_id),
	    LZ_TEXT(url), LZ_I64(events), LZ_BLOB(box, WEBHOOK_BOX_LEN),
	    LZ_I64(now)));
}

int
store_webhook_get(struct lz_db *db, int64_t id, int64_t account_id,
    struct webhook *w)
{
	return store_get_of(db, set, ST_WEBHOOK_GET, ST_WEBHOOK_GET_ANY, id,
	    account_id, row_webhook, w);
}

/* A row of the list: the webhook and its deliveries pending. */
static void
row_webhook_pending(struct lz_stmt *st, struct webhook *w)
{
	row_webhook(st, w);
	w->pending = lz_col_i64(st, WEBHOOK_NCOLS);
}

LZ_EACH_ROW(each_webhook, const, struct webhook, row_webhook_pending,
    LZ_KEEP);

long
store_webhook_list(struct lz_db *db, int64_t account_id,
    void (*fn)(const struct webhook *, void *), void *arg)
{
	struct lz_stmt	*st;

	if ((st = store_stmt_of(db, set, ST_WEBHOOK_LIST, ST_WEBHOOK_LIST_ANY,
	    account_id, NULL, 0)) == NULL)
		return -1;
	return each_webhook(st, fn, arg);
}

long long
store_webhook_count(struct lz_db *db, int64_t account_id)
{
	const struct lz_val	 v = LZ_I64(account_id);
	int64_t			 n;

	return lz_one_i64(lz_db_stmtv(db, set, ST_WEBHOOK_COUNT, &v, 1),
	    &n) == 1 ? n : -1;
}

int
store_webhook_set_secret(struct lz_db *db, int64_t id, int64_t account_id,
    const unsigned char *box, int64_t now)
{
	const struct lz_val	 v[] = { LZ_BLOB(box, WEBHOOK_BOX_LEN),
	    LZ_I64(now), LZ_I64(id) };

	return lz_run_changed(store_stmt_of(db, set, ST_WEBHOOK_SET_SECRET,
	    ST_WEBHOOK_SET_SECRET_ANY, account_id, v, LZ_NELEM(v)));
}

int
store_webhook_disable(struct lz_db *db, int64_t id, int64_t account_id,
    const char *reason, int64_t now)
{
	const struct lz_val	 v[] = { LZ_I64(now), LZ_TEXT(reason),
	    LZ_I64(id) };

	return lz_run_changed(store_stmt_of(db, set, ST_WEBHOOK_DISABLE,
	    ST_WEBHOOK_DISABLE_ANY, account_id, v, LZ_NELEM(v)));
}

int
store_webhook_targets(struct lz_db *db, int64_t account_id, unsigned bit,
    int64_t *ids, int max)
{
	const struct lz_val	 v[] = { LZ_I64(account_id), LZ_I64(bit) };
	struct lz_stmt		*st;
	int			 rc = 0, n = 0;

	st = lz_db_stmtv(db, set, ST_WEBHOOK_TARGETS, v, LZ_NELEM(v));
	while (n < max && (rc = lz_step(st)) == 1)
		ids[n++] = lz_col_i64(st, 0);
	if (n == max)
		lz_reset(st);
	else if (rc == -1)
		return -1;
	return n;
}

/* ---- the outbox ------------------------------------------------------ */

static void
row_delivery(struct lz_stmt *st, void *arg)
{
	struct webhook_delivery	*d = arg;
	const char		*body;

	memset(d, 0, sizeof(*d));
	d->id = lz_col_i64(st, 0);
	lz_col_copy(st, 1, d->uuid, sizeof(d->uuid));
	d->webhook_id = lz_col_i64(st, 2);
	lz_col_copy(st, 3, d->event, sizeof(d->event));
	body = lz_col_textn(st, 4, &d->bodylen);
	d->body = xstrndup(body, d->bodylen);
	lz_col_copy(st, 5, d->state, sizeof(d->state));
	d->attempts = lz_col_int(st, 6);
	d->created_at = lz_col_i64(st, 7);
	d->next_at = lz_col_i64(st, 8);
	d->finished_at = lz_col_i64(st, 9);
	d->last_status = lz_col_int(st, 10);
	lz_col_copy(st, 11, d->last_error, sizeof(d->last_error));
}

int
store_delivery_add(struct lz_db *db, int64_t webhook_id, const char *uuid,
    const char *event, const char *body, size_t len, int64_t now, int bulk)
{
	const struct lz_val	 v[] = { LZ_TEXT(uuid), LZ_I64(webhook_id),
	    LZ_TEXT(event), LZ_TEXTN(body, len), LZ_I64(now), LZ_I64(now) };

	if (bulk)
		return lz_bulk_row(db, set, ST_DELIVERY_BULK, v, LZ_NELEM(v));
	return lz_run_ok(lz_db_stmtv(db, set, ST_DELIVERY_ADD, v,
	    LZ_NELEM(v)));
}

long
store_delivery_cancel(struct lz_db *db, int64_t webhook_id, const char *why,
    int64_t now)
{
	return (long)lz_run(LZ_STMT(db, set, ST_DELIVERY_CANCEL, LZ_I64(now),
	    LZ_TEXT(why), LZ_I64(webhook_id)));
}

struct due_fn {
	void	(*fn)(int64_t, int64_t, void *);
	void	*arg;
};

static void
each_due(struct lz_stmt *st, void *arg)
{
	struct due_fn	*f = arg;

	f->fn(lz_col_i64(st, 0), lz_col_i64(st, 1), f->arg);
}

long
store_delivery_due(struct lz_db *db, int64_t now, int per_hook, int claim,
    long limit, void (*fn)(int64_t, int64_t, void *), void *arg)
{
	const struct lz_val	 v[] = { LZ_I64(now), LZ_I64(per_hook),
	    LZ_I64(limit) };
	struct due_fn		 f = { fn, arg };

	return lz_each(lz_db_stmtv(db, set, claim ? ST_DELIVERY_CLAIM :
	    ST_DELIVERY_DUE, v, LZ_NELEM(v)), each_due, &f);
}

int
store_delivery_lease(struct lz_db *db, int64_t id, const char *lease,
    int64_t until, int64_t now, struct webhook_delivery *d)
{
	const struct lz_val	 v[] = { LZ_I64(until), LZ_TEXT(lease),
	    LZ_I64(id), LZ_I64(now) };

	return (int)lz_each(lz_db_stmtv(db, set, ST_DELIVERY_LEASE, v,
	    LZ_NELEM(v)), row_delivery, d);
}

int
store_attempt_add(struct lz_db *db, int64_t delivery_id,
    const struct webhook_attempt *a)
{
	return lz_run_ok(LZ_STMT(db, set, ST_ATTEMPT_ADD, LZ_I64(delivery_id),
	    LZ_I64(a->at), LZ_I64_IF(a->status > 0, a->status),
	    LZ_TEXT(a->error[0] ? a->error : NULL), LZ_I64(a->duration_ms)));
}

int
store_delivery_delivered(struct lz_db *db, int64_t id, int status,
    int64_t now)
{
	return lz_run_changed(LZ_STMT(db, set, ST_DELIVERY_DELIVERED,
	    LZ_I64(status), LZ_I64(now), LZ_I64(id)));
}

int
store_delivery_failed(struct lz_db *db, int64_t id, const char *lease,
    int status, const char *error, int64_t next_at, int64_t now)
{
	return lz_run_changed(LZ_STMT(db, set, ST_DELIVERY_FAILED,
	    LZ_I64_IF(status > 0, status), LZ_TEXT(error),
	    LZ_I64_IF(next_at > 0, next_at), LZ_I64(now), LZ_I64(id),
	    LZ_TEXT(lease)));
}

LZ_EACH_ROW(each_delivery, const, struct webhook_delivery, row_delivery,
    webhook_delivery_free);

long
store_delivery_list(struct lz_db *db, int64_t webhook_id, int64_t before,
    long limit, void (*fn)(const struct webhook_delivery *, void *),
    void *arg)
{
	return each_delivery(LZ_STMT(db, set, ST_DELIVERY_LIST,
	    LZ_I64(webhook_id), LZ_I64(before), LZ_I64(limit)), fn, arg);
}

int
store_delivery_by_uuid(struct lz_db *db, const char *uuid,
    struct webhook_delivery *d)
{
	const struct lz_val	 v = LZ_TEXT(uuid);

	return (int)lz_each(lz_db_stmtv(db, set, ST_DELIVERY_BY_UUID, &v, 1),
	    row_delivery, d);
}

static void
row_attempt(struct lz_stmt *st, struct webhook_attempt *a)
{
	memset(a, 0, sizeof(*a));
	a->at = lz_col_i64(st, 0);
	a->status = lz_col_int(st, 1);
	lz_col_copy(st, 2, a->error, sizeof(a->error));
	a->duration_ms = lz_col_i64(st, 3);
}

LZ_EACH_ROW(each_attempt, const, struct webhook_attempt, row_attempt,
    LZ_KEEP);

long
store_attempt_list(struct lz_db *db, int64_t delivery_id,
    void (*fn)(const struct webhook_attempt *, void *), void *arg)
{
	return each_attempt(LZ_STMT(db, set, ST_ATTEMPT_LIST,
	    LZ_I64(delivery_id)), fn, arg);
}

long
store_delivery_purge(struct lz_db *db, int64_t before, long limit)
{
	return store_purge_rows(db, set, ST_DELIVERY_PURGE, before, limit);
}

int
store_outbox(struct lz_db *db, int64_t since, long long *pending,
    int64_t *due, long long *failed)
{
	struct lz_stmt	*st;
	int64_t		 n;

	st = lz_db_stmt(db, set, ST_OUTBOX_PENDING);
	if (lz_row(st) != 1)
		return -1;
	*pending = lz_col_i64(st, 0);
	*due = lz_col_i64(st, 1);
	lz_reset(st);
	if (lz_one_i64(LZ_STMT(db, set, ST_OUTBOX_FAILED, LZ_I64(since)),
	    &n) != 1)
		return -1;
	*failed = n;
	return 0;
}
