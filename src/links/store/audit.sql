-- audit.sql: the statements of audit.c, in the order of its enum.
-- build-aux/stmt2h.sh makes audit.sql.h of them (stmt2h.sh says how).

-- ST_AUDIT_ADD: audit add
INSERT INTO audit_log (account_id, at, actor, action, target, network)
    VALUES ($1, $2, $3, $4, $5, $6)

-- Account $1's entries before id $2 (0: the newest), newest first.
-- ST_AUDIT_PAGE: audit page
SELECT id, at, actor, action, target, network FROM audit_log
    WHERE account_id = $1 AND (CAST($2 AS bigint) = 0 OR id < $2)
    ORDER BY id DESC LIMIT $3

-- Whether account $1 has seen network $2 sign in before.
-- ST_AUDIT_SEEN: audit network seen
SELECT count(*) FROM audit_log
    WHERE account_id = $1 AND network = $2 AND action = 'signin.new_network'

-- Ids follow the order entries were written in.
-- ST_AUDIT_PRUNE: audit prune
DELETE FROM audit_log
    WHERE id IN (SELECT id FROM audit_log ORDER BY id LIMIT $2) AND at < $1
