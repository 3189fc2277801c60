-- lz-links schema, version 18: several people on one account (lz-links(8)
-- "Teams").  A user is an e-mail with a dashboard password; a
-- membership gives a user a role in an account: owner (everything),
-- admin (everything but changing owners), member (links, tags, the use
-- of domains, statistics, conversions), viewer (reading).  Every
-- account keeps an owner.  An invitation is a one-time URL, its token
-- stored hashed, valid 7 days.  A session is a user's, in one of its
-- accounts at a time.
--
-- Each account there becomes one user of its e-mail and password,
-- owner of it; its sessions are that user's.
CREATE TABLE users (
	id		INTEGER PRIMARY KEY,
	email		TEXT NOT NULL UNIQUE COLLATE NOCASE,
	password_hash	TEXT,
	created_at	INTEGER NOT NULL
);
CREATE TABLE memberships (
	user_id		INTEGER NOT NULL REFERENCES users(id),
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	role		TEXT NOT NULL
			CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
	created_at	INTEGER NOT NULL,
	PRIMARY KEY (user_id, account_id)
);
CREATE INDEX memberships_account ON memberships(account_id, user_id);
CREATE TABLE invitations (
	id		INTEGER PRIMARY KEY,
	account_id	INTEGER NOT NULL REFERENCES accounts(id),
	email		TEXT NOT NULL,
	role		TEXT NOT NULL
			CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
	hash		BLOB NOT NULL UNIQUE,
	invited_by	TEXT NOT NULL,
	created_at	INTEGER NOT NULL,
	expires_at	INTEGER NOT NULL,
	accepted_at	INTEGER
);
CREATE INDEX invitations_account ON invitations(account_id);
ALTER TABLE sessions ADD COLUMN user_id INTEGER REFERENCES users(id);
-- Who made a key (NULL: lzctl, or made before users).
ALTER TABLE api_keys ADD COLUMN created_by INTEGER REFERENCES users(id);

INSERT INTO users (id, email, password_hash, created_at)
	SELECT id, email, password_hash, created_at FROM accounts;
INSERT INTO memberships (user_id, account_id, role, created_at)
	SELECT id, id, 'owner', created_at FROM accounts;
UPDATE sessions SET user_id = account_id;
