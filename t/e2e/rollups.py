"""rollups -- the statistics' rollups (sql/links/0008-rollups.sql) against
a recount from the raw clicks and conversions, with SQL of its own: what
the end-to-end tests and bench/stats check after traffic, kills and
rebuilds."""

# Hour rows, then days as the sums of their hours.  A visitor-day counts
# in the hour of its first click.
RECOUNT = """
DROP TABLE IF EXISTS temp.want;
CREATE TEMP TABLE want (link_id, dim, span, at, key, bot, n);
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
        GROUP BY link_id, at / 86400000, visitor) GROUP BY 1, 4;
INSERT INTO want SELECT link_id, dim, 24, at - at % 86400000, key, bot,
  sum(n) FROM want GROUP BY 1, 2, 4, 5, 6;
DROP TABLE IF EXISTS temp.cwant;
CREATE TEMP TABLE cwant (link_id, dim, span, at, key, currency, n, valued,
  micros);
INSERT INTO cwant SELECT link_id, 0, 1, at - at % 3600000, '', currency,
  count(*), count(value), total(value) FROM conversions GROUP BY 1, 4, 6;
INSERT INTO cwant SELECT link_id, 1, 1, at - at % 3600000, suffix,
  currency, count(*), count(value), total(value) FROM conversions
  GROUP BY 1, 4, 5, 6;
INSERT INTO cwant SELECT link_id, 2, 1, at - at % 3600000, variant,
  currency, count(*), count(value), total(value) FROM conversions
  WHERE variant IS NOT NULL GROUP BY 1, 4, 5, 6;
INSERT INTO cwant SELECT link_id, 3, 1, at - at % 3600000, '', currency,
  count(*), count(value), total(value) FROM conversions
  WHERE variant IS NULL GROUP BY 1, 4, 6;
INSERT INTO cwant SELECT link_id, dim, 24, at - at % 86400000, key,
  currency, sum(n), sum(valued), sum(micros) FROM cwant
  GROUP BY 1, 2, 4, 5, 6;
"""

CHECKS = {
    "click rollups not in the recount":
        "SELECT count(*) FROM (SELECT link_id, dim, span, at, key, bot, n "
        "FROM click_rollups WHERE n != 0 EXCEPT SELECT * FROM want)",
    "recounted click rollups missing":
        "SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT link_id, "
        "dim, span, at, key, bot, n FROM click_rollups)",
    "conversion rollups not in the recount":
        "SELECT count(*) FROM (SELECT link_id, dim, span, at, key, "
        "currency, n, valued, micros FROM conversion_rollups EXCEPT SELECT "
        "* FROM cwant)",
    "recounted conversion rollups missing":
        "SELECT count(*) FROM (SELECT * FROM cwant EXCEPT SELECT link_id, "
        "dim, span, at, key, currency, n, valued, micros FROM "
        "conversion_rollups)",
    # The visitors of the last 31 days: each one's first and last click
    # and how many.
    "visitor-days wrong or missing":
        "SELECT count(*) FROM (SELECT at / 86400000, link_id, visitor, "
        "min(at), max(at), count(*) FROM clicks WHERE bot = 0 AND "
        "at / 86400000 >= CAST(strftime('%s', 'now') AS INTEGER) / 86400 - "
        "30 GROUP BY 1, 2, 3 EXCEPT SELECT day, link_id, visitor, first_at, "
        "last_at, clicks FROM click_visitors)",
}


def mismatches(path, link_ids=None):
    """{what: count} of the rollups of the database at path that differ
    from a recount (all zero when they agree), of the links link_ids or
    of all.  Also "clicks": the raw clicks recounted."""
    import sqlite3
    c = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        # One snapshot: the mover may be moving clicks meanwhile.
        c.executescript("BEGIN;" + RECOUNT)
        if link_ids is not None:
            ids = ",".join(str(int(i)) for i in link_ids) or "0"
            for t in ("want", "cwant"):
                c.execute("DELETE FROM %s WHERE link_id NOT IN (%s)" %
                          (t, ids))
            for t in ("click_rollups", "conversion_rollups"):
                c.execute("CREATE TEMP VIEW v_%s AS SELECT * FROM main.%s "
                          "WHERE link_id IN (%s)" % (t, t, ids))
        out = {}
        for what, q in CHECKS.items():
            if link_ids is not None:
                q = q.replace("FROM click_rollups", "FROM v_click_rollups")
                q = q.replace("FROM conversion_rollups",
                              "FROM v_conversion_rollups")
                q = q.replace("FROM clicks WHERE", "FROM clicks WHERE "
                              "link_id IN (%s) AND" % ids)
            out[what] = c.execute(q).fetchone()[0]
        out["clicks"] = c.execute(
            "SELECT coalesce(sum(n), 0) FROM want WHERE dim = 0 AND "
            "span = 24").fetchone()[0]
        c.execute("COMMIT")
        return out
    finally:
        c.close()


def wrong(m):
    """The mismatches of mismatches() that are not zero."""
    return {k: v for k, v in m.items() if k != "clicks" and v}
