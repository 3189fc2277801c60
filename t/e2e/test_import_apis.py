"""End-to-end tests of lzctl import shlink, kutt and bitly (lzctl(8)
import) against a loopback HTTPS fixture (Python's http.server and ssl on
127.0.0.1, a self-signed certificate made with openssl in the test's
directory and given to lzctl with --cacert) that answers in each API's
documented shapes.  On the instance's engine (LZ_DB=postgresql too), with
the pools serving.

  - Shlink: short URLs over three pages, a 429 with Retry-After once,
    a short URL on a non-default domain and one on a domain lz does not
    have (reported); each link's visits over pages (newest first there),
    asked up to the import's start; an import stopped half-way through a
    link's visits (its key refused) goes on where it stopped; statistics
    equal a recount of the fixture's visits (people by country, bots
    apart); a second run imports nothing and asks for no visit;
  - Kutt: links over pages, a password-protected one reported, counts
    from visit_count;
  - Bitly: a refused token, groups, search_after paging, a 429 and an
    HTML 502 page once each, custom bitlinks on their own domain, tags,
    archived, --group, --clicks' totals; an HTML answer is an error;
  - TLS is always verified: without --cacert the fixture is refused.
"""

import datetime
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from test_stats import BOTS, PEOPLE  # noqa: E402

inst = None
fixture = None
DAY = 86400 * 1000
NOW = int(time.time() * 1000)
SHLINK_KEY = "shlink-key-1"
KUTT_KEY = "kutt-key-1"
BITLY_TOKEN = "bitly-token-1"
S_DOMAIN = "s.import.test"      # a Shlink domain lz has
K_DOMAIN = "k.import.test"      # a Kutt domain lz has
B_DOMAIN = "brand.import.test"  # a Bitly custom domain lz has


def iso(ms, z="+00:00"):
    return datetime.datetime.utcfromtimestamp(ms / 1000).strftime(
        "%Y-%m-%dT%H:%M:%S") + z


def parse_iso(s):
    return int(datetime.datetime.fromisoformat(
        s.replace("Z", "+00:00")).timestamp() * 1000)


# -- the fixture's data ----------------------------------------------------

def shlink_visits(n, seed):
    """n visits of a short URL, oldest first: (at, ua, country, referer,
    bot)."""
    out = []
    for i in range(n):
        bot = (i + seed) % 5 == 4
        out.append({
            "at": NOW - (20 - i) * DAY + seed * 60000,
            "ua": BOTS[i % len(BOTS)] if bot else
            PEOPLE[(i + seed) % len(PEOPLE)],
            "country": ["TW", "JP", "US", None][(i + seed) % 4],
            "referer": ["", "https://t.co/x", "https://news.example.org/a"][
                i % 3],
            "bot": bot})
    return out


SHLINK = [
    # (shortCode, domain, longUrl, title, tags, meta, visits)
    ("abc", None, "https://example.com/a", "Ünïcode 標題\ttitle",
     ["spring", "sale"], {"validSince": None,
                          "validUntil": "2099-01-01T00:00:00+00:00",
                          "maxVisits": 500}, shlink_visits(9, 0)),
    ("def", S_DOMAIN, "https://example.com/d", "On its domain", [],
     {"validSince": None, "validUntil": None, "maxVisits": None},
     shlink_visits(5, 1)),
    ("unk", "unknown.example", "https://example.com/u", None, [],
     {}, shlink_visits(2, 2)),
] + [("s%d" % i, None, "https://example.com/s/%d" % i, "S %d" % i,
      ["bulk"], {}, shlink_visits(i % 3, i)) for i in range(5)]


def shlink_item(code, domain, url, title, tags, meta, visits):
    bots = sum(1 for v in visits if v["bot"])
    return {"shortCode": code, "shortUrl": "https://%s/%s" % (
                domain or "s.default", code),
            "longUrl": url, "dateCreated": iso(NOW - 30 * DAY),
            "visitsSummary": {"total": len(visits),
                              "nonBots": len(visits) - bots, "bots": bots},
            "tags": tags, "meta": meta, "domain": domain, "title": title,
            "crawlable": False, "forwardQuery": True}


