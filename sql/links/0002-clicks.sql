-- lz-links schema, version 2: clicks, the click journals' positions and
-- password tries (DESIGN 3.4).  Times are ms since the epoch, UTC.

-- One row per served redirect (and per page a bot was shown).  Bots are
-- kept, flagged, and left out of counts, caps and click webhooks.  The
-- visitor is a keyed hash of address and User-Agent with a salt that
-- changes every UTC day; the address itself is never stored.
CREATE TABLE clicks (
	id		INTEGER PRIMARY KEY,
	link_id		INTEGER NOT NULL REFERENCES links(id),
	at		INTEGER NOT NULL,
	suffix		TEXT NOT NULL DEFAULT '',
	country		TEXT NOT NULL DEFAULT '',	-- ISO 3166-1, '' unknown
	device		TEXT NOT NULL DEFAULT '',	-- mobile|tablet|desktop
	os		TEXT NOT NULL DEFAULT '',
	browser		TEXT NOT NULL DEFAULT '',
	referrer	TEXT NOT NULL DEFAULT '',
	referrer_host	TEXT NOT NULL DEFAULT '',	-- lower case, '' none
	variant		TEXT NOT NULL DEFAULT '',	-- '' is target_url
	visitor		BLOB NOT NULL,
	bot		INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX clicks_link_at ON clicks(link_id, at);

-- Workers append clicks to journal files and move them in here in
-- batches; "pos" is how far a journal has been moved, updated in the same
-- transaction as the clicks it covers, so a crash never moves a click
-- twice or not at all.
CREATE TABLE click_journals (
	name		TEXT PRIMARY KEY,
	pos		INTEGER NOT NULL
) WITHOUT ROWID;

-- Tries at a link's password per client network (a keyed hash of the
-- address, IPv6 by /64) in a fixed window.
CREATE TABLE password_tries (
	link_id		INTEGER NOT NULL,
	net		BLOB NOT NULL,
	window_start	INTEGER NOT NULL,
	tries		INTEGER NOT NULL,
	PRIMARY KEY (link_id, net)
) WITHOUT ROWID;
