-- lz-links schema on PostgreSQL, version 19: an imported link's click
-- history moved in after it (../0019-import-history.sql says what and
-- why).
ALTER TABLE link_imports ADD COLUMN history_pos bigint NOT NULL DEFAULT -1;
ALTER TABLE link_imports ADD COLUMN history_clicks bigint NOT NULL
	DEFAULT 0;
ALTER TABLE link_imports ADD COLUMN total_clicks bigint NOT NULL
	DEFAULT -1;
