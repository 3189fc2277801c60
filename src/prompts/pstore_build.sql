-- pstore_build.sql: the statements of pstore_build.c, in the order of its enum.
-- build-aux/stmt2h.sh makes pstore_build.sql.h of them (stmt2h.sh says how).

-- BD_META: meta
INSERT INTO meta (key, value) VALUES ($1, $2)

-- BD_TOOL: tool
INSERT INTO tools (key, label, label_en, medium, description,
    description_en, search, base_count)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 0) RETURNING id

-- BD_TOOL_NAME: tool name
INSERT INTO tool_names (name, tool_id) VALUES ($1, $2)
    ON CONFLICT (name) DO NOTHING

-- BD_TAG: tag
INSERT INTO tags (slug, label, label_en, search, base_count)
    VALUES ($1, $2, $3, $4, 0) RETURNING id

-- BD_TAG_NAME: tag name
INSERT INTO tag_names (name, tag_id) VALUES ($1, $2)
    ON CONFLICT (name) DO NOTHING

-- BD_TAG_NAME_OWNER: tag name owner
SELECT tag_id FROM tag_names WHERE name = $1

-- BD_PROMPT: prompt
INSERT INTO prompts (id, visible_at, is_pro, category, tool_id,
    updated_at, upd_rank, rating_rank)
    VALUES ($1, $2, $3, $4, $5, $6, 0, 0)

-- BD_PROMPT_TEXT: prompt text
INSERT INTO prompt_text (prompt_id, slug, difficulty, tags, rating_avg,
    rating_count, title, title_en, summary, summary_en)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)

-- BD_PROMPT_DETAIL: prompt detail
INSERT INTO prompt_detail (prompt_id, detail, detail_en)
    VALUES ($1, $2, $3)

-- BD_GRAM_DOCS: gram
INSERT INTO gram_docs (key, ndocs, posbytes, docs)
    VALUES ($1, $2, $3, $4)

-- BD_GRAM_POS: trigram positions
INSERT INTO gram_pos (key, pos) VALUES ($1, $2)

-- BD_SET: prompt set
INSERT INTO prompt_sets (name, docs) VALUES ($1, $2)

-- BD_ORDER: prompt order
INSERT INTO prompt_orders (sort, ids) VALUES ($1, $2)

-- BD_PROMPT_TAG: prompt tag
INSERT INTO prompt_tags (tag_id, prompt_id) VALUES ($1, $2)

-- BD_COLLECTION: collection
INSERT INTO collections (slug, title, title_en, summary, summary_en,
    kicker, kicker_en, unlock_cost, updated_at, translation)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id

-- BD_ITEM: collection item
INSERT INTO collection_items (collection_id, position, prompt_id, note,
    note_en)
    VALUES ($1, $2, $3, $4, $5)

-- BD_MODEL: model
INSERT INTO models (@PSTORE_MODEL_COLS@, search)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
        $15, $16)

-- BD_INTEGRATION: integration
INSERT INTO integrations (key, tool_key, tool_id, name, vendor,
    category, generator_kind, generator_url)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)

-- BD_TUTORIAL: tutorial
INSERT INTO tutorials (slug, title, summary, markdown, source_url,
    published_at, updated_at, search)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)

-- BD_KEYWORD: keyword
INSERT INTO keywords (@PSTORE_KW_COLS@, search)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)

-- The size of the stored sets: ids [0, max id + 1).
-- BD_BITS: prompt ids
SELECT coalesce(max(id), 0) + 1 FROM prompts

-- The stored sets of prompt_sets, as (name, id) in order.
-- BD_SETS: prompt sets
SELECT 'published', id FROM prompts WHERE visible_at = 0
    UNION ALL SELECT 'free', id FROM prompts WHERE is_pro = 0
    UNION ALL SELECT 'category:' || category, id FROM prompts
    UNION ALL SELECT 'tool:' || tool_id, id FROM prompts
    UNION ALL SELECT 'tag:' || tag_id, prompt_id FROM prompt_tags
    ORDER BY 1, 2

-- The orders of prompt_orders.
-- BD_ORDER_UPDATED: updated order
SELECT id FROM prompts ORDER BY upd_rank

-- BD_ORDER_RATING: rating order
SELECT id FROM prompts ORDER BY rating_rank
