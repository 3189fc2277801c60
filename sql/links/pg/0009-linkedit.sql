-- lz-links schema on PostgreSQL, version 9: editing links
-- (../0009-linkedit.sql, DESIGN 3.9).

-- An edit writes a link only if nobody edited it since it was read:
-- revision counts the edits (lz-links(8), "Editing a link").
ALTER TABLE links ADD COLUMN revision bigint NOT NULL DEFAULT 0;

-- Two more events a subscription can choose: 4 link.updated and
-- 8 link.deleted (1 click and 2 link.created as before).  PostgreSQL
-- changes the CHECK in place (SQLite makes the table anew): every
-- subscription keeps exactly the events it had.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
	ADD CONSTRAINT webhooks_events_check CHECK (events BETWEEN 1 AND 15);
