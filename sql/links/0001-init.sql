-- lz-links schema, version 1: accounts, API keys, monthly usage, links.
-- Times are integers: milliseconds since the epoch, UTC.

CREATE TABLE accounts (
	id		INTEGER PRIMARY KEY,
	email		TEXT NOT NULL UNIQUE COLLATE NOCASE,
	plan		TEXT NOT NULL,
	password_hash	TEXT,			-- argon2id, for the dashboard
	disabled	INTEGER NOT NULL DEFAULT 0,
	created_at	INTEGER NOT NULL
);

-- API keys are stored only as a BLAKE2b-256 hash of the whole key; the
-- prefix and last four characters are kept to tell keys apart in lists.
CREATE TABLE api_keys (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	hash		BLOB NOT NULL UNIQUE,
	prefix		TEXT NOT NULL,
	last4		TEXT NOT NULL,
	name		TEXT NOT NULL DEFAULT '',
	created_at	INTEGER NOT NULL,
	last_used_at	INTEGER,
	revoked_at	INTEGER
);
CREATE INDEX api_keys_account ON api_keys(account_id);

-- Authenticated API calls per account and UTC calendar month ('YYYY-MM').
CREATE TABLE usage (
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	month		TEXT NOT NULL,
	calls		INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (account_id, month)
) WITHOUT ROWID;

-- A deleted link keeps its row (deleted_at set) so its slug stays taken:
-- an old printed short URL never starts pointing somewhere else.
CREATE TABLE links (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	slug		TEXT NOT NULL UNIQUE,
	target_url	TEXT NOT NULL,
	title		TEXT,
	mode		TEXT NOT NULL DEFAULT 'simple'
			CHECK (mode IN ('simple', 'ab', 'device', 'geo')),
	variants	TEXT,			-- JSON, as validated
	redirect_type	INTEGER NOT NULL DEFAULT 302
			CHECK (redirect_type IN (301, 302)),
	og		TEXT,			-- JSON object
	pixel_fb	TEXT,
	pixel_ga	TEXT,
	pixel_gtm	TEXT,
	pixel_tiktok	TEXT,
	pixel_line	TEXT,
	escape_inapp	INTEGER NOT NULL DEFAULT 0,
	expires_at	INTEGER,
	max_clicks	INTEGER NOT NULL DEFAULT 0,
	utm		TEXT,			-- JSON object
	password_hash	TEXT,			-- argon2id
	clicks		INTEGER NOT NULL DEFAULT 0, -- counted (human) clicks
	created_at	INTEGER NOT NULL,
	deleted_at	INTEGER,
	flagged_at	INTEGER,		-- safety scan: disabled (410)
	flag_reason	TEXT
);
CREATE INDEX links_account ON links(account_id, id) WHERE deleted_at IS NULL;
