-- links.sql: the statements of links.c, in the order of its enum.
-- build-aux/stmt2h.sh makes links.sql.h of them (stmt2h.sh says how).

-- ST_LINK_COUNT: link count
SELECT count(*) FROM links WHERE account_id = $1 AND deleted_at IS NULL

-- ST_LINK_INSERT: link insert
INSERT INTO links (@LINK_FIELDS@, account_id, slug, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
        $15, $16, $17, $18, $19)
    ON CONFLICT (slug) DO NOTHING RETURNING id

-- ST_LINK_GET: link get
SELECT @STORE_LINK_COLS_AGG("json_group_object")@ FROM links
    WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL
-- pg:
SELECT @STORE_LINK_COLS_AGG("json_object_agg")@ FROM links
    WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL

-- ST_LINK_GET_ANY: link get (any account)
SELECT @STORE_LINK_COLS_AGG("json_group_object")@ FROM links
    WHERE id = $1 AND deleted_at IS NULL
-- pg:
SELECT @STORE_LINK_COLS_AGG("json_object_agg")@ FROM links
    WHERE id = $1 AND deleted_at IS NULL

-- ST_LINK_BY_ID: link by id
SELECT @STORE_LINK_COLS_AGG("json_group_object")@ FROM links
    WHERE id = $1
-- pg:
SELECT @STORE_LINK_COLS_AGG("json_object_agg")@ FROM links WHERE id = $1

-- ST_LINK_BY_SLUG: link by slug
SELECT @STORE_LINK_COLS_AGG("json_group_object")@ FROM links
    WHERE slug = $1
-- pg:
SELECT @STORE_LINK_COLS_AGG("json_object_agg")@ FROM links
    WHERE slug = $1

-- ST_LINK_LIST: link list
@LINK_LIST("json_group_object", LOWER)@
-- pg:
@LINK_LIST("json_object_agg", LOWER_PG)@

-- ST_LINK_LIST_ANY: link list (any account)
@LINK_LIST_ANY("json_group_object", LOWER)@
-- pg:
@LINK_LIST_ANY("json_object_agg", LOWER_PG)@

-- ST_LINK_UPDATE: link update
@LINK_UPDATE@ AND account_id = $19

-- ST_LINK_UPDATE_ANY: link update (any account)
@LINK_UPDATE@

-- ST_LINK_DELETE: link delete
UPDATE links SET deleted_at = $1
    WHERE id = $2 AND deleted_at IS NULL AND account_id = $3
    RETURNING slug, account_id

-- ST_LINK_DELETE_ANY: link delete (any account)
UPDATE links SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL
    RETURNING slug, account_id

-- The links whose ids $1 lists as a JSON array.  dialect: SQLite's
-- json_each is json_array_elements_text in PostgreSQL.
-- ST_LINK_BY_IDS: links by ids
SELECT @STORE_LINK_COLS_AGG("json_group_object")@ FROM links
    WHERE id IN (SELECT value FROM json_each($1))
-- pg:
SELECT @STORE_LINK_COLS_AGG("json_object_agg")@ FROM links
    WHERE id IN (SELECT value::bigint FROM
        json_array_elements_text($1::json))
