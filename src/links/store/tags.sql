-- tags.sql: the statements of tags.c, in the order of its enum.
-- build-aux/stmt2h.sh makes tags.sql.h of them (stmt2h.sh says how).

-- Account $1's tag of fold $3, made with the name $2 when it has none
-- (a tag keeps the name it was first written with): its id.
-- ST_TAG_UPSERT: tag upsert
INSERT INTO tags (account_id, name, fold) VALUES ($1, $2, $3)
    ON CONFLICT (account_id, fold) DO UPDATE SET fold = excluded.fold
    RETURNING id

-- ST_LINK_TAGS_CLEAR: link tags clear
DELETE FROM link_tags WHERE link_id = $1

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

-- ST_TAG_DELETE: tag delete
DELETE FROM tags WHERE id = $1
