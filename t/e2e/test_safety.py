"""End-to-end tests of the destination safety scan (DESIGN 3.5) through
real nginx, the real lz-links pool and the real lzctl: a table of bad
destinations each refused with 400, a table of tricky good ones accepted,
blocklist imports of every feed format (t/data), flagging of existing links
after an import, the lzctl blocklist and link flagged/unflag commands, and
Google Safe Browsing lookups against a local fake of the v4 Lookup API."""

import http.server
import json
import os
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

DATA = os.path.join(lzenv.SRCDIR, "t", "data")
FEEDS = [("urlhaus-csv", "urlhaus.csv"), ("phishtank-json", "phishtank.json"),
         ("openphish", "openphish.txt"), ("hosts", "hosts")]

U = "unsafe_destination"
I = "invalid_url"

# (destination, error code).  Every one must be refused with 400.
BAD = [
    # schemes
    ("javascript:alert(1)", U),
    ("JavaScript:alert(document.cookie)", U),
    ("javascript://example.com/%0Aalert(1)", U),
    ("data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", U),
    ("data:text/html,<script>alert(1)</script>", U),
    ("vbscript:msgbox(1)", U),
    ("file:///etc/passwd", U),
    ("ftp://ftp.example.com/file.zip", U),
    ("mailto:victim@example.com", U),
    ("tel:+15555550100", U),
    ("sms:+15555550100", U),
    ("ws://example.com/socket", U),
    ("wss://example.com/socket", U),
    ("gopher://example.com/1", U),
    ("blob:https://example.com/550e8400-e29b-41d4-a716-446655440000", U),
    ("intent://scan/#Intent;scheme=zxing;package=com.example;end", U),
    ("itms-services://?action=download-manifest&url=https://e.example/a",
     U),
    ("view-source:https://example.com/", U),
    ("chrome://settings/", U),
    ("about:blank", U),
    ("market://details?id=com.example.app", U),
    # user information tricks
    ("https://paypal.com@evil.test/", U),
    ("https://www.paypal.com:login@evil.test/", U),
    ("http://user:pass@example.com/", U),
    ("https://@example.com/", U),
    ("https://apple.com:443@evil.test/", U),
    ("http://a@b@evil.test/", I),
    ("https://accounts.google.com%40evil.test/", I),
    ("https://good.test%2F@evil.test/", U),
    ("https://evil.test\\@good.test/", U),
    ("https://login.microsoftonline.com&@evil.test/", U),
    ("https://secure@bank.test:8080/", U),
    # IP addresses in every notation
    ("http://127.0.0.1/", U),
    ("http://127.1/", U),
    ("http://127.0.0.1:8080/admin", U),
    ("http://127.0.0.1./", U),
    ("http://2130706433/", U),
    ("http://017700000001/", U),
    ("http://0x7f000001/", U),
    ("http://0x7f.0x0.0x0.0x1/", U),
    ("http://0177.0.0.1/", U),
    ("http://0/", U),
    ("http://0.0.0.0/", U),
    ("http://10.0.0.1/", U),
    ("http://192.168.1.1/admin", U),
    ("http://3232235777/", U),
    ("http://0xC0A80101/", U),
    ("http://0300.0250.0001.0001/", U),
    ("http://192.168.257/", U),
    ("http://169.254.169.254/latest/meta-data/", U),
    ("http://8.8.8.8/", U),
    ("http://%31%32%37.0.0.1/", U),
    ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", U),
    ("http://1.2.3.256/", U),
    ("http://[::1]/", U),
    ("http://[::]/", U),
    ("http://[::ffff:127.0.0.1]/", U),
    ("http://[::ffff:7f00:1]/", U),
    ("http://[0:0:0:0:0:ffff:127.0.0.1]/", U),
    ("http://[fe80::1]/", U),
    ("http://[2606:4700:4700::1111]/", U),
    # local names
    ("http://localhost/", U),
    ("http://localhost:3000/", U),
    ("http://intranet/", U),
    ("http://printer.local/", U),
    ("http://metadata.google.internal/computeMetadata/v1/", U),
    ("http://nas.home.arpa/", U),
    ("http://app.localhost/", U),
    # this service (own_hosts) and the pool's own base_url
    ("https://lz.test/abc", U),
    ("https://LZ.TEST./abc", U),
    ("https://www.lz.test/abc", U),
    ("https://go.lz.test/x", U),
    ("http://lz.test:8080/", U),
    ("https://%6Cz.test/x", U),
    ("https://short.example/abc", U),
    # other link shorteners: chains
    ("https://bit.ly/3abcDEF", U),
    ("https://BIT.LY/x", U),
    ("http://bitly.com/x", U),
    ("https://j.mp/x", U),
    ("https://tinyurl.com/y6abcd", U),
    ("https://www.tinyurl.com/x", U),
    ("https://t.co/AbCdEf", U),
    ("https://goo.gl/maps/x", U),
    ("https://ow.ly/x", U),
    ("https://is.gd/x", U),
    ("https://cutt.ly/x", U),
    ("https://rb.gy/x", U),
    ("https://lnkd.in/x", U),
    # homographs and bad IDN
    ("https://\u0430pple.com/", U),
    ("https://xn--pple-43d.com/", U),
    ("https://g\u043e\u043egle.com/", U),
    ("https://\u0440\u0430\u0443\u0440\u0430\u04cf.com/", U),
    ("https://\u0430\u0440\u0440\u04cf\u0435.com/", U),
    ("https://xn--80ak6aa92e.com/", U),
    ("https://\u0261oogle.com/", U),
    ("https://eb\u0430y.com/", U),
    ("https://fa\u0441ebook.com/", U),
    ("https://\U0001f4a9.la/", U),
    ("https://google.com\u2044login.evil.test/", U),
    ("https://x\u200dy.test/", U),
    ("https://xn--zz.test/", U),
    ("https://\u0441\u043e\u0441\u0430.test/", U),
    # listed by the imported feeds and by hand
    ("http://free-gift-cards.test/", U),
    ("http://free-gift-cards.test/claim?id=1", U),
    ("https://sub.free-gift-cards.test/", U),
    ("https://tracker-malware.test/", U),
    ("https://x.tracker-malware.test/y", U),
    ("https://ads.adserver-bad.test/", U),
    ("https://coinhive-miner.test/lib.js", U),
    ("https://\u0432\u0440\u0435\u0434\u043e\u043d\u043e\u0441.test/", U),
    ("https://evil-domain-list.test/", U),
    ("http://update-flash-player.test/download/flashplayer.exe", U),
    ("http://update-flash-player.test/download/flashplayer.exe?v=2", U),
    ("https://secure-paypa1-login.test/signin/", U),
    ("https://secure-paypa1-login.test/signin/step2", U),
    ("https://appleid.apple.com.verify-account.test/", U),
    ("https://bankofexample-online.test/login.php?session=7f3c", U),
    ("https://dhl-parcel-redelivery.test/track/123", U),
    ("http://instagram-verify-badge.test/anything", U),
    ("https://docs-share.test/d/8f3a,9c2b/view", U),
    ("https://cdn.invoice-docs.test/files/Invoice_2026-11.zip", U),
    ("http://WWW.Encoded-Host.test/x/../%67ate.php", U),
    ("https://manual-bad.test/x", U),
    ("https://a.manual-bad.test/", U),
    # overlong, and not URLs at all
    ("https://example.com/" + "a" * 2040, U),
    ("https://example.com/?q=" + "b" * 3000, U),
    ("https://exa mple.com/", I),
    ("https://example.com:99999/", I),
    ("https://", I),
    ("example.com/path", I),
]

