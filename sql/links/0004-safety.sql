-- lz-links schema, version 4: the destination safety scan (DESIGN 3.5).

-- Local blocklists.  kind 'host' lists a host name and every host under
-- it; kind 'url' lists a Safe Browsing expression (canonical host, path
-- and query, no scheme or port: "evil.example/login/"), matched against
-- the expressions of a destination.  One row per entry and source (a feed
-- such as 'urlhaus', or 'manual'); an import updates seen_at of what the
-- feed still lists and then drops the rest of that source.  The primary
-- key is the look-up index; WITHOUT ROWID keeps a million entries in one
-- b-tree.
CREATE TABLE blocklist (
	kind		TEXT NOT NULL CHECK (kind IN ('host', 'url')),
	value		TEXT NOT NULL,
	source		TEXT NOT NULL,
	reason		TEXT NOT NULL DEFAULT '',
	added_at	INTEGER NOT NULL,
	seen_at		INTEGER NOT NULL,
	PRIMARY KEY (kind, value, source)
) WITHOUT ROWID;

-- Links disabled by the scan (lzctl link flagged).
CREATE INDEX links_flagged ON links(flagged_at) WHERE flagged_at IS NOT NULL;
