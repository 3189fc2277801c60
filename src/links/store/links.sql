-- links.sql: the statements of links.c, in the order of its enum.
-- build-aux/stmt2h.sh makes links.sql.h of them (stmt2h.sh says how).

-- The account's live links, as its row keeps them (0012-link-count.sql).
-- ST_LINK_COUNT: link count
SELECT coalesce((SELECT link_count FROM accounts WHERE id = $1), 0)

-- The link cap: one more live link of account $1 unless it has $2.
-- ST_LINK_SLOT: link slot
UPDATE accounts SET link_count = link_count + 1
    WHERE id = $1 AND link_count < $2

-- ST_LINK_UNSLOT: link unslot
UPDATE accounts SET link_count = link_count - 1
    WHERE id = $1 AND link_count > 0

-- The create fields and the password hash, $1 to $19 (write_link in
-- links.c), then the account, slug, creation time and domain (NULL: the
-- default).  A slug taken on the domain (links_domain_slug) is no row.
-- ST_LINK_INSERT: link insert
INSERT INTO links (target_url, title, mode, variants, redirect_type, og,
        pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, pixel_line,
        escape_inapp, expires_at, max_clicks, utm, password_hash,
        expired_url, notes, archived, account_id, slug, created_at,
        domain_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
        $15, $16, $17, $18, $19, $20, $21, $22, $23)
    ON CONFLICT DO NOTHING RETURNING id

-- ST_LINK_INSERT for a batch: $1 a JSON array of links, each an array of
-- ST_LINK_INSERT's 23 values in its order; those whose slug is taken are
-- left out (the caller inserts them alone).  The rows inserted: id, slug
-- and domain (0: the default one).
-- ST_LINK_INSERT_MANY: link insert many
INSERT INTO links (target_url, title, mode, variants, redirect_type, og,
        pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, pixel_line,
        escape_inapp, expires_at, max_clicks, utm, password_hash,
        expired_url, notes, archived, account_id, slug, created_at,
        domain_id)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),
        json_extract(value, '$[2]'), json_extract(value, '$[3]'),
        json_extract(value, '$[4]'), json_extract(value, '$[5]'),
        json_extract(value, '$[6]'), json_extract(value, '$[7]'),
        json_extract(value, '$[8]'), json_extract(value, '$[9]'),
        json_extract(value, '$[10]'), json_extract(value, '$[11]'),
        json_extract(value, '$[12]'), json_extract(value, '$[13]'),
        json_extract(value, '$[14]'), json_extract(value, '$[15]'),
        json_extract(value, '$[16]'), json_extract(value, '$[17]'),
        json_extract(value, '$[18]'), json_extract(value, '$[19]'),
        json_extract(value, '$[20]'), json_extract(value, '$[21]'),
        json_extract(value, '$[22]')
    FROM json_each($1) WHERE true ORDER BY key
    ON CONFLICT DO NOTHING RETURNING id, slug, coalesce(domain_id, 0)
-- pg:
INSERT INTO links (target_url, title, mode, variants, redirect_type, og,
        pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok, pixel_line,
        escape_inapp, expires_at, max_clicks, utm, password_hash,
        expired_url, notes, archived, account_id, slug, created_at,
        domain_id)
    SELECT e ->> 0, e ->> 1, e ->> 2, e ->> 3, (e ->> 4)::bigint,
        e ->> 5, e ->> 6, e ->> 7, e ->> 8, e ->> 9, e ->> 10,
        (e ->> 11)::bigint, (e ->> 12)::bigint, (e ->> 13)::bigint,
        e ->> 14, e ->> 15, e ->> 16, e ->> 17, (e ->> 18)::bigint,
        (e ->> 19)::bigint, e ->> 20, (e ->> 21)::bigint,
        (e ->> 22)::bigint
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, k)
    ORDER BY k
    ON CONFLICT DO NOTHING RETURNING id, slug, coalesce(domain_id, 0)

-- ST_LINK_GET: link get
SELECT @STORE_LINK_COLS@ FROM links
    WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL

-- ST_LINK_GET_ANY: link get (any account)
SELECT @STORE_LINK_COLS@ FROM links
    WHERE id = $1 AND deleted_at IS NULL
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE id = $1 AND deleted_at IS NULL

-- ST_LINK_BY_ID: link by id
SELECT @STORE_LINK_COLS@ FROM links
    WHERE id = $1
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links WHERE id = $1

