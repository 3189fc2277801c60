-- clicks.sql: the statements of clicks.c, in the order of its enum.
-- build-aux/stmt2h.sh makes clicks.sql.h of them (stmt2h.sh says how).

-- The cap is exact: the count only moves while under it.
-- ST_CLICK_COUNT: click count
UPDATE links SET clicks = clicks + 1
    WHERE id = $1 AND (max_clicks = 0 OR clicks < max_clicks)

-- A batch's counts, $1 a JSON array of [link id, clicks]: the links'
-- rows locked in the order of their ids first, so that the movers
-- of several hosts never wait for each other in a circle.
-- dialect: JSON arrays are json_each in SQLite, jsonb_array_elements
-- in PostgreSQL (jsonb: parsed once, where each ->> of json parses
-- its element again; a batch's rows 25% faster); FOR UPDATE is
-- PostgreSQL's (on SQLite, BEGIN IMMEDIATE holds the database: the
-- lock is a statement that does nothing).
-- ST_CLICK_LOCK: click lock
SELECT 0 WHERE $1 IS NULL
-- pg:
SELECT id FROM links
    WHERE id IN (SELECT (e->>0)::bigint FROM
        jsonb_array_elements($1::jsonb) AS e)
    ORDER BY id FOR UPDATE

-- Bots' links are in $1 with 0, for the lock alone: not written.
-- ST_CLICK_ADD: click add
UPDATE links SET clicks = links.clicks + c.n
    FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value,
        '$[1]') AS n FROM json_each($1)) AS c
    WHERE links.id = c.id AND c.n != 0
-- pg:
UPDATE links SET clicks = links.clicks + c.n
    FROM (SELECT (e->>0)::bigint AS id, (e->>1)::bigint AS n FROM
        jsonb_array_elements($1::jsonb) AS e) AS c
    WHERE links.id = c.id AND c.n != 0

-- ST_CLICK_INSERT: click insert
INSERT INTO clicks (link_id, at, suffix, country, device, os, browser,
        referrer, referrer_host, variant, visitor, bot)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)

-- A batch's (lz_bulk_row): COPY on PostgreSQL.
-- ST_CLICK_BULK: click bulk insert
INSERT INTO clicks (link_id, at, suffix, country, device, os, browser,
        referrer, referrer_host, variant, visitor, bot)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
-- pg:
COPY clicks (link_id, at, suffix, country, device, os, browser,
        referrer, referrer_host, variant, visitor, bot) FROM STDIN

-- ST_JOURNAL_GET: journal get
SELECT pos FROM click_journals WHERE name = $1

-- ST_JOURNAL_SET: journal set
INSERT INTO click_journals (name, pos) VALUES ($1, $2)
    ON CONFLICT (name) DO UPDATE SET pos = $2

-- ST_JOURNAL_DEL: journal delete
DELETE FROM click_journals WHERE name = $1

-- Those whose name starts with $1 (one host's).
-- ST_JOURNAL_LIST: journal list
SELECT name FROM click_journals WHERE substr(name, 1, length($1)) = $1
    ORDER BY name

-- An hour's row and its day's.
-- ST_ROLLUP_ADD: rollup add
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
    VALUES ($1, $2, 1, $3, $5, $6, $7), ($1, $2, 24, $4, $5, $6, $7)
    ON CONFLICT (link_id, dim, span, at, key, bot) DO UPDATE
    SET n = click_rollups.n + excluded.n

-- Rows of hours, $1 a JSON array of [link id, dim, hour, key, bot,
-- n], each with its day's ($2 ms), summed per day: one statement
-- must not touch a row twice.  PostgreSQL's alone (a round trip a
-- statement there); SQLite runs rollup add a row
-- (store_rollup_addv), cheaper in process than JSON.
-- ST_ROLLUP_ADDV: rollup add rows
-- pg:
WITH r AS (SELECT (e->>0)::bigint AS link_id, (e->>1)::bigint AS dim,
    (e->>2)::bigint AS at, e->>3 AS key, (e->>4)::bigint AS bot,
    (e->>5)::bigint AS n FROM jsonb_array_elements($1::jsonb) AS e)
    INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
    SELECT * FROM (SELECT link_id, dim, 1, at, key, bot, n FROM r
        UNION ALL SELECT link_id, dim, 24, at / $2 * $2 AS d, key, bot,
        CAST(sum(n) AS bigint) FROM r GROUP BY link_id, dim, d, key, bot)
        AS x WHERE true
    ON CONFLICT (link_id, dim, span, at, key, bot) DO UPDATE
    SET n = click_rollups.n + excluded.n

