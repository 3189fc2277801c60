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

-- ST_LOGIN_FAIL_ADD: login failure add
INSERT INTO login_failures (scope, at) VALUES ($1, $2)

-- ST_LOGIN_FAIL_COUNT: login failure count
SELECT count(*), min(at) FROM login_failures
    WHERE scope = $1 AND at > $2

-- ST_LOGIN_FAIL_CLEAR: login failure clear
DELETE FROM login_failures WHERE scope = $1

-- ST_LOGIN_FAIL_PURGE: login failure purge
DELETE FROM login_failures WHERE at < $1

-- ST_LOGIN_FAIL_NTH: login failure nth
SELECT at FROM login_failures WHERE scope = $1 ORDER BY at DESC
    LIMIT 1 OFFSET $2

-- One row of scope $1 at $2 (they are all alike).  dialect: the
-- row's own id is SQLite's rowid, PostgreSQL's ctid.
-- ST_LOGIN_FAIL_GIVE_BACK: login failure give back
DELETE FROM login_failures
    WHERE rowid IN (SELECT rowid FROM login_failures WHERE scope = $1
        AND at = $2 LIMIT 1)
-- pg:
DELETE FROM login_failures
    WHERE ctid IN (SELECT ctid FROM login_failures WHERE scope = $1 AND
        at = $2 LIMIT 1)

-- The tries of scope $1 to the end of the transaction, so that its
-- add, count and give-back are one step (tries are exact under
-- concurrency).  dialect: on SQLite, BEGIN IMMEDIATE holds the
-- database: the lock is a statement that does nothing; PostgreSQL
-- takes an advisory lock, in a space of its own (the first key).
-- ST_LOGIN_FAIL_LOCK: login failure lock
SELECT 0 WHERE $1 IS NULL
-- pg:
SELECT pg_advisory_xact_lock(1819047270, hashtext($1))

-- Takes one try unless max ($5) were taken in the window ($4 ms)
-- that started at window_start; a window that ended starts anew.
-- ST_PWTRY_TAKE: password try
INSERT INTO password_tries (link_id, net, window_start, tries)
    VALUES ($1, $2, $3, 1) ON CONFLICT (link_id, net) DO UPDATE
    SET tries = CASE WHEN password_tries.window_start <= $3 - $4 THEN 1
        ELSE password_tries.tries + 1 END,
        window_start = CASE WHEN password_tries.window_start <= $3 - $4
        THEN $3 ELSE password_tries.window_start END
    WHERE password_tries.window_start <= $3 - $4 OR password_tries.tries
        < $5
    RETURNING tries

-- ST_PWTRY_GET: password try window
SELECT window_start FROM password_tries WHERE link_id = $1 AND net = $2

-- ST_PWTRY_GIVE_BACK: password try give back
UPDATE password_tries SET tries = tries - 1
    WHERE link_id = $1 AND net = $2 AND tries > 0

-- ST_PWTRY_PURGE: password try purge
DELETE FROM password_tries WHERE window_start <= $1

-- The per-link ceiling (0007-hardening.sql): takes one try at link
-- $1 at $2 unless $4 were taken in its window.  A window that ended
-- starts anew at $2, twice as long (up to $5 ms) when it was full
-- and ended less than its length ago, else $3 ms long.  SET reads
-- the old row throughout.  (CASE rather than min(): SQLite's
-- scalar min() is PostgreSQL's least().)
-- ST_PWTRY_LINK_TAKE: link password try
INSERT INTO password_link_tries (link_id, window_start, window_ms,
    tries)
    VALUES ($1, $2, $3, 1) ON CONFLICT (link_id) DO UPDATE
    SET window_ms = CASE WHEN password_link_tries.window_start +
        password_link_tries.window_ms > $2 THEN
        password_link_tries.window_ms WHEN password_link_tries.tries >=
        $4 AND password_link_tries.window_start + 2 *
        password_link_tries.window_ms > $2 THEN CASE WHEN 2 *
        password_link_tries.window_ms < $5 THEN 2 *
        password_link_tries.window_ms ELSE $5 END ELSE $3 END,
        tries = CASE WHEN password_link_tries.window_start +
        password_link_tries.window_ms > $2 THEN
        password_link_tries.tries + 1 ELSE 1 END,
        window_start = CASE WHEN password_link_tries.window_start +
        password_link_tries.window_ms > $2 THEN
        password_link_tries.window_start ELSE $2 END
    WHERE password_link_tries.window_start +
        password_link_tries.window_ms <= $2 OR password_link_tries.tries
        < $4
    RETURNING tries

-- ST_PWTRY_LINK_GET: link password try window
SELECT window_start + window_ms FROM password_link_tries
    WHERE link_id = $1

-- ST_PWTRY_LINK_GIVE_BACK: link password try give back
UPDATE password_link_tries SET tries = tries - 1
    WHERE link_id = $1 AND tries > 0

-- ST_PWTRY_LINK_PURGE: link password try purge
DELETE FROM password_link_tries WHERE window_start + 2 * window_ms <= $1
