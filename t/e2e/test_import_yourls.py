"""End-to-end tests of lzctl import yourls (lzctl(8) import, lz-links(8)
"Importing") against a real MariaDB server the test starts (mariadb.py:
its own data directory and socket, removed after), holding YOURLS's own
schema and fixture rows: UTF-8 titles, keywords outside lz's rules, log
rows with "direct", bots, countries, a log shorter than the clicks
column, clicks older than the retention.  On the instance's engine
(LZ_DB=postgresql too), with the pools serving.

  - the links arrive with their titles and creation times (in the
    server's zone, or --timezone's), redirect, and each one's count
    equals YOURLS's clicks column;
  - their statistics equal a recount of the fixture's log (people
    apart from bots, by day, country, referrer, browser); the clicks
    within the retention are raw rows whose rollups equal a recount;
  - a second run imports nothing;
  - an import killed with SIGKILL while it moves a big history goes on
    where it stopped when run again: no click lost or moved twice.
"""

import datetime
import json
import os
import random
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import mariadb  # noqa: E402
import rollups  # noqa: E402
from test_stats import BOTS, PEOPLE  # noqa: E402

inst = None
server = None
DAY = 86400 * 1000
ZONE = 8 * 3600           # the server's zone: +08:00
RETENTION = 30            # days of raw clicks kept
REFS = ["direct", "direct", "https://news.example.org/item?id=1",
        "https://t.co/abc", "http://search.example.com/?q=x"]
COUNTRIES = ["TW", "JP", "US", "", "DE"]


def setUpModule():
    global inst, server
    why = mariadb.available()
    if why:
        raise unittest.SkipTest(why)
    server = mariadb.Server()
    server.start()
    # The server's zone is +08:00 (a LAMP host in Taipei).
    server.sql("SET GLOBAL time_zone = '+08:00'")
    inst = lzenv.Instance("importyourls", extra_conf=(
        "plan.big.links = 1000000\nplan.big.quota = 1000\n"
        "clicks_retention_days = %d\n" % RETENTION))
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()
    if server is not None:
        server.stop()


def q(s):
    """An SQL string literal of s."""
    return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'"


def wall(ms):
    """ms since the epoch as the server's wall-clock time (+08:00)."""
    return datetime.datetime.utcfromtimestamp(ms / 1000 + ZONE).strftime(
        "%Y-%m-%d %H:%M:%S")


def make_yourls(db, links, log, prefix="yourls_"):
    """A YOURLS database db: links [(keyword, url, title, created_ms,
    clicks)], log [(keyword, at_ms, referrer, ua, ip, country)]."""
    server.sql("CREATE DATABASE %s CHARACTER SET utf8mb4" % db)
    server.sql(mariadb.yourls_schema(prefix), db=db)
    server.sql("CREATE USER IF NOT EXISTS 'yourls'@'localhost' IDENTIFIED "
               "BY 'p@ss:w/rd'; GRANT SELECT ON %s.* TO "
               "'yourls'@'localhost'" % db)
    stmts = ["SET time_zone = '+08:00';"]
    for k, url, title, created, clicks in links:
        stmts.append("INSERT INTO %surl VALUES (%s, %s, %s, %s, "
                     "'203.0.113.9', %d);" % (
                         prefix, q(k), q(url),
                         "NULL" if title is None else q(title),
                         q(wall(created)), clicks))
    rows = ["(%s, %s, %s, %s, %s, %s)" % (q(wall(at)), q(k), q(ref),
                                          q(ua), q(ip), q(cc))
            for k, at, ref, ua, ip, cc in log]
    for i in range(0, len(rows), 2000):
        stmts.append("INSERT INTO %slog (click_time, shorturl, referrer, "
                     "user_agent, ip_address, country_code) VALUES %s;" %
                     (prefix, ",".join(rows[i:i + 2000])))
    path = inst.path(db + ".sql")
    with open(path, "w") as f:
        f.write("\n".join(stmts))
    server.load(path, db)
    return server.url(db, "yourls", "p@ss:w/rd")


def is_bot(ua):
    return ua in BOTS


