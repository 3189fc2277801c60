-- domains.sql: the statements of domains.c, in the order of its enum.
-- build-aux/stmt2h.sh makes domains.sql.h of them (stmt2h.sh says how).

-- A domain ($1 host, $2 account or NULL, $3 token, $4 verified, $5-$7
-- the three URLs, $8 now); a removed row of the host comes back as it,
-- without its deep-link files.
-- ST_DOMAIN_ADD: domain add
INSERT INTO domains (host, account_id, verify_token, verified_at,
        root_url, not_found_url, expired_url, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (host) DO UPDATE SET account_id = excluded.account_id,
        verify_token = excluded.verify_token,
        verified_at = excluded.verified_at, root_url = excluded.root_url,
        not_found_url = excluded.not_found_url,
        expired_url = excluded.expired_url, aasa = NULL,
        assetlinks = NULL, created_at = excluded.created_at,
        removed_at = NULL
    WHERE domains.removed_at IS NOT NULL
    RETURNING id

-- The columns of struct domain (row_domain).  Not its links: a create
-- on the domain looks it up, and a count grows with them.
-- ST_DOMAIN_BY_HOST: domain by host
SELECT id, host, account_id, verify_token, verified_at, root_url,
        not_found_url, expired_url, created_at, aasa, assetlinks
    FROM domains WHERE host = $1 AND removed_at IS NULL

-- Whether host $1 is a live domain (the safety scan's loop check, a
-- host at a time on SQLite).
-- ST_DOMAIN_LIVE: domain live
SELECT 1 FROM domains WHERE host = $1 AND removed_at IS NULL

-- Which of the hosts $1 lists (a JSON array) are live domains, by their
-- index in it: a batch's destinations in one round trip.
-- ST_DOMAIN_LIVE_MANY: domain live many
-- pg:
SELECT x.ord - 1
    FROM json_array_elements_text($1::json) WITH ORDINALITY AS x(h, ord)
    JOIN domains d ON d.host = x.h AND d.removed_at IS NULL

-- Those of account $1 and the instance's ($1 NULL: every one; what
-- each worker reads once a second).
-- ST_DOMAIN_LIST: domain list
SELECT id, host, account_id, verify_token, verified_at, root_url,
        not_found_url, expired_url, created_at, aasa, assetlinks
    FROM domains
    WHERE removed_at IS NULL AND (CAST($1 AS bigint) IS NULL OR
        account_id IS NULL OR account_id = $1)
    ORDER BY host

-- The three URLs and the two deep-link files.
-- ST_DOMAIN_SET_URLS: domain set urls
UPDATE domains SET root_url = $2, not_found_url = $3, expired_url = $4,
        aasa = $5, assetlinks = $6
    WHERE id = $1 AND removed_at IS NULL

-- Removed unless live links use it.
-- ST_DOMAIN_REMOVE: domain remove
UPDATE domains SET removed_at = $2
    WHERE id = $1 AND removed_at IS NULL AND NOT EXISTS
        (SELECT 1 FROM links WHERE domain_id = $1 AND deleted_at IS NULL)

-- ST_DOMAIN_VERIFY: domain verify
UPDATE domains SET verified_at = $2
    WHERE id = $1 AND removed_at IS NULL AND verified_at IS NULL

-- The live domains of account $1 (DOMAINS_PER_ACCOUNT bounds them).
-- ST_DOMAIN_COUNT: domain count
SELECT count(*) FROM domains WHERE account_id = $1 AND removed_at IS NULL

-- Account $1's live links per domain (0: the default one).
-- ST_DOMAIN_ACCOUNT_LINKS: domain account links
SELECT coalesce(domain_id, 0), count(*) FROM links
    WHERE account_id = $1 AND deleted_at IS NULL
    GROUP BY coalesce(domain_id, 0)

-- Removed or not (a deleted link's event names its domain).
-- ST_DOMAIN_HOST: domain host
SELECT host FROM domains WHERE id = $1

-- The live links of domain $1 (lzctl domain list, a refused removal).
-- ST_DOMAIN_LINKS: domain links
SELECT count(*) FROM links WHERE domain_id = $1 AND deleted_at IS NULL