# Tricky destinations that must be accepted.
GOOD = [
    "https://example.com/",
    "https://example.com:8443/path",
    "http://example.com:8080/",
    "https://example.com/search?q=a%20b&lang=en#results",
    "https://example.com/#/spa/route?x=1",
    "https://example.com/long?q=" + "x" * 1900,
    "https://m\u00fcnchen.de/",
    "https://xn--mnchen-3ya.de/",
    "https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/",
    "https://\u4f8b\u3048.jp/",
    "https://\u03c0\u03b1\u03c1\u03ac\u03b4\u03b5\u03b9\u03b3\u03bc\u03b1"
    ".gr/",
    "https://\u4e2d\u6587.example/",
    "https://ab--cd.example.org/",
    "https://orbit.ly/",
    "https://bit.ly.example.org/",
    "https://notlz.test/",
    "https://free-gift-cards.example/",
    "https://docs-share.test/d/other",
    "https://dhl-parcel-redelivery.test/",
    "https://EXAMPLE.COM/Path/With/Case",
    "https://example.com/a/../b",
    "https://user-info.example.com/@profile",
    "https://example.com/?redirect=https://other.example/",
    "https://sub.sub2.sub3.example.co.uk/deep/path/file.html",
    "https://example.com/%E4%BD%A0%E5%A5%BD",
    "https://1password.com/",
    "https://123.example/",
    "http://under_score.example.com/",
    "https://example.com/path;params?q=1",
]

