-- lz-links schema, version 9: editing links (DESIGN 3.9).
-- Times are integers: milliseconds since the epoch, UTC.

-- An edit writes a link only if nobody edited it since it was read:
-- revision counts the edits (lz-links(8), "Editing a link").
ALTER TABLE links ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- Two more events a subscription can choose: 4 link.updated and
-- 8 link.deleted (1 click and 2 link.created as before).  SQLite cannot
-- change a CHECK in place, so the table is made anew and its rows copied
-- as they are: every subscription keeps exactly the events it had.  (The
-- migrations run with foreign keys off and checked before they commit,
-- the way SQLite documents such a change.)
CREATE TABLE webhooks_new (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	url		TEXT NOT NULL,
	events		INTEGER NOT NULL CHECK (events BETWEEN 1 AND 15),
	secret_box	BLOB NOT NULL,
	created_at	INTEGER NOT NULL,
	rotated_at	INTEGER,
	disabled_at	INTEGER,
	disabled_reason	TEXT
);
INSERT INTO webhooks_new (id, account_id, url, events, secret_box,
	created_at, rotated_at, disabled_at, disabled_reason)
	SELECT id, account_id, url, events, secret_box, created_at,
	    rotated_at, disabled_at, disabled_reason FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_new RENAME TO webhooks;
CREATE INDEX webhooks_account ON webhooks(account_id)
	WHERE disabled_at IS NULL;
