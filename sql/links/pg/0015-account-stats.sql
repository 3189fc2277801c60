-- lz-links schema on PostgreSQL, version 15: statistics across links
-- (../0015-account-stats.sql says what and why).  The rollups' triggers
-- are statement triggers of PL/pgSQL with transition tables (a batch of
-- the mover, one statement, is summed set-based); each first takes
-- transaction locks of its accounts (advisory locks, class 15) in order
-- of id, so that writers of one account's sums (two hosts' click
-- movers, a conversion, a tag edit) queue for them instead of
-- deadlocking over their rows.  link_tags's is a row trigger.
CREATE TABLE scope_click_rollups (
	owner		bigint NOT NULL,
	kind		bigint NOT NULL,
	dim		bigint NOT NULL,
	span		bigint NOT NULL,
	at		bigint NOT NULL,
	key		text COLLATE "C" NOT NULL,
	bot		bigint NOT NULL,
	domain_id	bigint NOT NULL,
	n		bigint NOT NULL,
	PRIMARY KEY (owner, kind, dim, span, at, key, bot, domain_id)
);
CREATE TABLE scope_conversion_rollups (
	owner		bigint NOT NULL,
	kind		bigint NOT NULL,
	dim		bigint NOT NULL,
	span		bigint NOT NULL,
	at		bigint NOT NULL,
	key		text COLLATE "C" NOT NULL,
	currency	text COLLATE "C" NOT NULL,
	domain_id	bigint NOT NULL,
	n		bigint NOT NULL,
	valued		bigint NOT NULL,
	micros		bigint NOT NULL,
	PRIMARY KEY (owner, kind, dim, span, at, key, currency, domain_id)
);
CREATE INDEX links_account_clicks ON links(account_id, clicks, id);

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

