-- The prompt library database, built whole by "lzctl prompts import"
-- from a data file (lz-prompts-data(5)) and swapped in with rename(2).
-- lz-prompts opens it read-only and never changes it, so there are no
-- migrations of data: a newer schema means importing again.
--
-- Only what the API may show is stored: draft prompts and unpublished
-- collections are checked by the import and left out.  Scheduled prompts
-- are stored with the time they become visible (visible_at, ms); published
-- ones, and scheduled ones already due at the import, have visible_at = 0.
-- Every query filters on visible_at <= now; counts made at the import
-- (base_count, prompt_facets) cover visible_at = 0, and the few rows with
-- 0 < visible_at <= now are counted per request.
--
-- Search text ("search" columns and prompt_fts) is folded to lower case by
-- the importer with the same function the service folds queries with
-- (towlower under C.UTF-8); fields are separated by two U+001F, which no
-- query can contain (control characters are refused), so a match never
-- spans two fields.

CREATE TABLE meta (
	key		TEXT PRIMARY KEY,
	value		TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE tools (
	id		INTEGER PRIMARY KEY,	-- order of the data file
	key		TEXT NOT NULL UNIQUE,
	label		TEXT NOT NULL,
	label_en	TEXT,
	medium		TEXT NOT NULL,		-- image|video|music|tutorial
	description	TEXT NOT NULL,
	description_en	TEXT,
	search		TEXT NOT NULL,
	base_count	INTEGER NOT NULL	-- published prompts (visible_at 0)
);

-- Every name the tool filter accepts: keys, legacy aliases and the
-- tool_key of integrations, folded.
CREATE TABLE tool_names (
	name		TEXT PRIMARY KEY,
	tool_id		INTEGER NOT NULL REFERENCES tools (id)
) WITHOUT ROWID;

CREATE TABLE tags (
	id		INTEGER PRIMARY KEY,
	slug		TEXT NOT NULL UNIQUE,
	label		TEXT NOT NULL,
	label_en	TEXT,
	search		TEXT NOT NULL,		-- labels and aliases, folded
	base_count	INTEGER NOT NULL	-- published prompts (visible_at 0)
);

-- Every name the tag filter accepts (slug, labels, aliases), normalised
-- like the filter's value.
CREATE TABLE tag_names (
	name		TEXT PRIMARY KEY,
	tag_id		INTEGER NOT NULL REFERENCES tags (id)
) WITHOUT ROWID;

-- The rows searches filter and sort on, kept narrow so that the whole
-- table stays in a worker's page cache (a common search looks up every
-- match here); the rest is in prompt_text.  id is the position in the
-- recommended order, upd_rank and rating_rank the positions in the other
-- two orders (ties already broken), so every order is total and stable.
CREATE TABLE prompts (
	id		INTEGER PRIMARY KEY,
	visible_at	INTEGER NOT NULL,
	is_pro		INTEGER NOT NULL,
	category	TEXT NOT NULL,		-- image|video|music|tutorial
	tool_id		INTEGER NOT NULL REFERENCES tools (id),
	updated_at	INTEGER NOT NULL,	-- ms, UTC
	upd_rank	INTEGER NOT NULL,
	rating_rank	INTEGER NOT NULL
);
CREATE INDEX prompts_upd ON prompts (upd_rank, visible_at, category,
    tool_id, is_pro);
CREATE INDEX prompts_rating ON prompts (rating_rank, visible_at, category,
    tool_id, is_pro);
CREATE INDEX prompts_tool ON prompts (tool_id, visible_at);
CREATE INDEX prompts_visible ON prompts (visible_at, category, tool_id,
    is_pro);
CREATE INDEX prompts_changed ON prompts (updated_at, upd_rank);

-- Counts of published prompts (visible_at 0) by facet, so list totals
-- need no scan; scheduled prompts are counted apart.
CREATE TABLE prompt_facets (
	category	TEXT NOT NULL,
	tool_id		INTEGER NOT NULL,
	is_pro		INTEGER NOT NULL,
	n		INTEGER NOT NULL,
	PRIMARY KEY (category, tool_id, is_pro)
) WITHOUT ROWID;

CREATE TABLE prompt_text (
	prompt_id	INTEGER PRIMARY KEY REFERENCES prompts (id),
	slug		TEXT NOT NULL UNIQUE,
	difficulty	TEXT NOT NULL,
	tags		TEXT NOT NULL,		-- JSON array of tag slugs
	rating_avg	REAL,			-- NULL: unrated
	rating_count	INTEGER NOT NULL,
	title		TEXT NOT NULL,
	title_en	TEXT,
	summary		TEXT NOT NULL,
	summary_en	TEXT,
	preview		TEXT NOT NULL,
	preview_en	TEXT,
	context		TEXT NOT NULL,
	context_en	TEXT,
	sample_output	TEXT NOT NULL,
	sample_output_en TEXT,
	full_prompt	TEXT,			-- NULL for PRO entries
	full_prompt_en	TEXT,
	variables	TEXT			-- JSON [{name, description,
						-- description_en}], NULL
						-- for PRO entries
);

