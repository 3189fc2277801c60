-- webhooks.sql: the statements of webhooks.c, in the order of its enum.
-- build-aux/stmt2h.sh makes webhooks.sql.h of them (stmt2h.sh says how).

-- ST_WEBHOOK_ADD: webhook add
INSERT INTO webhooks (account_id, url, events, secret_box, created_at)
    VALUES ($1, $2, $3, $4, $5) RETURNING id

-- ST_WEBHOOK_GET: webhook get
SELECT @WEBHOOK_COLS@ FROM webhooks w
    WHERE w.id = $1 AND w.account_id = $2

-- ST_WEBHOOK_GET_ANY: webhook get (any account)
SELECT @WEBHOOK_COLS@ FROM webhooks w WHERE w.id = $1

-- A list adds the deliveries not finished yet.
-- ST_WEBHOOK_LIST: webhook list
SELECT @WEBHOOK_COLS@,
        (SELECT count(*) FROM webhook_deliveries d
            WHERE d.webhook_id = w.id AND d.next_at IS NOT NULL)
    FROM webhooks w WHERE w.account_id = $1 ORDER BY w.id

-- ST_WEBHOOK_LIST_ANY: webhook list (any account)
SELECT @WEBHOOK_COLS@,
        (SELECT count(*) FROM webhook_deliveries d
            WHERE d.webhook_id = w.id AND d.next_at IS NOT NULL)
    FROM webhooks w ORDER BY w.id

-- ST_WEBHOOK_COUNT: webhook count
SELECT count(*) FROM webhooks
    WHERE account_id = $1 AND disabled_at IS NULL

-- ST_WEBHOOK_SET_SECRET: webhook rotate
UPDATE webhooks SET secret_box = $1, rotated_at = $2
    WHERE id = $3 AND account_id = $4 AND disabled_at IS NULL

-- ST_WEBHOOK_SET_SECRET_ANY: webhook rotate (any account)
UPDATE webhooks SET secret_box = $1, rotated_at = $2
    WHERE id = $3 AND disabled_at IS NULL

-- ST_WEBHOOK_DISABLE: webhook disable
UPDATE webhooks SET disabled_at = $1, disabled_reason = $2
    WHERE id = $3 AND account_id = $4 AND disabled_at IS NULL

-- ST_WEBHOOK_DISABLE_ANY: webhook disable (any account)
UPDATE webhooks SET disabled_at = $1, disabled_reason = $2
    WHERE id = $3 AND disabled_at IS NULL

-- ST_WEBHOOK_TARGETS: webhook targets
SELECT id FROM webhooks
    WHERE account_id = $1 AND disabled_at IS NULL AND (events & $2) != 0
    ORDER BY id

-- A new delivery's row: due when made.
-- ST_DELIVERY_ADD: delivery add
INSERT INTO webhook_deliveries (uuid, webhook_id, event, body, created_at,
        next_at)
    VALUES ($1, $2, $3, $4, $5, $6)

-- A batch's (lz_bulk_row): COPY on PostgreSQL.
-- ST_DELIVERY_BULK: delivery bulk add
INSERT INTO webhook_deliveries (uuid, webhook_id, event, body, created_at,
        next_at)
    VALUES ($1, $2, $3, $4, $5, $6)
-- pg:
COPY webhook_deliveries (uuid, webhook_id, event, body, created_at,
        next_at) FROM STDIN

-- ST_DELIVERY_CANCEL: delivery cancel
UPDATE webhook_deliveries
    SET state = 'cancelled',
        next_at = NULL,
        lease = NULL,
        finished_at = $1,
        last_error = $2
    WHERE webhook_id = $3 AND next_at IS NOT NULL

-- Per subscription its oldest due ones: a slow receiver with a
-- backlog cannot crowd the others out of a run.
-- ST_DELIVERY_DUE: delivery due
SELECT d.id, d.webhook_id FROM webhooks w
    JOIN webhook_deliveries d ON d.id IN (SELECT x.id
        FROM webhook_deliveries x
        WHERE x.webhook_id = w.id AND x.next_at <= $1
        ORDER BY x.next_at LIMIT $2)
    WHERE w.disabled_at IS NULL ORDER BY d.next_at, d.id LIMIT $3