OWN = "own_hosts = lz.test, short.example\n"


def setUpModule():
    global inst, key
    inst = lzenv.Instance("safety", extra_conf=OWN)
    try:
        for fmt, name in FEEDS:
            inst.ctl("blocklist", "import", "--format", fmt,
                     os.path.join(DATA, name))
        inst.ctl("blocklist", "add", "manual-bad.test", "--reason",
                 "reported by support")
        inst.start()
        key = inst.key(inst.account("safety@example.com", "pro"))
    except Exception:
        inst.stop()
        raise


def tearDownModule():
    inst.stop()


class Base(unittest.TestCase):
    def create(self, body, k=None):
        if isinstance(body, str):
            body = {"target_url": body}
        return inst.api("POST", "/api/v1/links", k or key, body=body)

    def assertRefused(self, r, code, param):
        self.assertEqual(r.status, 400, r)
        body = r.json()
        self.assertIs(body["ok"], False)
        self.assertEqual(body["error"], code, body)
        self.assertEqual(body["param"], param, body)
        self.assertTrue(body["message"])
        if code == U:
            self.assertIn("safety scan", body["message"])


class TestTables(Base):
    def test_table_sizes(self):
        self.assertGreaterEqual(len(BAD), 100)
        self.assertGreaterEqual(len(GOOD), 25)

    def test_bad_destinations(self):
        for url, code in BAD:
            with self.subTest(url=url[:80]):
                self.assertRefused(self.create(url), code, "target_url")

    def test_good_destinations(self):
        for url in GOOD:
            with self.subTest(url=url[:80]):
                r = self.create(url)
                self.assertEqual(r.status, 201, r)
                got = inst.api("GET", "/api/v1/links/%d" % r.json()["id"],
                               key).json()["link"]
                self.assertEqual(got["target_url"], url)
                self.assertEqual(got["status"], "active")

    def test_messages_say_why(self):
        cases = [
            ("http://2130706433/", "IP address (127.0.0.1)"),
            ("https://bit.ly/x", "another link shortener (bit.ly)"),
            ("https://lz.test/x", "this service (lz.test)"),
            ("https://\u0430pple.com/", "mixes scripts"),
            ("https://paypal.com@evil.test/", "user name or password"),
            ("javascript:alert(1)", "only http:// and https://"),
            ("https://x.tracker-malware.test/", "on the hosts blocklist"),
            ("https://manual-bad.test/",
             "on the manual blocklist (reported by support)"),
            ("https://secure-paypa1-login.test/signin/x",
             "phishtank blocklist (phishing; target: PayPal)"),
            ("https://example.com/" + "a" * 2100, "2,048 bytes"),
        ]
        for url, words in cases:
            with self.subTest(url=url[:60]):
                self.assertIn(words, self.create(url).json()["message"])

    def test_variants_name_the_field(self):
        ok = "https://example.com/"
        cases = [
            ({"target_url": ok, "mode": "ab", "variants": [
                {"url": ok, "weight": 1},
                {"url": "https://bit.ly/x", "weight": 1}]},
             "variants[1].url"),
            ({"target_url": ok, "mode": "device", "variants": {
                "ios": "https://tracker-malware.test/app"}}, "variants.ios"),
            ({"target_url": ok, "mode": "device", "variants": {
                "ios": ok, "android": "http://[::1]/"}}, "variants.android"),
            ({"target_url": ok, "mode": "geo", "variants": {
                "JP": ok, "TW": "https://\u0430pple.com/"}}, "variants.TW"),
            ({"target_url": "https://lz.test/", "mode": "geo", "variants": {
                "JP": ok}}, "target_url"),
        ]
        for body, param in cases:
            with self.subTest(param=param):
                self.assertRefused(self.create(body), U, param)


