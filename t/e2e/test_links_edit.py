"""End-to-end tests of DESIGN 3.9 through real nginx and the real pool:
editing links (PATCH, a JSON merge patch under every rule of create, and
lzctl link edit), redirects following an edit within a second, QR codes
read back by an independent decoder (zbarimg, with rsvg-convert for the
SVGs), searching and filtering the list, and the raw clicks as JSON pages
and as CSV read by Python's csv module."""

import base64
import csv
import http.client
import io
import json
import os
import re
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402

inst = None
L = "/api/v1/links"
UA = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
      "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36")
EXTRA = """
trusted_proxies = 127.0.0.1
plan.small.quota = 1000
"""


def setUpModule():
    global inst
    # start() stops what it started when something fails.
    inst = lzenv.Instance("links-edit", extra_conf=EXTRA).start()


def tearDownModule():
    if inst is not None:
        inst.stop()


N = [0]


def new_key(plan="pro"):
    N[0] += 1
    acct = inst.account("edit%d@example.com" % N[0], plan)
    return acct, inst.key(acct)


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.acct, cls.key = new_key()

    def create(self, body, key=None):
        r = inst.api("POST", L, key or self.key, body)
        self.assertEqual(r.status, 201, r)
        return r.json()

    def get(self, i, key=None):
        r = inst.api("GET", "%s/%d" % (L, i), key or self.key)
        self.assertEqual(r.status, 200, r)
        return r.json()["link"]

    def patch(self, i, body, key=None, ctype="application/json"):
        return inst.api("PATCH", "%s/%d" % (L, i), key or self.key,
                        json.dumps(body), {"Content-Type": ctype})

    def edited(self, i, body, **kw):
        r = self.patch(i, body, **kw)
        self.assertEqual(r.status, 200, (body, r))
        j = r.json()
        self.assertEqual(set(j), {"ok", "link"})
        self.assertIs(j["ok"], True)
        return j["link"]

    def refused(self, i, body, code, param, status=400):
        r = self.patch(i, body)
        self.assertEqual(r.status, status, (body, r))
        j = r.json()
        self.assertEqual((j["error"], j.get("param")), (code, param), j)
        return j

    def visit(self, path, **headers):
        h = {"User-Agent": UA}
        h.update(headers)
        return inst.request("GET", path, headers=h)