KUTT = [
    # (id, address, domain, target, description, visit_count, password)
    ("k-1", "kone", None, "https://example.com/k1", "Kutt one", 12, False),
    ("k-2", "ktwo", K_DOMAIN, "https://example.com/k2", None, 0, False),
    ("k-3", "kpw", None, "https://example.com/k3", "Secret", 3, True),
    ("k-4", "kfour", None, "https://example.com/k4", "Four", 4, False),
    ("k-5", "kfive", None, "https://example.com/k5", None, 1, False),
]

BITLY_GROUPS = {"Ga1": ["bit.ly/b%d" % i for i in range(5)],
                "Gb2": ["bit.ly/onlyb"]}


def bitly_link(bid):
    key = bid.split("/")[1]
    n = int(key[1:]) if key[1:].isdigit() else 9
    return {"id": bid, "link": "https://" + bid,
            "long_url": "https://example.com/bitly/" + key,
            "title": "Bitly " + key, "archived": n == 1,
            "created_at": "2021-0%d-02T03:04:05+0000" % (n % 9 + 1),
            "tags": ["b", "tag%d" % n] if n != 9 else [],
            "custom_bitlinks": ["https://%s/%s-spring" % (B_DOMAIN, key)]
            if n == 2 else [],
            "deeplinks": [], "references": {"group": "x"}}


BITLY_CLICKS = {"bit.ly/b%d" % i: 10 * i + 1 for i in range(5)}
BITLY_CLICKS["bit.ly/onlyb"] = 77


# -- the fixture server ---------------------------------------------------

