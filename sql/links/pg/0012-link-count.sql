-- lz-links schema on PostgreSQL, version 12: each account's count of
-- live links, kept with its row (../0012-link-count.sql).
ALTER TABLE accounts ADD COLUMN link_count bigint NOT NULL DEFAULT 0;
UPDATE accounts SET link_count = (SELECT count(*) FROM links
    WHERE links.account_id = accounts.id AND links.deleted_at IS NULL);