-- Statement triggers with transition tables: a statement's rows (the
-- mover's batch is one statement) summed per account or tag, domain,
-- dim, span, at, key and bot, set-based, not a function call a row.
-- d: the rows' differences (new - old), the accounts' locks taken in
-- order of id first.
CREATE FUNCTION lz_click_sums(d click_rollups[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(15, (a & 2147483647)::int)
	    FROM (SELECT DISTINCT l.account_id AS a FROM unnest(d) x
		JOIN links l ON l.id = x.link_id ORDER BY 1) s;
	INSERT INTO scope_click_rollups
	    SELECT owner, kind, dim, span, at, key, bot, dom, sum(n)::bigint
	    FROM (SELECT l.account_id AS owner, 0 AS kind, x.dim, x.span, x.at,
		    x.key, x.bot, coalesce(l.domain_id, 0) AS dom, x.n
		FROM unnest(d) x JOIN links l ON l.id = x.link_id
		UNION ALL SELECT t.tag_id, 1, x.dim, x.span, x.at, x.key, x.bot,
		    coalesce(l.domain_id, 0), x.n
		FROM unnest(d) x JOIN link_tags t ON t.link_id = x.link_id
		    JOIN links l ON l.id = x.link_id) AS u
	    WHERE n != 0
	    GROUP BY owner, kind, dim, span, at, key, bot, dom
	ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
	    DO UPDATE SET n = scope_click_rollups.n + excluded.n;
END $$;

CREATE FUNCTION lz_click_rollups_ins() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_click_sums(ARRAY(SELECT ROW(x.*)::click_rollups
	    FROM newrows x));
	RETURN NULL;
END $$;
CREATE FUNCTION lz_click_rollups_upd() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_click_sums(ARRAY(SELECT ROW(nw.link_id, nw.dim, nw.span,
	    nw.at, nw.key, nw.bot, nw.n - od.n)::click_rollups
	    FROM newrows nw JOIN oldrows od USING (link_id, dim, span, at, key,
		bot)));
	RETURN NULL;
END $$;
CREATE FUNCTION lz_click_rollups_del() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_click_sums(ARRAY(SELECT ROW(x.link_id, x.dim, x.span, x.at,
	    x.key, x.bot, -x.n)::click_rollups FROM oldrows x));
	RETURN NULL;
END $$;
CREATE TRIGGER click_rollups_ins AFTER INSERT ON click_rollups
	REFERENCING NEW TABLE AS newrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_click_rollups_ins();
CREATE TRIGGER click_rollups_upd AFTER UPDATE ON click_rollups
	REFERENCING OLD TABLE AS oldrows NEW TABLE AS newrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_click_rollups_upd();
CREATE TRIGGER click_rollups_del AFTER DELETE ON click_rollups
	REFERENCING OLD TABLE AS oldrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_click_rollups_del();

CREATE FUNCTION lz_conversion_sums(d conversion_rollups[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(15, (a & 2147483647)::int)
	    FROM (SELECT DISTINCT l.account_id AS a FROM unnest(d) x
		JOIN links l ON l.id = x.link_id ORDER BY 1) s;
	INSERT INTO scope_conversion_rollups
	    SELECT owner, kind, dim, span, at, key, currency, dom,
		sum(n)::bigint, sum(valued)::bigint, sum(micros)::bigint
	    FROM (SELECT l.account_id AS owner, 0 AS kind, x.dim, x.span, x.at,
		    x.key, x.currency, coalesce(l.domain_id, 0) AS dom, x.n,
		    x.valued, x.micros
		FROM unnest(d) x JOIN links l ON l.id = x.link_id
		UNION ALL SELECT t.tag_id, 1, x.dim, x.span, x.at, x.key,
		    x.currency, coalesce(l.domain_id, 0), x.n, x.valued,
		    x.micros
		FROM unnest(d) x JOIN link_tags t ON t.link_id = x.link_id
		    JOIN links l ON l.id = x.link_id) AS u
	    GROUP BY owner, kind, dim, span, at, key, currency, dom
	ON CONFLICT (owner, kind, dim, span, at, key, currency, domain_id)
	    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
		valued = scope_conversion_rollups.valued + excluded.valued,
		micros = scope_conversion_rollups.micros + excluded.micros;
END $$;

CREATE FUNCTION lz_conversion_rollups_ins() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_conversion_sums(ARRAY(SELECT
	    ROW(x.*)::conversion_rollups FROM newrows x));
	RETURN NULL;
END $$;
CREATE FUNCTION lz_conversion_rollups_upd() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_conversion_sums(ARRAY(SELECT ROW(nw.link_id, nw.dim,
	    nw.span, nw.at, nw.key, nw.currency, nw.n - od.n,
	    nw.valued - od.valued, nw.micros - od.micros)::conversion_rollups
	    FROM newrows nw JOIN oldrows od USING (link_id, dim, span, at, key,
		currency)));
	RETURN NULL;
END $$;
CREATE FUNCTION lz_conversion_rollups_del() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM lz_conversion_sums(ARRAY(SELECT ROW(x.link_id, x.dim, x.span,
	    x.at, x.key, x.currency, -x.n, -x.valued,
	    -x.micros)::conversion_rollups FROM oldrows x));
	RETURN NULL;
END $$;
CREATE TRIGGER conversion_rollups_ins AFTER INSERT ON conversion_rollups
	REFERENCING NEW TABLE AS newrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_conversion_rollups_ins();
CREATE TRIGGER conversion_rollups_upd AFTER UPDATE ON conversion_rollups
	REFERENCING OLD TABLE AS oldrows NEW TABLE AS newrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_conversion_rollups_upd();
CREATE TRIGGER conversion_rollups_del AFTER DELETE ON conversion_rollups
	REFERENCING OLD TABLE AS oldrows
	FOR EACH STATEMENT EXECUTE FUNCTION lz_conversion_rollups_del();

CREATE FUNCTION lz_link_tags_scope() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	r	link_tags;
	s	bigint;
	acct	bigint;
	dom	bigint;
BEGIN
	IF TG_OP = 'DELETE' THEN
		r := OLD; s := -1;
	ELSE
		r := NEW; s := 1;
	END IF;
	SELECT account_id, coalesce(domain_id, 0) INTO acct, dom
	    FROM links WHERE id = r.link_id;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	PERFORM pg_advisory_xact_lock(15, (acct & 2147483647)::int);
	INSERT INTO scope_click_rollups
	    SELECT r.tag_id, 1, c.dim, c.span, c.at, c.key, c.bot, dom,
		s * c.n
	    FROM click_rollups c WHERE c.link_id = r.link_id
	ON CONFLICT (owner, kind, dim, span, at, key, bot, domain_id)
	    DO UPDATE SET n = scope_click_rollups.n + excluded.n;
	INSERT INTO scope_conversion_rollups
	    SELECT r.tag_id, 1, c.dim, c.span, c.at, c.key, c.currency, dom,
		s * c.n, s * c.valued, s * c.micros
	    FROM conversion_rollups c WHERE c.link_id = r.link_id
	ON CONFLICT (owner, kind, dim, span, at, key, currency, domain_id)
	    DO UPDATE SET n = scope_conversion_rollups.n + excluded.n,
		valued = scope_conversion_rollups.valued + excluded.valued,
		micros = scope_conversion_rollups.micros + excluded.micros;
	RETURN NULL;
END $$;
CREATE TRIGGER link_tags_scope
	AFTER INSERT OR DELETE ON link_tags
	FOR EACH ROW EXECUTE FUNCTION lz_link_tags_scope();
