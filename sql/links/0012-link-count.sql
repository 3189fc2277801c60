-- lz-links schema, version 12: each account's count of live links, kept
-- with its row (lz-links(8), "Writes").
--
-- A create checked the link cap by counting the account's live links,
-- a read that grows with them (a million links: tens of milliseconds a
-- create).  The count is now kept in the account's row, in the
-- transaction of every create and delete: the cap is one statement
-- that raises it unless it is at the cap.
ALTER TABLE accounts ADD COLUMN link_count INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET link_count = (SELECT count(*) FROM links
    WHERE links.account_id = accounts.id AND links.deleted_at IS NULL);
