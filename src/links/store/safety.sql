-- safety.sql: the statements of safety.c, in the order of its enum.
-- build-aux/stmt2h.sh makes safety.sql.h of them (stmt2h.sh says how).

-- ST_BL_FIND: blocklist find
SELECT source, reason FROM blocklist WHERE kind = $1 AND value = $2
    LIMIT 1

-- Those of the entries $1 lists, a JSON array of [kind, value], that the
-- blocklist holds: each one's index in the array, a source and its
-- reason.  One round trip for a batch's look-ups (an import's thousand
-- links, about three distinct ones a destination); SQLite, in process,
-- looks them up one by one (store_bl_find_many).
-- ST_BL_FIND_MANY: blocklist find many
-- pg:
SELECT DISTINCT ON (x.ord) x.ord - 1, b.source, b.reason
    FROM json_array_elements($1::json) WITH ORDINALITY AS x(v, ord)
    JOIN blocklist b ON b.kind = x.v->>0 AND b.value = x.v->>1
    ORDER BY x.ord, b.source

-- ST_BL_UPSERT: blocklist upsert
INSERT INTO blocklist (kind, value, source, reason, added_at, seen_at)
    VALUES ($1, $2, $3, $4, $5, $5)
    ON CONFLICT (kind, value, source) DO UPDATE
    SET reason = excluded.reason, seen_at = excluded.seen_at

-- ST_BL_PRUNE: blocklist prune
DELETE FROM blocklist WHERE source = $1 AND seen_at < $2

-- ST_BL_REMOVE: blocklist remove
DELETE FROM blocklist
    WHERE kind = $1 AND value = $2 AND (CAST($3 AS text) IS NULL OR
        source = $3)

-- ST_BL_LIST: blocklist list
SELECT kind, value, source, reason, added_at FROM blocklist
    WHERE CAST($1 AS text) IS NULL OR source = $1
    ORDER BY kind, value, source LIMIT $2

-- ST_BL_COUNT: blocklist count
SELECT source, count(*), max(seen_at) FROM blocklist GROUP BY source
    ORDER BY source

-- ST_LINK_SCAN: link scan
SELECT @STORE_LINK_COLS@ FROM links
    WHERE id > $1 AND deleted_at IS NULL AND flagged_at IS NULL
    ORDER BY id LIMIT $2
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE id > $1 AND deleted_at IS NULL AND flagged_at IS NULL
    ORDER BY id LIMIT $2

-- ST_LINK_FLAG: link flag
UPDATE links SET flagged_at = $1, flag_reason = $2
    WHERE id = $3 AND flagged_at IS NULL

-- ST_LINK_UNFLAG: link unflag
UPDATE links SET flagged_at = NULL, flag_reason = NULL
    WHERE id = $1 AND flagged_at IS NOT NULL

-- ST_LINK_FLAGGED: flagged links
SELECT @STORE_LINK_COLS@ FROM links
    WHERE flagged_at IS NOT NULL AND deleted_at IS NULL
    ORDER BY flagged_at DESC, id DESC LIMIT $1
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE flagged_at IS NOT NULL AND deleted_at IS NULL
    ORDER BY flagged_at DESC, id DESC LIMIT $1
