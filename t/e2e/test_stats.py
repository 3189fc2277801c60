"""Statistics from rollups (DESIGN 3.10), end to end through real nginx
and the real pools:
  - after random traffic (people and bots, suffixes, A/B and geo
    variants, referrers, countries, a capped link whose clicks are
    written at once, conversions), every rollup equals a recount from
    the raw clicks and conversions (t/e2e/rollups.py);
  - raw clicks spread across hours and midnights (written as rows, then
    "lzctl stats rebuild"): the statistics of ranges that start and end
    inside hours and days equal a recount, bucket by bucket;
  - "lzctl stats rebuild" while visitors keep clicking repairs damaged
    rollups and loses none of the clicks moved meanwhile;
  - lz-hooks prunes raw clicks past clicks_retention_days and visitors
    past 31 days; the statistics of the pruned days stay, and a rebuild
    leaves them alone.
"""

import os
import random
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import rollups  # noqa: E402

HOUR = 3600 * 1000
DAY = 24 * HOUR

PEOPLE = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) "
    "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 "
    "Safari/604.1",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like "
    "Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
    "Firefox/120.0",
]
BOTS = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; "
    "+http://www.google.com/bot.html)",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
]
ADDRS = ["133.242.0.3", "8.8.8.8", "10.1.2.3", "2001:db8::7", "1.1.1.1"]
REFS = ["", "https://t.co/x", "https://www.Google.com/search?q=a",
        "https://l.facebook.com/l.php"]
SUFFIXES = ["", "/ig", "/fb", "/mail"]


