"""End-to-end tests of short-link visits (DESIGN 3.4) through real nginx
and the real lz-links pool: redirects and every link option, the pages,
the clicks they record, the exact click cap under concurrency, and
statistics.  Killing workers under load is in test_clicks_kill.py.
"""

import ipaddress
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

# Real User-Agent strings.
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) "
          "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 "
          "Mobile/15E148 Safari/604.1")
ANDROID = ("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 "
           "(KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36")
WINDOWS = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
           "(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
LINE_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) "
            "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 "
            "Safari Line/13.9.0")
FB_ANDROID = ("Mozilla/5.0 (Linux; Android 13; SM-G991B "
              "Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like "
              "Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile "
              "Safari/537.36 [FB_IAB/FB4A;FBAV/442.0.0.33.113;]")
INSTAGRAM_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) "
                 "AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 "
                 "Instagram 307.0.0.34.111 (iPhone14,5; iOS 17_1; en_US; "
                 "en; scale=3.00; 1170x2532; 532277347)")
FACEBOOK_CRAWLER = ("facebookexternalhit/1.1 "
                    "(+http://www.facebook.com/externalhit_uatext.php)")
TWITTERBOT = "Twitterbot/1.0"
GOOGLEBOT = ("Mozilla/5.0 (compatible; Googlebot/2.1; "
             "+http://www.google.com/bot.html)")


def geo_sample(path, cc, six):
    """An address in a large range of country cc, read from a tor-geoipdb
    file by a parser of its own (the oracle for the service's table)."""
    best = None
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            a, b, c = line.strip().split(",")
            if c != cc:
                continue
            if six:
                lo, hi = (int(ipaddress.IPv6Address(a)),
                          int(ipaddress.IPv6Address(b)))
            else:
                lo, hi = int(a), int(b)
            if best is None or hi - lo > best[1] - best[0]:
                best = (lo, hi)
    lo, hi = best
    mid = lo + (hi - lo) // 2
    return str(ipaddress.IPv6Address(mid) if six else
               ipaddress.IPv4Address(mid))


def wait_until(fn, timeout=10.0, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.1)


class Base(unittest.TestCase):
    workers = 4
    extra_conf = "trusted_proxies = 127.0.0.1\n"

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance(name="redirect", workers=cls.workers,
                                  extra_conf=cls.extra_conf)
        try:
            cls.inst.start()
            cls.account = cls.inst.account("owner@example.com", plan="pro")
            cls.key = cls.inst.key(cls.account)
            cls.other = cls.inst.account("other@example.com", plan="pro")
            cls.other_key = cls.inst.key(cls.other)
        except Exception:
            cls.inst.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    # -- helpers -----------------------------------------------------------

    def create(self, key=None, **fields):
        fields.setdefault("target_url", "https://example.com/landing")
        r = self.inst.api("POST", "/api/v1/links", key or self.key, fields)
        self.assertEqual(r.status, 201, r.body)
        return r.json()

    def visit(self, path, ua=IPHONE, ip=None, method="GET", headers=None,
              body=None):
        h = {"User-Agent": ua}
        if ip:
            h["X-Forwarded-For"] = ip
        h.update(headers or {})
        return self.inst.request(method, path, headers=h, body=body)

    def clicks(self, link_id, where="1 = 1"):
        return self.inst.sql(
            "SELECT suffix, country, device, os, browser, referrer, "
            "referrer_host, variant, visitor, bot, at FROM clicks "
            "WHERE link_id = %d AND (%s) ORDER BY id" % (link_id, where))

    def wait_clicks(self, link_id, n, timeout=10.0):
        """Waits for n clicks (the journal is moved about once a second)
        and a little longer, to see that no more come."""
        wait_until(lambda: len(self.clicks(link_id)) >= n, timeout,
                   "%d clicks of link %d" % (n, link_id))
        time.sleep(1.2)
        rows = self.clicks(link_id)
        self.assertEqual(len(rows), n, rows)
        return rows

    def counted(self, link_id):
        return self.inst.sql("SELECT clicks FROM links WHERE id = %d" %
                             link_id)[0][0]

    def assertPage(self, r, status, text):
        self.assertEqual(r.status, status, r)
        self.assertTrue(r.header("Content-Type").startswith("text/html"))
        self.assertEqual(r.header("Cache-Control"), "no-store")
        csp = r.header("Content-Security-Policy")
        self.assertIn("default-src 'none'", csp)
        # Every page runs in an opaque origin (DESIGN 3.11).
        self.assertRegex(csp, r"(^|; )sandbox( |$)")
        self.assertNotIn("allow-same-origin", csp)
        self.assertIn(text, r.body.decode())
        self.assertIn('<link rel="stylesheet" href="/static/lz.css">',
                      r.body.decode())


