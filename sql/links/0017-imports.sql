-- lz-links schema, version 17: where imported links came from
-- (lz-links(8) "Importing", lzctl(8) import): a link made by an import
-- remembers its source ("csv", "yourls", ...) and its id there (the
-- source's slug, or the line it was read from), so that the same import
-- run again makes nothing twice.
CREATE TABLE link_imports (
	link_id		INTEGER PRIMARY KEY REFERENCES links(id),
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	source		TEXT NOT NULL,
	original_id	TEXT NOT NULL,
	imported_at	INTEGER NOT NULL,
	UNIQUE (account_id, source, original_id)
);
