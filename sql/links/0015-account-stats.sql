-- lz-links schema, version 15: statistics across links (DESIGN 3.13,
-- lz-links(8) "Statistics across links").
--
-- scope_click_rollups and scope_conversion_rollups hold the sums of
-- click_rollups and conversion_rollups (0008-rollups.sql) over the
-- links of a scope: kind 0, the account owner's links; kind 1, tag
-- owner's.  domain_id is the links' domain (0: the default one), so a
-- domain's figures are a filter of the same rows and the account's the
-- sum over its few domains.  GET /api/v1/stats reads them: its cost
-- follows the hours, days and values asked for, whatever the number of
-- links and clicks.
--
-- Triggers keep them: every write of a link's rollups (the click
-- mover's batches, a conversion, lzctl stats rebuild, lzctl db copy)
-- adds its difference to the link's account and tags in the same
-- transaction, and a tag put on a link or taken off it adds or takes
-- away the link's whole history.  So no path can forget them, and a
-- crash (kill -9 of the mover) loses or repeats nothing the links'
-- rollups do not.  A deleted link keeps its rows (deleting is soft):
-- the account's statistics keep its clicks.  Rows summing to 0 after a
-- tag is taken off stay (reads leave them out).
CREATE TABLE scope_click_rollups (
	owner		INTEGER NOT NULL,
	kind		INTEGER NOT NULL,
	dim		INTEGER NOT NULL,
	span		INTEGER NOT NULL,
	at		INTEGER NOT NULL,
	key		TEXT NOT NULL,
	bot		INTEGER NOT NULL,
	domain_id	INTEGER NOT NULL,
	n		INTEGER NOT NULL,
	PRIMARY KEY (owner, kind, dim, span, at, key, bot, domain_id)
) WITHOUT ROWID;
CREATE TABLE scope_conversion_rollups (
	owner		INTEGER NOT NULL,
	kind		INTEGER NOT NULL,
	dim		INTEGER NOT NULL,
	span		INTEGER NOT NULL,
	at		INTEGER NOT NULL,
	key		TEXT NOT NULL,
	currency	TEXT NOT NULL,
	domain_id	INTEGER NOT NULL,
	n		INTEGER NOT NULL,
	valued		INTEGER NOT NULL,
	micros		INTEGER NOT NULL,
	PRIMARY KEY (owner, kind, dim, span, at, key, currency, domain_id)
) WITHOUT ROWID;

-- The top links of a range are looked for by their counted clicks,
-- most first (stats/top.c).
CREATE INDEX links_account_clicks ON links(account_id, clicks, id);

-- What is there already.
INSERT INTO scope_click_rollups
	SELECT l.account_id, 0, r.dim, r.span, r.at, r.key, r.bot,
	    coalesce(l.domain_id, 0), sum(r.n)
	FROM click_rollups r JOIN links l ON l.id = r.link_id
	GROUP BY l.account_id, r.dim, r.span, r.at, r.key, r.bot,
	    coalesce(l.domain_id, 0);
INSERT INTO scope_click_rollups
	SELECT t.tag_id, 1, r.dim, r.span, r.at, r.key, r.bot,
	    coalesce(l.domain_id, 0), sum(r.n)
	FROM click_rollups r JOIN link_tags t ON t.link_id = r.link_id
	    JOIN links l ON l.id = r.link_id
	GROUP BY t.tag_id, r.dim, r.span, r.at, r.key, r.bot,
	    coalesce(l.domain_id, 0);
INSERT INTO scope_conversion_rollups
	SELECT l.account_id, 0, r.dim, r.span, r.at, r.key, r.currency,
	    coalesce(l.domain_id, 0), sum(r.n), sum(r.valued), sum(r.micros)
	FROM conversion_rollups r JOIN links l ON l.id = r.link_id
	GROUP BY l.account_id, r.dim, r.span, r.at, r.key, r.currency,
	    coalesce(l.domain_id, 0);
INSERT INTO scope_conversion_rollups
	SELECT t.tag_id, 1, r.dim, r.span, r.at, r.key, r.currency,
	    coalesce(l.domain_id, 0), sum(r.n), sum(r.valued), sum(r.micros)
	FROM conversion_rollups r JOIN link_tags t ON t.link_id = r.link_id
	    JOIN links l ON l.id = r.link_id
	GROUP BY t.tag_id, r.dim, r.span, r.at, r.key, r.currency,
	    coalesce(l.domain_id, 0);

-- A change of n rows of a link's: its account's and each tag's.
CREATE TRIGGER click_rollups_ins AFTER INSERT ON click_rollups
BEGIN
	INSERT INTO scope_click_rollups
	    SELECT l.account_id, 0, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.bot, coalesce(l.domain_id, 0), NEW.n
	    FROM links l WHERE l.id = NEW.link_id
	    UNION ALL SELECT t.tag_id, 1, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.bot, coalesce(l.domain_id, 0), NEW.n
	    FROM link_tags t JOIN links l ON l.id = t.link_id
	    WHERE t.link_id = NEW.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER click_rollups_upd AFTER UPDATE OF n ON click_rollups
	WHEN NEW.n != OLD.n
