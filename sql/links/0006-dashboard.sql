-- lz-links schema: the dashboard's sessions and sign-in throttling.
-- Times are integers: milliseconds since the epoch, UTC.

-- A dashboard session.  The browser holds a random token in a cookie; only
-- its BLAKE2b-256 hash is stored, so a copy of the database signs no one
-- in.  csrf is the per-session token the page sends in X-CSRF-Token.
CREATE TABLE sessions (
	id		INTEGER PRIMARY KEY,
	hash		BLOB NOT NULL UNIQUE,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	csrf		TEXT NOT NULL,
	created_at	INTEGER NOT NULL,
	seen_at		INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);

-- Failed sign-ins (and sign-ups) per scope: "email:<address>" or
-- "addr:<client address, IPv6 by /64>".  Counted over a sliding window;
-- rows older than a day are purged as new ones come in.
CREATE TABLE login_failures (
	scope		TEXT NOT NULL,
	at		INTEGER NOT NULL
);
CREATE INDEX login_failures_scope ON login_failures(scope, at);
