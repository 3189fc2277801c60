-- throttles.sql: the statements of throttles.c, in the order of its enum.
-- build-aux/stmt2h.sh makes throttles.sql.h of them (stmt2h.sh says how).

-- Takes one try of scope $1 at $2 unless $4 were taken in its window.
-- A window that ended starts anew at $2, twice as long (up to $5 ms)
-- when it was full and ended less than its length ago, else $3 ms long.
-- SET reads the old row throughout.  (CASE rather than min(): SQLite's
-- scalar min() is PostgreSQL's least().)
-- ST_THROTTLE_TAKE: throttle take
INSERT INTO throttles (scope, window_start, window_ms, tries)
    VALUES ($1, $2, $3, 1) ON CONFLICT (scope) DO UPDATE
    SET window_ms = CASE WHEN throttles.window_start + throttles.window_ms
        > $2 THEN throttles.window_ms WHEN throttles.tries >= $4 AND
        throttles.window_start + 2 * throttles.window_ms > $2 THEN CASE
        WHEN 2 * throttles.window_ms < $5 THEN 2 * throttles.window_ms
        ELSE $5 END ELSE $3 END,
        tries = CASE WHEN throttles.window_start + throttles.window_ms > $2
        THEN throttles.tries + 1 ELSE 1 END,
        window_start = CASE WHEN throttles.window_start +
        throttles.window_ms > $2 THEN throttles.window_start ELSE $2 END
    WHERE throttles.window_start + throttles.window_ms <= $2 OR
        throttles.tries < $4
    RETURNING tries

-- The end of scope $1's window (a refused try's Retry-After).
-- ST_THROTTLE_END: throttle window end
SELECT window_start + window_ms FROM throttles WHERE scope = $1

-- ST_THROTTLE_GIVE_BACK: throttle give back
UPDATE throttles SET tries = tries - 1 WHERE scope = $1 AND tries > 0

-- ST_THROTTLE_CLEAR: throttle clear
DELETE FROM throttles WHERE scope = $1

-- A window past the length it could double into is forgotten.
-- ST_THROTTLE_PURGE: throttle purge
DELETE FROM throttles WHERE window_start + 2 * window_ms <= $1