class TestRedirect(Base):

    def test_simple_redirect_records_click(self):
        link = self.create(slug="simple1",
                           target_url="https://example.com/a?x=1#top")
        r = self.visit("/simple1", ip="8.8.8.8",
                       headers={"Referer": "https://WWW.Google.com/search?q=lz"})
        self.assertEqual(r.status, 302)
        self.assertEqual(r.header("Location"), "https://example.com/a?x=1#top")
        self.assertEqual(r.header("Cache-Control"), "no-store")
        self.assertTrue(r.header("X-Request-Id"))
        rows = self.wait_clicks(link["id"], 1)
        (suffix, country, device, os_, browser, ref, host, variant, visitor,
         bot, at) = rows[0]
        self.assertEqual(suffix, "")
        self.assertEqual(country, "US")
        self.assertEqual(device, "mobile")
        self.assertEqual(os_, "ios")
        self.assertEqual(browser, "safari")
        self.assertEqual(ref, "https://WWW.Google.com/search?q=lz")
        self.assertEqual(host, "www.google.com")
        self.assertEqual(variant, "")
        self.assertEqual(bot, 0)
        self.assertEqual(len(visitor), 16)
        self.assertLess(abs(at / 1000 - time.time()), 60)
        # The address itself is stored nowhere.
        for row in self.inst.sql("SELECT * FROM clicks"):
            self.assertNotIn("8.8.8.8", repr(row))
        self.assertEqual(self.counted(link["id"]), 1)
        got = self.inst.api("GET", "/api/v1/links/%d" % link["id"], self.key)
        self.assertEqual(got.json()["link"]["stats"]["clicks"], 1)

    def test_same_visitor_same_id(self):
        link = self.create(slug="visitor1")
        for ua in (IPHONE, IPHONE, ANDROID):
            self.assertEqual(self.visit("/visitor1", ua=ua,
                                        ip="198.51.100.7").status, 302)
        self.assertEqual(self.visit("/visitor1", ua=IPHONE,
                                    ip="198.51.100.8").status, 302)
        v = [row[8] for row in self.wait_clicks(link["id"], 4)]
        # One visitor twice, two others once.
        self.assertEqual(sorted(v.count(x) for x in set(v)), [1, 1, 2])

    def test_301(self):
        self.create(slug="perm1", redirect_type=301)
        r = self.visit("/perm1")
        self.assertEqual(r.status, 301)
        self.assertEqual(r.header("Location"), "https://example.com/landing")
        self.assertEqual(r.header("Cache-Control"), "private, max-age=90")

    def test_utm(self):
        self.create(slug="utm1",
                    target_url="https://shop.example/p/%E5%A4%8F?utm_source=old"
                               "&id=7#reviews",
                    utm={"source": "news letter", "medium": "e&mail",
                         "campaign": "\u590f\u5b63 sale"})
        r = self.visit("/utm1")
        self.assertEqual(r.status, 302)
        loc = r.header("Location")
        self.assertEqual(
            loc, "https://shop.example/p/%E5%A4%8F?id=7&utm_source=news+letter"
                 "&utm_medium=e%26mail&utm_campaign=%e5%a4%8f%e5%ad%a3+sale"
                 "#reviews")
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(loc).query)
        self.assertEqual(q["utm_source"], ["news letter"])
        self.assertEqual(q["utm_medium"], ["e&mail"])
        self.assertEqual(q["utm_campaign"], ["\u590f\u5b63 sale"])
        self.assertEqual(q["id"], ["7"])

    def test_location_is_ascii(self):
        # An internationalised target is sent the way browsers would ask
        # for it: host in punycode, the rest %-escaped; the API still
        # shows the URL as given.
        link = self.create(slug="idn1", target_url="https://m\u00fcnchen.de/"
                           "stra\u00dfe?q=\u00fc#frag")
        r = self.visit("/idn1")
        self.assertEqual(r.status, 302)
        self.assertEqual(r.header("Location"), "https://xn--mnchen-3ya.de/"
                         "stra%C3%9Fe?q=%C3%BC#frag")
        got = self.inst.api("GET", "/api/v1/links/%d" % link["id"],
                            self.key).json()["link"]
        self.assertEqual(got["target_url"],
                         "https://m\u00fcnchen.de/stra\u00dfe?q=\u00fc#frag")

    def test_suffix(self):
        link = self.create(slug="suffix1")
        r = self.visit("/suffix1/ig.story-2")
        self.assertEqual(r.status, 302)
        self.assertEqual(self.wait_clicks(link["id"], 1)[0][0], "ig.story-2")
        for bad in ("/suffix1/a%20b", "/suffix1/" + "x" * 65, "/suffix1/a/b",
                    "/suffix1/", "/bad.slug", "/%E5%A4%8F"):
            self.assertPage(self.visit(bad), 404, "Link not found")

    def test_unknown_and_deleted(self):
        self.assertPage(self.visit("/nosuchlink"), 404, "Link not found")
        self.assertPage(self.visit("/"), 404, "Link not found")
        link = self.create(slug="deleted1")
        r = self.inst.api("DELETE", "/api/v1/links/%d" % link["id"], self.key)
        self.assertEqual(r.status, 200)
        self.assertPage(self.visit("/deleted1"), 404, "Link not found")
        # Under the API, nothing matched is still the JSON 404.
        for path in ("/api/nothing", "/api/v1/nothing/at/all",
                     "/api/v1/links/1/nothing"):
            r = self.visit(path)
            self.assertEqual(r.status, 404, path)
            self.assertEqual(r.json()["error"], "not_found", path)

    def test_delete_after_visits(self):
        link = self.create(slug="deleted2")
        self.assertEqual(self.visit("/deleted2").status, 302)
        r = self.inst.api("DELETE", "/api/v1/links/%d" % link["id"], self.key)
        self.assertEqual(r.status, 200)
        # Workers keep a link they read for at most a second.
        time.sleep(1.1)
        for _ in range(8):
            self.assertPage(self.visit("/deleted2"), 404, "Link not found")

    def test_head_counts_nothing(self):
        link = self.create(slug="head1")
        for _ in range(3):
            r = self.visit("/head1", method="HEAD")
            self.assertEqual(r.status, 302)
            self.assertEqual(r.header("Location"),
                             "https://example.com/landing")
            self.assertEqual(r.body, b"")
        self.assertEqual(self.visit("/head1").status, 302)
        self.wait_clicks(link["id"], 1)
        # A capped link's HEAD neither counts nor tells the target.
        capped = self.create(slug="head2", max_clicks=5)
        for _ in range(3):
            r = self.visit("/head2", method="HEAD")
            self.assertEqual((r.status, r.body), (200, b""))
            self.assertIsNone(r.header("Location"))
        self.assertEqual(self.visit("/head2").status, 302)
        self.wait_clicks(capped["id"], 1)
        self.assertEqual(self.counted(capped["id"]), 1)

    def test_post_without_password(self):
        self.create(slug="nopw1")
        r = self.visit("/nopw1", method="POST", body="password=x",
                       headers={"Content-Type":
                                "application/x-www-form-urlencoded"})
        self.assertPage(r, 405, "Method not allowed")
        self.assertEqual(r.header("Allow"), "GET, HEAD")

    def test_ab(self):
        urls = ["https://a.example/", "https://b.example/"]
        link = self.create(slug="ab1", mode="ab", variants=[
            {"url": urls[0], "weight": 1}, {"url": urls[1], "weight": 3}])
        seen, sent = [], []
        for i in range(120):
            ip = "203.0.113.%d" % (i + 1)
            first = self.visit("/ab1", ip=ip).header("Location")
            self.assertIn(first, urls)
            seen.append(first)
            sent.append(first)
            if i < 10:
                # The same visitor keeps its variant.
                for _ in range(3):
                    again = self.visit("/ab1", ip=ip).header("Location")
                    self.assertEqual(again, first)
                    sent.append(again)
        share_b = seen.count(urls[1]) / len(seen)
        self.assertGreater(share_b, 0.6, share_b)
        self.assertLess(share_b, 0.9, share_b)
        rows = self.wait_clicks(link["id"], 150)
        self.assertEqual(sorted(r[7] for r in rows),
                         sorted(str(urls.index(u)) for u in sent))

    def test_device(self):
        link = self.create(slug="dev1", mode="device", variants={
            "ios": "https://apps.apple.com/app/id1",
            "android": "https://play.google.com/store/apps/details?id=x",
            "desktop": "https://desk.example/"})
        cases = [(IPHONE, "https://apps.apple.com/app/id1", "ios"),
                 (ANDROID, "https://play.google.com/store/apps/details?id=x",
                  "android"),
                 (WINDOWS, "https://desk.example/", "desktop")]
        for ua, url, _ in cases:
            self.assertEqual(self.visit("/dev1", ua=ua).header("Location"),
                             url)
        rows = self.wait_clicks(link["id"], 3)
        self.assertEqual(sorted((r[7], r[2]) for r in rows),
                         [("android", "mobile"), ("desktop", "desktop"),
                          ("ios", "mobile")])
        part = self.create(slug="dev2", mode="device",
                           variants={"ios": "https://apps.apple.com/app/id1"})
        self.assertEqual(self.visit("/dev2", ua=ANDROID).header("Location"),
                         "https://example.com/landing")
        self.assertEqual(self.wait_clicks(part["id"], 1)[0][7], "")

    def test_geo(self):
        tw = geo_sample("/usr/share/tor/geoip", "TW", False)
        jp = geo_sample("/usr/share/tor/geoip", "JP", False)
        jp6 = geo_sample("/usr/share/tor/geoip6", "JP", True)
        de6 = geo_sample("/usr/share/tor/geoip6", "DE", True)
        link = self.create(slug="geo1", mode="geo", variants={
            "TW": "https://tw.example/", "JP": "https://jp.example/"})
        cases = [(tw, "https://tw.example/", "TW", "TW"),
                 (jp, "https://jp.example/", "JP", "JP"),
                 (jp6, "https://jp.example/", "JP", "JP"),
                 (de6, "https://example.com/landing", "", "DE"),
                 ("10.1.2.3", "https://example.com/landing", "", "")]
        for ip, url, _, _ in cases:
            r = self.visit("/geo1", ip=ip)
            self.assertEqual(r.header("Location"), url, ip)
        rows = self.wait_clicks(link["id"], len(cases))
        self.assertEqual(sorted((r[7], r[1]) for r in rows),
                         sorted((c[2], c[3]) for c in cases))