-- The first click stays (the caller moves it back, store.h), so
-- what comes back is the row's first click before this batch, and
-- its clicks: the batch's alone when the row is new.  The last
-- click's variant and suffix go with it; a tie goes to the click
-- stored last.  (A visitor-day met again: its clicks summed, the
-- last click's texts kept.)
-- ST_VISITOR_ADD: visitor add
INSERT INTO click_visitors (day, link_id, visitor, first_at, last_at,
    variant, suffix, clicks)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (day, link_id, visitor) DO UPDATE
    SET clicks = click_visitors.clicks + excluded.clicks,
        last_at = CASE WHEN excluded.last_at >= click_visitors.last_at
            THEN excluded.last_at ELSE click_visitors.last_at END,
        variant = CASE WHEN excluded.last_at >= click_visitors.last_at
            THEN excluded.variant ELSE click_visitors.variant END,
        suffix = CASE WHEN excluded.last_at >= click_visitors.last_at
            THEN excluded.suffix ELSE click_visitors.suffix END
    RETURNING first_at, clicks

-- Visitor add of rows, $1 a JSON array of [day, link id, first,
-- last, variant, suffix, clicks], the visitors in $2, $3 bytes
-- each in the order of the rows.  PostgreSQL's alone, as rollup
-- add rows: SQLite runs visitor add a row.
-- ST_VISITOR_ADDV: visitor add rows
-- pg:
WITH r AS (SELECT (e->>0)::bigint AS day, (e->>1)::bigint AS link_id,
    substr($2::bytea, ((o - 1) * $3::bigint + 1)::int, $3::bigint::int)
    AS visitor, (e->>2)::bigint AS first_at, (e->>3)::bigint AS last_at,
    e->>4 AS variant, e->>5 AS suffix, (e->>6)::bigint AS clicks FROM
    jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, o))
    INSERT INTO click_visitors (day, link_id, visitor, first_at, last_at,
        variant, suffix, clicks)
    SELECT day, link_id, visitor, first_at, last_at, variant, suffix,
        clicks FROM r WHERE true
    ON CONFLICT (day, link_id, visitor) DO UPDATE
    SET clicks = click_visitors.clicks + excluded.clicks,
        last_at = CASE WHEN excluded.last_at >= click_visitors.last_at
            THEN excluded.last_at ELSE click_visitors.last_at END,
        variant = CASE WHEN excluded.last_at >= click_visitors.last_at
            THEN excluded.variant ELSE click_visitors.variant END,
        suffix = CASE WHEN excluded.last_at >= click_visitors.last_at
            THEN excluded.suffix ELSE click_visitors.suffix END
    RETURNING day, link_id, visitor, first_at, clicks

-- ST_VISITOR_FIRST: visitor first
UPDATE click_visitors SET first_at = $4
    WHERE day = $1 AND link_id = $2 AND visitor = $3

-- ST_VISITOR_LAST: visitor last
SELECT variant, suffix, last_at FROM click_visitors
    WHERE day = $1 AND link_id = $2 AND visitor = $3 AND last_at >= $4
        AND last_at <= $5