class Edit(Base):

    FULL = {"target_url": "https://example.com/full", "title": "Spring",
            "mode": "device", "variants": {
                "ios": "https://ios.example/", "android":
                "https://android.example/"},
            "redirect_type": 301, "og": {"title": "O", "description": "D"},
            "pixel_fb": "12345", "escape_inapp": True,
            "expires_at": "2099-01-01T00:00:00Z", "max_clicks": 50,
            "utm": {"source": "news", "medium": "mail"},
            "password": "open sesame"}

    def test_absent_stays_null_clears(self):
        i = self.create(self.FULL)["id"]
        before = self.get(i)
        # Absent fields stay; the answer is the link as GET shows it.
        link = self.edited(i, {"title": "Summer"})
        self.assertEqual(link, self.get(i))
        for k, v in before.items():
            if k != "title":
                self.assertEqual(link[k], v, k)
        self.assertEqual(link["title"], "Summer")
        # Objects merge member by member.
        link = self.edited(i, {"variants": {"ios": None, "desktop":
                                            "https://desk.example/"},
                               "og": {"title": None}, "utm": {"term": "t"}})
        self.assertEqual(link["variants"], {
            "android": "https://android.example/",
            "desktop": "https://desk.example/"})
        self.assertEqual(link["og"], {"description": "D"})
        self.assertEqual(link["utm"], {"source": "news", "medium": "mail",
                                       "term": "t"})
        # null clears, back to the defaults of create.
        link = self.edited(i, {"title": None, "mode": None, "variants": None,
                               "redirect_type": None, "og": None,
                               "pixel_fb": None, "escape_inapp": None,
                               "expires_at": None, "max_clicks": None,
                               "utm": None, "password": None})
        plain = self.get(self.create({"target_url":
                                      "https://example.com/full"})["id"])
        for k in ("title", "mode", "variants", "redirect_type", "og",
                  "pixel_fb", "escape_inapp", "expires_at", "max_clicks",
                  "utm", "has_password", "status"):
            self.assertEqual(link[k], plain[k], k)
        # The identity never changes.
        for k in ("id", "slug", "short_url", "created_at"):
            self.assertEqual(link[k], before[k], k)
        # Both media types of a merge patch.
        link = self.edited(i, {"title": "Merge"},
                           ctype="application/merge-patch+json")
        self.assertEqual(link["title"], "Merge")

    def test_every_rule_of_create(self):
        i = self.create({"target_url": "https://example.com/rules"})["id"]
        before = self.get(i)
        for body, code, param in (
                ({"slug": "other"}, "read_only_field", "slug"),
                ({"slug": before["slug"]}, "read_only_field", "slug"),
                ({"has_password": True}, "read_only_field", "has_password"),
                ({"stats": None}, "read_only_field", "stats"),
                ({"nope": None}, "unknown_field", "nope"),
                ({"target_url": None}, "missing_field", "target_url"),
                ({"target_url": "https://127.0.0.1/"}, "unsafe_destination",
                 "target_url"),
                ({"target_url": "https://bit.ly/x"}, "unsafe_destination",
                 "target_url"),
                ({"mode": "ab"}, "missing_field", "variants"),
                ({"variants": {"ios": "https://i.example/"}},
                 "invalid_field", "variants"),
                ({"mode": "geo", "variants": {"tw": "https://t.example/"}},
                 "invalid_field", "variants.tw"),
                ({"mode": "ab", "variants": [
                    {"url": "https://a.example/", "weight": 1},
                    {"url": "http://10.0.0.1/", "weight": 1}]},
                 "unsafe_destination", "variants[1].url"),
                ({"pixel_ga": "G-<x>"}, "invalid_field", "pixel_ga"),
                ({"utm": {"id": "x"}}, "unknown_field", "utm.id"),
                ({"expires_at": "2001-01-01T00:00:00Z"}, "invalid_field",
                 "expires_at"),
                ({"password": "abc"}, "invalid_field", "password"),
                ({"max_clicks": -1}, "invalid_field", "max_clicks")):
            self.refused(i, body, code, param)
        # Nothing of the refused edits was kept.
        self.assertEqual(self.get(i), before)
        # The target is scanned again: a host listed since is refused,
        # also when the patch does not name it.
        inst.ctl("blocklist", "add", "listed-later.test", "--reason", "test")
        self.refused(i, {"target_url": "https://www.listed-later.test/x"},
                     "unsafe_destination", "target_url")
        j = self.create({"target_url": "https://example.com/v",
                         "mode": "geo", "variants": {
                             "TW": "https://tw.example/"}})["id"]
        inst.sql("UPDATE links SET variants = '{\"TW\": "
                 "\"https://tw.listed-later.test/\"}' WHERE id = %d" % j)
        self.refused(j, {"title": "x"}, "unsafe_destination", "variants.TW")

    def test_password_set_cleared_kept(self):
        link = self.create({"target_url": "https://example.com/pw"})
        i, slug = link["id"], link["slug"]
        self.assertIs(self.edited(i, {"password": "first one"})[
            "has_password"], True)
        r = self.visit("/" + slug)
        self.assertEqual(r.status, 200, r)       # the form
        self.assertIn(b"password", r.body)
        self.assertIs(self.edited(i, {"title": "kept"})["has_password"],
                      True)
        self.assertIs(self.edited(i, {"password": None})["has_password"],
                      False)
        # Every worker follows within the second a link stays cached.
        time.sleep(1.0)
        for _ in range(6):
            self.assertEqual(self.visit("/" + slug).status, 302)
        self.edited(i, {"password": "second one"})
        time.sleep(1.0)
        for _ in range(6):
            self.assertEqual(self.visit("/" + slug).status, 200)
        r = inst.request("POST", "/" + slug, body="password=second+one",
                         headers={"User-Agent": UA, "Content-Type":
                                  "application/x-www-form-urlencoded"})
        self.assertEqual(r.status, 303, r)
        r = inst.request("POST", "/" + slug, body="password=first+one",
                         headers={"User-Agent": UA, "X-Forwarded-For":
                                  "198.51.100.9", "Content-Type":
                                  "application/x-www-form-urlencoded"})
        self.assertEqual(r.status, 403, r)

    def test_not_found_and_counted(self):
        i = self.create({"target_url": "https://example.com/nf"})["id"]
        _, other = new_key()
        r = self.patch(i, {"title": "x"}, key=other)
        self.assertEqual((r.status, r.json()["error"]), (404, "not_found"))
        self.assertEqual(inst.api("DELETE", "%s/%d" % (L, i),
                                  self.key).status, 200)
        r = self.patch(i, {"title": "x"})
        self.assertEqual((r.status, r.json()["error"]), (404, "not_found"))
        # The deleted link's slug stays its own: an edit never frees it.
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE id = %d"
                                  % i), [(1,)])
        # An edit counts as an API call, refused or not.
        j = self.create({"target_url": "https://example.com/count"})["id"]
        left = int(self.patch(j, {"title": "a"}).header(
            "x-ratelimit-remaining"))
        self.assertEqual(int(self.patch(j, {"zz": 1}).header(
            "x-ratelimit-remaining")), left - 1)
        self.assertEqual(int(self.patch(j, {"title": "b"}).header(
            "x-ratelimit-remaining")), left - 2)

    def test_expired_and_disabled_links(self):
        i = self.create({"target_url": "https://example.com/exp",
                         "expires_at": "2099-01-01T00:00:00Z"})["id"]
        inst.sql("UPDATE links SET expires_at = 1000 WHERE id = %d" % i)
        # Its passed expiry, kept, stands: it can still be edited.
        link = self.edited(i, {"title": "still expired"})
        self.assertEqual((link["status"], link["expires_at"]),
                         ("expired", "1970-01-01T00:00:01Z"))
        self.refused(i, {"expires_at": "2001-01-01T00:00:00Z"},
                     "invalid_field", "expires_at")
        self.assertEqual(self.edited(i, {"expires_at": None})["status"],
                         "active")
        # A link the safety scan disabled stays disabled.
        inst.sql("UPDATE links SET flagged_at = 1, flag_reason = 'test' "
                 "WHERE id = %d" % i)
        self.assertEqual(self.edited(i, {"target_url":
                                         "https://example.com/ok"})[
            "status"], "disabled")

    def test_redirect_follows_within_a_second(self):
        link = self.create({"target_url": "https://example.com/before"})
        path = "/" + link["slug"]
        # Every worker has the link cached.
        for _ in range(20):
            self.assertEqual(self.visit(path).header("location"),
                             "https://example.com/before")
        self.edited(link["id"], {"target_url": "https://example.com/after",
                                 "redirect_type": 301})
        t0 = time.monotonic()
        time.sleep(1.0)
        for _ in range(20):
            r = self.visit(path)
            self.assertEqual((r.status, r.header("location")),
                             (301, "https://example.com/after"))
        self.assertLess(time.monotonic() - t0, 5)


