-- pstore_catalog.sql: the statements of pstore_catalog.c, in the order of its enum.
-- build-aux/stmt2h.sh makes pstore_catalog.sql.h of them (stmt2h.sh says how).

-- Tags are few: their counts are merged and sorted in C.
-- RD_TAGS: tags
SELECT id, slug, label, label_en, base_count FROM tags
    WHERE @HAS("search", "$1")@ ORDER BY id

-- RD_TAGS_SCHEDULED: scheduled tags
SELECT pt.tag_id, count(*) FROM prompts p
    JOIN prompt_tags pt ON pt.prompt_id = p.id
    WHERE @PSTORE_SCHEDULED("p", "$1")@ GROUP BY pt.tag_id

-- Without them, the order and counts of the import.
-- RD_TAGS_DUE: scheduled prompts due
SELECT EXISTS (SELECT 1 FROM prompts p WHERE
    @PSTORE_SCHEDULED("p", "$1")@)

-- RD_TAGS_RANKED: tags by rank
SELECT id, slug, label, label_en, base_count FROM tags
    WHERE @HAS("search", "$1")@ AND base_count >= $2 ORDER BY rank
    LIMIT $3 OFFSET $4

-- RD_TAGS_RANKED_COUNT: tags by rank count
SELECT count(*) FROM tags
    WHERE @HAS("search", "$1")@ AND base_count >= $2

-- $1 medium, $2 query, $3 limit, $4 offset, $5 now
-- RD_TOOLS: tools
SELECT t.key, t.label, t.label_en, t.medium, t.description,
    t.description_en, @TOOL_COUNT("$5")@
    FROM tools t
    WHERE ($1 IS NULL OR t.medium = $1) AND @HAS("t.search", "$2")@
    ORDER BY t.id LIMIT $3 OFFSET $4

-- RD_TOOLS_COUNT: tool count
SELECT count(*) FROM tools t
    WHERE ($1 IS NULL OR t.medium = $1) AND @HAS("t.search", "$2")@

-- RD_INTEGRATIONS: integrations
SELECT i.key, i.tool_key, i.name, i.vendor, i.category,
    i.generator_kind, i.generator_url, t.key, @TOOL_COUNT("$1")@
    FROM integrations i JOIN tools t ON t.id = i.tool_id ORDER BY i.id

-- $1 category, $2 query, $3 limit, $4 offset
-- RD_MODELS: models
SELECT @PSTORE_MODEL_COLS@ FROM models
    WHERE ($1 IS NULL OR category = $1) AND @HAS("search", "$2")@
    ORDER BY id LIMIT $3 OFFSET $4

-- RD_MODELS_COUNT: model count
SELECT count(*) FROM models
    WHERE ($1 IS NULL OR category = $1) AND @HAS("search", "$2")@

-- RD_COLLECTIONS: collections
SELECT @COLL_COLS@ FROM collections ORDER BY updated_at DESC, slug
    LIMIT $1 OFFSET $2

-- RD_COLLECTIONS_COUNT: collection count
SELECT count(*) FROM collections

-- RD_COLLECTION: collection
SELECT @COLL_COLS@ FROM collections WHERE slug = $1

-- $1 collection, $2 now, $3 limit, $4 offset
-- RD_ITEMS: collection items
SELECT ci.position, ci.note, ci.note_en, x.slug, x.title, x.title_en,
    p.is_pro
    FROM collection_items ci JOIN prompts p ON p.id = ci.prompt_id
    JOIN prompt_text x ON x.prompt_id = p.id
    WHERE ci.collection_id = $1 AND p.visible_at <= $2
    ORDER BY ci.position LIMIT $3 OFFSET $4

-- RD_ITEMS_COUNT: collection item count
SELECT count(*) FROM collection_items ci
    JOIN prompts p ON p.id = ci.prompt_id
    WHERE ci.collection_id = $1 AND p.visible_at <= $2

-- $1 query, $2 limit, $3 offset
-- RD_TUTORIALS: tutorials
SELECT slug, title, summary, NULL, source_url, published_at, updated_at
    FROM tutorials WHERE @HAS("search", "$1")@
    ORDER BY published_at DESC, slug LIMIT $2 OFFSET $3

-- RD_TUTORIALS_COUNT: tutorial count
SELECT count(*) FROM tutorials WHERE @HAS("search", "$1")@

-- RD_TUTORIAL: tutorial
SELECT slug, title, summary, markdown, source_url, published_at,
    updated_at
    FROM tutorials WHERE slug = $1

-- $1 query, $2 category, $3 limit, $4 offset
-- RD_KEYWORDS: keywords
SELECT @PSTORE_KW_COLS@ FROM keywords
    WHERE @HAS("search", "$1")@ AND ($2 IS NULL OR category = $2)
    ORDER BY id LIMIT $3 OFFSET $4

-- RD_KEYWORDS_COUNT: keyword count
SELECT count(*) FROM keywords
    WHERE @HAS("search", "$1")@ AND ($2 IS NULL OR category = $2)

-- RD_KEYWORD: keyword
SELECT @PSTORE_KW_COLS@ FROM keywords WHERE slug = $1
