-- lz-links schema, version 14: organising links (DESIGN 3.13, lz-links(8)
-- "Organising links"): tags, notes, the archive.
--
-- A tag is an account's: name as first written, fold its case-folded
-- form (tag.h), which two tags never share.  link_tags says which links
-- carry it.  notes: the account's own text about a link (never in click
-- events).  archived: 1 when put away; the list hides it by default,
-- it still redirects and counts, and it holds no place of the link cap
-- (accounts.link_count counts the live links not archived).
CREATE TABLE tags (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	name		TEXT NOT NULL,
	fold		TEXT NOT NULL,
	UNIQUE (account_id, fold)
);
CREATE TABLE link_tags (
	link_id		INTEGER NOT NULL REFERENCES links(id),
	tag_id		INTEGER NOT NULL REFERENCES tags(id),
	PRIMARY KEY (link_id, tag_id)
);
-- A tag's links (the list filter, renames and the tag list).
CREATE INDEX link_tags_tag ON link_tags(tag_id, link_id);
ALTER TABLE links ADD COLUMN notes TEXT;
ALTER TABLE links ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