class Ctl(Base):

    def test_lzctl_link_edit(self):
        link = self.create({"target_url": "https://example.com/ctl"})
        rc, out, err = inst.ctl("link", "edit", link["slug"], "title=From "
                                "the shell", "max_clicks:=5",
                                "utm:={\"source\": \"ctl\"}", check=False)
        self.assertEqual(rc, 0, err)
        j = json.loads(out)
        self.assertEqual((j["title"], j["max_clicks"], j["utm"],
                          j["account_id"]),
                         ("From the shell", 5, {"source": "ctl"}, self.acct))
        self.assertEqual(self.get(link["id"])["title"], "From the shell")
        rc, out, err = inst.ctl("link", "edit", str(link["id"]),
                                "title:=null", check=False)
        self.assertEqual(rc, 0, err)
        self.assertIsNone(json.loads(out)["title"])
        for args, status, text in (
                (["slug=x"], 1, "cannot be changed"),
                (["target_url=ftp://x.example/"], 1, "target_url"),
                (["max_clicks=5"], 1, "max_clicks"),
                (["title"], 2, "FIELD=TEXT"),
                ([":=1"], 2, "FIELD=TEXT"),
                (["title:={"], 2, "title"),
                (["title=a", "title=b"], 2, "twice")):
            rc, out, err = inst.ctl("link", "edit", str(link["id"]), *args,
                                    check=False)
            self.assertEqual(rc, status, (args, err))
            self.assertIn(text, err)
        rc, _, err = inst.ctl("link", "edit", "no-such-link", "title=x",
                              check=False)
        self.assertEqual(rc, 3, err)
        rc, _, err = inst.ctl("link", "edit", str(link["id"]), check=False)
        self.assertEqual(rc, 2, err)