BEGIN
	INSERT INTO scope_click_rollups
	    SELECT l.account_id, 0, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.bot, coalesce(l.domain_id, 0), NEW.n - OLD.n
	    FROM links l WHERE l.id = NEW.link_id
	    UNION ALL SELECT t.tag_id, 1, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.bot, coalesce(l.domain_id, 0), NEW.n - OLD.n
	    FROM link_tags t JOIN links l ON l.id = t.link_id
	    WHERE t.link_id = NEW.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER click_rollups_del AFTER DELETE ON click_rollups
BEGIN
	INSERT INTO scope_click_rollups
	    SELECT l.account_id, 0, OLD.dim, OLD.span, OLD.at, OLD.key,
		OLD.bot, coalesce(l.domain_id, 0), -OLD.n
	    FROM links l WHERE l.id = OLD.link_id
	    UNION ALL SELECT t.tag_id, 1, OLD.dim, OLD.span, OLD.at, OLD.key,
		OLD.bot, coalesce(l.domain_id, 0), -OLD.n
	    FROM link_tags t JOIN links l ON l.id = t.link_id
	    WHERE t.link_id = OLD.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER conversion_rollups_ins AFTER INSERT ON conversion_rollups
BEGIN
	INSERT INTO scope_conversion_rollups
	    SELECT l.account_id, 0, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.currency, coalesce(l.domain_id, 0), NEW.n, NEW.valued,
		NEW.micros
	    FROM links l WHERE l.id = NEW.link_id
	    UNION ALL SELECT t.tag_id, 1, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.currency, coalesce(l.domain_id, 0), NEW.n, NEW.valued,
		NEW.micros
	    FROM link_tags t JOIN links l ON l.id = t.link_id
	    WHERE t.link_id = NEW.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n,
	    valued = valued + excluded.valued,
	    micros = micros + excluded.micros;
END;
CREATE TRIGGER conversion_rollups_upd AFTER UPDATE ON conversion_rollups
BEGIN
	INSERT INTO scope_conversion_rollups
	    SELECT l.account_id, 0, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.currency, coalesce(l.domain_id, 0), NEW.n - OLD.n,
		NEW.valued - OLD.valued, NEW.micros - OLD.micros
	    FROM links l WHERE l.id = NEW.link_id
	    UNION ALL SELECT t.tag_id, 1, NEW.dim, NEW.span, NEW.at, NEW.key,
		NEW.currency, coalesce(l.domain_id, 0), NEW.n - OLD.n,
		NEW.valued - OLD.valued, NEW.micros - OLD.micros
	    FROM link_tags t JOIN links l ON l.id = t.link_id
	    WHERE t.link_id = NEW.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n,
	    valued = valued + excluded.valued,
	    micros = micros + excluded.micros;
END;
CREATE TRIGGER conversion_rollups_del AFTER DELETE ON conversion_rollups
BEGIN
	INSERT INTO scope_conversion_rollups
	    SELECT l.account_id, 0, OLD.dim, OLD.span, OLD.at, OLD.key,
		OLD.currency, coalesce(l.domain_id, 0), -OLD.n, -OLD.valued,
		-OLD.micros
	    FROM links l WHERE l.id = OLD.link_id
	    UNION ALL SELECT t.tag_id, 1, OLD.dim, OLD.span, OLD.at, OLD.key,
		OLD.currency, coalesce(l.domain_id, 0), -OLD.n, -OLD.valued,
		-OLD.micros
	    FROM link_tags t JOIN links l ON l.id = t.link_id
	    WHERE t.link_id = OLD.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n,
	    valued = valued + excluded.valued,
	    micros = micros + excluded.micros;
END;

-- A tag put on a link takes in its history; taken off, gives it back.
CREATE TRIGGER link_tags_ins AFTER INSERT ON link_tags
BEGIN
	INSERT INTO scope_click_rollups
	    SELECT NEW.tag_id, 1, r.dim, r.span, r.at, r.key, r.bot,
		coalesce(l.domain_id, 0), r.n
	    FROM click_rollups r JOIN links l ON l.id = r.link_id
	    WHERE r.link_id = NEW.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO scope_conversion_rollups
	    SELECT NEW.tag_id, 1, r.dim, r.span, r.at, r.key, r.currency,
		coalesce(l.domain_id, 0), r.n, r.valued, r.micros
	    FROM conversion_rollups r JOIN links l ON l.id = r.link_id
	    WHERE r.link_id = NEW.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n,
	    valued = valued + excluded.valued,
	    micros = micros + excluded.micros;
END;
CREATE TRIGGER link_tags_del AFTER DELETE ON link_tags
BEGIN
	INSERT INTO scope_click_rollups
	    SELECT OLD.tag_id, 1, r.dim, r.span, r.at, r.key, r.bot,
		coalesce(l.domain_id, 0), -r.n
	    FROM click_rollups r JOIN links l ON l.id = r.link_id
	    WHERE r.link_id = OLD.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO scope_conversion_rollups
	    SELECT OLD.tag_id, 1, r.dim, r.span, r.at, r.key, r.currency,
		coalesce(l.domain_id, 0), -r.n, -r.valued, -r.micros
	    FROM conversion_rollups r JOIN links l ON l.id = r.link_id
	    WHERE r.link_id = OLD.link_id
	ON CONFLICT DO UPDATE SET n = n + excluded.n,
	    valued = valued + excluded.valued,
	    micros = micros + excluded.micros;
END;
