-- pstore.sql: the statements of pstore.c, in the order of its enum.
-- build-aux/stmt2h.sh makes pstore.sql.h of them (stmt2h.sh says how).

-- RD_TAG_ID: tag id
SELECT tag_id FROM tag_names WHERE name = $1

-- RD_TAG_SLUG: tag slug
SELECT slug FROM tags WHERE id = $1

-- RD_TOOL_ID: tool id
SELECT tool_id FROM tool_names WHERE name = $1

-- RD_PAGE_REC: prompt page
SELECT id FROM prompts WHERE @PPAGE@ ORDER BY id LIMIT $5 OFFSET $6

-- RD_PAGE_UPD: prompt page by update
SELECT id FROM prompts WHERE @PPAGE@ ORDER BY upd_rank
    LIMIT $5 OFFSET $6

-- RD_PAGE_RATING: prompt page by rating
SELECT id FROM prompts WHERE @PPAGE@ ORDER BY rating_rank
    LIMIT $5 OFFSET $6

-- RD_COUNT_FACETS: prompt facets
SELECT coalesce(sum(n), 0) FROM prompt_facets
    WHERE ($1 IS NULL OR category = $1) AND ($2 = 0 OR tool_id = $2) AND
        ($3 = 0 OR is_pro = 0)

-- RD_COUNT_SCHEDULED: scheduled prompts
SELECT count(*) FROM prompts p
    WHERE @PSTORE_SCHEDULED("p", "$1")@ AND ($2 IS NULL OR category =
        $2) AND ($3 = 0 OR tool_id = $3) AND ($4 = 0 OR is_pro = 0)

-- Searches (grams.h): the size of the sets, the scheduled prompts
-- visible by now ($1), a stored set, a gram, an order.
-- RD_BITS: prompt ids
SELECT coalesce(max(id), 0) + 1 FROM prompts

-- RD_DUE: scheduled prompts due
SELECT id FROM prompts WHERE @PSTORE_SCHEDULED("prompts", "$1")@

-- RD_SET: prompt set
SELECT docs FROM prompt_sets WHERE name = $1

-- RD_GRAM_STAT: gram size
SELECT ndocs, posbytes FROM gram_docs WHERE key = $1

-- RD_GRAM_DOCS: gram set
SELECT ndocs, docs FROM gram_docs WHERE key = $1

-- RD_ORDER: prompt order
SELECT id FROM prompt_orders WHERE sort = $1

-- RD_SUMMARY: prompt summary
SELECT @SUMMARY_COLS@ FROM prompts p JOIN tools t ON t.id = p.tool_id
    JOIN prompt_text x ON x.prompt_id = p.id WHERE p.id = $1

-- RD_DETAIL: prompt detail
SELECT d.detail, d.detail_en FROM prompt_text x
    JOIN prompts p ON p.id = x.prompt_id
    JOIN prompt_detail d ON d.prompt_id = x.prompt_id
    WHERE x.slug = $1 AND p.visible_at <= $2

-- The updated order's index, from its start to the first prompt
-- updated before $1 (found on the updated_at index).
-- RD_CHANGELOG: changelog
SELECT id FROM prompts
    WHERE upd_rank < coalesce((SELECT upd_rank FROM prompts WHERE
        updated_at < $1 ORDER BY updated_at DESC, upd_rank LIMIT 1),
        9223372036854775807) AND visible_at <= $2
    ORDER BY upd_rank LIMIT $3

-- RD_CHANGELOG_COUNT: changelog count
SELECT count(*) FROM prompts WHERE updated_at >= $1 AND visible_at <= $2

-- RD_NEXT_VISIBLE: next visible
SELECT coalesce(min(visible_at), 9223372036854775807) FROM prompts
    WHERE visible_at > $1
