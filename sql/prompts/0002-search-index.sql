-- Literal search without FTS5 (lz-prompts(8), "Literal search"): an
-- index of every gram (one, two or three characters) of the folded search
-- text, with positions for the trigrams, plus sets of prompts per filter
-- value and the ids in the two non-recommended orders, all precomputed by
-- "lzctl prompts import" (src/prompts/grams.h has the stored forms).
-- FTS5's phrase matching cost 10-16 ms on terms in most prompts; these
-- answer any query with a few blob reads and bitset operations.

DROP TABLE prompt_fts_vocab;
DROP TABLE prompt_fts;

-- key: the gram's code points, 21 bits each (gram_key); ndocs: how many
-- prompts hold it; posbytes: the size of its gram_pos.pos (trigrams;
-- what verifying a query by it costs); docs: the stored set of them.
CREATE TABLE gram_docs (
	key		INTEGER PRIMARY KEY,
	ndocs		INTEGER NOT NULL,
	posbytes	INTEGER,
	docs		BLOB NOT NULL
);

-- Trigrams only: for each prompt of gram_docs.docs, in order, where the
-- trigram starts in its search text (in characters).
CREATE TABLE gram_pos (
	key		INTEGER PRIMARY KEY REFERENCES gram_docs (key),
	pos		BLOB NOT NULL
);

-- Stored sets of prompts (visible_at 0 or not) by name: "published"
-- (visible_at 0), "free", "category:<category>", "tool:<tools.id>",
-- "tag:<tags.id>".  A value no prompt has has no row.
CREATE TABLE prompt_sets (
	name		TEXT PRIMARY KEY,
	docs		BLOB NOT NULL
) WITHOUT ROWID;

-- Every prompt id in the order named "updated" or "rating" (the orders of
-- upd_rank and rating_rank), as 32-bit little-endian integers.
CREATE TABLE prompt_orders (
	id		INTEGER PRIMARY KEY,
	sort		TEXT NOT NULL UNIQUE,
	ids		BLOB NOT NULL
);
