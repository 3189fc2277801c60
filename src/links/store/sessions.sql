-- sessions.sql: the statements of sessions.c, in the order of its enum.
-- build-aux/stmt2h.sh makes sessions.sql.h of them (stmt2h.sh says how).

-- ST_SESSION_ADD: session add
INSERT INTO sessions (hash, account_id, csrf, created_at, seen_at)
    VALUES ($1, $2, $3, $4, $4) RETURNING id

-- ST_SESSION_GET: session get
SELECT id, account_id, csrf, created_at, seen_at, hash FROM sessions
    WHERE hash = $1

-- ST_SESSION_TOUCH: session touch
UPDATE sessions SET seen_at = $1
    WHERE id = $2 AND seen_at < CAST($1 AS bigint) - 60000

-- ST_SESSION_DELETE: session delete
DELETE FROM sessions WHERE id = $1

-- ST_SESSION_DELETE_OTHERS: session delete others
DELETE FROM sessions WHERE account_id = $1 AND id != $2

-- ST_SESSION_PURGE: session purge
DELETE FROM sessions WHERE seen_at < $1 OR created_at < $2
