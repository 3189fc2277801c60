-- lz-links schema, version 19: an imported link's click history
-- (lzctl(8) import from YOURLS and Shlink) moved in after the link, in
-- short transactions of its own, each of which also stores how far it
-- got -- so an import stopped half-way goes on where it stopped, and run
-- again moves no click twice.
--   history_pos     -1: nothing (more) to move; else how far the
--                   source's history has been moved (YOURLS: the last
--                   click_id; Shlink: visits read)
--   history_clicks  people's clicks of that history counted so far
--   total_clicks    the source's own count of the link's clicks (YOURLS
--                   url.clicks, Kutt visit_count), -1 unknown: once the
--                   history is in, the link's count is set to it, the
--                   part beyond the history being clicks without
--                   breakdown
ALTER TABLE link_imports ADD COLUMN history_pos INTEGER NOT NULL DEFAULT -1;
ALTER TABLE link_imports ADD COLUMN history_clicks INTEGER NOT NULL
	DEFAULT 0;
ALTER TABLE link_imports ADD COLUMN total_clicks INTEGER NOT NULL
	DEFAULT -1;
