-- prompt_detail: the detail answer of each prompt, rendered by "lzctl
-- prompts import" in both languages (lz-prompts(8), "Detail answers"):
-- a JSON object without "url", which lz-prompts puts in front from
-- prompts_base_url.  A detail request is then one indexed read and a
-- copy, instead of building and serialising the answer from its columns
-- on every request (over a third of the worker's CPU time on a detail).
-- The texts only the detail shows are stored there and nowhere else.

ALTER TABLE prompt_text DROP COLUMN preview;
ALTER TABLE prompt_text DROP COLUMN preview_en;
ALTER TABLE prompt_text DROP COLUMN context;
ALTER TABLE prompt_text DROP COLUMN context_en;
ALTER TABLE prompt_text DROP COLUMN sample_output;
ALTER TABLE prompt_text DROP COLUMN sample_output_en;
ALTER TABLE prompt_text DROP COLUMN full_prompt;
ALTER TABLE prompt_text DROP COLUMN full_prompt_en;
ALTER TABLE prompt_text DROP COLUMN variables;

-- A table of its own, so the rows lists and searches read stay small.
CREATE TABLE prompt_detail (
	prompt_id	INTEGER PRIMARY KEY REFERENCES prompts (id),
	detail		TEXT NOT NULL,
	detail_en	TEXT NOT NULL
);