-- The statistics read link $1's rollups in the three parts of a range
-- (store_stmt_range): the days [$2, $3), the hours [$4, $5) and
-- [$6, $7), each a plain range of the rollups' primary key (link_id,
-- dim, span, at, ...), whatever the planner.
-- ST_STATS_TOTALS: stats totals
SELECT coalesce(sum(CASE WHEN dim = 0 AND bot = 0 THEN n END), 0),
    coalesce(sum(CASE WHEN dim = 0 AND bot != 0 THEN n END), 0),
    coalesce(sum(CASE WHEN dim = 8 THEN n END), 0)
    FROM (SELECT dim, bot, n FROM click_rollups
            WHERE link_id = $1 AND dim IN (0, 8)
                AND span = 24 AND at >= $2 AND at < $3
        UNION ALL SELECT dim, bot, n FROM click_rollups
            WHERE link_id = $1 AND dim IN (0, 8)
                AND span = 1 AND at >= $4 AND at < $5
        UNION ALL SELECT dim, bot, n FROM click_rollups
            WHERE link_id = $1 AND dim IN (0, 8)
                AND span = 1 AND at >= $6 AND at < $7) AS r

-- ST_STATS_SERIES: stats series
SELECT at / $8 AS b, sum(CASE WHEN dim = 0 THEN n ELSE 0 END),
    sum(CASE WHEN dim = 8 THEN n ELSE 0 END)
    FROM (SELECT dim, at, n FROM click_rollups
            WHERE link_id = $1 AND dim IN (0, 8) AND bot = 0
                AND span = 24 AND at >= $2 AND at < $3
        UNION ALL SELECT dim, at, n FROM click_rollups
            WHERE link_id = $1 AND dim IN (0, 8) AND bot = 0
                AND span = 1 AND at >= $4 AND at < $5
        UNION ALL SELECT dim, at, n FROM click_rollups
            WHERE link_id = $1 AND dim IN (0, 8) AND bot = 0
                AND span = 1 AND at >= $6 AND at < $7) AS r
    GROUP BY b ORDER BY b

-- ST_STATS_BREAKDOWN: stats breakdown
SELECT key, sum(n) AS c
    FROM (SELECT key, n FROM click_rollups
            WHERE link_id = $1 AND dim = $9 AND bot = 0
                AND span = 24 AND at >= $2 AND at < $3
        UNION ALL SELECT key, n FROM click_rollups
            WHERE link_id = $1 AND dim = $9 AND bot = 0
                AND span = 1 AND at >= $4 AND at < $5
        UNION ALL SELECT key, n FROM click_rollups
            WHERE link_id = $1 AND dim = $9 AND bot = 0
                AND span = 1 AND at >= $6 AND at < $7) AS r
    GROUP BY key ORDER BY c DESC, key LIMIT $8

-- The same of a scope (store.h): an account's or a tag's sums, owner
-- $1 of kind $k, of domain $d (-1: every one); the breakdown leaves out
-- the values whose sum is 0 (a tag taken off a link leaves its rows).
-- ST_SCOPE_TOTALS: scope totals
SELECT coalesce(sum(CASE WHEN dim = 0 AND bot = 0 THEN n END), 0),
    coalesce(sum(CASE WHEN dim = 0 AND bot != 0 THEN n END), 0),
    coalesce(sum(CASE WHEN dim = 8 THEN n END), 0)
    FROM (SELECT dim, bot, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $8 AND dim IN (0, 8)
                AND span = 24 AND at >= $2 AND at < $3
                AND (CAST($9 AS bigint) < 0 OR domain_id = $9)
        UNION ALL SELECT dim, bot, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $8 AND dim IN (0, 8)
                AND span = 1 AND at >= $4 AND at < $5
                AND (CAST($9 AS bigint) < 0 OR domain_id = $9)
        UNION ALL SELECT dim, bot, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $8 AND dim IN (0, 8)
                AND span = 1 AND at >= $6 AND at < $7
                AND (CAST($9 AS bigint) < 0 OR domain_id = $9)) AS r

-- ST_SCOPE_SERIES: scope series
SELECT at / $8 AS b, sum(CASE WHEN dim = 0 THEN n ELSE 0 END),
    sum(CASE WHEN dim = 8 THEN n ELSE 0 END)
    FROM (SELECT dim, at, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $9 AND dim IN (0, 8) AND bot = 0
                AND span = 24 AND at >= $2 AND at < $3
                AND (CAST($10 AS bigint) < 0 OR domain_id = $10)
        UNION ALL SELECT dim, at, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $9 AND dim IN (0, 8) AND bot = 0
                AND span = 1 AND at >= $4 AND at < $5
                AND (CAST($10 AS bigint) < 0 OR domain_id = $10)
        UNION ALL SELECT dim, at, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $9 AND dim IN (0, 8) AND bot = 0
                AND span = 1 AND at >= $6 AND at < $7
                AND (CAST($10 AS bigint) < 0 OR domain_id = $10)) AS r
    GROUP BY b ORDER BY b

