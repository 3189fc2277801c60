-- conversions.sql: the statements of conversions.c, in the order of its enum.
-- build-aux/stmt2h.sh makes conversions.sql.h of them (stmt2h.sh says how).

-- ST_CONV_SEEN: conversion seen
SELECT 1 FROM conversions
    WHERE link_id = $1 AND visitor IN ($2, $3) AND at > $4 LIMIT 1

-- ST_CONV_INSERT: conversion insert
INSERT INTO conversions (link_id, at, visitor, suffix, currency, value,
    variant, click_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)

-- ST_CONV_COUNT: conversion count
UPDATE links SET conversions = conversions + 1 WHERE id = $1

-- A total that would overflow stays as it is (and nothing is
-- stored): SQLite would turn it into an inexact float.
-- ST_CONV_REVENUE: conversion revenue
INSERT INTO link_revenue (link_id, currency, micros) VALUES ($1, $2, $3)
    ON CONFLICT (link_id, currency) DO UPDATE
    SET micros = link_revenue.micros + $3
    WHERE link_revenue.micros <= 9223372036854775807 - $3

-- A part of the link's total in the currency: it cannot overflow
-- where the total did not.
-- ST_CONV_ROLLUP: conversion rollup
INSERT INTO conversion_rollups (link_id, dim, span, at, key, currency,
    n, valued, micros)
    VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8)
    ON CONFLICT (link_id, dim, span, at, key, currency) DO UPDATE
    SET n = conversion_rollups.n + 1,
        valued = conversion_rollups.valued + excluded.valued,
        micros = conversion_rollups.micros + excluded.micros

-- Link $1's rollups in the three parts of a range, as the statistics
-- of clicks read them (clicks.sql); the revenue of a group is NULL when
-- none of its conversions had a value.
-- ST_CONV_TOTALS: conversion totals
SELECT currency, sum(n), CASE WHEN sum(valued) > 0 THEN sum(micros) END
    FROM (SELECT currency, n, valued, micros
            FROM conversion_rollups
            WHERE link_id = $1 AND dim = 0
                AND span = 24 AND at >= $2 AND at < $3
        UNION ALL SELECT currency, n, valued, micros
            FROM conversion_rollups
            WHERE link_id = $1 AND dim = 0
                AND span = 1 AND at >= $4 AND at < $5
        UNION ALL SELECT currency, n, valued, micros
            FROM conversion_rollups
            WHERE link_id = $1 AND dim = 0
                AND span = 1 AND at >= $6 AND at < $7) AS r
    GROUP BY currency ORDER BY currency

-- ST_CONV_SERIES: conversion series
SELECT at / $8 AS b, currency, sum(n),
    CASE WHEN sum(valued) > 0 THEN sum(micros) END
    FROM (SELECT at, currency, n, valued, micros
            FROM conversion_rollups
            WHERE link_id = $1 AND dim = 0
                AND span = 24 AND at >= $2 AND at < $3
        UNION ALL SELECT at, currency, n, valued, micros
            FROM conversion_rollups
            WHERE link_id = $1 AND dim = 0
                AND span = 1 AND at >= $4 AND at < $5
        UNION ALL SELECT at, currency, n, valued, micros
            FROM conversion_rollups
            WHERE link_id = $1 AND dim = 0
                AND span = 1 AND at >= $6 AND at < $7) AS r
    GROUP BY b, currency ORDER BY b, currency

-- Conversions of link $1 in a range (as conversion totals) per value
-- of the dimensions $9 to $10 (suffix 1 to 1, currency 0 to 0, variant
-- 2 to 3: not attributed, dim 3, is the value NULL) and currency, for
-- the $8 values with most conversions: each row carries its value's
-- count in all currencies (n) and the value's rank, so the limit counts
-- values, not rows.  NULL is a value of its own.
-- ST_CONV_BY_DIM: conversions by dimension
SELECT key, n, currency, cn, rev
    FROM (SELECT key, n, currency, cn, rev,
            dense_rank() OVER (ORDER BY n DESC, key) AS rk
        FROM (SELECT key, currency, sum(cnt) AS cn,
                CASE WHEN sum(valued) > 0 THEN sum(micros) END AS rev,
                sum(sum(cnt)) OVER (PARTITION BY key) AS n
            FROM (SELECT CASE WHEN dim = 0 THEN currency
                        WHEN dim = 3 THEN NULL ELSE key END AS key,
                        currency, n AS cnt, valued, micros
                    FROM (SELECT * FROM conversion_rollups
                        WHERE link_id = $1 AND dim BETWEEN $9 AND $10
                            AND span = 24 AND at >= $2 AND at < $3
                    UNION ALL
                    SELECT * FROM conversion_rollups
                        WHERE link_id = $1 AND dim BETWEEN $9 AND $10
                            AND span = 1 AND at >= $4 AND at < $5
                    UNION ALL
                    SELECT * FROM conversion_rollups
                        WHERE link_id = $1 AND dim BETWEEN $9 AND $10
                            AND span = 1 AND at >= $6 AND at < $7) AS u
                ) AS p
            GROUP BY key, currency) AS g) AS r
    WHERE rk <= $8 ORDER BY rk, currency

