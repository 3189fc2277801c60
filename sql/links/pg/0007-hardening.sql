-- lz-links schema on PostgreSQL, version 7: abuse limits
-- (../0007-hardening.sql, DESIGN 3.11).

-- Wrong password tries at a link from every client network together: the
-- per-link ceiling over password_tries' per-network limit.  The window
-- [window_start, window_start + window_ms) holds at most
-- link_password_max_failures_link tries (lz.conf(5)); a window that was
-- full makes the next one twice as long, up to a day; a quiet one brings
-- it back to link_password_window.
CREATE TABLE password_link_tries (
	link_id		bigint PRIMARY KEY,
	window_start	bigint NOT NULL,
	window_ms	bigint NOT NULL,
	tries		bigint NOT NULL
);
