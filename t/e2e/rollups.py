"""rollups -- the statistics' rollups (sql/links/0008-rollups.sql) against
a recount from the raw clicks and conversions, with SQL of its own: what
the end-to-end tests and bench/stats check after traffic, kills and
rebuilds.  The SQL reads on both engines (typed temporary tables, no
total() or strftime(), every subquery named)."""

# Hour rows, then days as the sums of their hours.  A visitor-day counts
# in the hour of its first click.
RECOUNT = """
DROP TABLE IF EXISTS want;
CREATE TEMP TABLE want (link_id bigint, dim bigint, span bigint, at bigint,
  key text, bot bigint, n bigint);
INSERT INTO want SELECT link_id, 0, 1, at - at % 3600000, '', bot,
  count(*) FROM clicks GROUP BY 1, 4, 6;
INSERT INTO want SELECT link_id, 1, 1, at - at % 3600000, country, bot,
  count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 2, 1, at - at % 3600000, device, bot,
  count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 3, 1, at - at % 3600000, os, bot,
  count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 4, 1, at - at % 3600000, browser, bot,
  count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 5, 1, at - at % 3600000, referrer_host,
  bot, count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 6, 1, at - at % 3600000, suffix, bot,
  count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 7, 1, at - at % 3600000, variant, bot,
  count(*) FROM clicks GROUP BY 1, 4, 5, 6;
INSERT INTO want SELECT link_id, 8, 1, f - f % 3600000, '', 0, count(*)
  FROM (SELECT link_id, min(at) AS f FROM clicks WHERE bot = 0
        GROUP BY link_id, at / 86400000, visitor) AS v GROUP BY 1, 4;
INSERT INTO want SELECT link_id, dim, 24, at - at % 86400000, key, bot,
  sum(n) FROM want GROUP BY 1, 2, 4, 5, 6;
DROP TABLE IF EXISTS cwant;
CREATE TEMP TABLE cwant (link_id bigint, dim bigint, span bigint,
  at bigint, key text, currency text, n bigint, valued bigint,
  micros bigint);
INSERT INTO cwant SELECT link_id, 0, 1, at - at % 3600000, '', currency,
  count(*), count(value), coalesce(sum(value), 0) FROM conversions GROUP BY 1, 4, 6;
INSERT INTO cwant SELECT link_id, 1, 1, at - at % 3600000, suffix,
  currency, count(*), count(value), coalesce(sum(value), 0) FROM conversions
  GROUP BY 1, 4, 5, 6;
INSERT INTO cwant SELECT link_id, 2, 1, at - at % 3600000, variant,
  currency, count(*), count(value), coalesce(sum(value), 0) FROM conversions
  WHERE variant IS NOT NULL GROUP BY 1, 4, 5, 6;
INSERT INTO cwant SELECT link_id, 3, 1, at - at % 3600000, '', currency,
  count(*), count(value), coalesce(sum(value), 0) FROM conversions
  WHERE variant IS NULL GROUP BY 1, 4, 6;
INSERT INTO cwant SELECT link_id, dim, 24, at - at % 86400000, key,
  currency, sum(n), sum(valued), sum(micros) FROM cwant
  GROUP BY 1, 2, 4, 5, 6;
"""

CHECKS = {
    "click rollups not in the recount":
        "SELECT count(*) FROM (SELECT link_id, dim, span, at, key, bot, n "
        "FROM click_rollups WHERE n != 0 EXCEPT SELECT * FROM want) AS d",
    "recounted click rollups missing":
        "SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT link_id, "
        "dim, span, at, key, bot, n FROM click_rollups) AS d",
    "conversion rollups not in the recount":
        "SELECT count(*) FROM (SELECT link_id, dim, span, at, key, "
        "currency, n, valued, micros FROM conversion_rollups EXCEPT SELECT "
        "* FROM cwant) AS d",
    "recounted conversion rollups missing":
        "SELECT count(*) FROM (SELECT * FROM cwant EXCEPT SELECT link_id, "
        "dim, span, at, key, currency, n, valued, micros FROM "
        "conversion_rollups) AS d",
    # The visitors of the last 31 days: each one's first and last click
    # and how many.
    "visitor-days wrong or missing":
        "SELECT count(*) FROM (SELECT at / 86400000, link_id, visitor, "
        "min(at), max(at), count(*) FROM clicks WHERE bot = 0 AND "
        "at / 86400000 >= %(today)d - 30 GROUP BY 1, 2, 3 EXCEPT SELECT "
        "day, link_id, visitor, first_at, last_at, clicks FROM "
        "click_visitors) AS d",
}


def connect(db):
    """db: an lzenv.Instance, or the path of an SQLite database.  A
    connection in one transaction (a snapshot on PostgreSQL after its
    first statement; on SQLite after BEGIN's first read)."""
    if not isinstance(db, str):
        return db.connect()
    import sqlite3
    return sqlite3.connect(db, timeout=30)


def mismatches(db, link_ids=None):
    """{what: count} of the rollups of the links database db (an
    lzenv.Instance, or an SQLite file's path) that differ from a recount
    (all zero when they agree), of the links link_ids or of all.  Also
    "clicks": the raw clicks recounted."""
    import time
    conn = connect(db)
    try:
        cur = conn.cursor()
        # One snapshot: the mover may be moving clicks meanwhile.
        if type(conn).__module__.startswith("sqlite3"):
            conn.isolation_level = None
            cur.execute("BEGIN")
        else:
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        for q in RECOUNT.split(";"):
            if q.strip():
                cur.execute(q)
        c = cur
        if link_ids is not None:
            ids = ",".join(str(int(i)) for i in link_ids) or "0"
            for t in ("want", "cwant"):
                c.execute("DELETE FROM %s WHERE link_id NOT IN (%s)" %
                          (t, ids))
            for t in ("click_rollups", "conversion_rollups"):
                c.execute("CREATE TEMP VIEW v_%s AS SELECT * FROM %s "
                          "WHERE link_id IN (%s)" % (t, t, ids))
        out = {}
        for what, q in CHECKS.items():
            if link_ids is not None:
                q = q.replace("FROM click_rollups", "FROM v_click_rollups")
                q = q.replace("FROM conversion_rollups",
                              "FROM v_conversion_rollups")
                q = q.replace("FROM clicks WHERE", "FROM clicks WHERE "
                              "link_id IN (%s) AND" % ids)
            c.execute(q % {"today": int(time.time()) // 86400})
            out[what] = c.fetchone()[0]
        c.execute("SELECT coalesce(sum(n), 0) FROM want WHERE dim = 0 AND "
                  "span = 24")
        out["clicks"] = int(c.fetchone()[0])
        # Rolled back: the temporary tables and views go with it.
        conn.rollback()
        return out
    finally:
        conn.close()


def wrong(m):
    """The mismatches of mismatches() that are not zero."""
    return {k: v for k, v in m.items() if k != "clicks" and v}
