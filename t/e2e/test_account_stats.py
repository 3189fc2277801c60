"""End-to-end tests of statistics across links (DESIGN 3.13, lz-links(8)
"Statistics across links"), GET /api/v1/stats through nginx on the
instance's engine (LZ_DB=postgresql too).

Random traffic (people and bots, countries, referrers, suffixes, two
domains, conversions with revenue) goes to a dozen links carrying two
tags while the worker holding the click mover's lock is killed with
SIGKILL twice.  Then the account's figures must equal the sum of every
link's statistics (totals, series, breakdowns, conversions, revenue),
the figures of a tag, of a domain and of both must equal a brute-force
sum over the links they cover (and a recount of the raw clicks), and the
top links the links sorted by their clicks.  The sums must follow tag
edits (a tag taken off and put on, a rename merging two tags, a delete)
and lzctl stats rebuild.
"""

import collections
import json
import os
import random
import signal
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None
BRAND = "go.brand.test"
UAS = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) "
    "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 "
    "Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
]
REFERRERS = [None, "https://news.example/a", "https://social.example/p",
             "https://search.example/?q=x"]
COUNTRIES = ["TW", "JP", "US", "DE", None]
NLINKS = 12
RED = range(0, 6)          # links carrying "red"
BLUE = range(3, 9)         # links carrying "Blue"
ON_BRAND = range(6, 12)    # links on the brand domain


def setUpModule():
    global inst
    inst = lzenv.Instance("acctstats", workers=2)
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


def mover_pid():
    """The worker holding the mover's flock on mover.lock, or None."""
    try:
        ino = os.stat(inst.path("data", "clicks", "mover.lock")).st_ino
    except OSError:
        return None
    with open("/proc/locks") as f:
        for line in f:
            parts = line.split()
            # "1: FLOCK ADVISORY WRITE pid maj:min:inode start end"
            if len(parts) >= 6 and parts[1] == "FLOCK" and \
                    parts[5].split(":")[-1] == str(ino):
                return int(parts[4])
    return None


def add(into, j):
    """Adds the figures of statistics j into the sums into."""
    t = into.setdefault("totals", collections.Counter())
    for k in ("clicks", "bots", "visitors", "conversions"):
        t[k] += j["totals"][k]
    rev = into.setdefault("revenue", collections.Counter())
    for cur, v in j["totals"]["revenue_micros"].items():
        rev[cur] += v
    ser = into.setdefault("series", collections.OrderedDict())
    for b in j["series"]:
        c = ser.setdefault(b["t"], collections.Counter())
        c["clicks"] += b["clicks"]
        c["visitors"] += b["visitors"]
        c["conversions"] += b["conversions"]
    bd = into.setdefault("breakdowns", {})
    for dim, rows in j["breakdowns"].items():
        c = bd.setdefault(dim, collections.Counter())
        for row in rows:
            c[row["key"]] += row["clicks"]
    cb = into.setdefault("conv_breakdowns", {})
    for dim, rows in j["conversion_breakdowns"].items():
        c = cb.setdefault(dim, collections.Counter())
        for row in rows:
            c[row["key"]] += row["conversions"]
    return into


def figures(j):
    """The figures of an answer, as add() sums them."""
    return add({}, j)


def clean(f):
    """Sums without the zeros (a link without a value adds nothing)."""
    out = {}
    for k, v in f.items():
        if isinstance(v, dict) and v and all(isinstance(x, dict)
                                             for x in v.values()):
            out[k] = {d: {kk: vv for kk, vv in c.items() if vv}
                      for d, c in v.items()}
        elif isinstance(v, dict):
            out[k] = {kk: vv for kk, vv in v.items() if vv} \
                if not isinstance(v, collections.OrderedDict) else \
                [(t, dict(c)) for t, c in v.items()]
        else:
            out[k] = v
    return out