class ImportYourls(unittest.TestCase):
    def run_import(self, url, email, *extra, check=True):
        rc, out, err = inst.ctl("import", "yourls", "--from", url,
                                "--account", email, *extra, check=False)
        if check:
            self.assertEqual(rc, 0, out + err)
        return rc, out, err

    def link_ids(self, acct):
        return {s: (i, c, t, cr) for s, i, c, t, cr in inst.sql(
            "SELECT slug, id, clicks, title, created_at FROM links WHERE "
            "account_id = %d AND deleted_at IS NULL" % acct)}

    def test_1_links_clicks_and_statistics(self):
        rnd = random.Random(35)
        now = int(time.time() * 1000)
        acct = inst.account("yourls@example.com", "big")
        key = inst.key(acct)
        links = [
            ("abc", "https://example.com/a", "Ünïcode 標題 \t— title",
             now - 400 * DAY, 9),
            ("def", "https://example.com/d", None, now - 10 * DAY, 3),
            ("bad keyword!", "https://example.com/b", "B", now - 5 * DAY,
             0),
            ("ok-1", "https://example.com/o", "x" * 700, now - DAY, 0),
        ]
        log = []
        # abc: 5 rows for 9 clicks (YOURLS's log is shorter), one of them
        # older than the retention.
        for at, ref, ua, cc in [
                (now - 300 * DAY, "direct", PEOPLE[0], "TW"),
                (now - 3 * DAY, "https://t.co/x", PEOPLE[1], "JP"),
                (now - 3 * DAY + 60000, "direct", PEOPLE[1], "JP"),
                (now - 2 * DAY, "direct", BOTS[0], "US"),
                (now - DAY, "http://search.example.com/?q=1", PEOPLE[2],
                 "")]:
            log.append(("abc", at, ref, ua, "198.51.100.7", cc))
        # def: as many rows as clicks, a bot among them.
        for at, ua in [(now - 9 * DAY, PEOPLE[3]), (now - 8 * DAY, BOTS[0]),
                       (now - 7 * DAY, PEOPLE[0])]:
            log.append(("def", at, "direct", ua, "192.0.2.1", "DE"))
        # 60 more links with random logs over 100 days.
        for n in range(60):
            k = "r%02d" % n
            rows = []
            for _ in range(rnd.randrange(0, 80)):
                at = now - rnd.randrange(1, 100 * DAY)
                rows.append((k, at, rnd.choice(REFS),
                             rnd.choice(BOTS) if rnd.random() < 0.15
                             else rnd.choice(PEOPLE),
                             "10.0.%d.%d" % (rnd.randrange(4),
                                             rnd.randrange(4)),
                             rnd.choice(COUNTRIES)))
            links.append((k, "https://example.com/r/%d" % n, "R %d" % n,
                          now - 120 * DAY, len(rows) + rnd.randrange(3)))
            log += rows
        rnd.shuffle(log)         # click_id order is not time order
        log.sort(key=lambda r: r[1])
        # A click of a keyword YOURLS no longer has: left alone.
        log.append(("gone", now - DAY, "direct", PEOPLE[0], "192.0.2.9",
                    "FR"))
        url = make_yourls("y1", links, log)

        report = inst.path("yourls-report.json")
        rc, out, err = self.run_import(url, "yourls@example.com",
                                       "--report", report)
        got = self.link_ids(acct)
        self.assertEqual(len(got), 63, out + err)
        rep = load(report)
        self.assertEqual(rep["skipped"], 1)
        self.assertEqual(rep["skipped_rows"][0]["id"], "bad keyword!")
        self.assertNotIn("p@ss", json.dumps(rep))
        self.assertEqual(rep["from"].split("@")[0], "mysql://yourls:***")
        # Titles: UTF-8 kept, a tab as a space, cut to 500 characters;
        # created in the server's zone.
        self.assertEqual(got["abc"][2], "Ünïcode 標題  — title")
        self.assertEqual(got["ok-1"][2], "x" * 500)
        self.assertEqual(got["abc"][3], (now - 400 * DAY) // 1000 * 1000)
        # Counts: YOURLS's column, whatever the log holds.
        for k, _, _, _, clicks in links:
            if k in got:
                self.assertEqual(got[k][1], clicks, k)
        self.assertEqual(rep["clicks_without_breakdown"],
                         sum(c for k, _, _, _, c in links if k in got) -
                         sum(1 for r in log if r[0] in got and
                             not is_bot(r[3])))
        # Statistics: people by day, country, referrer host, against the
        # fixture's log.
        frm = now - 360 * DAY
        for k in ["abc", "def"] + ["r%02d" % n for n in range(0, 60, 7)]:
            lid = got[k][0]
            s = inst.api("GET", "/api/v1/links/%d/stats?from=%s&to=%s&"
                         "interval=day" % (lid, iso(frm), iso(now + DAY)),
                         key)
            self.assertEqual(s.status, 200, s.body)
            s = s.json()
            mine = [r for r in log if r[0] == k]
            people = [r for r in mine if not is_bot(r[3])]
            self.assertEqual(s["totals"]["clicks"], len(people), k)
            self.assertEqual(s["totals"]["bots"], len(mine) - len(people),
                             k)
            want = {}
            for r in people:
                want[r[5]] = want.get(r[5], 0) + 1
            gotc = {b["key"]: b["clicks"]
                    for b in s["breakdowns"]["country"] if b["clicks"]}
            self.assertEqual(gotc, want, k)
            want = {}
            for r in people:
                h = "" if r[2] == "direct" else r[2].split("/")[2]
                want[h] = want.get(h, 0) + 1
            gotr = {b["key"]: b["clicks"]
                    for b in s["breakdowns"]["referrer_host"]}
            for h, n in want.items():
                self.assertEqual(gotr.get(h, 0), n, (k, h, gotr))
            byday = {}
            for r in people:
                d = r[1] // DAY * DAY
                byday[d] = byday.get(d, 0) + 1
            series = {int(datetime.datetime.fromisoformat(
                b["t"].replace("Z", "+00:00")).timestamp() * 1000):
                b["clicks"] for b in s["series"] if b["clicks"]}
            self.assertEqual(series, byday, k)
        # The account's figures (on SQLite kept by the import itself,
        # the scope triggers paused: 0021) are the sum of its links'.
        a = inst.api("GET", "/api/v1/stats?from=%s&to=%s&interval=day" % (
            iso(frm), iso(now + DAY)), key)
        self.assertEqual(a.status, 200, a.body)
        a = a.json()
        people = [r for r in log if r[0] in got and not is_bot(r[3]) and
                  r[1] >= frm // 3600000 * 3600000]
        self.assertEqual(a["totals"]["clicks"], len(people))
        self.assertEqual(a["totals"]["bots"], sum(
            1 for r in log if r[0] in got and is_bot(r[3]) and
            r[1] >= frm // 3600000 * 3600000))
        want = {}
        for r in people:
            want[r[5]] = want.get(r[5], 0) + 1
        self.assertEqual({b["key"]: b["clicks"] for b in
                          a["breakdowns"]["country"] if b["clicks"]}, want)
        visitors = 0
        for k in got:
            s = inst.api("GET", "/api/v1/links/%d/stats?from=%s&to=%s&"
                         "interval=day" % (got[k][0], iso(frm),
                                           iso(now + DAY)), key).json()
            visitors += s["totals"]["visitors"]
        self.assertEqual(a["totals"]["visitors"], visitors)
        # Raw rows within the retention only; their rollups equal a
        # recount of them (visitors too) for links whose clicks all are.
        keep = (now // DAY - RETENTION) * DAY
        ids = [v[0] for v in got.values()]
        raw = inst.sql("SELECT count(*) FROM clicks WHERE link_id IN (%s)"
                       % ",".join(map(str, ids)))[0][0]
        self.assertEqual(raw, sum(1 for r in log if r[0] in got and
                                  r[1] >= keep))
        recent = [got[k][0] for k in got if
                  all(r[1] >= keep for r in log if r[0] == k)]
        self.assertIn(got["def"][0], recent)
        bad = {k: v for k, v in rollups.mismatches(inst, recent).items()
               if k != "clicks" and v}
        self.assertEqual(bad, {})

        # Again: nothing new, no click twice.
        rc, out, err = self.run_import(url, "yourls@example.com")
        self.assertIn("nothing new", out, out + err)
        again = self.link_ids(acct)
        self.assertEqual({k: v[1] for k, v in again.items()},
                         {k: v[1] for k, v in got.items()})
        self.assertEqual(inst.sql(
            "SELECT count(*) FROM clicks WHERE link_id IN (%s)" %
            ",".join(map(str, ids)))[0][0], raw)

        # The imported links redirect (a click of now, after the
        # counts above).
        r = inst.request("GET", "/abc", direct=True)
        self.assertEqual(r.status, 302)
        self.assertEqual(r.header("Location"), "https://example.com/a")

        # With rename, the keyword outside lz's rules comes in as the
        # nearest slug it takes, with its clicks.
        rc, out, err = self.run_import(url, "yourls@example.com",
                                       "--on-conflict", "rename",
                                       "--report", report)
        rep = load(report)
        self.assertEqual(rep["imported"], 1, out + err)
        self.assertEqual(rep["renamed_links"][0]["id"], "bad keyword!")
        self.assertEqual(rep["renamed_links"][0]["slug"], "bad-keyword-")

    def test_2_timezone_prefix_and_errors(self):
        now = int(time.time() * 1000)
        acct = inst.account("tz@example.com", "big")
        url = make_yourls("y2", [("tz1", "https://example.com/tz", "T",
                                  now - 3 * DAY, 1)],
                          [("tz1", now - 2 * DAY, "direct", PEOPLE[0],
                            "192.0.2.1", "TW")], prefix="my_")
        # Its times read as UTC instead of the server's +08:00: eight
        # hours later.
        self.run_import(url, "tz@example.com", "--prefix", "my_",
                        "--timezone", "UTC")
        (created, clicks), = inst.sql(
            "SELECT created_at, clicks FROM links WHERE account_id = %d" %
            acct)
        self.assertEqual(created, (now - 3 * DAY) // 1000 * 1000 +
                         ZONE * 1000)
        self.assertEqual(clicks, 1)
        at, = inst.sql("SELECT at FROM clicks c JOIN links l ON "
                       "l.id = c.link_id WHERE l.account_id = %d" % acct)[0]
        self.assertEqual(at, (now - 2 * DAY) // 1000 * 1000 + ZONE * 1000)
        for extra, why in [
                (["--prefix", "x`; DROP TABLE y"], "--prefix"),
                (["--timezone", "../../etc/passwd"], "--timezone"),
                (["--prefix", "nope_"], "could not be read")]:
            rc, out, err = self.run_import(url, "tz@example.com", *extra,
                                           check=False)
            self.assertEqual(rc, 1, out + err)
            self.assertIn(why, err)
        rc, out, err = self.run_import(
            url.replace("p%40ss", "wrong"), "tz@example.com", check=False)
        self.assertEqual(rc, 1)
        self.assertIn("Access denied", err)

    def test_3_killed_mid_history_goes_on(self):
        """A link of 60,000 clicks over 90 days (several transactions):
        lzctl killed with SIGKILL once some are in, then run again."""
        rnd = random.Random(7)
        now = int(time.time() * 1000)
        acct = inst.account("kill@example.com", "big")
        log = []
        for i in range(60000):
            log.append(("big", now - 90 * DAY + i * (90 * DAY // 60000),
                        rnd.choice(REFS), rnd.choice(PEOPLE),
                        "10.1.%d.%d" % (rnd.randrange(50),
                                        rnd.randrange(50)),
                        rnd.choice(COUNTRIES)))
        url = make_yourls("y3", [("big", "https://example.com/big", "Big",
                                  now - 100 * DAY, 60010)], log)
        p = subprocess.Popen([lzenv.prog("lzctl"), "-f", inst.conf,
                              "import", "yourls", "--from", url,
                              "--account", "kill@example.com"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        pos = -1
        while time.monotonic() < deadline and p.poll() is None:
            rows = inst.sql("SELECT history_pos FROM link_imports i JOIN "
                            "links l ON l.id = i.link_id WHERE "
                            "l.account_id = %d" % acct)
            if rows and rows[0][0] > 0:
                pos = rows[0][0]
                break
            time.sleep(0.02)
        p.send_signal(signal.SIGKILL)
        p.communicate()
        self.assertGreater(pos, 0, "killed before any click moved in")
        lid, = inst.sql("SELECT id FROM links WHERE account_id = %d" %
                        acct)[0]
        # A tag put on between the runs: the clicks in take it to their
        # sums (the link's rollups so far); the rest of the history, the
        # import's own sums of its batches (the links' tags read in its
        # transaction, on PostgreSQL under the account's lock).
        r = inst.api("PATCH", "/api/v1/links/%d" % lid, inst.key(acct),
                     {"tags": ["Moved"]})
        self.assertEqual(r.status, 200, r.body)
        rc, out, err = self.run_import(url, "kill@example.com")
        self.assertIn("links' histories moved in", out)
        (clicks,), = inst.sql("SELECT clicks FROM links WHERE id = %d" %
                              lid)
        self.assertEqual(clicks, 60010)
        s = inst.api("GET", "/api/v1/links/%d/stats?from=%s&to=%s" % (
            lid, iso(now - 100 * DAY), iso(now + DAY)),
            inst.key(acct)).json()
        self.assertEqual(s["totals"]["clicks"], 60000)
        for q in ("", "&tag=moved"):
            a = inst.api("GET", "/api/v1/stats?from=%s&to=%s%s" % (
                iso(now - 100 * DAY), iso(now + DAY), q),
                inst.key(acct)).json()
            self.assertEqual(a["totals"]["clicks"], 60000, q)
            self.assertEqual(a["totals"]["visitors"],
                             s["totals"]["visitors"], q)
        keep = (now // DAY - RETENTION) * DAY
        (raw,), = inst.sql("SELECT count(*) FROM clicks WHERE link_id = %d"
                           % lid)
        self.assertEqual(raw, sum(1 for r in log if r[1] >= keep))


def load(path):
    with open(path) as f:
        return json.load(f)


def iso(ms):
    return datetime.datetime.utcfromtimestamp(ms / 1000).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


if __name__ == "__main__":
    unittest.main(verbosity=2)
