-- members.sql: the statements of members.c, in the order of its enum.
-- build-aux/stmt2h.sh makes members.sql.h of them (stmt2h.sh says how).

-- ST_USER_BY_EMAIL: user by email
SELECT id, coalesce(password_hash, '') FROM users WHERE email = $1
-- pg:
SELECT id, coalesce(password_hash, '') FROM users
    WHERE lower(email) = lower($1)

-- ST_USER_EMAIL: user email
SELECT email FROM users WHERE id = $1

-- ST_USER_ADD: user add
INSERT INTO users (email, password_hash, created_at) VALUES ($1, $2, $3)
    ON CONFLICT (email) DO NOTHING RETURNING id
-- pg:
INSERT INTO users (email, password_hash, created_at) VALUES ($1, $2, $3)
    ON CONFLICT ((lower(email))) DO NOTHING RETURNING id

-- ST_USER_SET_PASSWORD: user set password
UPDATE users SET password_hash = $1 WHERE id = $2

-- ST_MEMBER_ROLE: member role
SELECT role FROM memberships WHERE user_id = $1 AND account_id = $2

-- A user joins an account, or has its role changed.
-- ST_MEMBER_PUT: member put
INSERT INTO memberships (user_id, account_id, role, created_at)
    VALUES ($1, $2, $3, $4)
    ON CONFLICT (user_id, account_id) DO UPDATE SET role = excluded.role

-- ST_MEMBER_REMOVE: member remove
DELETE FROM memberships WHERE user_id = $1 AND account_id = $2

-- The owners of account $1, its row locked first on PostgreSQL (two
-- demotions at once must not both see another owner).
-- ST_MEMBER_OWNERS: member owners
SELECT count(*) FROM memberships WHERE account_id = $1 AND role = 'owner'
-- pg:
SELECT count(*) FROM memberships WHERE account_id = $1 AND role = 'owner'
    AND (SELECT id FROM accounts WHERE id = $1 FOR UPDATE) IS NOT NULL

-- ST_MEMBER_LIST: member list
SELECT m.user_id, u.email, m.role, m.created_at FROM memberships m
    JOIN users u ON u.id = m.user_id
    WHERE m.account_id = $1 ORDER BY m.created_at, m.user_id

-- The accounts of user $1 it may use, the first joined first.
-- ST_USER_ACCOUNTS: user accounts
SELECT m.account_id, a.email, m.role FROM memberships m
    JOIN accounts a ON a.id = m.account_id
    WHERE m.user_id = $1 AND a.disabled = 0
    ORDER BY m.created_at, m.account_id

-- ST_MEMBER_SESSIONS_END: member sessions end
DELETE FROM sessions WHERE user_id = $1 AND account_id = $2

-- ST_USER_SESSIONS_END: user sessions end (but one)
DELETE FROM sessions WHERE user_id = $1 AND id != $2

-- ST_SESSION_SWITCH: session switch
UPDATE sessions SET account_id = $2 WHERE id = $1

-- ST_INVITE_ADD: invite add
INSERT INTO invitations (account_id, email, role, hash, invited_by,
        created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id

-- ST_INVITE_BY_HASH: invite by hash
SELECT id, account_id, email, role, expires_at, coalesce(accepted_at, 0)
    FROM invitations WHERE hash = $1

-- ST_INVITE_ACCEPT: invite accept
UPDATE invitations SET accepted_at = $2 WHERE id = $1 AND accepted_at IS NULL

-- ST_INVITE_PENDING: invite pending
SELECT id, email, role, created_at, expires_at FROM invitations
    WHERE account_id = $1 AND accepted_at IS NULL AND expires_at > $2
    ORDER BY id
