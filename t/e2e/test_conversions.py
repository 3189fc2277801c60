"""End-to-end tests of conversion reports (spec 2.4, 4, 8; DESIGN 3.7)
through real nginx and the real lz-links pool: the pixel answers its GIF
whatever happens, the POST's statuses and CORS, de-duplication per visitor
(exact across workers, with a short window set in lz.conf), exact revenue
sums, conversion rates, attribution to A/B variants and channels, the
statistics API and lzctl link stats.

Visitors are told apart by X-Forwarded-For from the trusted 127.0.0.1,
and send a browser's User-Agent (requests without one are bots).
"""

import json
import os
import re
import signal
import struct
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
          "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) "
          "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 "
          "Mobile/15E148 Safari/604.1")
GOOGLEBOT = ("Mozilla/5.0 (compatible; Googlebot/2.1; "
             "+http://www.google.com/bot.html)")
SLACKBOT = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"


def wait_until(fn, timeout=10.0, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.1)


def lzw_decode(data, min_size):
    """GIF's variable-length LZW, enough to read back a small image."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    size = min_size + 1
    table = [[i] for i in range(clear)] + [None, None]
    out, prev, pos = [], None, 0
    bits = int.from_bytes(data, "little")
    total = len(data) * 8
    while pos + size <= total:
        code = (bits >> pos) & ((1 << size) - 1)
        pos += size
        if code == clear:
            size = min_size + 1
            table = table[:end + 1]
            prev = None
            continue
        if code == end:
            return out
        if code < len(table) and table[code] is not None:
            entry = table[code]
        elif prev is not None and code == len(table):
            entry = prev + prev[:1]
        else:
            raise ValueError("bad LZW code %d" % code)
        out += entry
        if prev is not None:
            table.append(prev + entry[:1])
            if len(table) == 1 << size and size < 12:
                size += 1
        prev = entry
    raise ValueError("LZW data without an end code")


def gif_pixels(b):
    """(width, height, transparent index or None, pixel indexes) of a
    one-frame GIF89a, parsed by its grammar."""
    assert b[:6] == b"GIF89a", b[:6]
    w, h, packed = struct.unpack("<HHB", b[6:11])
    pos = 13
    if packed & 0x80:
        pos += 3 * (2 << (packed & 7))
    transparent = None
    while True:
        tag = b[pos]
        if tag == 0x21:                         # extension
            label = b[pos + 1]
            pos += 2
            blocks = b""
            while b[pos]:
                blocks += b[pos + 1:pos + 1 + b[pos]]
                pos += 1 + b[pos]
            pos += 1
            if label == 0xF9 and blocks[0] & 1:
                transparent = blocks[3]
        elif tag == 0x2C:                       # the image
            iw, ih, ipacked = struct.unpack("<4xHHB", b[pos + 1:pos + 10])
            assert (iw, ih) == (w, h) and not ipacked & 0x80
            min_size = b[pos + 10]
            pos += 11
            data = b""
            while b[pos]:
                data += b[pos + 1:pos + 1 + b[pos]]
                pos += 1 + b[pos]
            pos += 1
            assert b[pos:] == b";", b[pos:]     # the trailer, and no more
            return w, h, transparent, lzw_decode(data, min_size)
        else:
            raise AssertionError("GIF block 0x%02x" % tag)


class Base(unittest.TestCase):
    workers = 4
    extra_conf = "trusted_proxies = 127.0.0.1\n"
    name = "conv"

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance(name=cls.name, workers=cls.workers,
                                  extra_conf=cls.extra_conf)
        try:
            cls.inst.start()
            cls.account = cls.inst.account("shop@example.com", plan="pro")
            cls.key = cls.inst.key(cls.account)
            cls.free = cls.inst.account("free@example.com")
            cls.free_key = cls.inst.key(cls.free)
        except Exception:
            cls.inst.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def create(self, key=None, **fields):
        fields.setdefault("target_url", "https://shop.example/landing")
        r = self.inst.api("POST", "/api/v1/links", key or self.key, fields)
        self.assertEqual(r.status, 201, r.body)
        return r.json()

    def post(self, body, ip=None, ua=CHROME, headers=None, direct=False):
        h = {"User-Agent": ua, "Origin": "https://shop.example"}
        if ip:
            h["X-Forwarded-For"] = ip
        h.update(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            h.setdefault("Content-Type", "application/json")
        return self.inst.request("POST", "/api/conv", body=body, headers=h,
                                 direct=direct)

    def pixel(self, query, ip=None, ua=CHROME, method="GET"):
        h = {"User-Agent": ua} if ua is not None else {}
        if ip:
            h["X-Forwarded-For"] = ip
        return self.inst.request(method, "/api/conv?" + query, headers=h)

    def visit(self, path, ip, ua=CHROME):
        return self.inst.request("GET", path, headers={
            "User-Agent": ua, "X-Forwarded-For": ip})

    def conversions(self, link_id):
        return self.inst.sql("SELECT count(*) FROM conversions WHERE "
                             "link_id = %d" % link_id)[0][0]

    def link(self, link_id):
        r = self.inst.api("GET", "/api/v1/links/%d" % link_id, self.key)
        self.assertEqual(r.status, 200, r.body)
        return r.json()["link"]

    def stats(self, link_id, query="", direct=False):
        r = self.inst.api("GET", "/api/v1/links/%d/stats%s" %
                          (link_id, query), self.key, direct=direct)
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    def wait_clicks(self, link_id, n):
        """Clicks reach the database from the workers' journals within
        about a second; attribution needs them there."""
        wait_until(lambda: self.inst.sql(
            "SELECT count(*) FROM clicks WHERE link_id = %d" % link_id)[0][0]
            >= n, what="%d clicks" % n)

    def assertCounted(self, r, counted=True, reason=None):
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(r.json(), {"ok": True, "counted": counted,
                                    "reason": reason})
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        self.assertEqual(r.header("Cache-Control"), "no-store")

    def assertGif(self, r):
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.header("Content-Type"), "image/gif")
        self.assertEqual(r.header("Cache-Control"), "no-store")
        self.assertEqual(r.header("Content-Length"), "43")
        self.assertEqual(len(r.body), 43)
        w, h, transparent, pixels = gif_pixels(r.body)
        self.assertEqual((w, h), (1, 1))
        self.assertIsNotNone(transparent)
        self.assertEqual(pixels, [transparent])


class TestPixel(Base):

    def test_records(self):
        link = self.create(slug="px-ok")
        r = self.pixel("slug=px-ok&value=19.90&currency=twd&suffix=ig&"
                       "_=1700000000", ip="198.51.100.1")
        self.assertGif(r)
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        self.assertEqual(r.header("Cross-Origin-Resource-Policy"),
                         "cross-origin")
        self.assertEqual(self.inst.sql(
            "SELECT suffix, currency, value, variant FROM conversions "
            "WHERE link_id = %d" % link["id"]), [("ig", "TWD", 19900000,
                                                  None)])
        s = self.link(link["id"])["stats"]
        self.assertEqual(s["conversions"], 1)
        self.assertEqual(s["revenue"], {"TWD": 19.9})
        # Same visitor again: the GIF, and nothing more counted.
        self.assertGif(self.pixel("slug=px-ok&value=5", ip="198.51.100.1"))
        self.assertEqual(self.conversions(link["id"]), 1)
        # Without a value or currency: counted, in the default currency,
        # with no revenue.
        self.assertGif(self.pixel("slug=px-ok&value=&currency=",
                                  ip="198.51.100.2"))
        self.assertEqual(self.inst.sql(
            "SELECT currency, value FROM conversions WHERE link_id = %d "
            "ORDER BY id DESC LIMIT 1" % link["id"]), [("USD", None)])
        self.assertEqual(self.link(link["id"])["stats"]["revenue"],
                         {"TWD": 19.9})

    def test_always_the_gif(self):
        link = self.create(slug="px-bad")
        free = self.create(key=self.free_key, slug="px-free")
        gone = self.create(slug="px-gone")
        self.assertEqual(self.inst.api("DELETE", "/api/v1/links/%d" %
                                       gone["id"], self.key).status, 200)
        cases = [
            ("slug=px-bad&value=%zz", CHROME),          # malformed query
            ("slug=px-bad&slug=px-bad", CHROME),        # repeated name
            ("slug=px-bad&value=%00", CHROME),
            ("value=1", CHROME),                        # no slug
            ("slug=", CHROME),
            ("slug=no/such", CHROME),
            ("slug=nosuchlink", CHROME),                # unknown slug
            ("slug=px-gone", CHROME),                   # deleted
            ("slug=px-free&value=1", CHROME),           # free plan
            ("slug=px-bad&value=0.1234567", CHROME),    # 7 decimals
            ("slug=px-bad&value=-1", CHROME),
            ("slug=px-bad&value=1e10", CHROME),
            ("slug=px-bad&value=1%2C5", CHROME),
            ("slug=px-bad&currency=dollars", CHROME),
            ("slug=px-bad&suffix=a%20b", CHROME),
            ("slug=px-bad", None),                      # no User-Agent
            ("slug=px-bad", GOOGLEBOT),                 # bots
            ("slug=px-bad", SLACKBOT),
        ]
        for i, (query, ua) in enumerate(cases):
            with self.subTest(query=query[:60], ua=ua):
                self.assertGif(self.pixel(query, ip="203.0.113.%d" % i,
                                          ua=ua))
        # HEAD answers the same headers and records nothing.
        r = self.pixel("slug=px-bad", ip="203.0.113.200", method="HEAD")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.header("Content-Type"), "image/gif")
        self.assertEqual(r.body, b"")
        for lid in (link["id"], free["id"], gone["id"]):
            self.assertEqual(self.conversions(lid), 0)
        # The access log says what happened to each.
        log = self.inst.log("lz-links")
        for note in ("conv=invalid", "conv=no_link", "conv=plan_required",
                     "conv=bot", "conv=head"):
            self.assertIn(note, log)
        # A valid one from a browser still counts after all that.
        self.assertGif(self.pixel("slug=px-bad", ip="203.0.113.201"))
        self.assertEqual(self.conversions(link["id"]), 1)


class TestPost(Base):

    def test_counted_and_duplicate(self):
        link = self.create(slug="po-ok")
        r = self.post({"slug": "po-ok", "value": 10, "currency": "EUR",
                       "suffix": "mail"}, ip="198.51.100.10")
        self.assertCounted(r)
        r = self.post({"slug": "po-ok", "value": 10}, ip="198.51.100.10")
        self.assertCounted(r, False, "duplicate")
        # The same address with another browser is another visitor.
        r = self.post({"slug": "po-ok"}, ip="198.51.100.10", ua=IPHONE)
        self.assertCounted(r)
        # The default window is 10 minutes: still a duplicate later on.
        time.sleep(2.5)
        r = self.post({"slug": "po-ok"}, ip="198.51.100.10")
        self.assertCounted(r, False, "duplicate")
        # Bots and previewers are not buyers.
        for ua in ("", "curl/8.1.2", GOOGLEBOT, SLACKBOT):
            with self.subTest(ua=ua):
                self.assertCounted(self.post({"slug": "po-ok"},
                                             ip="198.51.100.11", ua=ua),
                                   False, "bot")
        self.assertEqual(self.conversions(link["id"]), 2)
        self.assertEqual(self.link(link["id"])["stats"]["revenue"],
                         {"EUR": 10})

    def test_value_forms(self):
        link = self.create(slug="po-val")
        # JSON numbers as written (never through a float), and decimal
        # strings.
        forms = [("19.90", 19900000), ("1e2", 100000000),
                 ("1.5E-1", 150000), ("0.1000000", 100000), ("0", 0),
                 ("1000000000", 10 ** 15), ('"0.25"', 250000),
                 ("1E-6", 1), ("0.3", 300000), ("12345678.123456",
                                                12345678123456)]
        for i, (text, _) in enumerate(forms):
            with self.subTest(value=text):
                r = self.post(('{"slug":"po-val","value":%s}' % text
                               ).encode(), ip="198.51.100.%d" % (20 + i),
                              headers={"Content-Type": "application/json"})
                self.assertCounted(r)
        self.assertEqual(sorted(v for (v,) in self.inst.sql(
            "SELECT value FROM conversions WHERE link_id = %d" %
            link["id"])), sorted(m for _, m in forms))

    def test_bad_requests(self):
        link = self.create(slug="po-bad")
        cases = [
            ({}, "missing_field", "slug"),
            ({"slug": ""}, "invalid_field", "slug"),
            ({"slug": "a b"}, "invalid_field", "slug"),
            ({"slug": 12}, "invalid_field", "slug"),
            ({"slug": "po-bad", "value": 0.1234567}, "invalid_field",
             "value"),
            ('{"slug":"po-bad","value":1e-7}', "invalid_field", "value"),
            ({"slug": "po-bad", "value": -1}, "invalid_field", "value"),
            ({"slug": "po-bad", "value": 1000000000.5}, "invalid_field",
             "value"),
            ({"slug": "po-bad", "value": "ten"}, "invalid_field", "value"),
            ({"slug": "po-bad", "value": True}, "invalid_field", "value"),
            ({"slug": "po-bad", "value": [1]}, "invalid_field", "value"),
            ({"slug": "po-bad", "currency": "US"}, "invalid_field",
             "currency"),
            ({"slug": "po-bad", "currency": "US$"}, "invalid_field",
             "currency"),
            ({"slug": "po-bad", "currency": 840}, "invalid_field",
             "currency"),
            ({"slug": "po-bad", "suffix": "a/b"}, "invalid_field", "suffix"),
            ({"slug": "po-bad", "suffix": "x" * 65}, "invalid_field",
             "suffix"),
            ({"slug": "po-bad", "price": 5}, "unknown_field", "price"),
            ('{"slug":"po-bad","slug":"po-bad"}', "invalid_json", None),
            ('{"slug":"po-bad",', "invalid_json", None),
            ('["po-bad"]', "invalid_json", None),
        ]
        for body, code, param in cases:
            with self.subTest(body=body):
                if isinstance(body, str):
                    r = self.post(body.encode(), ip="198.51.100.30",
                                  headers={"Content-Type":
                                           "application/json"})
                else:
                    r = self.post(body, ip="198.51.100.30")
                self.assertEqual(r.status, 400, r.body)
                j = r.json()
                self.assertEqual(j["ok"], False)
                self.assertEqual(j["error"], code)
                self.assertEqual(j.get("param"), param)
                self.assertTrue(j["message"])
                self.assertEqual(j["request_id"], r.header("X-Request-Id"))
                self.assertEqual(r.header("Access-Control-Allow-Origin"),
                                 "*")
        # Not JSON at all: 415; too big: 413.
        r = self.post(b"slug=po-bad", ip="198.51.100.30", headers={
            "Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(r.status, 415)
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        r = self.post({"slug": "po-bad", "suffix": "x" * 70000},
                      ip="198.51.100.30")
        self.assertEqual(r.status, 413)
        self.assertEqual(self.conversions(link["id"]), 0)

    def test_not_found_and_plan(self):
        gone = self.create(slug="po-gone")
        self.inst.api("DELETE", "/api/v1/links/%d" % gone["id"], self.key)
        for slug in ("po-nosuch", "po-gone"):
            r = self.post({"slug": slug, "value": 1}, ip="198.51.100.40")
            self.assertEqual(r.status, 404, r.body)
            self.assertEqual(r.json()["error"], "not_found")
            self.assertEqual(r.json()["param"], "slug")
        # A free account's link: 403 plan_required, until the plan allows.
        free = self.create(key=self.free_key, slug="po-free")
        r = self.post({"slug": "po-free", "value": 1}, ip="198.51.100.41")
        self.assertEqual(r.status, 403, r.body)
        self.assertEqual(r.json()["error"], "plan_required")
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        self.assertEqual(self.conversions(free["id"]), 0)
        # (A bad field is still a 400 first.)
        r = self.post({"slug": "po-free", "value": -1}, ip="198.51.100.41")
        self.assertEqual(r.status, 400)
        self.inst.ctl("account", "plan", str(self.free), "pro")
        try:
            self.assertCounted(self.post({"slug": "po-free", "value": 1},
                                         ip="198.51.100.41"))
        finally:
            self.inst.ctl("account", "plan", str(self.free), "free")
        self.assertEqual(self.conversions(free["id"]), 1)

    def test_cors(self):
        r = self.inst.request("OPTIONS", "/api/conv", headers={
            "Origin": "https://shop.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        self.assertEqual(r.status, 204)
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        self.assertIn("POST", r.header("Access-Control-Allow-Methods"))
        self.assertIn("GET", r.header("Access-Control-Allow-Methods"))
        self.assertEqual(r.header("Access-Control-Allow-Headers").lower(),
                         "content-type")
        self.assertIsNone(r.header("Access-Control-Allow-Credentials"))
        self.assertTrue(int(r.header("Access-Control-Max-Age")) > 0)
        # Other methods are not allowed.
        r = self.inst.request("DELETE", "/api/conv")
        self.assertEqual(r.status, 405)
        self.assertIn("POST", r.header("Allow"))


class TestWindow(Base):
    """A short window (lz.conf), and the check exact across workers."""
    name = "conv-window"
    extra_conf = ("trusted_proxies = 127.0.0.1\n"
                  "conversion_dedup_window = 2\n")

    def test_window(self):
        link = self.create(slug="win")
        t0 = time.monotonic()
        self.assertCounted(self.post({"slug": "win"}, ip="192.0.2.1"))
        t1 = time.monotonic()       # the server's clock read in [t0, t1]
        self.assertCounted(self.post({"slug": "win"}, ip="192.0.2.1"),
                           False, "duplicate")
        # A report refused as a duplicate does not move the window.
        time.sleep(max(0, 1.0 - (time.monotonic() - t0)))
        self.assertCounted(self.post({"slug": "win"}, ip="192.0.2.1"),
                           False, "duplicate")
        time.sleep(max(0, 2.1 - (time.monotonic() - t1)))
        self.assertCounted(self.post({"slug": "win"}, ip="192.0.2.1"))
        self.assertEqual(self.conversions(link["id"]), 2)

    def burst(self, slug, n):
        """24 reports of one visitor at once, over 4 workers (one
        counts), and 24 visitors at once (all count); returns the pids
        of the workers that answered them.  Burst n has addresses of
        its own (the per-address limit would refuse a second)."""
        one = "192.0.2.%d" % (9 + n)
        link = self.create(slug=slug)
        results = []
        lock = threading.Lock()
        log0 = len(self.inst.log("lz-links"))

        def report(ip):
            # Straight to nginx under LZ_PRISM: Prism passes a burst on
            # over one connection, to one worker.
            r = self.post({"slug": slug, "value": 1}, ip=ip, direct=True)
            with lock:
                results.append((ip, r.status, r.json().get("counted")))

        threads = [threading.Thread(target=report, args=(one,))
                   for _ in range(24)]
        threads += [threading.Thread(target=report, args=(
            "198.51.100.%d" % (1 + 24 * n + i),)) for i in range(24)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        self.assertEqual(len(results), 48)
        self.assertTrue(all(s == 200 for _, s, _ in results), results)
        same = [c for ip, _, c in results if ip == one]
        self.assertEqual(same.count(True), 1)
        self.assertEqual(sum(c for ip, _, c in results if ip != one), 24)
        self.assertEqual(self.conversions(link["id"]), 25)
        lk = self.link(link["id"])["stats"]
        self.assertEqual(lk["conversions"], 25)
        self.assertEqual(lk["revenue"], {"USD": 25})
        return set(re.findall(r"\[(\d+)\].*conv=",
                              self.inst.log("lz-links")[log0:]))

    def test_concurrent(self):
        # The workers really took part: on a loaded machine one worker
        # may take every connection of a burst, so up to 5 bursts, each
        # checked, until one spread over several.
        pids = set()
        for i in range(5):
            pids = self.burst("race%d" % i, i)
            if len(pids) > 1:
                break
        self.assertGreater(len(pids), 1)


class TestStats(Base):

    def test_exact_revenue_and_rate(self):
        link = self.create(slug="st-rev")
        for i in range(4):
            self.assertEqual(self.visit("/st-rev", "10.0.0.%d" % i).status,
                             302)
        self.wait_clicks(link["id"], 4)
        self.assertCounted(self.post({"slug": "st-rev", "value": 0.1},
                                     ip="10.0.0.0"))
        s = self.link(link["id"])["stats"]
        self.assertEqual(s["clicks"], 4)
        self.assertEqual(s["conversions"], 1)
        self.assertEqual(s["conversion_rate"], 0.25)
        self.assertCounted(self.post({"slug": "st-rev", "value": 0.2},
                                     ip="10.0.0.1"))
        # 0.1 + 0.2 is 0.3, written as such.
        r = self.inst.api("GET", "/api/v1/links/%d" % link["id"], self.key)
        self.assertIn(b'"revenue":{"USD":0.3}', r.body)
        self.assertEqual(r.json()["link"]["stats"]["conversion_rate"], 0.5)
        st = self.stats(link["id"])
        self.assertEqual(st["totals"]["revenue"], {"USD": 0.3})
        self.assertEqual(st["totals"]["revenue_micros"], {"USD": 300000})
        self.assertEqual(st["totals"]["conversions"], 2)
        self.assertEqual(st["totals"]["conversion_rate"], 0.5)
        self.assertEqual(st["series"][-1]["conversions"], 2)
        self.assertEqual(st["series"][-1]["revenue"], {"USD": 0.3})
        self.assertEqual(sum(b["conversions"] for b in st["series"]), 2)
        # Ten times 0.1 more: 1.3.
        for i in range(10):
            self.assertCounted(self.post({"slug": "st-rev", "value": 0.1},
                                         ip="10.0.1.%d" % i))
        r = self.inst.api("GET", "/api/v1/links/%d" % link["id"], self.key)
        self.assertIn(b'"revenue":{"USD":1.3}', r.body)
        st = self.stats(link["id"])
        self.assertEqual(st["totals"]["revenue_micros"], {"USD": 1300000})
        # More conversions than clicks: the rate stays at most 1.
        self.assertEqual(st["totals"]["conversions"], 12)
        self.assertEqual(st["totals"]["conversion_rate"], 1)
        # A range without them.
        st = self.stats(link["id"], "?from=2020-01-01&to=2020-01-02")
        self.assertEqual(st["totals"]["conversions"], 0)
        self.assertEqual(st["totals"]["revenue"], {})
        self.assertEqual(st["totals"]["conversion_rate"], 0)

    def test_large_amounts(self):
        link = self.create(slug="st-big")
        # Every amount of up to 15 significant digits is written exactly;
        # whole amounts are integers at any size.
        self.assertCounted(self.post({"slug": "st-big",
                                      "value": 999999999.999999},
                                     ip="10.2.0.1"))
        r = self.inst.api("GET", "/api/v1/links/%d" % link["id"], self.key)
        self.assertIn(b'"revenue":{"USD":999999999.999999}', r.body)
        self.assertCounted(self.post({"slug": "st-big", "value": 1e-6},
                                     ip="10.2.0.2"))
        r = self.inst.api("GET", "/api/v1/links/%d" % link["id"], self.key)
        self.assertIn(b'"revenue":{"USD":1000000000}', r.body)
        for i in range(9):
            self.assertCounted(self.post({"slug": "st-big",
                                          "value": 1000000000},
                                         ip="10.2.1.%d" % i))
        self.assertCounted(self.post({"slug": "st-big",
                                      "value": "0.000001"},
                                     ip="10.2.2.1"))
        # 10000000000.000001 has 17 digits: revenue_micros keeps it
        # exactly, the JSON number is rounded to 15 (lz-links(8)).
        # (Past Prism, which reads 10**16 + 1 as a JavaScript number.)
        st = self.stats(link["id"], direct=True)
        self.assertEqual(st["totals"]["revenue_micros"],
                         {"USD": 10 ** 16 + 1})
        self.assertEqual(st["totals"]["revenue"], {"USD": 10 ** 10})
        out = self.inst.ctl("link", "stats", "st-big")[1]
        self.assertIn("USD\t12\t10000000000.000001\n", out)

    def test_breakdowns_and_variants(self):
        link = self.create(slug="st-ab", mode="ab", variants=[
            {"url": "https://a.example/", "weight": 50},
            {"url": "https://b.example/", "weight": 50}])
        variant_of = {"https://a.example/": "0", "https://b.example/": "1"}
        seen = {}
        for i in range(12):
            ip = "10.1.0.%d" % i
            r = self.visit("/st-ab/%s" % ("ig" if i % 3 else "fb"), ip)
            self.assertEqual(r.status, 302)
            seen[ip] = (variant_of[r.header("Location")],
                        "ig" if i % 3 else "fb")
        self.wait_clicks(link["id"], 12)
        # Visitors 0-7 convert: some name a channel, the rest get their
        # click's; two currencies.
        expect = {}
        for i in range(8):
            ip = "10.1.0.%d" % i
            body = {"slug": "st-ab", "value": "%d.25" % i,
                    "currency": "usd" if i % 2 else "TWD"}
            if i == 0:
                body["suffix"] = "newsletter"
            self.assertCounted(self.post(body, ip=ip))
            expect[ip] = body
        # One converts without having clicked: not attributed.
        self.assertCounted(self.post({"slug": "st-ab", "value": 1},
                                     ip="10.9.9.9"))
        st = self.stats(link["id"])
        cb = st["conversion_breakdowns"]

        def money(ips):
            out = {}
            for ip in ips:
                b = expect[ip]
                cur = b["currency"].upper()
                out[cur] = out.get(cur, 0) + int(b["value"].split(".")[0]
                                                 ) * 100 + 25
            return {k: v / 100 for k, v in out.items()}

        # Per variant: the conversions of the visitors who got it, its
        # clicks and the rate.
        rows = {r["key"]: r for r in cb["variant"]}
        for v in ("0", "1"):
            ips = [ip for ip in expect if seen[ip][0] == v]
            clicks = sum(1 for ip in seen if seen[ip][0] == v)
            if not ips:
                self.assertNotIn(v, rows)
                continue
            self.assertEqual(rows[v]["conversions"], len(ips), (v, rows))
            self.assertEqual(rows[v]["clicks"], clicks)
            self.assertEqual(rows[v]["revenue"], money(ips))
            self.assertAlmostEqual(rows[v]["conversion_rate"],
                                   len(ips) / clicks)
        self.assertEqual(rows[None], {"key": None, "conversions": 1,
                                      "revenue": {"USD": 1}, "clicks": None,
                                      "conversion_rate": None})
        # Per suffix: named, else the click's.
        sfx = {r["key"]: r["conversions"] for r in cb["suffix"]}
        want = {}
        for ip in expect:
            k = expect[ip].get("suffix") or seen[ip][1]
            want[k] = want.get(k, 0) + 1
        want[""] = 1
        self.assertEqual(sfx, want)
        # Ordered by conversions, most first.
        counts = [r["conversions"] for r in cb["suffix"]]
        self.assertEqual(counts, sorted(counts, reverse=True))
        # Per currency.
        cur = {r["key"]: (r["conversions"], r["revenue"])
               for r in cb["currency"]}
        usd = [ip for ip in expect if expect[ip]["currency"] == "usd"]
        twd = [ip for ip in expect if expect[ip]["currency"] == "TWD"]
        self.assertEqual(cur, {
            "USD": (len(usd) + 1, {"USD": money(usd)["USD"] + 1}),
            "TWD": (len(twd), {"TWD": money(twd)["TWD"]})})
        self.assertEqual(st["totals"]["revenue"],
                         {"USD": money(usd)["USD"] + 1,
                          "TWD": money(twd)["TWD"]})
        # The clicks' breakdowns are still there, as before.
        self.assertEqual(sum(x["clicks"] for x in
                             st["breakdowns"]["variant"]), 12)

        # lzctl link stats: the same figures, amounts exact.
        out = self.inst.ctl("link", "stats", "st-ab")[1]
        sections = [s.splitlines() for s in out.strip().split("\n\n")]
        self.assertEqual(sections[0][0].split("\t"),
                         ["LINK", "SLUG", "ACCOUNT", "FROM", "TO"])
        self.assertEqual(sections[0][1].split("\t")[:2],
                         [str(link["id"]), "st-ab"])
        self.assertEqual(sections[1][0].split("\t"),
                         ["CLICKS", "BOTS", "VISITORS", "CONVERSIONS",
                          "RATE"])
        self.assertEqual(sections[1][1].split("\t"),
                         ["12", "0", "12", "9", "0.7500"])
        self.assertEqual(sorted(sections[2][1:]), sorted([
            "TWD\t%d\t%s" % (len(twd), fmt(money(twd)["TWD"])),
            "USD\t%d\t%s" % (len(usd) + 1, fmt(money(usd)["USD"] + 1))]))
        self.assertEqual(sections[3][0], "SUFFIX\tCONVERSIONS\tREVENUE")
        self.assertIn("newsletter\t1\t0.25 TWD", sections[3])
        self.assertEqual(sections[4][0],
                         "VARIANT\tCLICKS\tCONVERSIONS\tRATE\tREVENUE")
        self.assertIn("(not attributed)\t-\t1\t-\t1 USD", sections[4])
        for v in ("0", "1"):
            if v in rows:
                line = [x for x in sections[4] if x.startswith(v + "\t")]
                self.assertEqual(line[0].split("\t")[1:4], [
                    str(rows[v]["clicks"]), str(rows[v]["conversions"]),
                    "%.4f" % rows[v]["conversion_rate"]])
        # By id too; and an unknown link.
        by_id = self.inst.ctl("link", "stats", str(link["id"]))[1]
        self.assertEqual(by_id.split("\n\n")[1:], out.split("\n\n")[1:])
        rc, _, err = self.inst.ctl("link", "stats", "nosuch", check=False)
        self.assertEqual(rc, 3)
        self.assertIn("no link", err)

    def test_hourly_series(self):
        link = self.create(slug="st-dash")
        self.assertCounted(self.post({"slug": "st-dash", "value": 2.5},
                                     ip="10.3.0.1"))
        st = self.stats(link["id"], "?interval=hour")
        self.assertEqual(len(st["series"]), 24)
        self.assertEqual(st["series"][-1]["revenue"], {"USD": 2.5})
        self.assertEqual(sum(b["conversions"] for b in st["series"]), 1)


def fmt(amount):
    """An amount as lzctl prints it: the shortest exact decimal."""
    s = "%.6f" % amount
    return s.rstrip("0").rstrip(".")


class TestRateLimit(Base):
    """Reports carry no credential: one address gets conversion_rate_limit
    reports a minute, whatever their links; others are not held up."""
    name = "conv-rate"
    extra_conf = ("trusted_proxies = 127.0.0.1\n"
                  "conversion_rate_limit = 5\n")

    def test_per_address(self):
        link = self.create(slug="rl")
        for i in range(5):
            r = self.post({"slug": "rl", "suffix": "s%d" % i},
                          ip="198.51.100.7")
            self.assertEqual(r.status, 200, r.body)
        r = self.post({"slug": "rl"}, ip="198.51.100.7")
        self.assertEqual(r.status, 429, r.body)
        self.assertEqual(r.json()["error"], "rate_limited")
        self.assertGreaterEqual(int(r.header("Retry-After")), 1)
        self.assertLessEqual(int(r.header("Retry-After")), 60)
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        # The pixel still answers its GIF, and records nothing.
        before = self.conversions(link["id"])
        p = self.pixel("slug=rl", ip="198.51.100.7")
        self.assertEqual((p.status, p.header("Content-Type")),
                         (200, "image/gif"))
        self.assertEqual(self.conversions(link["id"]), before)
        # Malformed reports are refused for what they are, not counted.
        self.assertEqual(self.post({"slug": "rl", "value": -1},
                                   ip="198.51.100.7").status, 400)
        # Another address is served; an IPv6 /64 counts as one address.
        self.assertEqual(self.post({"slug": "rl"},
                                   ip="198.51.100.8").status, 200)
        for i in range(5):
            self.assertEqual(self.post({"slug": "rl"},
                                       ip="2001:db8:1:2::%x" % (i + 1)
                                       ).status, 200)
        self.assertEqual(self.post({"slug": "rl"},
                                   ip="2001:db8:1:2::ff").status, 429)

    def reload(self, limit):
        inst = self.inst
        old = set(inst.worker_pids("lz-links"))
        inst.write_conf(self.extra_conf.replace(
            "conversion_rate_limit = 5", "conversion_rate_limit = %d" %
            limit))
        inst.procs["lz-links"].send_signal(signal.SIGHUP)
        lzenv.wait_for(lambda: (len(inst.worker_pids("lz-links")) ==
                                self.workers and not old &
                                set(inst.worker_pids("lz-links"))),
                       what="new workers after the reload")

    def served(self, ip, n):
        """Statuses of n reports from ip."""
        return [self.post({"slug": "rl2"}, ip=ip).status for _ in range(n)]

    def test_reload_keeps_limiting(self):
        """A reload that raises the limit above the one the pool started
        with, or turns it off and on again, still limits (the table is
        made for the largest value lz.conf allows): it used to let every
        report through."""
        self.create(slug="rl2")
        try:
            self.reload(12)
            self.assertEqual(self.served("198.51.100.20", 13),
                             [200] * 12 + [429])
            self.reload(0)
            self.assertEqual(self.served("198.51.100.21", 30), [200] * 30)
            self.reload(3)
            self.assertEqual(self.served("198.51.100.22", 4),
                             [200] * 3 + [429])
            self.assertNotIn("ratelimit:", self.inst.log("lz-links"))
        finally:
            self.reload(5)


if __name__ == "__main__":
    lzenv.main()