-- ST_SCOPE_BREAKDOWN: scope breakdown
SELECT key, sum(n) AS c
    FROM (SELECT key, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $10 AND dim = $9 AND bot = 0
                AND span = 24 AND at >= $2 AND at < $3
                AND (CAST($11 AS bigint) < 0 OR domain_id = $11)
        UNION ALL SELECT key, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $10 AND dim = $9 AND bot = 0
                AND span = 1 AND at >= $4 AND at < $5
                AND (CAST($11 AS bigint) < 0 OR domain_id = $11)
        UNION ALL SELECT key, n FROM scope_click_rollups
            WHERE owner = $1 AND kind = $10 AND dim = $9 AND bot = 0
                AND span = 1 AND at >= $6 AND at < $7
                AND (CAST($11 AS bigint) < 0 OR domain_id = $11)) AS r
    GROUP BY key HAVING sum(n) != 0 ORDER BY c DESC, key LIMIT $8

-- What a rebuild has to do: rows of clicks or conversions, raw or
-- rolled up (any dim of the rollups: it also clears rows that
-- should not be there).
-- ST_ROLLUP_NEXT_LINK: rollup next link
SELECT min(x)
    FROM (SELECT (SELECT link_id FROM clicks
                WHERE link_id > $1
                ORDER BY link_id LIMIT 1) AS x
        UNION ALL SELECT (SELECT link_id FROM click_rollups
                WHERE link_id > $1
                ORDER BY link_id LIMIT 1)
        UNION ALL SELECT (SELECT link_id FROM conversions
                WHERE link_id > $1
                ORDER BY link_id LIMIT 1)
        UNION ALL SELECT (SELECT link_id FROM conversion_rollups
                WHERE link_id > $1
                ORDER BY link_id LIMIT 1)) AS r

-- The first click or conversion of link $1 at or after $2, raw or
-- rolled up: of each dim of the rollups, the first hour and the first
-- day (a seek in an index each).
-- ST_ROLLUP_NEXT: rollup next
SELECT min(x)
    FROM (SELECT (SELECT at FROM clicks
                WHERE link_id = $1 AND at >= $2
                ORDER BY at LIMIT 1) AS x
        UNION ALL SELECT (SELECT at FROM conversions
                WHERE link_id = $1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 0 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 0 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 1 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 1 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 2 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 2 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 3 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 3 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 4 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 4 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 5 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 5 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 6 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 6 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 7 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 7 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 8 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM click_rollups
                WHERE link_id = $1 AND dim = 8 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 0 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 0 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 1 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 1 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 2 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 2 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 3 AND span = 1 AND at >= $2
                ORDER BY at LIMIT 1)
        UNION ALL SELECT (SELECT at FROM conversion_rollups
                WHERE link_id = $1 AND dim = 3 AND span = 24 AND at >= $2
                ORDER BY at LIMIT 1)) AS r

-- ST_ROLLUP_CLEAR: rollup clear
DELETE FROM click_rollups
    WHERE link_id = $1 AND dim IN (0, 1, 2, 3, 4, 5, 6, 7, 8) AND span
        IN (1, 24) AND at >= $2 AND at < $2 + 86400000

-- ST_VISITOR_CLEAR: visitor clear
DELETE FROM click_visitors WHERE day = $1 AND link_id = $2

-- In the order the mover stored them: the last click of a visitor
-- is the one stored last on a tie.
-- ST_CLICK_EACH: click each
SELECT at, suffix, country, device, os, browser, referrer_host, variant,
    visitor, bot
    FROM clicks WHERE link_id = $1 AND at >= $2 AND at < $3
    ORDER BY at, id

