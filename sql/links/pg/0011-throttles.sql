-- lz-links schema on PostgreSQL, version 11: one throttle for every
-- password (../0011-throttles.sql, DESIGN 3.11).
CREATE TABLE throttles (
	scope		text COLLATE "C" PRIMARY KEY,
	window_start	bigint NOT NULL,
	window_ms	bigint NOT NULL,
	tries		bigint NOT NULL
);

DROP TABLE login_failures;
DROP TABLE password_tries;
DROP TABLE password_link_tries;