-- dialect: the same, claimed: PostgreSQL locks them and skips
-- those another run holds; SQLite's BEGIN IMMEDIATE holds all.
-- ST_DELIVERY_CLAIM: delivery claim
SELECT d.id, d.webhook_id FROM webhooks w
    JOIN webhook_deliveries d ON d.id IN (SELECT x.id
        FROM webhook_deliveries x
        WHERE x.webhook_id = w.id AND x.next_at <= $1
        ORDER BY x.next_at LIMIT $2)
    WHERE w.disabled_at IS NULL ORDER BY d.next_at, d.id LIMIT $3
-- pg:
SELECT d.id, d.webhook_id FROM webhooks w
    JOIN webhook_deliveries d ON d.id IN (SELECT x.id
        FROM webhook_deliveries x
        WHERE x.webhook_id = w.id AND x.next_at <= $1
        ORDER BY x.next_at LIMIT $2)
    WHERE w.disabled_at IS NULL ORDER BY d.next_at, d.id LIMIT $3
    FOR UPDATE OF d SKIP LOCKED

-- ST_DELIVERY_LEASE: delivery lease
UPDATE webhook_deliveries SET next_at = $1, lease = $2
    WHERE id = $3 AND next_at <= $4 RETURNING @DELIVERY_COLS@

-- ST_ATTEMPT_ADD: attempt add
INSERT INTO webhook_attempts (delivery_id, at, status, error,
    duration_ms)
    VALUES ($1, $2, $3, $4, $5)

-- ST_DELIVERY_DELIVERED: delivery delivered
UPDATE webhook_deliveries
    SET state = 'delivered',
        attempts = attempts + 1,
        last_status = $1,
        last_error = NULL,
        next_at = NULL,
        lease = NULL,
        finished_at = $2
    WHERE id = $3 AND state = 'pending'

-- $3: when to try again, NULL never (each use cast for
-- PostgreSQL, which cannot tell its type from IS NULL).
-- ST_DELIVERY_FAILED: delivery failed
UPDATE webhook_deliveries
    SET attempts = attempts + 1,
        last_status = $1,
        last_error = $2,
        next_at = CAST($3 AS bigint),
        lease = NULL,
        state = CASE WHEN CAST($3 AS bigint) IS NULL THEN 'failed' ELSE
        'pending' END,
        finished_at = CASE WHEN CAST($3 AS bigint) IS NULL THEN CAST($4
        AS bigint) END
    WHERE id = $5 AND lease = $6 AND state = 'pending'

-- ST_DELIVERY_LIST: delivery list
SELECT @DELIVERY_COLS@ FROM webhook_deliveries
    WHERE webhook_id = $1 AND (CAST($2 AS bigint) = 0 OR id < CAST($2 AS
        bigint))
    ORDER BY id DESC LIMIT $3

-- ST_DELIVERY_BY_UUID: delivery by uuid
SELECT @DELIVERY_COLS@ FROM webhook_deliveries WHERE uuid = $1

-- ST_ATTEMPT_LIST: attempt list
SELECT at, status, error, duration_ms FROM webhook_attempts
    WHERE delivery_id = $1 ORDER BY id

-- ST_DELIVERY_PURGE: delivery purge
DELETE FROM webhook_deliveries
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE finished_at <
        $1 ORDER BY finished_at LIMIT $2)

-- The outbox at a glance (health, metrics): deliveries waiting and the
-- earliest of their due times, through the index of due ones; and the
-- deliveries that failed for good since $1, through the index of
-- finished ones.
-- ST_OUTBOX_PENDING: outbox pending
SELECT count(*), coalesce(min(next_at), 0) FROM webhook_deliveries
    WHERE next_at IS NOT NULL

-- ST_OUTBOX_FAILED: outbox failed
SELECT count(*) FROM webhook_deliveries
    WHERE finished_at > $1 AND state = 'failed'
