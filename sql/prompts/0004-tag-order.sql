-- tags.rank: the place of each tag in the tag list's order (most used
-- first, then by slug) by the counts of the import (base_count), so
-- that "lzctl prompts import" builds the tag list and a request reads
-- its page off an index -- as long as no scheduled prompt has become
-- visible since the import; then lz-prompts counts and sorts as before
-- (lz-prompts(8), "Answer cache").
ALTER TABLE tags ADD COLUMN rank INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tags_rank ON tags (rank, base_count);