class AccountStats(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        inst.ctl("domain", "add", BRAND)
        cls.key = inst.key(inst.account("stats@example.com", "pro"))
        cls.other = inst.key(inst.account("other@example.com", "pro"))
        cls.links = []
        for i in range(NLINKS):
            tags = (["red"] if i in RED else []) + \
                (["Blue"] if i in BLUE else [])
            body = {"target_url": "https://shop.example/p%d" % i,
                    "slug": "as%d" % i, "tags": tags}
            if i in ON_BRAND:
                body["domain"] = BRAND
            r = inst.api("POST", "/api/v1/links", cls.key, body)
            assert r.status == 201, r.body
            cls.links.append(r.json())
        # Another account's link: none of its clicks may show.
        r = inst.api("POST", "/api/v1/links", cls.other,
                     {"target_url": "https://shop.example/o", "slug": "oth"})
        assert r.status == 201, r.body
        cls.traffic()

    @classmethod
    def traffic(cls):
        rnd = random.Random(33)
        served = {"n": 0}
        lock = threading.Lock()
        stop = threading.Event()

        def client(seed):
            r = random.Random(seed)
            while not stop.is_set():
                i = min(int(r.expovariate(0.35)), NLINKS - 1)
                if r.random() < 0.15:
                    i = NLINKS      # the other account's
                slug = "oth" if i == NLINKS else "as%d" % i
                host = BRAND if i in ON_BRAND else "127.0.0.1"
                path = "/" + slug + r.choice(["", "", "/ig", "/fb"])
                h = {"Host": host, "User-Agent": r.choice(UAS),
                     "X-Forwarded-For": "198.51.100.%d" % r.randrange(1, 60)}
                ref = r.choice(REFERRERS)
                if ref:
                    h["Referer"] = ref
                cc = r.choice(COUNTRIES)
                if cc:
                    h["CF-IPCountry"] = cc
                try:
                    resp = inst.request("GET", path, headers=h, direct=True,
                                        timeout=10)
                except OSError:
                    continue
                if resp.status in (301, 302, 200):
                    with lock:
                        served["n"] += 1
                if r.random() < 0.05 and i < NLINKS:
                    body = {"slug": slug, "value": r.choice([0, 5, 12.5]),
                            "currency": r.choice(["USD", "TWD"])}
                    if i in ON_BRAND:
                        body["domain"] = BRAND
                    inst.request("POST", "/api/conv", body=json.dumps(body),
                                 headers={"User-Agent": h["User-Agent"],
                                          "X-Forwarded-For":
                                          h["X-Forwarded-For"],
                                          "Origin": "https://shop.example",
                                          "Content-Type":
                                          "application/json"},
                                 direct=True)

        threads = [threading.Thread(target=client, args=(rnd.random(),))
                   for _ in range(4)]
        for t in threads:
            t.start()
        kills = 0
        try:
            deadline = time.monotonic() + 6
            for at in (1.5, 3.5):
                while time.monotonic() < deadline - 6 + at:
                    time.sleep(0.05)
                pid, until = None, time.monotonic() + 1.0
                while pid is None and time.monotonic() < until:
                    pid = mover_pid()
                    time.sleep(0.02)
                if pid is not None:
                    os.kill(pid, signal.SIGKILL)
                    kills += 1
            while time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            stop.set()
            for t in threads:
                t.join(30)
        cls.kills = kills
        cls.served = served["n"]
        # Every click moved: the raw rows stop growing and no journal
        # is left but the live workers'.
        last, still = -1, 0
        end = time.monotonic() + 30
        while time.monotonic() < end and still < 3:
            n = inst.sql("SELECT count(*) FROM clicks")[0][0]
            still = still + 1 if n == last else 0
            last = n
            time.sleep(0.7)
        cls.moved = last

    # ---- helpers ------------------------------------------------------

    def stats(self, query=""):
        r = inst.api("GET", "/api/v1/stats" + query, self.key)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def link_stats(self, lid, query=""):
        r = inst.api("GET", "/api/v1/links/%d/stats%s" % (lid, query),
                     self.key)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def brute(self, ids, query=""):
        into = {}
        for lid in ids:
            add(into, self.link_stats(lid, query))
        return into

    def ids(self, rng):
        return [self.links[i]["id"] for i in rng]

    def raw_clicks(self, ids):
        """Human clicks of ids recounted from the raw rows."""
        return inst.sql("SELECT count(*) FROM clicks WHERE bot = 0 AND "
                        "link_id IN (%s)" % ",".join(map(str, ids)))[0][0]

    def check(self, query, ids, link_query=""):
        """The figures of query equal the sum of those of the links ids
        (asked with link_query)."""
        got = self.stats(query)
        want = self.brute(ids, link_query)
        self.assertEqual(clean(figures(got)), clean(want), query)
        # The top links: the links of the scope by clicks, most first,
        # newest first on a tie.
        per = sorted(((self.link_stats(i, link_query)["totals"]["clicks"], i)
                      for i in ids), key=lambda x: (-x[0], -x[1]))
        top = [(c, i) for c, i in per if c > 0][:10]
        self.assertEqual([(x["clicks"], x["id"]) for x in got["top_links"]],
                         top, query)
        return got

    # ---- tests --------------------------------------------------------

    def test_1_account_equals_sum_of_links(self):
        sys.stderr.write(
            "FIGURE account-stats: %d redirects served, %d clicks moved, "
            "the mover killed %d times\n" % (self.served, self.moved,
                                             self.kills))
        self.assertGreater(self.served, 100)
        self.assertGreaterEqual(self.kills, 1)
        all_ids = self.ids(range(NLINKS))
        got = self.check("", all_ids)
        self.assertEqual(got["totals"]["clicks"], self.raw_clicks(all_ids))
        self.assertIsNone(got["tag"])
        self.assertIsNone(got["domain"])
        self.assertGreater(got["totals"]["bots"], 0)
        self.assertGreater(got["totals"]["conversions"], 0)
        for x in got["top_links"]:
            self.assertTrue(x["short_url"].endswith("/" + x["slug"]))
        # By hour over the last day too.
        self.check("?interval=hour", all_ids, "?interval=hour")

    def test_2_filters_equal_brute_force(self):
        red = self.check("?tag=RED", self.ids(RED))
        self.assertEqual(red["tag"], "red")
        self.assertEqual(red["totals"]["clicks"],
                         self.raw_clicks(self.ids(RED)))
        self.check("?tag=blue", self.ids(BLUE))
        brand = self.check("?domain=" + BRAND, self.ids(ON_BRAND))
        self.assertEqual(brand["totals"]["clicks"],
                         self.raw_clicks(self.ids(ON_BRAND)))
        self.check("?domain=127.0.0.1", self.ids(range(0, 6)))
        both = [i for i in BLUE if i in ON_BRAND]
        self.check("?tag=blue&domain=" + BRAND, self.ids(both))
        nothing = self.stats("?tag=nothing")
        self.assertEqual(nothing["totals"]["clicks"], 0)
        self.assertEqual(nothing["top_links"], [])

    def test_3_tag_edits_follow(self):
        a, b = self.links[0]["id"], self.links[11]["id"]
        r = inst.api("PATCH", "/api/v1/links/%d" % a, self.key,
                     {"tags": []})
        self.assertEqual(r.status, 200, r.body)
        r = inst.api("PATCH", "/api/v1/links/%d" % b, self.key,
                     {"tags": ["Red", "other"]})
        self.assertEqual(r.status, 200, r.body)
        red = self.ids(range(1, 6)) + [b]
        self.check("?tag=red", red)
        # A PATCH naming the tags a link has already changes nothing.
        r = inst.api("PATCH", "/api/v1/links/%d" % b, self.key,
                     {"tags": ["other", "red"], "title": "x"})
        self.assertEqual(r.status, 200, r.body)
        self.check("?tag=red", red)
        # blue renamed into red: one tag of both's links.
        r = inst.api("PATCH", "/api/v1/tags/blue", self.key, {"name": "red"})
        self.assertEqual(r.status, 200, r.body)
        merged = sorted(set(red) | set(self.ids(BLUE)))
        self.check("?tag=red", merged)
        self.assertEqual(self.stats("?tag=blue")["totals"]["clicks"], 0)
        r = inst.api("DELETE", "/api/v1/tags/red", self.key)
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(self.stats("?tag=red")["totals"]["clicks"], 0)
        self.check("?tag=other", [b])
        self.check("", self.ids(range(NLINKS)))

    def test_4_rebuild_keeps_the_sums(self):
        before = self.stats()
        inst.ctl("stats", "rebuild")
        after = self.stats()
        self.assertEqual(clean(figures(after)), clean(figures(before)))
        self.check("", self.ids(range(NLINKS)))
        self.check("?domain=" + BRAND, self.ids(ON_BRAND))

    def test_5_bad_input(self):
        for q, param in (("?tag=" + "x" * 65, "tag"),
                         ("?tag=a%01b", "tag"),
                         ("?domain=elsewhere.test", "domain"),
                         ("?interval=week", "interval"),
                         ("?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z",
                          "from")):
            r = inst.api("GET", "/api/v1/stats" + q, self.key)
            self.assertEqual(r.status, 400, (q, r.body))
            self.assertEqual(r.json()["param"], param, q)
        r = inst.api("GET", "/api/v1/stats")
        self.assertEqual(r.status, 401)
        # Another account sees its own link alone.
        got = inst.api("GET", "/api/v1/stats", self.other).json()
        self.assertEqual([x["slug"] for x in got["top_links"]], ["oth"])


if __name__ == "__main__":
    unittest.main()
