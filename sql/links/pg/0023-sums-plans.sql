-- lz-links schema on PostgreSQL, version 23: the scope sums' functions
-- (0015, 0022) look each link up by its key, planned at each call.
-- PL/pgSQL keeps a statement's plan for the session, and a statement
-- whose only parameter is an array (unnest(d)) keeps the first plan
-- made: on a new instance the links table was a few pages then, and the
-- plan joined it by a hash over all of it.  The mover's connection kept
-- that plan while an import grew the table past 200,000 rows: each of
-- its batches scanned the table twice, 30 ms a batch, half a core
-- beside the import.  Planned at each call instead (EXECUTE), a batch of
-- 2,000 tag rows was joined by a hash over the whole table too, its
-- estimate of the table's rows a quarter of the truth.  So a batch of
-- at most 1,000 rows (the mover's, a conversion's, a link's tags) finds
-- each row's link, tags and rollups through a LATERAL subquery that the
-- planner cannot flatten (OFFSET 0): a look-up by key a row, whatever
-- sizes the planner believes.  A bigger one (an import's history, a
-- tag's links on its rename or deletion: up to 260,000 rollup rows) is
-- joined as before, where a hash over the tables is the cheaper way.
-- Both are planned at each call (EXECUTE: a tenth of a millisecond), so
-- with the tables' size of the moment.  The sums are the same.
--
-- And the sums of click_rollups's and link_tags's rows are skipped while
-- the writer paused them (scope_pause, 0021, a row of its backend's in
-- its transaction; checked in the sums' functions, which every trigger
-- of theirs calls), as SQLite's triggers skip them: the tags of links
-- made in that transaction (store_tag_cache_flush), which have no
-- rollups and can get none before it commits (their look-ups were a
-- tenth of a CSV import's time), and an import's history, which sums
-- its batch's rows for the
-- accounts and tags in memory (stats/rollup.c), after taking the
-- accounts' locks as the functions here do (their sums were half of a
-- YOURLS import's time on this engine).
--
-- link_imports.account_id loses its foreign key: it is the link's
-- account, copied for the index that finds an origin within an account,
-- and link_id's key already ties the row to the link and so to the
-- account.  Its check was a twentieth of a CSV import's time here (two
-- checks of the account's row a link, with the link's own).  SQLite's
-- checks cost little; its table keeps the key.
CREATE OR REPLACE FUNCTION lz_click_sums(d click_rollups[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM scope_pause WHERE x = pg_backend_pid()) THEN
		RETURN;
	END IF;
	IF cardinality(d) <= 1000 THEN
		EXECUTE 'SELECT pg_advisory_xact_lock(15, (a & 2147483647)::int)
		    FROM (SELECT DISTINCT l.a FROM
			(SELECT DISTINCT link_id FROM unnest($1)) x,
			LATERAL (SELECT account_id AS a FROM links
			    WHERE id = x.link_id OFFSET 0) l ORDER BY 1) s'
		    USING d;
		EXECUTE 'INSERT INTO scope_click_rollups
		    SELECT owner, kind, dim, span, at, key, bot, dom,
			sum(n)::bigint
		    FROM (SELECT l.account_id AS owner, 0 AS kind, x.dim,
			    x.span, x.at, x.key, x.bot, l.dom, x.n
			FROM unnest($1) x,
			    LATERAL (SELECT account_id,
				coalesce(domain_id, 0) AS dom
				FROM links WHERE id = x.link_id OFFSET 0) l
			UNION ALL SELECT t.tag_id, 1, x.dim, x.span, x.at,
			    x.key, x.bot, l.dom, x.n
			FROM unnest($1) x,
			    LATERAL (SELECT tag_id FROM link_tags
				WHERE link_id = x.link_id OFFSET 0) t,
			    LATERAL (SELECT coalesce(domain_id, 0) AS dom
				FROM links WHERE id = x.link_id OFFSET 0) l)
			AS u
		    WHERE n != 0
		    GROUP BY owner, kind, dim, span, at, key, bot, dom
		ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
		    DO UPDATE SET n = scope_click_rollups.n + excluded.n'
		    USING d;
		RETURN;
	END IF;
	EXECUTE 'SELECT pg_advisory_xact_lock(15, (a & 2147483647)::int)
	    FROM (SELECT DISTINCT l.account_id AS a FROM unnest($1) x
		JOIN links l ON l.id = x.link_id ORDER BY 1) s' USING d;
	EXECUTE 'INSERT INTO scope_click_rollups
	    SELECT owner, kind, dim, span, at, key, bot, dom, sum(n)::bigint
	    FROM (SELECT l.account_id AS owner, 0 AS kind, x.dim, x.span, x.at,
		    x.key, x.bot, coalesce(l.domain_id, 0) AS dom, x.n
		FROM unnest($1) x JOIN links l ON l.id = x.link_id
		UNION ALL SELECT t.tag_id, 1, x.dim, x.span, x.at, x.key, x.bot,
		    coalesce(l.domain_id, 0), x.n
		FROM unnest($1) x JOIN link_tags t ON t.link_id = x.link_id
		    JOIN links l ON l.id = x.link_id) AS u
	    WHERE n != 0
	    GROUP BY owner, kind, dim, span, at, key, bot, dom
	ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
	    DO UPDATE SET n = scope_click_rollups.n + excluded.n' USING d;
END $$;

CREATE OR REPLACE FUNCTION lz_conversion_sums(d conversion_rollups[])
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	IF cardinality(d) <= 1000 THEN
		EXECUTE 'SELECT pg_advisory_xact_lock(15, (a & 2147483647)::int)
		    FROM (SELECT DISTINCT l.a FROM
			(SELECT DISTINCT link_id FROM unnest($1)) x,
			LATERAL (SELECT account_id AS a FROM links
			    WHERE id = x.link_id OFFSET 0) l ORDER BY 1) s'
		    USING d;
		EXECUTE 'INSERT INTO scope_conversion_rollups
		    SELECT owner, kind, dim, span, at, key, currency, dom,
			sum(n)::bigint, sum(valued)::bigint, sum(micros)::bigint
		    FROM (SELECT l.account_id AS owner, 0 AS kind, x.dim,
			    x.span, x.at, x.key, x.currency, l.dom, x.n,
			    x.valued, x.micros
			FROM unnest($1) x,
			    LATERAL (SELECT account_id,
				coalesce(domain_id, 0) AS dom
				FROM links WHERE id = x.link_id OFFSET 0) l
			UNION ALL SELECT t.tag_id, 1, x.dim, x.span, x.at,
			    x.key, x.currency, l.dom, x.n, x.valued, x.micros
			FROM unnest($1) x,
			    LATERAL (SELECT tag_id FROM link_tags
				WHERE link_id = x.link_id OFFSET 0) t,
			    LATERAL (SELECT coalesce(domain_id, 0) AS dom
				FROM links WHERE id = x.link_id OFFSET 0) l)
			AS u
		    GROUP BY owner, kind, dim, span, at, key, currency, dom
		ON CONFLICT (owner, kind, dim, span, at, key, currency,
		    domain_id)
		    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
			valued = scope_conversion_rollups.valued +
			    excluded.valued,
			micros = scope_conversion_rollups.micros +
			    excluded.micros'
		    USING d;
		RETURN;
	END IF;
	EXECUTE 'SELECT pg_advisory_xact_lock(15, (a & 2147483647)::int)
	    FROM (SELECT DISTINCT l.account_id AS a FROM unnest($1) x
		JOIN links l ON l.id = x.link_id ORDER BY 1) s' USING d;
	EXECUTE 'INSERT INTO scope_conversion_rollups
	    SELECT owner, kind, dim, span, at, key, currency, dom,
		sum(n)::bigint, sum(valued)::bigint, sum(micros)::bigint
	    FROM (SELECT l.account_id AS owner, 0 AS kind, x.dim, x.span, x.at,
		    x.key, x.currency, coalesce(l.domain_id, 0) AS dom, x.n,
		    x.valued, x.micros
		FROM unnest($1) x JOIN links l ON l.id = x.link_id
		UNION ALL SELECT t.tag_id, 1, x.dim, x.span, x.at, x.key,
		    x.currency, coalesce(l.domain_id, 0), x.n, x.valued,
		    x.micros
		FROM unnest($1) x JOIN link_tags t ON t.link_id = x.link_id
		    JOIN links l ON l.id = x.link_id) AS u
	    GROUP BY owner, kind, dim, span, at, key, currency, dom
	ON CONFLICT (owner, kind, dim, span, at, key, currency, domain_id)
	    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
		valued = scope_conversion_rollups.valued + excluded.valued,
		micros = scope_conversion_rollups.micros + excluded.micros'
	    USING d;
END $$;

CREATE OR REPLACE FUNCTION lz_link_tags_sums(d link_tags[], s bigint)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM scope_pause WHERE x = pg_backend_pid()) THEN
		RETURN;
	END IF;
	IF cardinality(d) <= 1000 THEN
		EXECUTE 'SELECT pg_advisory_xact_lock(15, (a & 2147483647)::int)
		    FROM (SELECT DISTINCT l.a FROM
			(SELECT DISTINCT link_id FROM unnest($1)) x,
			LATERAL (SELECT account_id AS a FROM links
			    WHERE id = x.link_id OFFSET 0) l ORDER BY 1) q'
		    USING d;
		EXECUTE 'INSERT INTO scope_click_rollups
		    SELECT x.tag_id, 1, c.dim, c.span, c.at, c.key, c.bot,
			l.dom, sum($2 * c.n)::bigint
		    FROM unnest($1) x,
			LATERAL (SELECT dim, span, at, key, bot, n
			    FROM click_rollups
			    WHERE link_id = x.link_id OFFSET 0) c,
			LATERAL (SELECT coalesce(domain_id, 0) AS dom
			    FROM links WHERE id = x.link_id OFFSET 0) l
		    GROUP BY x.tag_id, c.dim, c.span, c.at, c.key, c.bot, l.dom
		ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
		    DO UPDATE SET n = scope_click_rollups.n + excluded.n'
		    USING d, s;
		EXECUTE 'INSERT INTO scope_conversion_rollups
		    SELECT x.tag_id, 1, c.dim, c.span, c.at, c.key, c.currency,
			l.dom, sum($2 * c.n)::bigint,
			sum($2 * c.valued)::bigint, sum($2 * c.micros)::bigint
		    FROM unnest($1) x,
			LATERAL (SELECT dim, span, at, key, currency, n,
			    valued, micros FROM conversion_rollups
			    WHERE link_id = x.link_id OFFSET 0) c,
			LATERAL (SELECT coalesce(domain_id, 0) AS dom
			    FROM links WHERE id = x.link_id OFFSET 0) l
		    GROUP BY x.tag_id, c.dim, c.span, c.at, c.key, c.currency,
			l.dom
		ON CONFLICT (owner, kind, dim, span, at, key, currency,
		    domain_id)
		    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
			valued = scope_conversion_rollups.valued +
			    excluded.valued,
			micros = scope_conversion_rollups.micros +
			    excluded.micros'
		    USING d, s;
		RETURN;
	END IF;
	EXECUTE 'SELECT pg_advisory_xact_lock(15, (a & 2147483647)::int)
	    FROM (SELECT DISTINCT l.account_id AS a FROM unnest($1) x
		JOIN links l ON l.id = x.link_id ORDER BY 1) q' USING d;
	EXECUTE 'INSERT INTO scope_click_rollups
	    SELECT x.tag_id, 1, c.dim, c.span, c.at, c.key, c.bot,
		coalesce(l.domain_id, 0), sum($2 * c.n)::bigint
	    FROM unnest($1) x JOIN links l ON l.id = x.link_id
		JOIN click_rollups c ON c.link_id = x.link_id
	    GROUP BY x.tag_id, c.dim, c.span, c.at, c.key, c.bot,
		coalesce(l.domain_id, 0)
	ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
	    DO UPDATE SET n = scope_click_rollups.n + excluded.n' USING d, s;
	EXECUTE 'INSERT INTO scope_conversion_rollups
	    SELECT x.tag_id, 1, c.dim, c.span, c.at, c.key, c.currency,
		coalesce(l.domain_id, 0), sum($2 * c.n)::bigint,
		sum($2 * c.valued)::bigint, sum($2 * c.micros)::bigint
	    FROM unnest($1) x JOIN links l ON l.id = x.link_id
		JOIN conversion_rollups c ON c.link_id = x.link_id
	    GROUP BY x.tag_id, c.dim, c.span, c.at, c.key, c.currency,
		coalesce(l.domain_id, 0)
	ON CONFLICT (owner, kind, dim, span, at, key, currency, domain_id)
	    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
		valued = scope_conversion_rollups.valued + excluded.valued,
		micros = scope_conversion_rollups.micros + excluded.micros'
	    USING d, s;
END $$;

ALTER TABLE link_imports DROP CONSTRAINT link_imports_account_id_fkey;
