-- lz-links schema, version 23: nothing on SQLite.  PostgreSQL's text
-- (pg/0023-sums-plans.sql) plans its scope sums' statements at each run;
-- SQLite plans a trigger's statements from the indexes alone, whatever
-- the tables' size.
SELECT 1;
