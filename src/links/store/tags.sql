-- tags.sql: the statements of tags.c, in the order of its enum.
-- build-aux/stmt2h.sh makes tags.sql.h of them (stmt2h.sh says how).

-- Account $1's tag of fold $3, made with the name $2 when it has none
-- (a tag keeps the name it was first written with): its id.
-- ST_TAG_UPSERT: tag upsert
INSERT INTO tags (account_id, name, fold) VALUES ($1, $2, $3)
    ON CONFLICT (account_id, fold) DO UPDATE SET fold = excluded.fold
    RETURNING id

-- ST_TAG_UPSERT of each [name, fold] of the JSON array $2 (folds
-- distinct), in the order of the folds (as two writers take the rows):
-- each one's id and fold.  A batch's tags in one round trip
-- (store_tag_cache_fill, PostgreSQL).
-- ST_TAG_UPSERT_MANY: tag upsert many
-- pg:
INSERT INTO tags (account_id, name, fold)
    SELECT $1, e ->> 0, e ->> 1 FROM jsonb_array_elements($2::jsonb) AS e
    ORDER BY e ->> 1
    ON CONFLICT (account_id, fold) DO UPDATE SET fold = excluded.fold
    RETURNING id, fold

-- Takes off link $1 the tags not in the JSON array of ids $2.  A tag
-- the link keeps is left alone: taking it off and putting it back
-- would move the link's whole history out of the tag's sums and in
-- again (sql/links/0015-account-stats.sql).
-- ST_LINK_TAGS_KEEP: link tags keep
DELETE FROM link_tags WHERE link_id = $1
    AND tag_id NOT IN (SELECT value FROM json_each($2))
-- pg:
DELETE FROM link_tags WHERE link_id = $1
    AND tag_id NOT IN (SELECT (e #>> '{}')::bigint
        FROM jsonb_array_elements($2::jsonb) AS e)

-- ST_LINK_TAG_ADD: link tag add
INSERT INTO link_tags (link_id, tag_id) VALUES ($1, $2)
    ON CONFLICT DO NOTHING

-- Account $1's tags on live links, by fold, with their live links.
-- ST_TAG_LIST: tag list
SELECT t.name, count(*) FROM tags t
    JOIN link_tags lt ON lt.tag_id = t.id
    JOIN links l ON l.id = lt.link_id AND l.deleted_at IS NULL
    WHERE t.account_id = $1
    GROUP BY t.id, t.name, t.fold ORDER BY t.fold

-- ST_TAG_BY_FOLD: tag by fold
SELECT id, name FROM tags WHERE account_id = $1 AND fold = $2

-- ST_TAG_RENAME: tag rename
UPDATE tags SET name = $2, fold = $3 WHERE id = $1

-- Tag $1's links carry tag $2 too (a rename into an existing tag).
-- ST_TAG_MERGE: tag merge
INSERT INTO link_tags (link_id, tag_id)
    SELECT link_id, $2 FROM link_tags WHERE tag_id = $1
    ON CONFLICT DO NOTHING

-- ST_TAG_UNLINK: tag unlink
DELETE FROM link_tags WHERE tag_id = $1

-- A tag off every link has only sums of 0 left: gone with it.
-- ST_TAG_CLICK_SUMS_DROP: tag click sums drop
DELETE FROM scope_click_rollups WHERE owner = $1 AND kind = 1

-- ST_TAG_CONV_SUMS_DROP: tag conversion sums drop
DELETE FROM scope_conversion_rollups WHERE owner = $1 AND kind = 1

-- ST_TAG_DELETE: tag delete
DELETE FROM tags WHERE id = $1

-- The ids of the tags of link $1.
-- ST_LINK_TAG_IDS: link tag ids
SELECT tag_id FROM link_tags WHERE link_id = $1 ORDER BY tag_id

-- Puts tags on new links: $1 a JSON array of [link id, tag id] pairs
-- (store_link_tags_new with a cache, one statement a transaction).
-- ST_LINK_TAGS_ADD_MANY: link tags add many
INSERT INTO link_tags (link_id, tag_id)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
    FROM json_each($1) WHERE true
    ON CONFLICT DO NOTHING
-- pg:
INSERT INTO link_tags (link_id, tag_id)
    SELECT (e ->> 0)::bigint, (e ->> 1)::bigint
    FROM jsonb_array_elements($1::jsonb) AS e
    ON CONFLICT DO NOTHING