def visitor(i):
    return bytes([i % 256, i // 256 % 256]) + b"\0" * 14


class Base(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance("stats", workers=2, extra_conf=(
            "trusted_proxies = 127.0.0.1\nconversion_rate_limit = 0\n"))
        cls.inst.start()
        acct = cls.inst.account("st@example.com", "pro")
        cls.key = cls.inst.key(acct)

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def create(self, **fields):
        r = self.inst.api("POST", "/api/v1/links", self.key, dict(
            {"target_url": "https://example.com/t"}, **fields))
        self.assertEqual(r.status, 201, r.body)
        return r.json()

    def stats(self, link_id, query=""):
        r = self.inst.api("GET", "/api/v1/links/%d/stats%s" % (link_id,
                                                               query),
                          self.key)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def clicks(self, link_ids):
        return self.inst.sql("SELECT count(*) FROM clicks WHERE link_id IN "
                             "(%s)" % ",".join(map(str, link_ids)))[0][0]

    def visit(self, slug, rnd):
        ua = rnd.choice(BOTS) if rnd.random() < 0.2 else rnd.choice(PEOPLE)
        h = {"User-Agent": ua, "X-Forwarded-For": rnd.choice(ADDRS)}
        ref = rnd.choice(REFS)
        if ref:
            h["Referer"] = ref
        r = self.inst.request("GET", "/" + slug + rnd.choice(SUFFIXES),
                              headers=h)
        self.assertIn(r.status, (200, 302), r.body)

    def assertRecount(self, link_ids=None):
        m = rollups.mismatches(self.inst, link_ids)
        self.assertEqual(rollups.wrong(m), {})
        return m

    def raw_clicks(self, link_id, rows):
        """Writes raw clicks (at, visitor number, bot, country) of a link
        straight into the table, as an import would."""
        self.inst.execmany(
            "INSERT INTO clicks (link_id, at, country, device, suffix, "
            "variant, visitor, bot) VALUES (?, ?, ?, 'mobile', '', '', ?, "
            "?)", [(link_id, at, cc, visitor(v), bot)
                   for at, v, bot, cc in rows])

    def raw_count(self, link_id, frm, to, bot=0):
        return self.inst.sql(
            "SELECT count(*) FROM clicks WHERE link_id = %d AND at >= %d "
            "AND at < %d AND bot = %d" % (link_id, frm, to, bot))[0][0]

    def raw_visitors(self, link_id, frm, to):
        return self.inst.sql(
            "SELECT count(*) FROM (SELECT min(at) AS f FROM clicks WHERE "
            "link_id = %d AND bot = 0 GROUP BY at / 86400000, visitor) "
            "AS v WHERE f >= %d AND f < %d" % (link_id, frm, to))[0][0]


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + \
        ".%03dZ" % (ms % 1000)


def ms(text):
    import calendar
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) * \
        1000


class TestRollups(Base):

    def test_random_traffic(self):
        rnd = random.Random(14)
        links = [self.create(slug="rt-simple"),
                 self.create(slug="rt-ab", mode="ab", variants=[
                     {"url": "https://a.example/", "weight": 1},
                     {"url": "https://b.example/", "weight": 1}]),
                 self.create(slug="rt-geo", mode="geo", variants={
                     "JP": "https://jp.example/",
                     "US": "https://us.example/"}),
                 self.create(slug="rt-cap", max_clicks=1000000)]
        ids = [x["id"] for x in links]
        n = 300
        for i in range(n):
            self.visit(rnd.choice(links)["slug"], rnd)
        for i in range(40):
            ua = rnd.choice(PEOPLE)
            r = self.inst.request("POST", "/api/conv", body=(
                '{"slug":"%s","value":"%d.5","currency":"%s"}' % (
                    rnd.choice(links)["slug"], i, rnd.choice(["USD", "TWD"])
                )).encode(), headers={
                    "Content-Type": "application/json", "User-Agent": ua,
                    "X-Forwarded-For": rnd.choice(ADDRS)})
            self.assertEqual(r.status, 200, r.body)
        lzenv.wait_for(lambda: self.clicks(ids) == n, timeout=20,
                       what="the clicks moved in")
        m = self.assertRecount(ids)
        self.assertEqual(m["clicks"], n)
        # What the API answers is what the raw clicks say.
        now = int(time.time() * 1000)
        for x in links:
            s = self.stats(x["id"])
            frm, to = ms(s["from"]), ms(s["to"])
            self.assertLessEqual(frm, now - 29 * DAY)
            self.assertEqual(to % HOUR, 0)
            self.assertEqual(s["totals"]["clicks"],
                             self.raw_count(x["id"], frm, to))
            self.assertEqual(s["totals"]["bots"],
                             self.raw_count(x["id"], frm, to, 1))
            self.assertEqual(s["totals"]["visitors"],
                             self.raw_visitors(x["id"], frm, to))
            self.assertEqual(sum(b["clicks"] for b in s["series"]),
                             s["totals"]["clicks"])
            self.assertEqual(sum(b["visitors"] for b in s["series"]),
                             s["totals"]["visitors"])
            for dim, col in (("country", "country"), ("suffix", "suffix"),
                             ("referrer_host", "referrer_host"),
                             ("variant", "variant")):
                want = dict(self.inst.sql(
                    "SELECT %s, count(*) FROM clicks WHERE link_id = %d AND "
                    "bot = 0 GROUP BY 1" % (col, x["id"])))
                got = {b["key"]: b["clicks"] for b in s["breakdowns"][dim]}
                self.assertEqual(got, want, dim)

    def test_hours_and_days(self):
        """Raw clicks across two midnights, rebuilt, then ranges that
        start and end inside hours and days."""
        link = self.create(slug="rt-days")
        rnd = random.Random(7)
        mid = (int(time.time() * 1000) // DAY - 5) * DAY
        rows = [(mid - 3 * HOUR + i * 7 * 60000 + rnd.randrange(60000),
                 rnd.randrange(30), int(rnd.random() < 0.2),
                 rnd.choice(["TW", "JP", ""]))
                for i in range(30 * 24 * 60 // 7 // 10)]
        rows += [(mid + DAY + 30 * 60000 + i, 999, 0, "US")
                 for i in range(5)]
        self.raw_clicks(link["id"], rows)
        rc, out, err = self.inst.ctl("stats", "rebuild", "--link",
                                     str(link["id"]))
        self.assertRegex(out, r"^rebuilt [1-9]\d* link-days of 1 links: "
                         r"%d clicks, 0 conversions\n$" % len(rows))
        self.assertEqual(err, "")           # no terminal, no progress
        self.assertRecount([link["id"]])
        for frm, to, interval in (
                (mid - 90 * 60000, mid + 90 * 60000 + 5, "hour"),
                (mid - 2 * HOUR - 1, mid + DAY + HOUR + 1, "day"),
                (mid - DAY - 1, mid + DAY + 45 * 60000, "day"),
                (mid, mid + DAY, "hour"),
                (mid + 10 * 60000, mid + 20 * 60000, "hour")):
            s = self.stats(link["id"], "?from=%s&to=%s&interval=%s" % (
                iso(frm), iso(to), interval))
            f, t = frm // HOUR * HOUR, (to + HOUR - 1) // HOUR * HOUR
            self.assertEqual((ms(s["from"]), ms(s["to"])), (f, t))
            self.assertEqual(s["totals"]["clicks"],
                             self.raw_count(link["id"], f, t))
            self.assertEqual(s["totals"]["bots"],
                             self.raw_count(link["id"], f, t, 1))
            self.assertEqual(s["totals"]["visitors"],
                             self.raw_visitors(link["id"], f, t))
            b = HOUR if interval == "hour" else DAY
            for item in s["series"]:
                lo = max(ms(item["t"]), f)
                hi = min(ms(item["t"]) + b, t)
                self.assertEqual(item["clicks"],
                                 self.raw_count(link["id"], lo, hi),
                                 (interval, item))
                self.assertEqual(item["visitors"],
                                 self.raw_visitors(link["id"], lo, hi))
            tw = [x["clicks"] for x in s["breakdowns"]["country"]
                  if x["key"] == "TW"]
            self.assertEqual(sum(tw), self.inst.sql(
                "SELECT count(*) FROM clicks WHERE link_id = %d AND at >= "
                "%d AND at < %d AND bot = 0 AND country = 'TW'" % (
                    link["id"], f, t))[0][0])

    def test_rebuild_online(self):
        """Damaged rollups, rebuilt while people keep clicking."""
        links = [self.create(slug="rb-%d" % i) for i in range(3)]
        ids = [x["id"] for x in links]
        rnd = random.Random(3)
        for i in range(60):
            self.visit(rnd.choice(links)["slug"], rnd)
        lzenv.wait_for(lambda: self.clicks(ids) == 60, timeout=20,
                       what="the clicks moved in")
        self.inst.sql("UPDATE click_rollups SET n = n + 3 WHERE dim = 1")
        self.inst.sql("DELETE FROM click_rollups WHERE dim = 8")
        self.inst.sql("DELETE FROM click_visitors")
        self.assertNotEqual(rollups.wrong(rollups.mismatches(self.inst, ids)),
                            {})
        stop = threading.Event()
        done = []

        def clicking():
            r = random.Random(4)
            while not stop.is_set() and len(done) < 2000:
                self.visit(r.choice(links)["slug"], r)
                done.append(1)
        t = threading.Thread(target=clicking)
        t.start()
        try:
            time.sleep(0.5)
            for _ in range(3):
                rc, out, err = self.inst.ctl("stats", "rebuild")
                self.assertEqual(rc, 0, err)
                self.assertIn("rebuilt ", out)
        finally:
            stop.set()
            t.join(30)
        self.assertGreater(len(done), 0)
        lzenv.wait_for(lambda: self.clicks(ids) == 60 + len(done),
                       timeout=20, what="the clicks moved in")
        self.assertRecount(ids)

    def test_rebuild_usage(self):
        rc, out, err = self.inst.ctl("stats", "rebuild", "--link", "x",
                                     check=False)
        self.assertEqual(rc, 2)
        self.assertIn("not a link id", err)
        rc, out, err = self.inst.ctl("stats", "rebuild", "--link", "999999")
        self.assertEqual(out, "rebuilt 0 link-days of 0 links: 0 clicks, "
                         "0 conversions\n")
        rc, out, err = self.inst.ctl("stats", "rebuild", "extra",
                                     check=False)
        self.assertEqual(rc, 2)


class TestRetention(Base):

    def test_prune(self):
        link = self.create(slug="ret")
        today = int(time.time() * 1000) // DAY * DAY
        old = [(today - 10 * DAY + i * 1000, i % 7, 0, "JP")
               for i in range(50)]
        new = [(today - DAY + i * 1000, i % 7, 0, "TW") for i in range(20)]
        self.raw_clicks(link["id"], old + new)
        self.inst.ctl("stats", "rebuild", "--link", str(link["id"]))
        q = "?from=%s&to=%s" % (iso(today - 11 * DAY), iso(today - 9 * DAY))
        self.assertEqual(self.stats(link["id"], q)["totals"]["clicks"], 50)
        # A visitor-day of 40 days ago: past what attribution reads.
        self.inst.sql("INSERT INTO click_visitors VALUES (%d, %d, %s, "
                      "0, 0, '', '', 1)" % (today // DAY - 40, link["id"],
                                           "'\\x01'::bytea" if self.inst.pg
                                           else "x'01'"))

        self.inst.write_conf("trusted_proxies = 127.0.0.1\n"
                             "clicks_retention_days = 3\n")
        try:
            p = subprocess.run([lzenv.prog("lz-hooks"), "-f",
                                self.inst.conf], capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("pruned 50 clicks older than 3 days", p.stderr)
            self.assertEqual(self.clicks([link["id"]]), 20)
            self.assertEqual(self.inst.sql(
                "SELECT count(*) FROM click_visitors WHERE day = %d" %
                (today // DAY - 40))[0][0], 0)
            # The statistics of the pruned days stay; a rebuild leaves
            # them alone and still recounts the days kept.
            self.assertEqual(self.stats(link["id"], q)["totals"]["clicks"],
                             50)
            self.inst.sql("UPDATE click_rollups SET n = n + 1 WHERE "
                          "link_id = %d AND at >= %d" % (link["id"],
                                                         today - DAY))
            rc, out, err = self.inst.ctl("stats", "rebuild", "--link",
                                         str(link["id"]))
            self.assertIn("20 clicks", out)
            self.assertEqual(self.stats(link["id"], q)["totals"]["clicks"],
                             50)
            s = self.stats(link["id"])
            self.assertEqual(s["totals"]["clicks"], 70)
            self.assertEqual(s["totals"]["visitors"], 14)
        finally:
            self.inst.write_conf("trusted_proxies = 127.0.0.1\n"
                                 "conversion_rate_limit = 0\n")


if __name__ == "__main__":
    lzenv.main()
