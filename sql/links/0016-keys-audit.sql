-- lz-links schema, version 16: API keys with scopes and an end; the
-- audit log (DESIGN 3.3, lz-links(8) "API keys" and "Audit log").
--
-- scopes: the bits of src/links/auth/scope.h (links:read 1, links:write
-- 2, stats:read 4, conversions:read 8, domains:read 16, domains:write
-- 32, tags:write 64, audit:read 128).  The keys there keep what
-- they could do (127: every scope but the audit log, which is new).
-- expires_at: the key answers 401 expired_api_key from then on (NULL:
-- never).
ALTER TABLE api_keys ADD COLUMN scopes INTEGER NOT NULL DEFAULT 127;
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;

-- What was done to an account and by whom: actor (the API key as its
-- prefix and last four, "dashboard" with the e-mail signed in, "lzctl"),
-- action ("key.created", "domain.verified", ...: lz-links(8)), target
-- (what it was done to: a key's shown form, a host, a link's id and
-- slug, a webhook's id and URL's host), network (the client's /24 or
-- /48, never the whole address).  Never a key, a secret or a password.
-- lz-hooks deletes entries older than audit_retention_days.
CREATE TABLE audit_log (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	at		INTEGER NOT NULL,
	actor		TEXT NOT NULL,
	action		TEXT NOT NULL,
	target		TEXT NOT NULL,
	network		TEXT NOT NULL
);
CREATE INDEX audit_log_account ON audit_log(account_id, id);
CREATE INDEX audit_log_at ON audit_log(at);
