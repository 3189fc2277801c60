-- lz-links schema, version 13: several short domains (DESIGN 3.12,
-- lz-links(8) "Domains").
--
-- A row for each domain besides the default one (base_url's host, which
-- always exists and needs none).  host is lower case, IDN as punycode,
-- without port.  account_id NULL: an instance domain, which every account
-- may use; else the one account whose domain it is.  An account's domain
-- accepts links once its TXT record _lz-verify.HOST = lz-verify=TOKEN
-- was found (verified_at); one the admin added is verified as it is made.
-- root_url, not_found_url, expired_url: where visitors of / , of an
-- unknown slug and of an expired or capped link go (NULL: lz's pages).
-- aasa, assetlinks: the deep-link files served at /.well-known/ of the
-- host (NULL: 404).
-- removed_at: removed (lzctl domain remove); the row stays, so that the
-- slugs its deleted links keep taken stay taken if the host comes back.
CREATE TABLE domains (
	id		INTEGER PRIMARY KEY,
	host		TEXT NOT NULL UNIQUE,
	account_id	INTEGER REFERENCES accounts(id),
	verify_token	TEXT NOT NULL,
	verified_at	INTEGER,
	root_url	TEXT,
	not_found_url	TEXT,
	expired_url	TEXT,
	aasa		TEXT,		-- apple-app-site-association, JSON
	assetlinks	TEXT,		-- assetlinks.json, JSON
	created_at	INTEGER NOT NULL,
	removed_at	INTEGER
);
CREATE INDEX domains_account ON domains(account_id);

-- The domain of a link (domain_id NULL: the default domain, where every
-- link made before this version stays) and where its visitors go once
-- it expired or reached its cap (expired_url, NULL: the domain's, else
-- the 410 page).  Slugs are unique per domain: SQLite cannot drop the
-- UNIQUE of slug in place, so the table is made again (lz_db_migrate
-- runs this with foreign keys off and checks them before it commits).
CREATE TABLE links_new (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	slug		TEXT NOT NULL,
	target_url	TEXT NOT NULL,
	title		TEXT,
	mode		TEXT NOT NULL DEFAULT 'simple'
			CHECK (mode IN ('simple', 'ab', 'device', 'geo')),
	variants	TEXT,			-- JSON, as validated
	redirect_type	INTEGER NOT NULL DEFAULT 302
			CHECK (redirect_type IN (301, 302)),
	og		TEXT,			-- JSON object
	pixel_fb	TEXT,
	pixel_ga	TEXT,
	pixel_gtm	TEXT,
	pixel_tiktok	TEXT,
	pixel_line	TEXT,
	escape_inapp	INTEGER NOT NULL DEFAULT 0,
	expires_at	INTEGER,
	max_clicks	INTEGER NOT NULL DEFAULT 0,
	utm		TEXT,			-- JSON object
	password_hash	TEXT,			-- argon2id
	clicks		INTEGER NOT NULL DEFAULT 0, -- counted (human) clicks
	created_at	INTEGER NOT NULL,
	deleted_at	INTEGER,
	flagged_at	INTEGER,		-- safety scan: disabled (410)
	flag_reason	TEXT,
	conversions	INTEGER NOT NULL DEFAULT 0,
	revision	INTEGER NOT NULL DEFAULT 0,
	domain_id	INTEGER REFERENCES domains(id),
	expired_url	TEXT
);
INSERT INTO links_new (id, account_id, slug, target_url, title, mode,
	variants, redirect_type, og, pixel_fb, pixel_ga, pixel_gtm,
	pixel_tiktok, pixel_line, escape_inapp, expires_at, max_clicks, utm,
	password_hash, clicks, created_at, deleted_at, flagged_at,
	flag_reason, conversions, revision)
    SELECT id, account_id, slug, target_url, title, mode, variants,
	redirect_type, og, pixel_fb, pixel_ga, pixel_gtm, pixel_tiktok,
	pixel_line, escape_inapp, expires_at, max_clicks, utm, password_hash,
	clicks, created_at, deleted_at, flagged_at, flag_reason, conversions,
	revision
    FROM links;
DROP TABLE links;
ALTER TABLE links_new RENAME TO links;
CREATE INDEX links_account ON links(account_id, id) WHERE deleted_at IS NULL;
CREATE INDEX links_flagged ON links(flagged_at) WHERE flagged_at IS NOT NULL;
-- A slug once per domain, the default one being 0: the redirects' and
-- the creates' look-up.
CREATE UNIQUE INDEX links_domain_slug ON links(coalesce(domain_id, 0), slug);
-- Removing a domain asks whether live links use it.
CREATE INDEX links_domain ON links(domain_id) WHERE domain_id IS NOT NULL;
