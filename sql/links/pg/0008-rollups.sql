-- lz-links schema on PostgreSQL, version 8: statistics that scale
-- (../0008-rollups.sql, DESIGN 3.10).  Times are bigint: milliseconds
-- since the epoch, UTC.
--
-- Statistics read these sums, never the raw clicks: their cost follows
-- the number of hours and days asked for, not the number of clicks.  The
-- click mover adds each batch of clicks to them in the transaction that
-- moves the batch in (rollup.c); a conversion adds itself in its own.
-- lzctl stats rebuild recomputes them from the raw rows.  They are kept
-- for ever, also after clicks_retention_days has pruned the raw clicks.

-- Clicks of a link per hour (span 1) and per UTC day (span 24; at is
-- the start of the hour or day), for the total and each value of each
-- breakdown, people (bot 0) and bots (bot 1) apart.  dim:
--   0 every click (key '')   4 browser
--   1 country                5 referrer host
--   2 device                 6 suffix
--   3 os                     7 variant
--   8 visitors: people (key '', bot 0) whose first click of the UTC day
--     falls in the hour or day -- so a day's n is its visitor-days.
CREATE TABLE click_rollups (
	link_id		bigint NOT NULL,
	dim		bigint NOT NULL,
	span		bigint NOT NULL,
	at		bigint NOT NULL,
	key		text COLLATE "C" NOT NULL,
	bot		bigint NOT NULL,
	n		bigint NOT NULL,
	PRIMARY KEY (link_id, dim, span, at, key, bot)
);

-- Conversions of a link per hour and per UTC day and currency, by the
-- time they were reported: n of them, valued of those with a value, and
-- the sum of the values in micro-units.  dim:
--   0 every conversion (key '')
--   1 suffix
--   2 variant of the click it was attributed to
--   3 not attributed (key '')
CREATE TABLE conversion_rollups (
	link_id		bigint NOT NULL,
	dim		bigint NOT NULL,
	span		bigint NOT NULL,
	at		bigint NOT NULL,
	key		text COLLATE "C" NOT NULL,
	currency	text COLLATE "C" NOT NULL,
	n		bigint NOT NULL,
	valued		bigint NOT NULL,
	micros		bigint NOT NULL,
	PRIMARY KEY (link_id, dim, span, at, key, currency)
);

-- People who clicked a link on a UTC day (day = at / 86400000; visitor
-- ids change every day), kept for the last 31 days: the first click
-- (the hour a visitor-day counts in), the last one with its variant and
-- suffix (what a conversion is attributed to, conversion.h), and how
-- many.  lz-hooks deletes older days.
CREATE TABLE click_visitors (
	day		bigint NOT NULL,
	link_id		bigint NOT NULL,
	visitor		bytea NOT NULL,
	first_at	bigint NOT NULL,
	last_at		bigint NOT NULL,
	variant		text COLLATE "C" NOT NULL,
	suffix		text COLLATE "C" NOT NULL,
	clicks		bigint NOT NULL,
	PRIMARY KEY (day, link_id, visitor)
);

-- The rollups of the clicks and conversions already stored.  Hours
-- first, days as the sums of their hours.
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 0, 1, at / 3600000 * 3600000, '', bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 1, 1, at / 3600000 * 3600000, country, bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, country, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 2, 1, at / 3600000 * 3600000, device, bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, device, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 3, 1, at / 3600000 * 3600000, os, bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, os, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 4, 1, at / 3600000 * 3600000, browser, bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, browser, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 5, 1, at / 3600000 * 3600000, referrer_host, bot,
	    count(*)
	FROM clicks GROUP BY link_id, at / 3600000, referrer_host, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 6, 1, at / 3600000 * 3600000, suffix, bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, suffix, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 7, 1, at / 3600000 * 3600000, variant, bot, count(*)
	FROM clicks GROUP BY link_id, at / 3600000, variant, bot;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, 8, 1, first / 3600000 * 3600000, '', 0, count(*)
	FROM (SELECT link_id, min(at) AS first FROM clicks WHERE bot = 0
	    GROUP BY link_id, at / 86400000, visitor) AS v
	GROUP BY link_id, first / 3600000;
INSERT INTO click_rollups (link_id, dim, span, at, key, bot, n)
	SELECT link_id, dim, 24, at / 86400000 * 86400000, key, bot, sum(n)
	FROM click_rollups WHERE span = 1
	GROUP BY link_id, dim, at / 86400000, key, bot;

INSERT INTO conversion_rollups (link_id, dim, span, at, key, currency, n,
    valued, micros)
	SELECT link_id, 0, 1, at / 3600000 * 3600000, '', currency, count(*),
	    count(value), coalesce(sum(value), 0)
	FROM conversions GROUP BY link_id, at / 3600000, currency;
INSERT INTO conversion_rollups (link_id, dim, span, at, key, currency, n,
    valued, micros)
	SELECT link_id, 1, 1, at / 3600000 * 3600000, suffix, currency,
	    count(*), count(value), coalesce(sum(value), 0)
	FROM conversions GROUP BY link_id, at / 3600000, suffix, currency;
INSERT INTO conversion_rollups (link_id, dim, span, at, key, currency, n,
    valued, micros)
	SELECT link_id, 2, 1, at / 3600000 * 3600000, variant, currency,
	    count(*), count(value), coalesce(sum(value), 0)
	FROM conversions WHERE variant IS NOT NULL
	GROUP BY link_id, at / 3600000, variant, currency;
INSERT INTO conversion_rollups (link_id, dim, span, at, key, currency, n,
    valued, micros)
	SELECT link_id, 3, 1, at / 3600000 * 3600000, '', currency, count(*),
	    count(value), coalesce(sum(value), 0)
	FROM conversions WHERE variant IS NULL
	GROUP BY link_id, at / 3600000, currency;
INSERT INTO conversion_rollups (link_id, dim, span, at, key, currency, n,
    valued, micros)
	SELECT link_id, dim, 24, at / 86400000 * 86400000, key, currency,
	    sum(n), sum(valued), sum(micros)
	FROM conversion_rollups WHERE span = 1
	GROUP BY link_id, dim, at / 86400000, key, currency;

-- The visitors of the last 31 days (today's included): each one's first
-- and last click of the day, the last one's variant and suffix.
INSERT INTO click_visitors (day, link_id, visitor, first_at, last_at,
    variant, suffix, clicks)
	SELECT day, link_id, visitor, first, at, variant, suffix, n
	FROM (SELECT at / 86400000 AS day, link_id, visitor, at, variant,
	    suffix, min(at) OVER v AS first, count(*) OVER v AS n,
	    row_number() OVER (PARTITION BY link_id, at / 86400000, visitor
	    ORDER BY at DESC, id DESC) AS rn
	    FROM clicks WHERE bot = 0 AND at >= (CAST(extract(epoch FROM
	    now()) AS bigint) / 86400 - 30) * 86400000
	    WINDOW v AS (PARTITION BY link_id, at / 86400000, visitor)) AS c
	WHERE rn = 1;

-- Attribution no longer reads the clicks (click_visitors has what it
-- needs), so the index of clicks sheds the visitor 0005 added to it: a
-- smaller index to write for every click.  (link_id, at) is what the
-- rebuild and the clicks of a link in a time range read.
DROP INDEX clicks_link_at_visitor;
CREATE INDEX clicks_link_at ON clicks(link_id, at);