class TestPagesAndOptions(Base):

    def test_expired_capped_disabled(self):
        exp = self.create(slug="exp1")
        self.inst.sql("UPDATE links SET expires_at = 1000 WHERE id = %d" %
                      exp["id"])
        self.assertPage(self.visit("/exp1"), 410, "Link expired")
        r = self.visit("/exp1", method="HEAD")
        self.assertEqual((r.status, r.body), (410, b""))
        dis = self.create(slug="dis1")
        self.inst.sql("UPDATE links SET flagged_at = 1, flag_reason = "
                      "'phishing' WHERE id = %d" % dis["id"])
        r = self.visit("/dis1")
        self.assertPage(r, 410, "Link disabled")
        self.assertIn("unsafe", r.body.decode())
        cap = self.create(slug="cap2", max_clicks=2)
        self.assertEqual(self.visit("/cap2").status, 302)
        self.assertEqual(self.visit("/cap2").status, 302)
        self.assertPage(self.visit("/cap2"), 410, "no longer available")
        time.sleep(1.2)
        self.assertEqual(len(self.clicks(exp["id"])), 0)
        self.assertEqual(len(self.clicks(dis["id"])), 0)
        self.assertEqual(len(self.clicks(cap["id"])), 2)
        got = self.inst.api("GET", "/api/v1/links/%d" % cap["id"], self.key)
        self.assertEqual(got.json()["link"]["status"], "capped")

    def test_cap_exact_under_concurrency(self):
        link = self.create(slug="cap100", max_clicks=100)
        served = []
        other = []
        lock = threading.Lock()
        stop = threading.Event()

        def client(n):
            while not stop.is_set():
                r = self.visit("/cap100", ip="192.0.2.%d" % (n + 1))
                with lock:
                    if r.status == 302:
                        served.append(1)
                    elif r.status == 410:
                        stop.set()
                    else:
                        other.append(r.status)
                        stop.set()

        threads = [threading.Thread(target=client, args=(i,))
                   for i in range(32)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(other, [])
        self.assertEqual(len(served), 100)
        self.assertEqual(self.counted(link["id"]), 100)
        self.assertEqual(len(self.clicks(link["id"])), 100)
        self.assertEqual(self.visit("/cap100").status, 410)
        # Bots do not use up a cap (nor learn its target).
        bot = self.create(slug="capbot", max_clicks=1)
        for _ in range(3):
            self.assertPage(self.visit("/capbot", ua=GOOGLEBOT), 200,
                            "Open this link in a browser")
        self.assertEqual(self.visit("/capbot").status, 302)
        self.assertEqual(self.visit("/capbot").status, 410)
        rows = self.wait_clicks(bot["id"], 4)
        self.assertEqual(sorted(r[9] for r in rows), [0, 1, 1, 1])
        self.assertEqual(self.counted(bot["id"]), 1)

    def test_one_time_link_reveals_its_target_once(self):
        """A max_clicks: 1 link hit at once by HEAD, no or an empty
        User-Agent, curl, crawlers, previewers and people: the target is
        in exactly one answer, the one that counted (DESIGN 3.11).  It
        used to be in every answer that did not count."""
        target = "https://example.com/one-time-secret"
        for slug, og in (("once1", None), ("once2", {"title": "Once"})):
            link = self.create(slug=slug, max_clicks=1, target_url=target,
                               og=og)
            path = "/" + slug
            uncounted = [("HEAD", IPHONE), ("HEAD", WINDOWS), ("GET", ""),
                         ("GET", None), ("GET", "curl/7.88.1"),
                         ("GET", "Slackbot-LinkExpanding 1.0 "
                          "(+https://api.slack.com/robots)"),
                         ("GET", GOOGLEBOT), ("GET", FACEBOOK_CRAWLER),
                         ("GET", TWITTERBOT)]
            people = [("GET", ua) for ua in (IPHONE, ANDROID, WINDOWS) * 3]
            answers = []
            lock = threading.Lock()

            def hit(i, method, ua):
                h = {"X-Forwarded-For": "192.0.2.%d" % (i + 1)}
                if ua is not None:
                    h["User-Agent"] = ua
                r = self.inst.request(method, path, headers=h)
                with lock:
                    answers.append((method, ua, r))

            threads = [threading.Thread(target=hit, args=(i, m, ua))
                       for i, (m, ua) in enumerate(uncounted + people)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            self.assertEqual(len(answers), len(uncounted) + len(people))
            told = [(m, ua, r.status) for m, ua, r in answers
                    if r.header("Location") or
                    target.encode() in r.body or
                    target.replace("/", "&#47;").encode() in r.body]
            self.assertEqual(len(told), 1, told)
            self.assertIn(told[0][1], (IPHONE, ANDROID, WINDOWS))
            self.assertEqual(told[0][2], 302)
            # The uncounted get the page (or, once a person used the
            # link up, the 410).
            for m, ua, r in answers:
                if (m, ua) in uncounted:
                    self.assertIn(r.status, (200, 410), (m, ua, r))
                    self.assertIsNone(r.header("Location"), (m, ua))
            self.assertEqual(self.counted(link["id"]), 1)
            # Used up: everyone gets the 410 page now.
            for m, ua in uncounted[2:] + people[:1]:
                self.assertEqual(self.visit(path, ua=ua or "").status, 410)

    def test_password(self):
        link = self.create(slug="pw1", password="s3cret pass",
                           target_url="https://example.com/private")
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        r = self.visit("/pw1/mail")
        self.assertPage(r, 200, "Password required")
        self.assertIn('<form method="post" action="&#47;pw1&#47;mail">',
                      r.body.decode())
        self.assertIsNone(r.header("Location"))
        self.assertEqual(self.visit("/pw1", method="HEAD").status, 200)
        ip = "203.0.113.77"
        r = self.visit("/pw1/mail", method="POST", ip=ip, headers=form,
                       body="password=wrong")
        self.assertPage(r, 403, "Wrong password")
        r = self.visit("/pw1/mail", method="POST", ip=ip, headers=form,
                       body="password=s3cret+pass")
        self.assertEqual(r.status, 303, r)
        self.assertEqual(r.header("Location"), "https://example.com/private")
        # Not a form: the form again.
        r = self.visit("/pw1", method="POST", ip=ip, body="s3cret pass",
                       headers={"Content-Type": "text/plain"})
        self.assertPage(r, 400, "Enter the password")
        r = self.visit("/pw1", method="POST", ip=ip, headers=form,
                       body="other=1")
        self.assertPage(r, 400, "Enter the password")
        r = self.visit("/pw1", method="POST", ip=ip, headers=form,
                       body="password=" + "x" * 5000)
        self.assertPage(r, 413, "Enter the password")
        rows = self.wait_clicks(link["id"], 1)
        self.assertEqual(rows[0][0], "mail")
        self.assertNotIn("s3cret", self.inst.log("lz-links"))

        # Tries are limited per network and link: 10 in 15 minutes; the
        # right password gave its try back, so 9 more wrong ones fit.
        for i in range(9):
            r = self.visit("/pw1", method="POST", ip=ip, headers=form,
                           body="password=guess%d" % i)
            self.assertEqual(r.status, 403, (i, r))
        r = self.visit("/pw1", method="POST", ip=ip, headers=form,
                       body="password=s3cret+pass")
        self.assertPage(r, 429, "Too many tries")
        retry = int(r.header("Retry-After"))
        self.assertTrue(800 < retry <= 900, retry)
        # Another network, or another link, is not affected.
        r = self.visit("/pw1", method="POST", ip="198.51.100.200",
                       headers=form, body="password=s3cret+pass")
        self.assertEqual(r.status, 303)
        self.create(slug="pw2", password="other one")
        r = self.visit("/pw2", method="POST", ip=ip, headers=form,
                       body="password=other+one")
        self.assertEqual(r.status, 303)
        self.wait_clicks(link["id"], 2)
        self.assertEqual(self.counted(link["id"]), 2)

    def test_capped_preview_without_target(self):
        """A previewer of a capped link with og gets the preview, without
        the refresh or a link to the target; other bots a page that says
        where the link opens."""
        self.create(slug="ogcap", max_clicks=3, og={"title": "Once"},
                    target_url="https://example.com/capped-target")
        for ua in (FACEBOOK_CRAWLER, GOOGLEBOT, ""):
            r = self.visit("/ogcap", ua=ua)
            html = r.body.decode()
            self.assertPage(r, 200, "Once")
            self.assertIn('<meta property="og:title" content="Once">', html)
            self.assertNotIn("refresh", html)
            self.assertNotIn("capped-target", html)
            self.assertIsNone(r.header("Location"))
        self.create(slug="plaincap", max_clicks=3,
                    target_url="https://example.com/capped-target")
        r = self.visit("/plaincap", ua=TWITTERBOT)
        self.assertPage(r, 200, "Open this link in a browser")
        self.assertNotIn("capped-target", r.body.decode())

    def test_social_preview(self):
        link = self.create(slug="og1", title="Plain title", og={
            "title": 'Sale "50%" <now> & more',
            "description": "Best <b>deals</b>",
            "image": "https://img.example/a.png?w=1&h=2"})
        for ua in (FACEBOOK_CRAWLER, TWITTERBOT):
            r = self.visit("/og1/fb", ua=ua)
            self.assertPage(r, 200, "Sale")
            html = r.body.decode()
            self.assertIn('<meta property="og:title" content="Sale &quot;50%'
                          '&quot; &lt;now&gt; &amp; more">', html)
            self.assertIn('<meta property="og:description" content="Best '
                          '&lt;b&gt;deals&lt;&#47;b&gt;">', html)
            self.assertIn('<meta property="og:image" content="https:&#47;'
                          '&#47;img.example&#47;a.png?w=1&amp;h=2">', html)
            self.assertRegex(html, r'<meta property="og:url" content="http:'
                             r'&#47;&#47;127\.0\.0\.1:\d+&#47;og1&#47;fb">')
            self.assertIn('<meta name="twitter:card" '
                          'content="summary_large_image">', html)
            self.assertIn('<meta name="twitter:title" content="Sale', html)
            self.assertIn('<meta http-equiv="refresh" content="0;url=https:'
                          '&#47;&#47;example.com&#47;landing">', html)
            self.assertNotIn("<b>", html)
        # People are sent on; crawlers of links without og too.
        self.assertEqual(self.visit("/og1", ua=IPHONE).status, 302)
        plain = self.create(slug="og2")
        self.assertEqual(self.visit("/og2", ua=FACEBOOK_CRAWLER).status, 302)
        rows = self.wait_clicks(link["id"], 3)
        self.assertEqual(sorted(r[9] for r in rows), [0, 1, 1])
        self.assertEqual(self.counted(link["id"]), 1)
        self.assertEqual(self.wait_clicks(plain["id"], 1)[0][9], 1)
        self.assertEqual(self.counted(plain["id"]), 0)

    def test_inapp_escape(self):
        link = self.create(slug="esc1", escape_inapp=True)
        # LINE: back to the short link with openExternalBrowser=1.
        r = self.visit("/esc1", ua=LINE_IOS)
        self.assertPage(r, 200, "Open in your browser")
        html = r.body.decode()
        m = re.search(r'href="(http:&#47;&#47;127\.0\.0\.1:\d+&#47;esc1'
                      r'\?openExternalBrowser=1)"', html)
        self.assertTrue(m, html)
        nonce = re.search(r"script-src 'nonce-([^']+)'",
                          r.header("Content-Security-Policy")).group(1)
        self.assertIn('<script nonce="%s">' % nonce, html)
        # The external browser comes back with the parameter.
        r = self.visit("/esc1?openExternalBrowser=1", ua=IPHONE)
        self.assertEqual(r.status, 302)
        self.assertEqual(r.header("Location"), "https://example.com/landing")
        # Android apps: an intent:// URL for Chrome.
        r = self.visit("/esc1/fb", ua=FB_ANDROID)
        self.assertPage(r, 200, "Open in your browser")
        self.assertRegex(r.body.decode(),
                         r'href="intent:&#47;&#47;127\.0\.0\.1:\d+&#47;esc1'
                         r'&#47;fb#Intent;scheme=http;package=com\.android\.'
                         r'chrome;S\.browser_fallback_url=http%3A%2F%2F127\.0'
                         r'\.0\.1%3A\d+%2Fesc1%2Ffb%3Flz_inapp%3Dstay;end"')
        # iOS apps: how to leave, or stay.
        r = self.visit("/esc1", ua=INSTAGRAM_IOS)
        self.assertPage(r, 200, "inside Instagram")
        stay = re.search(r'href="([^"]*lz_inapp=stay)"', r.body.decode())
        self.assertTrue(stay)
        path = urllib.parse.urlsplit(
            stay.group(1).replace("&#47;", "/")).path + "?lz_inapp=stay"
        r = self.visit(path, ua=INSTAGRAM_IOS)
        self.assertEqual(r.status, 302)
        # Escape pages count nothing; the two redirects do.
        rows = self.wait_clicks(link["id"], 2)
        self.assertEqual(self.counted(link["id"]), 2)
        self.assertEqual([r[9] for r in rows], [0, 0])
        # Without escape_inapp, in-app browsers are redirected.
        self.create(slug="esc2")
        self.assertEqual(self.visit("/esc2", ua=LINE_IOS).status, 302)

    def test_pixels(self):
        link = self.create(slug="px1", pixel_fb="123456789012",
                           pixel_ga="G-ABCD1234", pixel_gtm="GTM-WXYZ12",
                           pixel_tiktok="CABCDEFGHIJK1234",
                           pixel_line="abcd-1234-efgh-5678",
                           utm={"source": "px"})
        r = self.visit("/px1", ua=ANDROID)
        self.assertEqual(r.status, 200, r)
        html = r.body.decode()
        csp = r.header("Content-Security-Policy")
        nonce = re.search(r"script-src 'nonce-([^']+)'", csp).group(1)
        scripts = re.findall(r"<script[^>]*>", html)
        self.assertGreaterEqual(len(scripts), 4)
        for s in scripts:
            self.assertIn('nonce="%s"' % nonce, s)
        self.assertIn("fbq('init','123456789012')", html)
        self.assertIn("gtag('config','G-ABCD1234')", html)
        self.assertIn("'dataLayer','GTM-WXYZ12'", html)
        self.assertIn("https://www.facebook.com/tr?id=123456789012&amp;"
                      "ev=PageView&amp;noscript=1", html)
        self.assertIn("googletagmanager.com/ns.html?id=GTM-WXYZ12", html)
        target = "https:&#47;&#47;example.com&#47;landing?utm_source=px"
        self.assertIn('<noscript><meta http-equiv="refresh" content="0;url=%s">'
                      '</noscript>' % target, html)
        self.assertIn('<a id="lz-go" class="lz-button" href="%s">' % target,
                      html)
        self.assertIn("location.replace(go)", html)
        for host in ("https://connect.facebook.net",
                     "https://www.googletagmanager.com",
                     "https://www.facebook.com"):
            self.assertIn(host, csp)
        self.assertIn("ttq.load('CABCDEFGHIJK1234')", html)
        self.assertIn("tagId:'abcd-1234-efgh-5678'", html)
        self.assertIn("https://analytics.tiktok.com", csp)
        self.assertIn("https://d.line-scdn.net", csp)
        self.assertNotIn("unsafe-inline", csp)
        self.assertNotIn("*;", csp)
        self.assertTrue(csp.endswith("; sandbox allow-scripts"), csp)
        # Only the configured pixels' hosts.
        only_fb = self.create(slug="px2", pixel_fb="123456789012")
        csp2 = self.visit("/px2", ua=ANDROID).header(
            "Content-Security-Policy")
        for host in ("googletagmanager.com", "analytics.tiktok.com",
                     "line-scdn.net", "tr.line.me", "google-analytics.com"):
            self.assertNotIn(host, csp2)
        self.assertIn("https://connect.facebook.net", csp2)
        self.assertEqual(len(self.wait_clicks(only_fb["id"], 1)), 1)
        self.assertIn("frame-src https://www.googletagmanager.com", csp)
        self.assertEqual(r.header("Cache-Control"), "no-store")
        # The inline scripts are JavaScript (where node can tell).
        if shutil.which("node"):
            for src in re.findall(r"<script[^>]*>(.*?)</script>", html, re.S):
                p = subprocess.run(["node", "--check", "-"], input=src,
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, (src, p.stderr))
        # Bots do not run pixels: they get the redirect.
        r = self.visit("/px1", ua=GOOGLEBOT)
        self.assertEqual(r.status, 302)
        rows = self.wait_clicks(link["id"], 2)
        self.assertEqual(sorted(x[9] for x in rows), [0, 1])
        self.assertEqual(self.counted(link["id"]), 1)


class TestPasswordCeiling(Base):
    """Besides each network's tries, a link's password takes at most
    link_password_max_failures_link wrong tries from everywhere in its
    window, and a window that filled up makes the next one twice as long
    (DESIGN 3.11): many networks together cannot make every worker run
    64 MiB argon2id checks without end."""
    workers = 2
    extra_conf = ("trusted_proxies = 127.0.0.1\n"
                  "link_password_window = 60\n"
                  "link_password_max_failures = 3\n"
                  "link_password_max_failures_link = 5\n")
    FORM = {"Content-Type": "application/x-www-form-urlencoded"}

    def post(self, path, pw, ip):
        return self.visit(path, method="POST", ip=ip, headers=self.FORM,
                          body="password=" + pw)

    def age(self, link_id, ms):
        """Moves the link's window back by ms."""
        self.inst.sql("UPDATE throttles SET window_start = "
                      "window_start - %d WHERE scope = 'link:%d'" %
                      (ms, link_id))

    def test_ceiling_with_back_off(self):
        link = self.create(slug="ceil1", password="right one")
        # Five wrong tries from five networks fill the link's window.
        got = [self.post("/ceil1", "wrong", "198.51.100.%d" % i).status
               for i in range(1, 6)]
        self.assertEqual(got, [403] * 5)
        # Now every network waits, with the right password too, and no
        # argon2id check runs.
        r = self.post("/ceil1", "right+one", "192.0.2.99")
        self.assertPage(r, 429, "from everywhere")
        retry = int(r.header("Retry-After"))
        self.assertTrue(0 < retry <= 60, retry)
        # Another link is not held up.
        self.create(slug="ceil2", password="other one")
        self.assertEqual(self.post("/ceil2", "other+one", "192.0.2.99")
                         .status, 303)
        # The window over, the right password opens it (and gives its
        # try back); the next window is twice as long.
        self.age(link["id"], 60000)
        r = self.post("/ceil1", "right+one", "192.0.2.99")
        self.assertEqual(r.status, 303, r)
        got = [self.post("/ceil1", "wrong", "203.0.113.%d" % i).status
               for i in range(1, 7)]
        self.assertEqual(got, [403] * 5 + [429])
        retry = int(self.post("/ceil1", "wrong", "203.0.113.50")
                    .header("Retry-After"))
        self.assertTrue(60 < retry <= 120, retry)
        self.assertEqual(self.inst.sql(
            "SELECT window_ms FROM throttles WHERE scope = 'link:%d'" %
            link["id"]), [(120000,)])
        # A quiet window brings it back to link_password_window.
        self.age(link["id"], 3 * 120000)
        self.assertEqual(self.post("/ceil1", "wrong", "203.0.113.60")
                         .status, 403)
        self.assertEqual(self.inst.sql(
            "SELECT window_ms, tries FROM throttles WHERE "
            "scope = 'link:%d'" % link["id"]), [(60000, 1)])
        # Each network still has its own, smaller limit.
        got = [self.post("/ceil2", "wrong", "192.0.2.7").status
               for _ in range(4)]
        self.assertEqual(got, [403, 403, 403, 429])
        self.assertIn("from your network",
                      self.post("/ceil2", "wrong", "192.0.2.7").body
                      .decode())


class TestStats(Base):

    def test_stats(self):
        link = self.create(slug="st1", mode="geo", variants={
            "TW": "https://tw.example/"})
        tw = geo_sample("/usr/share/tor/geoip", "TW", False)
        visits = [("/st1", IPHONE, tw, "https://t.co/abc"),
                  ("/st1/mail", IPHONE, tw, ""),
                  ("/st1/mail", ANDROID, "8.8.8.8",
                   "https://mail.google.com/"),
                  ("/st1", WINDOWS, "8.8.8.8", "https://t.co/xyz"),
                  ("/st1", GOOGLEBOT, "8.8.8.8", "")]
        for path, ua, ip, ref in visits:
            h = {"Referer": ref} if ref else {}
            self.assertEqual(self.visit(path, ua=ua, ip=ip,
                                        headers=h).status, 302)
        self.wait_clicks(link["id"], 5)
        r = self.inst.api("GET", "/api/v1/links/%d/stats" % link["id"],
                          self.key)
        self.assertEqual(r.status, 200, r.body)
        s = r.json()
        # The iPhone in TW came twice: three visitors.
        self.assertEqual(s["totals"], {
            "clicks": 4, "bots": 1, "visitors": 3, "conversions": 0,
            "revenue": {}, "revenue_micros": {}, "conversion_rate": 0})
        self.assertEqual(s["interval"], "day")
        self.assertEqual(len(s["series"]), 30)
        self.assertEqual(sum(b["clicks"] for b in s["series"]), 4)
        self.assertEqual(s["series"][-1]["clicks"], 4)
        self.assertEqual(s["series"][-1]["visitors"], 3)
        # The range is of whole hours: "to" is the next one.
        self.assertTrue(s["to"].endswith(":00:00Z"), s["to"])
        self.assertTrue(s["series"][-1]["t"].endswith("T00:00:00Z"))
        bd = s["breakdowns"]

        def d(name):
            return {x["key"]: x["clicks"] for x in bd[name]}
        self.assertEqual(d("country"), {"TW": 2, "US": 2})
        self.assertEqual(d("device"), {"mobile": 3, "desktop": 1})
        self.assertEqual(d("os"), {"ios": 2, "android": 1, "windows": 1})
        self.assertEqual(d("referrer_host"),
                         {"t.co": 2, "mail.google.com": 1, "": 1})
        self.assertEqual(d("suffix"), {"": 2, "mail": 2})
        self.assertEqual(d("variant"), {"TW": 2, "": 2})
        self.assertEqual(sum(d("browser").values()), 4)
        # Ordered by clicks, then key.
        self.assertEqual(bd["suffix"], [{"key": "", "clicks": 2},
                                        {"key": "mail", "clicks": 2}])

        # By hour, over a range given as dates and times.
        now = time.time()
        today = time.strftime("%Y-%m-%d", time.gmtime(now))
        tomorrow = time.strftime("%Y-%m-%d", time.gmtime(now + 86400))
        r = self.inst.api("GET", "/api/v1/links/%d/stats?interval=hour&from=%s"
                          "&to=%s" % (link["id"], today, tomorrow), self.key)
        self.assertEqual(r.status, 200, r.body)
        s = r.json()
        self.assertEqual(len(s["series"]), 24)
        self.assertEqual(s["from"], today + "T00:00:00Z")
        hour = int(time.strftime("%H", time.gmtime(now)))
        self.assertEqual(s["series"][hour]["clicks"], 4)
        # A range that holds none of them.
        r = self.inst.api("GET", "/api/v1/links/%d/stats?from=2020-01-01T00:00:"
                          "00%%2B08:00&to=2020-01-02" % link["id"], self.key)
        self.assertEqual(r.status, 200, r.body)
        s = r.json()
        self.assertEqual(s["from"], "2019-12-31T16:00:00Z")
        self.assertEqual(s["totals"]["clicks"], 0)
        self.assertEqual(len(s["series"]), 2)
        # Inside hours: widened to the whole hours around, which hold
        # the clicks.
        hh = time.strftime("%Y-%m-%dT%H", time.gmtime(now))
        r = self.inst.api("GET", "/api/v1/links/%d/stats?interval=hour&"
                          "from=%s:00:01Z&to=%s:00:02.5Z" % (
                              link["id"], hh, hh), self.key)
        self.assertEqual(r.status, 200, r.body)
        s = r.json()
        self.assertEqual(s["from"], hh + ":00:00Z")
        self.assertEqual(len(s["series"]), 1)
        if time.gmtime(time.time()).tm_hour == time.gmtime(now).tm_hour:
            self.assertEqual(s["totals"]["clicks"], 4)
            self.assertEqual(s["series"][0]["clicks"], 4)

    def test_stats_errors(self):
        link = self.create(slug="st2")
        base = "/api/v1/links/%d/stats" % link["id"]
        for q, param in (("?interval=week", "interval"),
                         ("?from=yesterday", "from"),
                         ("?to=2030-02-30", "to"),
                         ("?from=2030-01-02&to=2030-01-01", "from"),
                         ("?from=2020-01-01&to=2021-06-01", "from"),
                         ("?interval=hour&from=2030-01-01&to=2030-03-01",
                          "from"),
                         ("?limit=5", "limit"),
                         ("?from=2030-01-01&from=2030-01-02", "from")):
            r = self.inst.api("GET", base + q, self.key)
            self.assertEqual(r.status, 400, (q, r.body))
            self.assertEqual(r.json()["param"], param, q)
        self.assertEqual(self.inst.api("GET", base).status, 401)
        r = self.inst.api("GET", base, self.other_key)
        self.assertEqual(r.status, 404)
        self.assertEqual(self.inst.api("GET", "/api/v1/links/999999/stats",
                                       self.key).status, 404)
        self.assertEqual(self.inst.api("POST", base, self.key).status, 405)


class TestCountryParam(Base):
    workers = 2
    extra_conf = "country_param = HTTP_X_COUNTRY\n"

    def test_country_from_trusted_param(self):
        link = self.create(slug="cp1", mode="geo", variants={
            "JP": "https://jp.example/"})
        r = self.visit("/cp1", headers={"X-Country": "jp"})
        self.assertEqual(r.header("Location"), "https://jp.example/")
        # Not a country code: the address decides (here loopback: none).
        r = self.visit("/cp1", headers={"X-Country": "J<"})
        self.assertEqual(r.header("Location"), "https://example.com/landing")
        # Without trusted proxies, X-Forwarded-For is the client's word.
        tw = geo_sample("/usr/share/tor/geoip", "TW", False)
        r = self.visit("/cp1", ip=tw)
        self.assertEqual(r.header("Location"), "https://example.com/landing")
        rows = self.wait_clicks(link["id"], 3)
        self.assertEqual(sorted(r[1] for r in rows), ["", "", "JP"])


if __name__ == "__main__":
    lzenv.main()
