-- lz-links schema on PostgreSQL, version 21 (../0021-scope-pause.sql
-- says why).  The table only: the statement triggers here sum a
-- statement's rows set-based already, so the writers leave the scope
-- sums to them on this engine.
CREATE TABLE scope_pause (
	x		bigint PRIMARY KEY
);
