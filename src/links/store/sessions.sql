-- sessions.sql: the statements of sessions.c, in the order of its enum.
-- build-aux/stmt2h.sh makes sessions.sql.h of them (stmt2h.sh says how).

-- ST_SESSION_ADD: session add
INSERT INTO sessions (hash, account_id, csrf, created_at, seen_at, user_id)
    VALUES ($1, $2, $3, $4, $4, $5) RETURNING id

-- The session with its user's role in its account: none (NULL) when
-- the user is no member of it any more.
-- ST_SESSION_GET: session get
SELECT s.id, s.account_id, s.csrf, s.created_at, s.seen_at,
    coalesce(s.user_id, 0), coalesce(m.role, ''), s.hash
    FROM sessions s LEFT JOIN memberships m ON m.user_id = s.user_id AND
        m.account_id = s.account_id
    WHERE s.hash = $1

-- ST_SESSION_TOUCH: session touch
UPDATE sessions SET seen_at = $1
    WHERE id = $2 AND seen_at < CAST($1 AS bigint) - 60000

-- ST_SESSION_DELETE: session delete
DELETE FROM sessions WHERE id = $1

-- ST_SESSION_DELETE_OTHERS: session delete others
DELETE FROM sessions WHERE account_id = $1 AND id != $2

-- ST_SESSION_PURGE: session purge
DELETE FROM sessions WHERE seen_at < $1 OR created_at < $2
