-- lz-links schema on PostgreSQL, version 4: the destination safety scan
-- (../0004-safety.sql, DESIGN 3.5).

-- Local blocklists.  kind 'host' lists a host name and every host under
-- it; kind 'url' lists a Safe Browsing expression (canonical host, path
-- and query, no scheme or port: "evil.example/login/"), matched against
-- the expressions of a destination.  One row per entry and source (a feed
-- such as 'urlhaus', or 'manual'); an import updates seen_at of what the
-- feed still lists and then drops the rest of that source.  The primary
-- key is the look-up index.
CREATE TABLE blocklist (
	kind		text COLLATE "C" NOT NULL
			CHECK (kind IN ('host', 'url')),
	value		text COLLATE "C" NOT NULL,
	source		text COLLATE "C" NOT NULL,
	reason		text NOT NULL DEFAULT '',
	added_at	bigint NOT NULL,
	seen_at		bigint NOT NULL,
	PRIMARY KEY (kind, value, source)
);

-- Links disabled by the scan (lzctl link flagged).
CREATE INDEX links_flagged ON links(flagged_at) WHERE flagged_at IS NOT NULL;
