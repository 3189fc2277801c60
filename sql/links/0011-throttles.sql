-- lz-links schema, version 11: one throttle for every password
-- (DESIGN 3.11, lz-links(8) "Abuse limits").
--
-- Sign-in failures (login_failures, a row per failure), a network's
-- tries at a link's password (password_tries) and a link's tries from
-- everywhere (password_link_tries) were three mechanisms; each is now a
-- scope of throttles: "addr:NET", "pair:NET|EMAIL", "link:ID|NET" and
-- "link:ID".  The window [window_start, window_start + window_ms) holds
-- at most the scope's limit of tries; a window that was full makes the
-- next one twice as long, up to the scope's longest; a quiet one brings
-- it back to its first length (auth/throttle.h).  The tries in flight
-- when the database is migrated are not carried over: a lock-out in
-- progress ends with the upgrade.
CREATE TABLE throttles (
	scope		TEXT PRIMARY KEY,
	window_start	INTEGER NOT NULL,
	window_ms	INTEGER NOT NULL,
	tries		INTEGER NOT NULL
) WITHOUT ROWID;

DROP TABLE login_failures;
DROP TABLE password_tries;
DROP TABLE password_link_tries;