class TestFlagging(Base):
    def test_import_flags_existing_links(self):
        late = "https://late-listed.test/promo?utm=1"
        r1 = self.create(late)
        r2 = self.create({"target_url": "https://fine.example/", "mode": "ab",
                          "variants": [
                              {"url": "https://fine.example/a", "weight": 1},
                              {"url": "https://late-listed.test/b",
                               "weight": 1}]})
        r3 = self.create("https://still-fine.example/")
        for r in (r1, r2, r3):
            self.assertEqual(r.status, 201, r)
        ids = [r.json()["id"] for r in (r1, r2, r3)]
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("https://late-listed.test/\n")
            f.flush()
            _, out, _ = inst.ctl("blocklist", "import", "--format",
                                 "openphish", "--source", "late", f.name)
        self.assertRegex(out, r"re-checked \d+ links: 2 flagged")

        def status(i):
            return inst.api("GET", "/api/v1/links/%d" % i,
                            key).json()["link"]["status"]
        self.assertEqual([status(i) for i in ids],
                         ["disabled", "disabled", "active"])
        # A flagged link's short URL answers 410 with a page saying why,
        # and neither shows nor forwards to the destination.
        slug0 = r1.json()["slug"]
        lzenv.wait_for(lambda: inst.request("GET", "/" + slug0).status ==
                       410, timeout=5, what="410 after the link cache")
        page = inst.request("GET", "/" + slug0, headers={
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0"})
        self.assertEqual(page.status, 410)
        self.assertIsNone(page.header("location"))
        self.assertIn(b"unsafe", page.body)
        self.assertNotIn(b"late-listed", page.body)
        self.assertTrue(page.header("content-type").startswith("text/html"))

        _, out, _ = inst.ctl("link", "flagged")
        lines = out.splitlines()[1:]
        flagged = {int(line.split("\t")[0]): line for line in lines}
        self.assertIn(ids[0], flagged)
        self.assertIn(ids[1], flagged)
        self.assertNotIn(ids[2], flagged)
        self.assertIn("target_url: late-listed.test/ is on the late "
                      "blocklist", flagged[ids[0]])
        self.assertIn("variants[1].url: late-listed.test/", flagged[ids[1]])
        show = json.loads(inst.ctl("link", "show", str(ids[0]))[1])
        self.assertEqual(show["status"], "disabled")
        self.assertIn("late-listed.test", show["flag_reason"])

        # New links to the listed site are refused now.
        self.assertRefused(self.create("https://late-listed.test/other"), U,
                           "target_url")

        # An admin clears a flag; a second unflag says it is not flagged.
        rc, out, _ = inst.ctl("link", "unflag", str(ids[0]))
        self.assertEqual(rc, 0)
        self.assertEqual(status(ids[0]), "active")
        rc, _, err = inst.ctl("link", "unflag", str(ids[0]), check=False)
        self.assertEqual(rc, 1)
        self.assertIn("not flagged", err)
        slug = inst.api("GET", "/api/v1/links/%d" % ids[1],
                        key).json()["link"]["slug"]
        self.assertEqual(inst.ctl("link", "unflag", slug)[0], 0)
        self.assertEqual(status(ids[1]), "active")

    def test_reimport_replaces_a_source(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("0.0.0.0 gone-soon.test\n0.0.0.0 stays.test\n")
            f.flush()
            inst.ctl("blocklist", "import", "--format", "hosts", "--source",
                     "rotating", f.name)
        self.assertRefused(self.create("https://gone-soon.test/"), U,
                           "target_url")
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("0.0.0.0 stays.test\n")
            f.flush()
            _, out, _ = inst.ctl("blocklist", "import", "--format", "hosts",
                                 "--source", "rotating", f.name)
        self.assertIn("1 old entries dropped", out)
        self.assertEqual(self.create("https://gone-soon.test/").status, 201)
        self.assertRefused(self.create("https://stays.test/"), U,
                           "target_url")

    def test_bad_import_changes_nothing(self):
        before = inst.ctl("blocklist", "list", "--count")[1]
        rc, _, err = inst.ctl("blocklist", "import", "--format",
                              "phishtank-json",
                              os.path.join(DATA, "urlhaus.csv"), check=False)
        self.assertEqual(rc, 1)
        self.assertIn("not a PhishTank JSON file", err)
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("# an empty download\n")
            f.flush()
            rc, _, err = inst.ctl("blocklist", "import", "--format",
                                  "openphish", f.name, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("unchanged", err)
        self.assertEqual(inst.ctl("blocklist", "list", "--count")[1], before)
        rc, _, _ = inst.ctl("blocklist", "import", "--format", "csv",
                            os.path.join(DATA, "urlhaus.csv"), check=False)
        self.assertEqual(rc, 2)


class TestLzctl(Base):
    def test_add_check_remove(self):
        url = "https://via-lzctl.test/path/page.html"
        rc, out, _ = inst.ctl("blocklist", "check", url, check=False)
        self.assertEqual((rc, out.splitlines()[-1]), (0, "safe"))
        inst.ctl("blocklist", "add", "https://via-lzctl.test/path/")
        rc, out, _ = inst.ctl("blocklist", "check", url, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("unsafe: via-lzctl.test/path/ is on the manual "
                      "blocklist", out)
        self.assertIn("canonical: https://via-lzctl.test/path/page.html",
                      out)
        listed = inst.ctl("blocklist", "list", "--source", "manual")[1]
        self.assertIn("url\tvia-lzctl.test/path/\tmanual", listed)
        inst.ctl("blocklist", "remove", "HTTPS://VIA-LZCTL.test/path/")
        self.assertEqual(inst.ctl("blocklist", "check", url)[0], 0)
        rc, _, err = inst.ctl("blocklist", "remove", "via-lzctl.test",
                              check=False)
        self.assertEqual(rc, 3)

    def test_check_heuristics_and_counts(self):
        rc, out, _ = inst.ctl("blocklist", "check", "http://0x7f.1/",
                              check=False)
        self.assertEqual(rc, 1)
        self.assertIn("canonical: http://127.0.0.1/", out)
        self.assertIn("IP address", out)
        counts = inst.ctl("blocklist", "list", "--count")[1]
        for source in ("urlhaus\t8", "phishtank\t4", "openphish\t5",
                       "hosts\t6", "manual\t"):
            self.assertIn(source, counts)
        rc, _, err = inst.ctl("blocklist", "add", "not a host", check=False)
        self.assertEqual(rc, 1)


# ---- Google Safe Browsing, against a local fake of the v4 Lookup API ----

SB_KEY = "AIzaTestKey-123"


class FakeSafeBrowsing(http.server.ThreadingHTTPServer):
    """threatMatches:find as Google documents it: POST with ?key=, a JSON
    threatInfo, an answer of {} or {"matches": [...]}."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), SBHandler)
        self.listed = {}        # canonical URL -> threat type
        self.mode = "ok"        # ok | slow | error | garbage
        self.requests = []
        self.lock = threading.Lock()

    @property
    def url(self):
        return "http://127.0.0.1:%d/v4/threatMatches:find" % (
            self.server_address[1])


class SBHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass        # "slow": the client gave up, as it should

    def do_POST(self):
        srv = self.server
        path, _, query = self.path.partition("?")
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if path != "/v4/threatMatches:find":
            return self.reply(404, {"error": {"code": 404}})
        if urllib.parse.parse_qs(query).get("key") != [SB_KEY]:
            return self.reply(400, {"error": {
                "code": 400, "message": "API key not valid.",
                "status": "INVALID_ARGUMENT"}})
        req = json.loads(body)
        info = req["threatInfo"]
        assert self.headers["Content-Type"] == "application/json"
        assert req["client"]["clientId"] == "lz"
        assert set(info["threatTypes"]) >= {"MALWARE", "SOCIAL_ENGINEERING"}
        assert info["platformTypes"] == ["ANY_PLATFORM"]
        assert info["threatEntryTypes"] == ["URL"]
        urls = [e["url"] for e in info["threatEntries"]]
        with srv.lock:
            srv.requests.append(urls)
            mode = srv.mode
        if mode == "slow":
            time.sleep(1.5)
        if mode == "error":
            return self.reply(500, {"error": {"code": 500}})
        if mode == "garbage":
            return self.reply(200, ["not", "an", "object"])
        matches = [{"threatType": srv.listed[u],
                    "platformType": "ANY_PLATFORM",
                    "threat": {"url": u}, "cacheDuration": "300s",
                    "threatEntryType": "URL"}
                   for u in urls if u in srv.listed]
        self.reply(200, {"matches": matches} if matches else {})


class TestSafeBrowsing(Base):
    @classmethod
    def setUpClass(cls):
        cls.sb = FakeSafeBrowsing()
        threading.Thread(target=cls.sb.serve_forever, daemon=True).start()
        cls.sb.listed = {
            "https://gsb-malware.test/download.exe": "MALWARE",
            "https://gsb-phish.test/login": "SOCIAL_ENGINEERING",
        }
        conf = ("safe_browsing_key = %s\nsafe_browsing_url = %s\n"
                "safe_browsing_timeout_ms = 500\n" % (SB_KEY, cls.sb.url))
        cls.open = lzenv.Instance("sb-open", extra_conf=conf +
                                  "safe_browsing_fail = open\n").start()
        cls.closed = lzenv.Instance("sb-closed", extra_conf=conf +
                                    "safe_browsing_fail = closed\n").start()
        cls.badkey = lzenv.Instance("sb-badkey", extra_conf=(
            "safe_browsing_key = wrong\nsafe_browsing_url = %s\n"
            "safe_browsing_fail = closed\n" % cls.sb.url)).start()
        cls.keys = {}
        for name in ("open", "closed", "badkey"):
            i = getattr(cls, name)
            cls.keys[name] = i.key(i.account("sb@example.com", "pro"))

    @classmethod
    def tearDownClass(cls):
        for i in (cls.open, cls.closed, cls.badkey):
            i.stop()
        cls.sb.shutdown()
        cls.sb.server_close()

    def setUp(self):
        self.sb.mode = "ok"
        with self.sb.lock:
            self.sb.requests.clear()

    def post(self, name, body):
        i = getattr(self, name)
        if isinstance(body, str):
            body = {"target_url": body}
        t0 = time.monotonic()
        r = i.api("POST", "/api/v1/links", self.keys[name], body=body)
        return r, time.monotonic() - t0

    def test_clean_link_one_request_with_every_destination(self):
        r, _ = self.post("open", {
            "target_url": "https://Clean.test:443/a/./b#frag", "mode": "ab",
            "variants": [{"url": "https://clean.test/v1", "weight": 1},
                         {"url": "https://clean.test/v2", "weight": 2}]})
        self.assertEqual(r.status, 201, r)
        self.assertEqual(self.sb.requests, [[
            "https://clean.test/a/b", "https://clean.test/v1",
            "https://clean.test/v2"]])

    def test_listed_target_and_variant(self):
        r, _ = self.post("open", "https://gsb-malware.test/download.exe")
        self.assertRefused(r, U, "target_url")
        self.assertIn("Google Safe Browsing lists it as malware",
                      r.json()["message"])
        r, _ = self.post("open", {
            "target_url": "https://clean.test/", "mode": "device",
            "variants": {"ios": "https://clean.test/ios",
                         "android": "https://GSB-PHISH.test/login#x"}})
        self.assertRefused(r, U, "variants.android")
        self.assertIn("phishing", r.json()["message"])

    def test_local_scan_first(self):
        r, _ = self.post("open", "https://bit.ly/x")
        self.assertRefused(r, U, "target_url")
        self.assertEqual(self.sb.requests, [])

    def test_fail_open(self):
        for mode in ("slow", "error", "garbage"):
            with self.subTest(mode=mode):
                self.sb.mode = mode
                r, took = self.post("open", "https://clean.test/%s" % mode)
                self.assertEqual(r.status, 201, r)
                self.assertLess(took, 1.4)
        self.assertIn("safe browsing lookup failed", self.open.log("lz-links"))

    def test_fail_closed(self):
        for mode in ("slow", "error", "garbage"):
            with self.subTest(mode=mode):
                self.sb.mode = mode
                r, took = self.post("closed", "https://clean.test/%s" % mode)
                self.assertEqual(r.status, 503, r)
                self.assertEqual(r.json()["error"], "scan_unavailable")
                self.assertLess(took, 1.4)
        self.sb.mode = "ok"
        r, _ = self.post("closed", "https://clean.test/ok")
        self.assertEqual(r.status, 201, r)

    def test_wrong_key_is_a_failed_lookup(self):
        r, _ = self.post("badkey", "https://clean.test/")
        self.assertEqual(r.status, 503, r)
        self.assertNotIn("wrong", self.badkey.log("lz-links"))

    def test_no_key_no_lookup(self):
        self.assertEqual(self.create("https://gsb-malware.test/download.exe")
                         .status, 201)
        self.assertEqual(self.sb.requests, [])


if __name__ == "__main__":
    lzenv.main()
