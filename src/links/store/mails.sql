-- mails.sql: the statements of mails.c, in the order of its enum.
-- build-aux/stmt2h.sh makes mails.sql.h of them (stmt2h.sh says how).

-- A mail, due at once ($9).
-- ST_MAIL_ADD: mail add
INSERT INTO mail_outbox (account_id, invitation_id, rcpt, subject, body_box,
        created_at, expires_at, next_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id

-- The oldest mail due at $1 whose invitation still runs, leased to run
-- $3 until $2: not due again before then, so that no other run takes
-- it meanwhile.
-- dialect: PostgreSQL locks the row it picks and skips those another
-- run (another host) holds; SQLite serialises writers.
-- ST_MAIL_CLAIM: mail claim
UPDATE mail_outbox SET next_at = $2, lease = $3
    WHERE id = (SELECT id FROM mail_outbox
        WHERE next_at <= $1 AND expires_at > $1
        ORDER BY next_at, id LIMIT 1) AND next_at <= $1
    RETURNING id, rcpt, subject, body_box, attempts
-- pg:
UPDATE mail_outbox SET next_at = $2, lease = $3
    WHERE id = (SELECT id FROM mail_outbox
        WHERE next_at <= $1 AND expires_at > $1
        ORDER BY next_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        AND next_at <= $1
    RETURNING id, rcpt, subject, body_box, attempts

-- Sent is sent, whoever holds the lease now.
-- ST_MAIL_SENT: mail sent
UPDATE mail_outbox SET state = 'sent', body_box = NULL,
        attempts = attempts + 1, next_at = NULL, lease = NULL,
        last_error = NULL, finished_at = $2
    WHERE id = $1 AND state = 'queued'

-- A failed attempt of run $2's lease: due again at $3.
-- ST_MAIL_RETRY: mail retry
UPDATE mail_outbox SET attempts = attempts + 1, next_at = $3, lease = NULL,
        last_error = $4
    WHERE id = $1 AND lease = $2 AND state = 'queued'

-- The last failed attempt of run $2's lease: given up, its text dropped.
-- ST_MAIL_GIVE_UP: mail give up
UPDATE mail_outbox SET state = 'failed', body_box = NULL,
        attempts = attempts + 1, next_at = NULL, lease = NULL,
        last_error = $3, finished_at = $4
    WHERE id = $1 AND lease = $2 AND state = 'queued'

-- Mails still queued when their invitations end: given up unsent.
-- ST_MAIL_EXPIRE: mail expire
UPDATE mail_outbox SET state = 'failed', body_box = NULL, next_at = NULL,
        lease = NULL, last_error = 'the invitation ended before it was sent',
        finished_at = $1
    WHERE next_at IS NOT NULL AND expires_at <= $1

-- ST_MAIL_PURGE: mail purge
DELETE FROM mail_outbox
    WHERE id IN (SELECT id FROM mail_outbox WHERE finished_at < $1
        ORDER BY finished_at LIMIT $2)
