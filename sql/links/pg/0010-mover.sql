-- lz-links schema on PostgreSQL, version 10: clicks without a check of
-- their link per row (../0010-mover.sql, DESIGN 5 and 7).

-- The click mover is the only writer of clicks: it reads each batch's
-- links (and locks their rows) in the transaction that stores the
-- batch, and drops a click whose link is gone; links are never deleted
-- (a deleted link is a row with deleted_at, its slug's tombstone).  The
-- foreign key checked each click again, a query per row of a COPY: a
-- third of a batch's time (bench/mover).
ALTER TABLE clicks DROP CONSTRAINT clicks_link_id_fkey;
