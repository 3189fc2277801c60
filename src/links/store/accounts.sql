-- accounts.sql: the statements of accounts.c, in the order of its enum.
-- build-aux/stmt2h.sh makes accounts.sql.h of them (stmt2h.sh says how).

-- dialect: e-mail addresses are unique whatever their case; SQLite's
-- column has COLLATE NOCASE, PostgreSQL's a unique index on
-- lower(email) (sql/links/pg/0001-init.sql), which its statements name.
-- ST_ACCOUNT_ADD: account add
INSERT INTO accounts (email, plan, password_hash, created_at)
    VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id
-- pg:
INSERT INTO accounts (email, plan, password_hash, created_at)
    VALUES ($1, $2, $3, $4) ON CONFLICT ((lower(email))) DO NOTHING
    RETURNING id

-- ST_ACCOUNT_BY_ID: account by id
SELECT @ACCOUNT_COLS@ FROM accounts WHERE id = $1

-- dialect: the e-mail compared as account add's index compares it.
-- ST_ACCOUNT_BY_EMAIL: account by e-mail
SELECT @ACCOUNT_COLS@ FROM accounts WHERE email = $1
-- pg:
SELECT @ACCOUNT_COLS@ FROM accounts WHERE lower(email) = lower($1)

-- ST_ACCOUNT_LIST: account list
SELECT @ACCOUNT_COLS@ FROM accounts ORDER BY id

-- ST_ACCOUNT_SET_PLAN: account plan
UPDATE accounts SET plan = $1 WHERE id = $2

-- ST_ACCOUNT_SET_DISABLED: account disable
UPDATE accounts SET disabled = $1 WHERE id = $2

-- By e-mail $1, or by id $2 when $1 is NULL.  (The CAST tells
-- PostgreSQL what $1 is before it meets IS NULL.)  dialect: the e-mail
-- compared as in account by e-mail.
-- ST_ACCOUNT_PWHASH: account password
SELECT id, password_hash, disabled FROM accounts
    WHERE (CAST($1 AS text) IS NOT NULL AND email = $1) OR
        ($1 IS NULL AND id = $2)
-- pg:
SELECT id, password_hash, disabled FROM accounts
    WHERE (CAST($1 AS text) IS NOT NULL AND lower(email) = lower($1)) OR
        ($1 IS NULL AND id = $2)

-- ST_ACCOUNT_SET_PASSWORD: account set password
UPDATE accounts SET password_hash = $1 WHERE id = $2

-- ST_KEY_ADD: key add
INSERT INTO api_keys (account_id, hash, prefix, last4, name, created_at,
        scopes, expires_at, created_by)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id

-- ST_KEY_AUTH: key auth
SELECT @KEY_COLS@, a.plan, a.disabled, k.hash FROM api_keys k
    JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1

-- ST_KEY_LIST: key list
SELECT @KEY_COLS@ FROM api_keys k WHERE k.account_id = $1 ORDER BY k.id

-- ST_KEY_REVOKE: key revoke
UPDATE api_keys SET revoked_at = $1
    WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL

-- ST_KEY_REVOKE_ANY: key revoke (any account)
UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL

-- ST_KEY_TOUCH: key touch
UPDATE api_keys SET last_used_at = $1
    WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < CAST($1 AS
        bigint) - 60000)

-- A lease of calls (auth/quota.h): the month's row made if missing,
-- its count read with the row held, then raised by what was leased.
-- dialect: PostgreSQL holds the row with FOR UPDATE; SQLite's BEGIN
-- IMMEDIATE holds the database already.
-- ST_USAGE_ROW: usage row
INSERT INTO usage (account_id, month, calls) VALUES ($1, $2, 0)
    ON CONFLICT (account_id, month) DO NOTHING

-- ST_USAGE_HOLD: usage hold
SELECT calls FROM usage WHERE account_id = $1 AND month = $2
-- pg:
SELECT calls FROM usage WHERE account_id = $1 AND month = $2 FOR UPDATE

-- ST_USAGE_ADD: usage add
UPDATE usage SET calls = calls + $3 WHERE account_id = $1 AND month = $2

-- ST_USAGE_GET: usage get
SELECT calls FROM usage WHERE account_id = $1 AND month = $2
