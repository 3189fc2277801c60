-- lz-links schema, version 5: conversions (spec 2.4, DESIGN 3.7).
-- Times are integers: milliseconds since the epoch, UTC.

-- One row per counted conversion (duplicates and bots are not stored).
-- value is in micro-units of currency (19.90 is 19900000), exact; NULL
-- when the report had none.  visitor is the reporting browser's daily
-- visitor id, as in clicks: the key of the de-duplication.  variant and
-- click_at come from the visitor's newest human click of the link within
-- the attribution window; both are NULL when there was none.
CREATE TABLE conversions (
	id		INTEGER PRIMARY KEY,
	link_id		INTEGER NOT NULL REFERENCES links(id),
	at		INTEGER NOT NULL,
	visitor		BLOB NOT NULL,
	suffix		TEXT NOT NULL DEFAULT '',	-- channel, '' none
	currency	TEXT NOT NULL CHECK (length(currency) = 3),
	value		INTEGER CHECK (value >= 0),
	variant		TEXT,
	click_at	INTEGER
);
CREATE INDEX conversions_link_at ON conversions(link_id, at);
-- The de-duplication: a visitor's latest conversions of a link.
CREATE INDEX conversions_visitor ON conversions(link_id, visitor, at);

-- Running totals, moved in each conversion's transaction, so showing a
-- link costs no scan of its conversions.  micros never passes INT64_MAX:
-- a conversion that would make it is refused, never rounded.
ALTER TABLE links ADD COLUMN conversions INTEGER NOT NULL DEFAULT 0;
CREATE TABLE link_revenue (
	link_id		INTEGER NOT NULL REFERENCES links(id),
	currency	TEXT NOT NULL,
	micros		INTEGER NOT NULL,
	PRIMARY KEY (link_id, currency)
) WITHOUT ROWID;

-- Attribution reads a link's newest clicks with their visitors from the
-- index alone; the index of (link_id, at) becomes this wider one.  (An
-- index led by the visitor would find a visitor at once, but its random
-- keys made every click's insert several times dearer -- bench/conv.)
DROP INDEX clicks_link_at;
CREATE INDEX clicks_link_at_visitor ON clicks(link_id, at, visitor);
