-- lz-links schema on PostgreSQL, version 22 (../0022-tag-guard.sql says
-- why).  link_tags's row trigger becomes statement triggers with
-- transition tables, like the rollups' (0015): a statement's tag rows
-- (an import's or a bulk create's batch puts its links' tags on in one)
-- cost one function call, one lock of each account and one join with
-- the rollups, not a call, a lock and two upserts a row -- 55 us a row,
-- 110 ms a batch of 1,000 links with two tags each.  The lock is still
-- taken before the rollups are read, so a mover's or a conversion's sums
-- and a tag edit still queue for each other (a guard that returned before
-- the lock for a link whose rollups it does not see yet could miss rows
-- another writer commits while this transaction's tag is unseen to it).
-- A link already gone (a cascade of its deletion) has no row in links
-- and is left out, as before.  Rows of one statement that meet in a scope
-- row are summed first (ON CONFLICT cannot touch a row twice).
DROP TRIGGER link_tags_scope ON link_tags;
DROP FUNCTION lz_link_tags_scope();
CREATE FUNCTION lz_link_tags_sums(d link_tags[], s bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(15, (a & 2147483647)::int)
	    FROM (SELECT DISTINCT l.account_id AS a FROM unnest(d) x
		JOIN links l ON l.id = x.link_id ORDER BY 1) q;
	INSERT INTO scope_click_rollups
	    SELECT x.tag_id, 1, c.dim, c.span, c.at, c.key, c.bot,
		coalesce(l.domain_id, 0), sum(s * c.n)::bigint
	    FROM unnest(d) x JOIN links l ON l.id = x.link_id
		JOIN click_rollups c ON c.link_id = x.link_id
	    GROUP BY x.tag_id, c.dim, c.span, c.at, c.key, c.bot,
		coalesce(l.domain_id, 0)
	ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
	    DO UPDATE SET n = scope_click_rollups.n + excluded.n;
	INSERT INTO scope_conversion_rollups
	    SELECT x.tag_id, 1, c.dim, c.span, c.at, c.key, c.currency,
		coalesce(l.domain_id, 0), sum(s * c.n)::bigint,
		sum(s * c.valued)::bigint, sum(s * c.micros)::bigint
	    FROM unnest(d) x JOIN links l ON l.id = x.link_id
		JOIN conversion_rollups c ON c.link_id = x.link_id
	    GROUP BY x.tag_id, c.dim, c.span, c.at, c.key, c.currency,
		coalesce(l.domain_id, 0)
	ON CONFLICT (owner, kind, dim, span, at, key, currency, domain_id)
	    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
		valued = scope_conversion_rollups.valued + excluded.valued,
		micros = scope_conversion_rollups.micros + excluded.micros;
END $$;
CREATE FUNCTION lz_link_tags_ins() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_link_tags_sums(ARRAY(SELECT ROW(x.*)::link_tags
	    FROM newrows x), 1);
	RETURN NULL;
END $$;
CREATE FUNCTION lz_link_tags_del() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_link_tags_sums(ARRAY(SELECT ROW(x.*)::link_tags
	    FROM oldrows x), -1);
	RETURN NULL;
END $$;
CREATE TRIGGER link_tags_ins AFTER INSERT ON link_tags
	REFERENCING NEW TABLE AS newrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_link_tags_ins();
CREATE TRIGGER link_tags_del AFTER DELETE ON link_tags
	REFERENCING OLD TABLE AS oldrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_link_tags_del();
