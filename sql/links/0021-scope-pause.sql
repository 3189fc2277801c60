-- lz-links schema, version 21: a writer that keeps the statistics'
-- scope sums itself (sql/links/0015-account-stats.sql) pauses the
-- triggers that otherwise keep them.  An import's click history
-- (import/history.h) writes its rows of many links and days summed in
-- memory, account and tags included: a link's row triggers cost it an
-- upsert of each scope a rollup row, and made such an import six times
-- slower.  The writer puts a row in scope_pause in its own transaction
-- and takes it out before it commits: nobody else ever sees it, and a
-- rollback takes it too.
CREATE TABLE scope_pause (
	x		INTEGER PRIMARY KEY
);
DROP TRIGGER click_rollups_ins;
DROP TRIGGER click_rollups_upd;
CREATE TRIGGER click_rollups_ins AFTER INSERT ON click_rollups
	WHEN NOT EXISTS (SELECT 1 FROM scope_pause)
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
	WHEN NEW.n != OLD.n AND NOT EXISTS (SELECT 1 FROM scope_pause)
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