CREATE TABLE prompt_tags (
	tag_id		INTEGER NOT NULL REFERENCES tags (id),
	prompt_id	INTEGER NOT NULL REFERENCES prompts (id),
	PRIMARY KEY (tag_id, prompt_id)
) WITHOUT ROWID;
CREATE INDEX prompt_tags_prompt ON prompt_tags (prompt_id, tag_id);

-- Literal search: rowid = prompts.id.  Public metadata, examples, and the
-- bodies and variables of free entries only (never of PRO entries).
CREATE VIRTUAL TABLE prompt_fts USING fts5 (text,
    tokenize = 'trigram case_sensitive 1');
CREATE VIRTUAL TABLE prompt_fts_vocab USING fts5vocab (prompt_fts, row);

CREATE TABLE collections (
	id		INTEGER PRIMARY KEY,	-- newest update first
	slug		TEXT NOT NULL UNIQUE,
	title		TEXT NOT NULL,
	title_en	TEXT,
	summary		TEXT NOT NULL,
	summary_en	TEXT,
	kicker		TEXT,
	kicker_en	TEXT,
	unlock_cost	INTEGER,
	updated_at	INTEGER NOT NULL,
	translation	TEXT NOT NULL		-- complete|partial|source
);

CREATE TABLE collection_items (
	collection_id	INTEGER NOT NULL REFERENCES collections (id),
	position	INTEGER NOT NULL,	-- 1-based, as in the data file
	prompt_id	INTEGER NOT NULL REFERENCES prompts (id),
	note		TEXT NOT NULL,
	note_en		TEXT,
	PRIMARY KEY (collection_id, position)
) WITHOUT ROWID;

CREATE TABLE models (
	id		INTEGER PRIMARY KEY,	-- sort order
	key		TEXT NOT NULL UNIQUE,
	name		TEXT NOT NULL,
	category	TEXT NOT NULL,	-- image|video|music|tutorial|audio
	version		TEXT NOT NULL,
	vendor		TEXT NOT NULL,
	notes		TEXT NOT NULL,
	notes_en	TEXT,
	source_url	TEXT NOT NULL,
	checked_on	TEXT NOT NULL,	-- YYYY-MM-DD
	verified_on	TEXT NOT NULL,	-- YYYY-MM-DD, "" when unverified
	verification	TEXT NOT NULL,
	status		TEXT NOT NULL,
	tool_key	TEXT NOT NULL,	-- "" when none
	generator_url	TEXT NOT NULL,
	record_type	TEXT NOT NULL,
	search		TEXT NOT NULL
);

CREATE TABLE integrations (
	id		INTEGER PRIMARY KEY,
	key		TEXT NOT NULL UNIQUE,
	tool_key	TEXT NOT NULL,
	tool_id		INTEGER NOT NULL REFERENCES tools (id),
	name		TEXT NOT NULL,
	vendor		TEXT NOT NULL,
	category	TEXT NOT NULL,	-- image|video|music|audio|text
	generator_kind	TEXT NOT NULL,
	generator_url	TEXT NOT NULL	-- "" when none
);

CREATE TABLE tutorials (
	id		INTEGER PRIMARY KEY,	-- newest first
	slug		TEXT NOT NULL UNIQUE,
	title		TEXT NOT NULL,
	summary		TEXT NOT NULL,
	markdown	TEXT NOT NULL,
	source_url	TEXT NOT NULL,
	published_at	INTEGER NOT NULL,
	updated_at	INTEGER NOT NULL,
	search		TEXT NOT NULL
);

CREATE TABLE keywords (
	id		INTEGER PRIMARY KEY,	-- by term
	slug		TEXT NOT NULL UNIQUE,
	term		TEXT NOT NULL,
	term_en		TEXT NOT NULL,
	category	TEXT NOT NULL,
	definition	TEXT NOT NULL,
	when_to_use	TEXT NOT NULL,
	how_to_ask	TEXT NOT NULL,
	gotcha		TEXT NOT NULL,
	related		TEXT NOT NULL,	-- JSON array of keyword slugs
	tags		TEXT NOT NULL,	-- JSON array of tag slugs
	updated_at	INTEGER NOT NULL,
	search		TEXT NOT NULL
);
CREATE INDEX keywords_category ON keywords (category, id);