class Fixture:
    def __init__(self, dirpath):
        self.cert = os.path.join(dirpath, "fixture-cert.pem")
        key = os.path.join(dirpath, "fixture-key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                        "-nodes", "-keyout", key, "-out", self.cert,
                        "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        self.lock = threading.Lock()
        self.log = []           # (path, query dict, headers)
        self.once = set()       # paths to answer 429 / 502 once
        self.deny = set()       # (code, page) of visits answered 401
        handler = self.handler()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                     handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(self.cert, key)
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket,
                                            server_side=True)
        self.url = "https://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def requests(self, prefix):
        with self.lock:
            return [r for r in self.log if r[0].startswith(prefix)]

    def handler(self):
        fx = self

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def send(self, status, body, ctype="application/json",
                     headers=()):
                data = (json.dumps(body) if ctype == "application/json"
                        else body).encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                u = urllib.parse.urlsplit(self.path)
                q = dict(urllib.parse.parse_qsl(u.query))
                with fx.lock:
                    fx.log.append((u.path, q, dict(self.headers)))
                    once = (u.path, q.get("page", q.get("skip", q.get(
                        "search_after", ""))))
                    first = once in fx.once
                    fx.once.discard(once)
                if u.path.startswith("/rest/v3/"):
                    return self.shlink(u.path, q, first)
                if u.path.startswith("/api/v2/"):
                    return self.kutt(u.path, q)
                if u.path.startswith("/v4/"):
                    return self.bitly(u.path, q, first)
                if u.path.startswith("/html/"):
                    return self.send(200, "<html><body>Welcome to our "
                                     "portal</body></html>", "text/html")
                self.send(404, {"message": "NOT_FOUND"})

            def page(self, items, q, cap):
                per = min(int(q.get("itemsPerPage", 10)), cap)
                page = int(q.get("page", 1))
                pages = (len(items) + per - 1) // per
                return items[(page - 1) * per:page * per], {
                    "currentPage": page, "pagesCount": pages,
                    "itemsPerPage": per,
                    "itemsInCurrentPage": len(items[(page - 1) * per:
                                                    page * per]),
                    "totalItems": len(items)}

            def shlink(self, path, q, first):
                if self.headers.get("X-Api-Key") != SHLINK_KEY:
                    return self.send(401, {
                        "type": "https://shlink.io/api/error/invalid-api-"
                        "key", "title": "Invalid API key", "status": 401,
                        "detail": "Provided API key does not exist or is "
                        "invalid."})
                if first:
                    return self.send(429, {"title": "Too many requests",
                                           "detail": "Slow down"},
                                     headers=[("Retry-After", "1")])
                if path == "/rest/v3/short-urls":
                    items = [shlink_item(*s) for s in SHLINK]
                    data, pg = self.page(items, q, 3)
                    return self.send(200, {"shortUrls": {
                        "data": data, "pagination": pg}})
                parts = path.split("/")
                if len(parts) == 6 and parts[5] == "visits":
                    code = urllib.parse.unquote(parts[4])
                    dom = q.get("domain")
                    s = [s for s in SHLINK if s[0] == code and s[1] == dom]
                    if not s:
                        return self.send(404, {"title": "Short URL not "
                                               "found"})
                    if (code, int(q.get("page", 1))) in fx.deny:
                        return self.send(401, {"detail": "Revoked key"})
                    end = parse_iso(q["endDate"]) if "endDate" in q \
                        else None
                    vs = [v for v in reversed(s[0][6])
                          if end is None or v["at"] <= end]
                    items = [{"referer": v["referer"],
                              "date": iso(v["at"]),
                              "userAgent": v["ua"],
                              "visitLocation": None if not v["country"]
                              else {"countryCode": v["country"],
                                    "countryName": "X", "regionName": "",
                                    "cityName": "", "latitude": 0,
                                    "longitude": 0, "timezone": "",
                                    "isEmpty": False},
                              "potentialBot": v["bot"]} for v in vs]
                    data, pg = self.page(items, q, 2)
                    return self.send(200, {"visits": {
                        "data": data, "pagination": pg}})
                self.send(404, {"title": "Not found"})

            def kutt(self, path, q):
                if self.headers.get("X-API-KEY") != KUTT_KEY:
                    return self.send(401, {"error": "Unauthorized"})
                if path != "/api/v2/links":
                    return self.send(404, {"error": "Not found"})
                skip = int(q.get("skip", 0))
                limit = min(int(q.get("limit", 10)), 2)
                data = [{"id": i, "address": a, "banned": False,
                         "created_at": iso(NOW - 40 * DAY, "Z"),
                         "updated_at": iso(NOW - 40 * DAY, "Z"),
                         "description": d, "expire_in":
                         iso(NOW + 100 * DAY, "Z") if a == "kfour" else
                         None, "password": pw, "target": t,
                         "visit_count": n, "domain": dom,
                         "link": "https://%s/%s" % (dom or "kutt.it", a)}
                        for i, a, dom, t, d, n, pw in KUTT]
                self.send(200, {"limit": limit, "skip": skip,
                                "total": len(data),
                                "data": data[skip:skip + limit]})

            def bitly(self, path, q, first):
                if self.headers.get("Authorization") != \
                        "Bearer " + BITLY_TOKEN:
                    return self.send(401, {"message": "FORBIDDEN",
                                           "description": "The token is "
                                           "invalid."})
                if path == "/v4/groups":
                    return self.send(200, {"groups": [
                        {"guid": g, "name": g, "is_active": True}
                        for g in BITLY_GROUPS]})
                parts = path.split("/")
                if len(parts) == 5 and parts[4] == "bitlinks":
                    g = parts[3]
                    if g not in BITLY_GROUPS:
                        return self.send(404, {"message": "NOT_FOUND"})
                    if first and g == "Ga1":
                        return self.send(429, {"message": "RATE_LIMIT"},
                                         headers=[("Retry-After", "1")])
                    if first and g == "Gb2":
                        return self.send(502, "<html><head><title>502 Bad "
                                         "Gateway</title></head></html>",
                                         "text/html")
                    ids = BITLY_GROUPS[g]
                    at = int(q["search_after"]) if q.get("search_after") \
                        else 0
                    size = min(int(q.get("size", 50)), 2)
                    chunk = ids[at:at + size]
                    nxt = str(at + size) if at + size < len(ids) else ""
                    return self.send(200, {
                        "links": [bitly_link(i) for i in chunk],
                        "pagination": {"search_after": nxt, "size": size,
                                       "total": len(ids), "prev": "",
                                       "next": ""}})
                if len(parts) == 7 and parts[6] == "summary":
                    bid = urllib.parse.unquote(parts[3]) + "/" + \
                        urllib.parse.unquote(parts[4])
                    if bid not in BITLY_CLICKS or q.get("units") != "-1":
                        return self.send(404, {"message": "NOT_FOUND"})
                    return self.send(200, {"total_clicks": BITLY_CLICKS[bid],
                                           "units": -1, "unit": "day"})
                self.send(404, {"message": "NOT_FOUND"})

        return H


