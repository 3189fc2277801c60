-- lz-links schema, version 10: nothing on SQLite (pg/0010-mover.sql).

-- PostgreSQL's clicks shed their foreign key, which checked each click
-- a batch moved with a query of its own.  SQLite's check is a look-up
-- in its own process, cheap, and dropping it here would mean writing
-- the whole clicks table anew: it stays.
SELECT 1;