class Qr(Base):
    """Needs zbarimg and rsvg-convert (tools/setup-debian: zbar-tools,
    librsvg2-bin)."""

    def decode(self, body, fmt):
        """The text zbarimg reads from an image (an SVG rendered to PNG by
        rsvg-convert first)."""
        png = inst.path("qr.png")
        if fmt == "svg":
            p = subprocess.run(["rsvg-convert", "-o", png], input=body,
                               capture_output=True, timeout=30)
            self.assertEqual(p.returncode, 0, p.stderr)
        else:
            with open(png, "wb") as f:
                f.write(body)
        p = subprocess.run(["zbarimg", "--quiet", "--raw", png],
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.strip()

    def qr(self, i, query="", status=200):
        r = inst.api("GET", "%s/%d/qr%s" % (L, i, query), self.key)
        self.assertEqual(r.status, status, r)
        return r

    def test_decoded_by_zbar(self):
        link = self.create({"target_url": "https://example.com/qr",
                            "slug": "qr-Code_1"})
        i, short = link["id"], link["short_url"]
        for fmt in ("svg", "png"):
            for suffix, want in (("", short),
                                 ("&suffix=poster-A.1", short +
                                  "/poster-A.1")):
                # (At 64 px a module of this URL is one pixel: too
                # fine for zbar, test_size_in_whole_modules has it.)
                for extra in ("", "&ecc=H&margin=0&size=512",
                              "&ecc=Q&margin=2&size=128",
                              "&ecc=L&margin=16&size=2048"):
                    r = self.qr(i, "?format=%s%s%s" % (fmt, suffix, extra))
                    self.assertEqual(r.header("content-type"),
                                     "image/svg+xml" if fmt == "svg" else
                                     "image/png")
                    self.assertEqual(self.decode(r.body, fmt), want,
                                     (fmt, suffix, extra))

    def test_size_in_whole_modules(self):
        i = self.create({"target_url": "https://example.com/size"})["id"]
        for size, margin in ((64, 0), (100, 4), (512, 4), (2048, 16)):
            q = "?size=%d&margin=%d" % (size, margin)
            svg = self.qr(i, q).body
            m = re.search(rb'width="(\d+)" height="\1" viewBox="0 0 (\d+) '
                          rb'\2"', svg)
            px, n = int(m.group(1)), int(m.group(2))
            self.assertEqual(px, n * max(1, size // n), q)
            self.assertLessEqual(px, max(size, n))
            png = self.qr(i, q + "&format=png").body
            self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
            w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(
                png[20:24], "big")
            self.assertEqual((w, h, png[24], png[25]), (px, px, 1, 0),
                             q)       # 1-bit grey
            # No text of the URL in the SVG: only the path.
            self.assertNotIn(b"example", svg)
            self.assertNotIn(b"<script", svg)

    def test_headers_etag_and_errors(self):
        link = self.create({"target_url": "https://example.com/etag"})
        i = link["id"]
        r = self.qr(i)
        self.assertEqual(r.header("cache-control"), "private, max-age=86400")
        self.assertEqual(r.header("content-security-policy"),
                         "default-src 'none'")
        self.assertEqual(r.header("x-content-type-options"), "nosniff")
        self.assertEqual(r.header("content-disposition"),
                         'inline; filename="%s.svg"' % link["slug"])
        etag = r.header("etag")
        self.assertRegex(etag, r'^"[0-9a-f]{32}"$')
        c = inst.api("GET", "%s/%d/qr" % (L, i), self.key,
                     headers={"If-None-Match": etag})
        self.assertEqual((c.status, c.body), (304, b""))
        c = inst.api("GET", "%s/%d/qr?format=png" % (L, i), self.key,
                     headers={"If-None-Match": etag})
        self.assertEqual(c.status, 200)
        self.assertNotEqual(c.header("etag"), etag)
        h = inst.api("HEAD", "%s/%d/qr" % (L, i), self.key)
        self.assertEqual((h.status, h.body), (200, b""))
        for q in ("?size=63", "?size=2049", "?margin=17", "?ecc=h",
                  "?format=jpg", "?suffix=a%2Fb", "?suffix=" + "s" * 65):
            r = self.qr(i, q, 400)
            self.assertEqual(r.json()["param"], q[1:].split("=")[0])
        _, other = new_key()
        r = inst.api("GET", "%s/%d/qr" % (L, i), other)
        self.assertEqual(r.status, 404)


class Search(Base):

    def slugs(self, query, key=None, limit=100):
        out, cursor = [], None
        while True:
            url = "%s?limit=%d%s%s" % (L, limit, "&" + query if query else
                                       "", "&cursor=" + cursor if cursor
                                       else "")
            r = inst.api("GET", url, key or self.key)
            self.assertEqual(r.status, 200, (url, r))
            out += [x["slug"] for x in r.json()["links"]]
            cursor = r.json()["next_cursor"]
            if cursor is None:
                return out

    def test_search_and_status(self):
        _, key = new_key()
        _, stranger = new_key()
        mk = (lambda slug, **kw: self.create(dict(
            {"target_url": "https://shop.example/p", "slug": slug}, **kw),
            key)["id"])
        mk("Sale-50", title="50% off, all week")
        mk("a_b", target_url="https://other.example/a_b")
        mk("axb", target_url="https://other.example/axb")
        mk("cafe", title="Caf\u00e9 \u00c9t\u00e9")
        mk("capped", max_clicks=1)
        exp = mk("expired", expires_at="2099-01-01T00:00:00Z")
        dis = mk("disabled")
        self.create({"target_url": "https://shop.example/sale",
                     "slug": "sale-stranger"}, stranger)
        self.assertEqual(self.visit("/capped").status, 302)
        inst.sql("UPDATE links SET expires_at = 1000 WHERE id = %d" % exp)
        inst.sql("UPDATE links SET flagged_at = 1 WHERE id = %d" % dis)
        for q, want in (
                ("q=sale", ["Sale-50"]), ("q=SALE-5", ["Sale-50"]),
                ("q=50%25", ["Sale-50"]), ("q=%25", ["Sale-50"]),
                ("q=a_b", ["a_b"]), ("q=_", ["a_b"]),
                ("q=OTHER.example", ["axb", "a_b"]),
                ("q=shop.example", ["disabled", "expired", "capped", "cafe",
                                    "Sale-50"]),
                ("q=" + "caf%C3%A9", ["cafe"]),
                ("q=%C3%89t%C3%A9", ["cafe"]),
                ("q=%C3%A9t%C3%A9", []),
                ("q=nothing", []),
                ("status=active", ["cafe", "axb", "a_b", "Sale-50"]),
                ("status=capped", ["capped"]),
                ("status=expired", ["expired"]),
                ("status=disabled", ["disabled"]),
                ("q=d&status=disabled", ["disabled"]),
                ("q=xyz&status=active", [])):
            for limit in (1, 100):
                self.assertEqual(self.slugs(q, key, limit), want,
                                 (q, limit))


class Clicks(Base):

    COLS = ["time", "suffix", "country", "device", "os", "browser",
            "referrer", "variant", "bot"]

    def pages(self, i, query="", limit=1000):
        out, cursor = [], None
        while True:
            url = "%s/%d/clicks?limit=%d%s%s" % (L, i, limit, query,
                                                "&cursor=" + cursor
                                                if cursor else "")
            r = inst.api("GET", url, self.key)
            self.assertEqual(r.status, 200, (url, r))
            j = r.json()
            self.assertLessEqual(len(j["clicks"]), limit)
            out += j["clicks"]
            cursor = j["next_cursor"]
            if cursor is None:
                return out

    def csv(self, i, query=""):
        return self.csv_rows(inst.api("GET", "%s/%d/clicks?format=csv%s" %
                                      (L, i, query), self.key))

    def csv_rows(self, r):
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.header("content-type"),
                         "text/csv; charset=utf-8; header=present")
        self.assertRegex(r.header("content-disposition"),
                         r'^attachment; filename="lz-clicks-[\w-]+\.csv"$')
        text = r.body.decode("utf-8")
        self.assertTrue(text.endswith("\r\n"))
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.assertEqual(rows[0], self.COLS)
        return rows[1:]

    def add_clicks(self, link_id, n, at, same_at=False):
        """n clicks of link_id straight into the table, newest at at."""
        blob = ("decode(md5(random()::text), 'hex')" if inst.pg else
                "randomblob(16)")
        inst.sql("WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                 "FROM k WHERE x < %d) INSERT INTO clicks (link_id, at, "
                 "suffix, country, device, os, browser, referrer, "
                 "referrer_host, variant, visitor, bot) SELECT %d, %d - %s, "
                 "'s' || (x %% 3), 'TW', 'mobile', 'ios', 'safari', '', '', "
                 "'', %s, CASE WHEN x %% 7 = 0 THEN 1 ELSE 0 END FROM k" %
                 (n, link_id, at, "0" if same_at else "x", blob))

    def test_visits_as_json_and_csv(self):
        link = self.create({"target_url": "https://example.com/c"})
        i, slug = link["id"], link["slug"]
        refs = ["https://news.example/a?x=1,2", '=HYPERLINK("https://evil.'
                'example","x")', "+SUM(1,2)", "-2+3", "@cmd", "plain \"q\""]
        for n, ref in enumerate(refs):
            r = self.visit("/%s/ch%d" % (slug, n), Referer=ref,
                           **{"X-Forwarded-For": "203.0.113.%d" % (n + 1)})
            self.assertEqual(r.status, 302, r)
        self.visit("/" + slug, **{"User-Agent": "curl/8"})     # a bot
        lzenv.wait_for(lambda: len(self.pages(i)) == len(refs) + 1,
                       timeout=15, what="the clicks moved in")
        clicks = self.pages(i)
        self.assertEqual([c["time"] for c in clicks],
                         sorted((c["time"] for c in clicks), reverse=True))
        for c in clicks:
            self.assertEqual(set(c), set(self.COLS))
            self.assertRegex(c["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
                             r"\.\d{3}Z$")
        humans = [c for c in clicks if not c["bot"]]
        self.assertEqual(sorted(c["referrer"] for c in humans),
                         sorted(refs))
        self.assertEqual({c["device"] for c in humans}, {"desktop"})
        self.assertEqual(len([c for c in clicks if c["bot"]]), 1)
        # The CSV holds the same clicks; no visitor, no address; a cell
        # a spreadsheet would run as a formula starts with an apostrophe.
        rows = self.csv(i)
        self.assertEqual(len(rows), len(clicks))
        for row, c in zip(rows, clicks):
            self.assertEqual(len(row), len(self.COLS))
            want = [str(c[k]).lower() if k == "bot" else c[k]
                    for k in self.COLS]
            ref = want[6]
            if ref[:1] in ("=", "+", "-", "@"):
                want[6] = "'" + ref
            self.assertEqual(row, want)
        raw = inst.api("GET", "%s/%d/clicks?format=csv" % (L, i),
                       self.key).body
        for ip in ("203.0.113.1", "127.0.0.1"):
            self.assertNotIn(ip.encode(), raw)
        # HEAD: the headers alone.
        h = inst.api("HEAD", "%s/%d/clicks?format=csv" % (L, i), self.key)
        self.assertEqual((h.status, h.body), (200, b""))

    def test_pages_and_chunks_never_repeat_or_skip(self):
        """2,500 clicks in one millisecond and 1,500 before: the JSON
        pages and the CSV's chunks of 1,000 cross ties on the time."""
        i = self.create({"target_url": "https://example.com/many"})["id"]
        now = int(time.time() * 1000) - 60000
        self.add_clicks(i, 2500, now, same_at=True)
        self.add_clicks(i, 1500, now - 10)
        ids = [r[0] for r in inst.sql("SELECT id FROM clicks WHERE "
                                      "link_id = %d ORDER BY at DESC, "
                                      "id DESC" % i)]
        self.assertEqual(len(ids), 4000)
        for limit in (1000, 333):
            got = self.pages(i, limit=limit)
            self.assertEqual(len(got), 4000, limit)
        rows = self.csv(i)
        self.assertEqual(len(rows), 4000)
        self.assertEqual([r[0] for r in rows],
                         [c["time"] for c in self.pages(i)])
        # from and to, as in the statistics.
        iso = (lambda ms: time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(
            ms / 1000)) + ".%03dZ" % (ms % 1000))
        self.assertEqual(len(self.pages(i, "&to=" + iso(now))), 1500)
        self.assertEqual(len(self.pages(i, "&from=" + iso(now))), 2500)
        self.assertEqual(len(self.csv(i, "&from=%s&to=%s" % (
            iso(now - 1010), iso(now - 10)))), 1000)
        # A cursor is bound to the order, not to a range: past 'to' it
        # starts again at 'to'.
        c = base64.urlsafe_b64encode(b"%d.1" % (now + 5)).decode().rstrip(
            "=")
        r = inst.api("GET", "%s/%d/clicks?limit=5&to=%s&cursor=%s" % (
            L, i, iso(now), c), self.key)
        self.assertEqual(len(r.json()["clicks"]), 5)
        self.assertTrue(all(x["time"] < iso(now) for x in
                            r.json()["clicks"]))

    def test_export_bound(self):
        """At most 1,000,000 clicks a file: a larger range is refused
        before a byte is sent, a narrower one goes, and so does the
        bound itself, without holding up redirects."""
        i = self.create({"target_url": "https://example.com/big"})["id"]
        now = int(time.time() * 1000) - 60000
        self.add_clicks(i, 1000001, now)
        r = inst.api("GET", "%s/%d/clicks?format=csv" % (L, i), self.key)
        self.assertEqual((r.status, r.json()["error"], r.json()["param"]),
                         (400, "invalid_parameter", "from"))
        self.assertIn("1000001", r.json()["message"])
        iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(
            (now - 1000) / 1000)) + ".%03dZ" % ((now - 1000) % 1000)
        self.assertEqual(len(self.csv(i, "&from=" + iso)), 1000)
        # The JSON pages have no such bound.
        r = inst.api("GET", "%s/%d/clicks?limit=2" % (L, i), self.key)
        self.assertEqual(len(r.json()["clicks"]), 2)
        # The bound itself goes, as a slow step: the exporting worker
        # hands its other kept connections back to nginx, and redirects
        # go on through the other worker meanwhile.
        slug = self.create({"target_url": "https://example.com/on"})["slug"]
        iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(
            (now - 1000000) / 1000)) + ".%03dZ" % ((now - 1000000) % 1000)
        started, done = threading.Event(), {}

        def export():
            # Only the fetch here: a parse would hold Python's lock and
            # stop the redirects below on the client's side.
            t0 = time.monotonic()
            c = http.client.HTTPConnection("127.0.0.1", inst.links_port,
                                           timeout=60)
            try:
                c.request("GET", "%s/%d/clicks?format=csv&from=%s" % (
                    L, i, iso), headers={"Authorization": "Bearer " +
                                         self.key})
                r = c.getresponse()
                started.set()
                body = r.read()
                done["r"] = lzenv.Response(r.status, {
                    k.lower(): v for k, v in r.getheaders()}, body)
            finally:
                started.set()
                c.close()
            done["s"] = time.monotonic() - t0

        t = threading.Thread(target=export)
        t.start()
        # The headers come once the slow step runs, its worker's other
        # connections handed back.
        started.wait(30)
        lat, statuses = [], []
        end = time.monotonic() + 60
        while t.is_alive() and time.monotonic() < end:
            t0 = time.monotonic()
            statuses.append(self.visit("/" + slug).status)
            lat.append(time.monotonic() - t0)
        t.join(60)
        sys.stderr.write("FIGURE clicks export of 1,000,000 clicks: %.2f s; "
                         "%d redirects meanwhile, slowest %.0f ms\n" %
                         (done["s"], len(lat), 1000 * max(lat)))
        self.assertEqual(len(self.csv_rows(done["r"])), 1000000)
        self.assertEqual(set(statuses), {302})
        self.assertGreaterEqual(len(lat), 20)
        self.assertLess(max(lat), 1.0)

    def test_other_accounts_and_refusals(self):
        i = self.create({"target_url": "https://example.com/own"})["id"]
        _, other = new_key()
        self.assertEqual(inst.api("GET", "%s/%d/clicks" % (L, i),
                                  other).status, 404)
        for q, param in (("format=csv&limit=5", "limit"),
                         ("format=csv&cursor=MS4x", "cursor"),
                         ("cursor=MQ", "cursor"), ("limit=1001", "limit"),
                         ("from=2030-01-01&to=2029-01-01", "from")):
            r = inst.api("GET", "%s/%d/clicks?%s" % (L, i, q), self.key)
            self.assertEqual((r.status, r.json()["param"]), (400, param), q)


if __name__ == "__main__":
    lzenv.main()
