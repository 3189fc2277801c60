-- lz-links schema on PostgreSQL, version 17: where imported links came
-- from (../0017-imports.sql says what and why).
CREATE TABLE link_imports (
	link_id		bigint PRIMARY KEY REFERENCES links(id),
	account_id	bigint NOT NULL REFERENCES accounts(id),
	source		text COLLATE "C" NOT NULL,
	original_id	text COLLATE "C" NOT NULL,
	imported_at	bigint NOT NULL,
	UNIQUE (account_id, source, original_id)
);