-- On domain $2 (0: the default one).
-- ST_LINK_BY_SLUG: link by slug
SELECT @STORE_LINK_COLS@ FROM links
    WHERE coalesce(domain_id, 0) = $2 AND slug = $1
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE coalesce(domain_id, 0) = $2 AND slug = $1

-- A page: ids below $1 (0: from the newest), at most $2, matching the
-- LIKE pattern $3 (NULL: any; link_pattern, in lower case) and of
-- status $4 (-1: any), the status being link_status() at $5 in SQL, in
-- the same order of precedence, on domain $6 (0 the default, -1 any),
-- carrying every tag whose fold the JSON array $7 lists (NULL: any), and
-- archived or not as $8 says (0 not, 1 either, 2 only archived ones);
-- of account $9.  (The CASTs tell PostgreSQL $1 and $4 are bigints, not
-- the ints of 0, and $3 and $7 text before their IS NULL.)
-- dialect: json_each is json_array_elements_text in PostgreSQL.
-- dialect: SQLite's LIKE ignores the case of A-Z and only of A-Z;
-- PostgreSQL's LIKE is case-sensitive, so the columns go through
-- lower(), under "C", where it too folds A-Z and nothing else: both
-- engines find the same links.  (lower() in SQLite would only cost:
-- twice the time of a search of 10,000 links.)
-- ST_LINK_LIST: link list
SELECT @STORE_LINK_COLS@ FROM links
    WHERE account_id = $9 AND deleted_at IS NULL AND
        (CAST($8 AS bigint) = 1 OR archived = CAST($8 AS bigint) / 2) AND
        (CAST($1 AS bigint) = 0 OR id < CAST($1 AS bigint)) AND
        (CAST($3 AS text) IS NULL OR
            slug LIKE $3 ESCAPE '\' OR
            title LIKE $3 ESCAPE '\' OR
            target_url LIKE $3 ESCAPE '\') AND
        (CAST($4 AS bigint) < 0 OR
            CASE WHEN flagged_at IS NOT NULL THEN 3
                WHEN expires_at IS NOT NULL AND expires_at <= $5 THEN 1
                WHEN max_clicks != 0 AND clicks >= max_clicks THEN 2
                ELSE 0 END = $4) AND
        (CAST($6 AS bigint) < 0 OR coalesce(domain_id, 0) = $6) AND
        (CAST($7 AS text) IS NULL OR (SELECT count(*) FROM link_tags lt
            JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = links.id
            AND t.fold IN (SELECT value FROM json_each($7))) =
            json_array_length($7))
    ORDER BY id DESC LIMIT $2
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE account_id = $9 AND deleted_at IS NULL AND
        (CAST($8 AS bigint) = 1 OR archived = CAST($8 AS bigint) / 2) AND
        (CAST($1 AS bigint) = 0 OR id < CAST($1 AS bigint)) AND
        (CAST($3 AS text) IS NULL OR
            lower(slug COLLATE "C") LIKE $3 ESCAPE '\' OR
            lower(title COLLATE "C") LIKE $3 ESCAPE '\' OR
            lower(target_url COLLATE "C") LIKE $3 ESCAPE '\') AND
        (CAST($4 AS bigint) < 0 OR
            CASE WHEN flagged_at IS NOT NULL THEN 3
                WHEN expires_at IS NOT NULL AND expires_at <= $5 THEN 1
                WHEN max_clicks != 0 AND clicks >= max_clicks THEN 2
                ELSE 0 END = $4) AND
        (CAST($6 AS bigint) < 0 OR coalesce(domain_id, 0) = $6) AND
        (CAST($7 AS text) IS NULL OR (SELECT count(*) FROM link_tags lt
            JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = links.id
            AND t.fold IN (SELECT json_array_elements_text($7::json))) =
            json_array_length($7::json))
    ORDER BY id DESC LIMIT $2

-- ST_LINK_LIST_ANY: link list (any account)
SELECT @STORE_LINK_COLS@ FROM links
    WHERE deleted_at IS NULL AND
        (CAST($8 AS bigint) = 1 OR archived = CAST($8 AS bigint) / 2) AND
        (CAST($1 AS bigint) = 0 OR id < CAST($1 AS bigint)) AND
        (CAST($3 AS text) IS NULL OR
            slug LIKE $3 ESCAPE '\' OR
            title LIKE $3 ESCAPE '\' OR
            target_url LIKE $3 ESCAPE '\') AND
        (CAST($4 AS bigint) < 0 OR
            CASE WHEN flagged_at IS NOT NULL THEN 3
                WHEN expires_at IS NOT NULL AND expires_at <= $5 THEN 1
                WHEN max_clicks != 0 AND clicks >= max_clicks THEN 2
                ELSE 0 END = $4) AND
        (CAST($6 AS bigint) < 0 OR coalesce(domain_id, 0) = $6) AND
        (CAST($7 AS text) IS NULL OR (SELECT count(*) FROM link_tags lt
            JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = links.id
            AND t.fold IN (SELECT value FROM json_each($7))) =
            json_array_length($7))
    ORDER BY id DESC LIMIT $2
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE deleted_at IS NULL AND
        (CAST($8 AS bigint) = 1 OR archived = CAST($8 AS bigint) / 2) AND
        (CAST($1 AS bigint) = 0 OR id < CAST($1 AS bigint)) AND
        (CAST($3 AS text) IS NULL OR
            lower(slug COLLATE "C") LIKE $3 ESCAPE '\' OR
            lower(title COLLATE "C") LIKE $3 ESCAPE '\' OR
            lower(target_url COLLATE "C") LIKE $3 ESCAPE '\') AND
        (CAST($4 AS bigint) < 0 OR
            CASE WHEN flagged_at IS NOT NULL THEN 3
                WHEN expires_at IS NOT NULL AND expires_at <= $5 THEN 1
                WHEN max_clicks != 0 AND clicks >= max_clicks THEN 2
                ELSE 0 END = $4) AND
        (CAST($6 AS bigint) < 0 OR coalesce(domain_id, 0) = $6) AND
        (CAST($7 AS text) IS NULL OR (SELECT count(*) FROM link_tags lt
            JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = links.id
            AND t.fold IN (SELECT json_array_elements_text($7::json))) =
            json_array_length($7::json))
    ORDER BY id DESC LIMIT $2

-- The create fields and the password hash of live link $20 if still
-- at revision $21, and one edit more.
-- ST_LINK_UPDATE: link update
UPDATE links SET target_url = $1, title = $2, mode = $3,
        variants = $4, redirect_type = $5, og = $6, pixel_fb = $7,
        pixel_ga = $8, pixel_gtm = $9, pixel_tiktok = $10,
        pixel_line = $11, escape_inapp = $12, expires_at = $13,
        max_clicks = $14, utm = $15, password_hash = $16,
        expired_url = $17, notes = $18, archived = $19,
        revision = revision + 1
    WHERE id = $20 AND revision = $21 AND deleted_at IS NULL
        AND account_id = $22

-- ST_LINK_UPDATE_ANY: link update (any account)
UPDATE links SET target_url = $1, title = $2, mode = $3,
        variants = $4, redirect_type = $5, og = $6, pixel_fb = $7,
        pixel_ga = $8, pixel_gtm = $9, pixel_tiktok = $10,
        pixel_line = $11, escape_inapp = $12, expires_at = $13,
        max_clicks = $14, utm = $15, password_hash = $16,
        expired_url = $17, notes = $18, archived = $19,
        revision = revision + 1
    WHERE id = $20 AND revision = $21 AND deleted_at IS NULL

-- ST_LINK_DELETE: link delete
UPDATE links SET deleted_at = $1
    WHERE id = $2 AND deleted_at IS NULL AND account_id = $3
    RETURNING slug, account_id, coalesce(domain_id, 0), archived

-- ST_LINK_DELETE_ANY: link delete (any account)
UPDATE links SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL
    RETURNING slug, account_id, coalesce(domain_id, 0), archived

-- Account $1's live links, most counted clicks first (ties: newest
-- first), of domain $2 (-1: any) carrying tag $3 (0: any): where the
-- top links of a range are looked for (stats/top.c), a walk down the
-- index links_account_clicks.
-- ST_LINK_BY_CLICKS: links by clicks
SELECT id, clicks FROM links
    WHERE account_id = $1 AND deleted_at IS NULL
        AND (CAST($2 AS bigint) < 0 OR coalesce(domain_id, 0) = $2)
        AND (CAST($3 AS bigint) = 0 OR id IN (SELECT link_id FROM link_tags
            WHERE tag_id = $3))
    ORDER BY clicks DESC, id DESC

-- The links whose ids $1 lists as a JSON array.  dialect: SQLite's
-- json_each is json_array_elements_text in PostgreSQL.
-- ST_LINK_BY_IDS: links by ids
SELECT @STORE_LINK_COLS@ FROM links
    WHERE id IN (SELECT value FROM json_each($1))
-- pg:
SELECT @STORE_LINK_COLS_PG@ FROM links
    WHERE id IN (SELECT value::bigint FROM
        json_array_elements_text($1::json))

-- Whether account $1 has a link imported from source $2 with id $3 there.
-- ST_IMPORT_SEEN: import seen
SELECT count(*) FROM link_imports
    WHERE account_id = $1 AND source = $2 AND original_id = $3

-- ST_IMPORT_ADD: import add
INSERT INTO link_imports (link_id, account_id, source, original_id,
        imported_at, history_pos, total_clicks)
    VALUES ($1, $2, $3, $4, $5, $6, $7)

-- The links of account $1 imported from source $2 whose click history
-- is still to be moved in (sql/links/0019-import-history.sql), by id.
-- ST_IMPORT_PENDING: import pending
SELECT link_id, original_id, history_pos, history_clicks, total_clicks
    FROM link_imports
    WHERE account_id = $1 AND source = $2 AND history_pos >= 0
    ORDER BY link_id

-- How far a link's history has been moved ($2 -1: all of it).
-- ST_IMPORT_PROGRESS: import progress
UPDATE link_imports SET history_pos = $2, history_clicks = $3
    WHERE link_id = $1

-- An imported link keeps when it was made at its source.
-- ST_LINK_SET_CREATED: link set created
UPDATE links SET created_at = $2 WHERE id = $1

-- The original ids among the JSON array of strings $3 that account $1
-- imported from source $2 before (one question for a batch of items).
-- PostgreSQL's asks the unique index once an id, in a subquery the
-- plan cannot turn into a join: a join or an = ANY were planned as a
-- scan of all the account's rows from the source while the statistics
-- still saw an empty table, as they do through an import (quadratic).
-- ST_IMPORT_SEEN_MANY: import seen many
SELECT original_id FROM link_imports
    WHERE account_id = $1 AND source = $2
    AND original_id IN (SELECT value FROM json_each($3))
-- pg:
SELECT x.id FROM jsonb_array_elements_text($3::jsonb) AS x(id)
    WHERE (SELECT true FROM link_imports l WHERE l.account_id = $1
        AND l.source = $2 AND l.original_id = x.id)

-- ST_IMPORT_ADD as one statement for the links of a batch: $3 a JSON
-- array of [link id, source, original id, history_pos, total_clicks].
-- ST_IMPORT_ADD_MANY: import add many
INSERT INTO link_imports (link_id, account_id, source, original_id,
        imported_at, history_pos, total_clicks)
    SELECT json_extract(value, '$[0]'), $1, json_extract(value, '$[1]'),
        json_extract(value, '$[2]'), $2, json_extract(value, '$[3]'),
        json_extract(value, '$[4]')
    FROM json_each($3)
-- pg:
INSERT INTO link_imports (link_id, account_id, source, original_id,
        imported_at, history_pos, total_clicks)
    SELECT (e ->> 0)::bigint, $1, e ->> 1, e ->> 2, $2, (e ->> 3)::bigint,
        (e ->> 4)::bigint
    FROM jsonb_array_elements($3::jsonb) AS e

-- ST_LINK_SLOT for a batch: $2 more live links of account $1, all or
-- none, unless they pass the cap $3.
-- ST_LINK_SLOTS: link slots
UPDATE accounts SET link_count = link_count + $2
    WHERE id = $1 AND link_count <= $3 - $2
-- pg:
UPDATE accounts SET link_count = link_count + $2::bigint
    WHERE id = $1 AND link_count <= $3::bigint - $2::bigint

-- ST_LINK_UNSLOT of $2 places.
-- ST_LINK_UNSLOTS: link unslots
UPDATE accounts SET link_count = max(link_count - $2, 0) WHERE id = $1
-- pg:
UPDATE accounts SET link_count = greatest(link_count - $2::bigint, 0)
    WHERE id = $1