-- Ids follow the order clicks were stored in.
-- ST_CLICK_PRUNE: click prune
DELETE FROM clicks
    WHERE id IN (SELECT id FROM clicks ORDER BY id LIMIT $2) AND at < $1

-- ST_VISITOR_PRUNE: visitor prune
DELETE FROM click_visitors
    WHERE (day, link_id, visitor) IN (SELECT day, link_id, visitor FROM
        click_visitors WHERE day < $1 ORDER BY day LIMIT $2)

-- The raw clicks, for their export (DESIGN 3.9).
-- ST_CLICK_RANGE_COUNT: click range count
SELECT count(*) FROM clicks WHERE link_id = $1 AND at >= $2 AND at < $3

-- Newest first from ($3, $4) down, keyset on (at, id).
-- ST_CLICK_PAGE: click page
SELECT id, at, suffix, country, device, os, browser, referrer, variant,
    bot
    FROM clicks
    WHERE link_id = $1 AND at >= $2 AND at <= $3 AND (at < $3 OR id <
        $4)
    ORDER BY at DESC, id DESC LIMIT $5

-- A scope's row of an hour and its day's (sql/links/0015-account-stats.sql),
-- by a writer that keeps the sums itself with the triggers paused.
-- ST_SCOPE_ADD: scope add
INSERT INTO scope_click_rollups (owner, kind, dim, span, at, key, bot,
        domain_id, n)
    VALUES ($1, $2, $3, 1, $4, $6, $7, $8, $9),
        ($1, $2, $3, 24, $5, $6, $7, $8, $9)
    ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id) DO UPDATE
    SET n = scope_click_rollups.n + excluded.n

-- A row of one span ($3: 1 an hour, 24 a day) alone: a writer that
-- sums the days itself (stats/rollup.c, an import's history).
-- ST_ROLLUP_PUT: rollup put
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (link_id, dim, span, at, key, bot) DO UPDATE
    SET n = click_rollups.n + excluded.n

-- ST_SCOPE_PUT: scope put
INSERT INTO scope_click_rollups (owner, kind, dim, span, at, key, bot,
        domain_id, n)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id) DO UPDATE
    SET n = scope_click_rollups.n + excluded.n

-- Rows of one span each, $1 a JSON array of [owner, kind, dim, span,
-- at, key, bot, domain, n], no two of one key: PostgreSQL's alone, in
-- one statement (store_scope_addv); SQLite puts a row at a time,
-- cheaper in process than JSON.
-- ST_SCOPE_PUTV: scope put rows
-- pg:
INSERT INTO scope_click_rollups (owner, kind, dim, span, at, key, bot,
        domain_id, n)
    SELECT (e ->> 0)::bigint, (e ->> 1)::bigint, (e ->> 2)::bigint,
        (e ->> 3)::bigint, (e ->> 4)::bigint, e ->> 5, (e ->> 6)::bigint,
        (e ->> 7)::bigint, (e ->> 8)::bigint
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, k)
    ORDER BY k
    ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id) DO UPDATE
    SET n = scope_click_rollups.n + excluded.n

-- An account's scope sums held by this transaction: the lock that the
-- sums' functions of PostgreSQL take (sql/links/pg/0015), for a writer
-- that keeps them itself.  PostgreSQL's alone: SQLite's writers are one
-- at a time.
-- ST_SCOPE_LOCK: scope lock
-- pg:
SELECT pg_advisory_xact_lock(15, ($1::bigint & 2147483647)::int)

-- The scope triggers paused in this transaction (0021), and resumed.
-- On PostgreSQL the row is the backend's own: another writer's pause,
-- uncommitted, is unseen to this one's triggers all the same, but it
-- would hold this one's insert of the same key until it ended.
-- ST_SCOPE_PAUSE: scope pause
INSERT INTO scope_pause (x) VALUES (1) ON CONFLICT DO NOTHING
-- pg:
INSERT INTO scope_pause (x) VALUES (pg_backend_pid()) ON CONFLICT DO NOTHING
-- ST_SCOPE_RESUME: scope resume
DELETE FROM scope_pause
-- pg:
DELETE FROM scope_pause WHERE x = pg_backend_pid()