-- The same of a scope (as clicks.sql's scope statements): kind and
-- domain after the statement's own parameters.
-- ST_SCOPE_CONV_TOTALS: scope conversion totals
SELECT currency, sum(n), CASE WHEN sum(valued) > 0 THEN sum(micros) END
    FROM (SELECT currency, n, valued, micros
            FROM scope_conversion_rollups
            WHERE owner = $1 AND kind = $8 AND dim = 0
                AND span = 24 AND at >= $2 AND at < $3
                AND (CAST($9 AS bigint) < 0 OR domain_id = $9)
        UNION ALL SELECT currency, n, valued, micros
            FROM scope_conversion_rollups
            WHERE owner = $1 AND kind = $8 AND dim = 0
                AND span = 1 AND at >= $4 AND at < $5
                AND (CAST($9 AS bigint) < 0 OR domain_id = $9)
        UNION ALL SELECT currency, n, valued, micros
            FROM scope_conversion_rollups
            WHERE owner = $1 AND kind = $8 AND dim = 0
                AND span = 1 AND at >= $6 AND at < $7
                AND (CAST($9 AS bigint) < 0 OR domain_id = $9)) AS r
    GROUP BY currency HAVING sum(n) != 0 ORDER BY currency

-- ST_SCOPE_CONV_SERIES: scope conversion series
SELECT at / $8 AS b, currency, sum(n),
    CASE WHEN sum(valued) > 0 THEN sum(micros) END
    FROM (SELECT at, currency, n, valued, micros
            FROM scope_conversion_rollups
            WHERE owner = $1 AND kind = $9 AND dim = 0
                AND span = 24 AND at >= $2 AND at < $3
                AND (CAST($10 AS bigint) < 0 OR domain_id = $10)
        UNION ALL SELECT at, currency, n, valued, micros
            FROM scope_conversion_rollups
            WHERE owner = $1 AND kind = $9 AND dim = 0
                AND span = 1 AND at >= $4 AND at < $5
                AND (CAST($10 AS bigint) < 0 OR domain_id = $10)
        UNION ALL SELECT at, currency, n, valued, micros
            FROM scope_conversion_rollups
            WHERE owner = $1 AND kind = $9 AND dim = 0
                AND span = 1 AND at >= $6 AND at < $7
                AND (CAST($10 AS bigint) < 0 OR domain_id = $10)) AS r
    GROUP BY b, currency HAVING sum(n) != 0 ORDER BY b, currency

-- ST_SCOPE_CONV_BY_DIM: scope conversions by dimension
SELECT key, n, currency, cn, rev
    FROM (SELECT key, n, currency, cn, rev,
            dense_rank() OVER (ORDER BY n DESC, key) AS rk
        FROM (SELECT key, currency, sum(cnt) AS cn,
                CASE WHEN sum(valued) > 0 THEN sum(micros) END AS rev,
                sum(sum(cnt)) OVER (PARTITION BY key) AS n
            FROM (SELECT CASE WHEN dim = 0 THEN currency
                        WHEN dim = 3 THEN NULL ELSE key END AS key,
                        currency, n AS cnt, valued, micros
                    FROM (SELECT * FROM scope_conversion_rollups
                        WHERE owner = $1 AND kind = $11
                            AND dim BETWEEN $9 AND $10
                            AND span = 24 AND at >= $2 AND at < $3
                            AND (CAST($12 AS bigint) < 0 OR domain_id = $12)
                    UNION ALL
                    SELECT * FROM scope_conversion_rollups
                        WHERE owner = $1 AND kind = $11
                            AND dim BETWEEN $9 AND $10
                            AND span = 1 AND at >= $4 AND at < $5
                            AND (CAST($12 AS bigint) < 0 OR domain_id = $12)
                    UNION ALL
                    SELECT * FROM scope_conversion_rollups
                        WHERE owner = $1 AND kind = $11
                            AND dim BETWEEN $9 AND $10
                            AND span = 1 AND at >= $6 AND at < $7
                            AND (CAST($12 AS bigint) < 0 OR domain_id = $12))
                        AS u
                ) AS p
            GROUP BY key, currency HAVING sum(cnt) != 0) AS g) AS r
    WHERE rk <= $8 ORDER BY rk, currency

-- ST_CONV_ROLLUP_CLEAR: conversion rollup clear
DELETE FROM conversion_rollups
    WHERE link_id = $1 AND dim IN (0, 1, 2, 3) AND span IN (1, 24) AND
        at >= $2 AND at < $2 + 86400000

-- ST_CONV_EACH: conversion each
SELECT at, suffix, currency, value, variant FROM conversions
    WHERE link_id = $1 AND at >= $2 AND at < $3 ORDER BY id