def setUpModule():
    global inst, fixture
    inst = lzenv.Instance("importapis", extra_conf=(
        "plan.big.links = 100000\nplan.big.quota = 1000\n"))
    inst.start()
    for d in (S_DOMAIN, K_DOMAIN, B_DOMAIN):
        inst.ctl("domain", "add", d)
    fixture = Fixture(inst.dir)


def tearDownModule():
    if fixture is not None:
        fixture.stop()
    if inst is not None:
        inst.stop()


def links(account):
    """slug -> (id, target, title, clicks, domain host, created_at)."""
    return {r[0]: r[1:] for r in inst.sql(
        "SELECT l.slug, l.id, l.target_url, l.title, l.clicks, "
        "coalesce(d.host, ''), l.created_at FROM links l LEFT JOIN "
        "domains d ON d.id = l.domain_id WHERE l.account_id = %d AND "
        "l.deleted_at IS NULL" % account)}


def load(path):
    with open(path) as f:
        return json.load(f)


class ImportApis(unittest.TestCase):
    def run_import(self, source, email, *extra, cacert=True):
        args = ["import", source, "--account", email] + list(extra)
        if cacert:
            args += ["--cacert", fixture.cert]
        return inst.ctl(*args, check=False)

    def test_1_shlink(self):
        acct = inst.account("shlink@example.com", "big")
        key = inst.key(acct)
        # Verification is never off: the fixture's certificate is
        # refused without its CA.
        rc, out, err = self.run_import("shlink", "shlink@example.com",
                                       "--from", fixture.url, "--api-key",
                                       SHLINK_KEY, cacert=False)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("certificate", err.lower())
        self.assertEqual(links(acct), {})
        # A wrong key.
        rc, out, err = self.run_import("shlink", "shlink@example.com",
                                       "--from", fixture.url, "--api-key",
                                       "nope")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("API key was refused", err)
        self.assertIn("Provided API key does not exist", err)

        # Page 2 of the short URLs answers 429 once; the key is refused
        # at abc's visits page 2 (of 5, read from the last): the links are
        # in, abc's oldest visits too, the rest waits.
        fixture.once.add(("/rest/v3/short-urls", "2"))
        fixture.deny.add(("abc", 2))
        report = inst.path("shlink-report.json")
        t0 = time.monotonic()
        rc, out, err = self.run_import("shlink", "shlink@example.com",
                                       "--from", fixture.url + "/",
                                       "--api-key", SHLINK_KEY,
                                       "--report", report)
        self.assertGreaterEqual(time.monotonic() - t0, 1.0)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("API key was refused", err)
        got = links(acct)
        self.assertEqual(sorted(got), sorted(
            s[0] for s in SHLINK if s[0] != "unk"), out + err)
        rep = load(report)
        self.assertEqual(rep["skipped"], 1)
        self.assertEqual(rep["skipped_rows"][0]["id"], "unknown.example/unk")
        (pos,), = inst.sql("SELECT history_pos FROM link_imports WHERE "
                           "link_id = %d" % got["abc"][0])
        self.assertEqual(pos, 5)        # pages 5, 4 and 3: visits 1..5

        # Again: abc's visits from the sixth on, then the others'.
        fixture.deny.clear()
        before = len(fixture.requests("/rest/v3/short-urls/abc/visits"))
        rc, out, err = self.run_import("shlink", "shlink@example.com",
                                       "--from", fixture.url, "--api-key",
                                       SHLINK_KEY)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("links' histories moved in", out)
        pages = [int(r[1]["page"]) for r in fixture.requests(
            "/rest/v3/short-urls/abc/visits")[before:]]
        self.assertEqual(pages, [1, 2])     # page 1 first: the total
        for r in fixture.requests("/rest/v3/short-urls/"):
            if r[0].endswith("/visits"):
                self.assertIn("endDate", r[1])
                self.assertEqual(r[2].get("X-Api-Key"), SHLINK_KEY)
        reqs = fixture.requests("/rest/v3/short-urls/def/visits")
        self.assertTrue(all(r[1].get("domain") == S_DOMAIN for r in reqs))

        got = links(acct)
        frm = NOW - 60 * DAY
        for code, dom, url, title, tags, meta, visits in SHLINK:
            if code == "unk":
                continue
            lid, target, ltitle, clicks, host, created = got[code]
            self.assertEqual(target, url)
            self.assertEqual(host, dom or "")
            self.assertEqual(created, (NOW - 30 * DAY) // 1000 * 1000)
            people = [v for v in visits if not v["bot"]]
            self.assertEqual(clicks, len(people), code)
            one = inst.api("GET", "/api/v1/links/%d" % lid,
                           key).json()["link"]
            self.assertEqual(sorted(one["tags"]), sorted(tags), code)
            s = inst.api("GET", "/api/v1/links/%d/stats?from=%s&to=%s&"
                         "interval=day" % (lid, iso(frm, "Z"),
                                           iso(NOW + DAY, "Z")), key)
            self.assertEqual(s.status, 200, s.body)
            s = s.json()
            self.assertEqual(s["totals"]["clicks"], len(people), code)
            self.assertEqual(s["totals"]["bots"],
                             len(visits) - len(people), code)
            want = {}
            for v in people:
                c = v["country"] or ""
                want[c] = want.get(c, 0) + 1
            gotc = {b["key"]: b["clicks"]
                    for b in s["breakdowns"]["country"] if b["clicks"]}
            self.assertEqual(gotc, want, code)
        one = inst.api("GET", "/api/v1/links/%d" % got["abc"][0],
                       key).json()["link"]
        self.assertEqual(one["title"], "Ünïcode 標題 title")
        self.assertEqual(one["max_clicks"], 500)
        self.assertTrue(one["expires_at"].startswith("2099-01-01T00:00:00"))
        r = inst.request("GET", "/def", headers={"Host": S_DOMAIN},
                         direct=True)
        self.assertEqual(r.status, 302)
        self.assertEqual(r.header("Location"), "https://example.com/d")

        # A third run: nothing new, and no visit asked for.
        before = len(fixture.requests("/rest/v3/short-urls/"))
        rc, out, err = self.run_import("shlink", "shlink@example.com",
                                       "--from", fixture.url, "--api-key",
                                       SHLINK_KEY)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("nothing new", out)
        self.assertEqual(len(fixture.requests("/rest/v3/short-urls/")),
                         before)
        self.assertEqual({k: v[3] for k, v in links(acct).items()},
                         {k: v[3] for k, v in got.items()})

    def test_2_kutt(self):
        acct = inst.account("kutt@example.com", "big")
        report = inst.path("kutt-report.json")
        # The key from the environment, kept out of ps(1).
        env = dict(os.environ, LZ_KUTT_API_KEY=KUTT_KEY)
        p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf, "import",
                            "kutt", "--from", fixture.url, "--account",
                            "kutt@example.com", "--cacert", fixture.cert,
                            "--report", report], env=env,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        got = links(acct)
        self.assertEqual(sorted(got), ["kfive", "kfour", "kone", "ktwo"])
        rep = load(report)
        self.assertEqual([(r["id"], r["error"]) for r in
                          rep["skipped_rows"]],
                         [("k-3", "password_not_portable")])
        for i, a, dom, t, d, n, pw in KUTT:
            if pw:
                continue
            self.assertEqual(got[a][1], t)
            self.assertEqual(got[a][2], d)
            self.assertEqual(got[a][3], n, a)
            self.assertEqual(got[a][4], dom or "")
            self.assertEqual(got[a][5], (NOW - 40 * DAY) // 1000 * 1000)
        self.assertEqual(rep["clicks_without_breakdown"], 12 + 4 + 1)
        skips = [r[1]["skip"] for r in fixture.requests("/api/v2/links")]
        self.assertEqual(skips, ["0", "2", "4"])
        one = inst.api("GET", "/api/v1/links/%d" % got["kfour"][0],
                       inst.key(acct)).json()["link"]
        self.assertIsNotNone(one["expires_at"])
        rc, out, err = self.run_import("kutt", "kutt@example.com",
                                       "--from", fixture.url, "--api-key",
                                       KUTT_KEY)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("4 imported before, 1 skipped", out)
        self.assertEqual({k: v[3] for k, v in links(acct).items()},
                         {k: v[3] for k, v in got.items()})

    def test_3_bitly(self):
        acct = inst.account("bitly@example.com", "big")
        key = inst.key(acct)
        rc, out, err = self.run_import("bitly", "bitly@example.com",
                                       "--from", fixture.url, "--token",
                                       "wrong")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("token was refused", err)
        self.assertIn("The token is invalid", err)
        # An HTML page where JSON should be.
        rc, out, err = self.run_import("bitly", "bitly@example.com",
                                       "--from", fixture.url + "/html",
                                       "--token", BITLY_TOKEN)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("not JSON", err)

        # One group first, its page answered by an HTML 502 once.
        groups = len([r for r in fixture.log if r[0] == "/v4/groups"])
        fixture.once.add(("/v4/groups/Gb2/bitlinks", ""))
        rc, out, err = self.run_import("bitly", "bitly@example.com",
                                       "--from", fixture.url, "--token",
                                       BITLY_TOKEN, "--group", "Gb2",
                                       "--clicks")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(sorted(links(acct)), ["onlyb"])
        self.assertEqual(fixture.requests("/v4/groups/Gb2/bitlinks")[-1][2]
                         .get("Authorization"), "Bearer " + BITLY_TOKEN)
        self.assertEqual(len([r for r in fixture.log
                              if r[0] == "/v4/groups"]), groups)

        # Every group: a 429 once on Ga1's first page.
        fixture.once.add(("/v4/groups/Ga1/bitlinks", ""))
        t0 = time.monotonic()
        report = inst.path("bitly-report.json")
        rc, out, err = self.run_import("bitly", "bitly@example.com",
                                       "--from", fixture.url, "--token",
                                       BITLY_TOKEN, "--clicks", "--report",
                                       report)
        self.assertEqual(rc, 0, out + err)
        self.assertGreaterEqual(time.monotonic() - t0, 1.0)
        rep = load(report)
        self.assertEqual(rep["imported"], 6, rep)
        self.assertEqual(rep["already_imported"], 1, rep)
        got = links(acct)
        self.assertEqual(sorted(got), ["b0", "b1", "b2", "b2-spring", "b3",
                                       "b4", "onlyb"])
        afters = [r[1].get("search_after", "") for r in
                  fixture.requests("/v4/groups/Ga1/bitlinks")]
        self.assertEqual(afters, ["", "", "2", "4"])  # the 429 once
        # onlyb's total was asked once, in its own run.
        self.assertEqual(len(fixture.requests(
            "/v4/bitlinks/bit.ly/onlyb/")), 1)
        for bid, n in BITLY_CLICKS.items():
            k = bid.split("/")[1]
            self.assertEqual(got[k][3], n, k)
            self.assertEqual(got[k][4], "")
            self.assertEqual(got[k][1], "https://example.com/bitly/" + k)
        # The custom bitlink: the same destination on its own domain,
        # its clicks counted on the bitlink.
        self.assertEqual(got["b2-spring"][1], "https://example.com/bitly/b2")
        self.assertEqual(got["b2-spring"][4], B_DOMAIN)
        self.assertEqual(got["b2-spring"][3], 0)
        self.assertEqual(got["b3"][5], 1617332645000)  # 2021-04-02T03:04:05
        b1 = inst.api("GET", "/api/v1/links/%d" % got["b1"][0],
                     key).json()["link"]
        self.assertTrue(b1["archived"])
        self.assertEqual(sorted(b1["tags"]), ["b", "tag1"])
        self.assertEqual(b1["title"], "Bitly b1")
        b0 = inst.api("GET", "/api/v1/links/%d" % got["b0"][0],
                     key).json()["link"]
        self.assertFalse(b0["archived"])
        r = inst.request("GET", "/b2-spring", headers={"Host": B_DOMAIN},
                         direct=True)
        self.assertEqual(r.status, 302)

        # Again: nothing new, no total asked again.
        before = len(fixture.requests("/v4/bitlinks/"))
        rc, out, err = self.run_import("bitly", "bitly@example.com",
                                       "--from", fixture.url, "--token",
                                       BITLY_TOKEN, "--clicks")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("nothing new", out)
        self.assertEqual(len(fixture.requests("/v4/bitlinks/")), before)


if __name__ == "__main__":
    unittest.main(verbosity=2)
