"""End-to-end tests of several short domains (DESIGN 3.12, lz-links(8)
"Domains", lzctl(8) "domain"), through nginx with three host names on
127.0.0.1 told apart by the Host header, on the instance's engine
(LZ_DB=postgresql too):

- lzctl domain add, list, set and remove: host names as admins type them
  (upper case, a trailing dot, IDN), the default domain, a host taken, a
  URL the safety scan refuses, removal refused while a live link uses
  the domain, and a removed host added again;
- the same slug on two domains to two targets, each click credited to
  its own link; an unknown host 404 whatever the slug; root, not-found
  and expired redirects at the domain's and the link's level, a capped
  link's expired_url;
- /api/v1/domains: list, add (the TXT record to publish), verify against
  a DNS stub on 127.0.0.1 (record present, absent, wrong token, server
  silent), get, patch, delete; account isolation (B cannot see, use,
  verify or delete A's domain; both use an instance domain); links on
  domains (domain on create, list filter, PATCH refused, short_url);
  conversions by domain.
"""

import os
import socket
import struct
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None
stub = None


class TXTStub:
    """A UDP name server on 127.0.0.1 answering TXT questions from
    self.txt (name -> list of texts, each a record), nothing for other
    names, and never for names that start with "_lz-verify.slow"."""

    def __init__(self):
        self.txt = {}
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stop.is_set():
            try:
                q, peer = self.sock.recvfrom(512)
            except (socket.timeout, OSError):
                continue
            labels, i = [], 12
            while i < len(q) and q[i]:
                labels.append(q[i + 1:i + 1 + q[i]].decode("ascii",
                                                           "replace"))
                i += 1 + q[i]
            qtype = struct.unpack("!H", q[i + 1:i + 3])[0]
            name = ".".join(labels).lower()
            if name.startswith("_lz-verify.slow"):
                continue
            answers = b""
            texts = self.txt.get(name, []) if qtype == 16 else []
            for t in texts:
                # Long texts go in strings of at most 255 bytes.
                raw = t.encode()
                data = b"".join(bytes([len(raw[k:k + 255])]) +
                                raw[k:k + 255]
                                for k in range(0, max(len(raw), 1), 255))
                answers += (b"\xc0\x0c" + struct.pack("!HHIH", 16, 1, 60,
                                                      len(data)) + data)
            rcode = 0 if name in self.txt else 3     # NXDOMAIN
            header = q[:2] + struct.pack("!HHHHH", 0x8180 | rcode, 1,
                                         len(texts), 0, 0)
            self.sock.sendto(header + q[12:i + 5] + answers, peer)

    def close(self):
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


def setUpModule():
    global inst, stub
    stub = TXTStub()
    inst = lzenv.Instance("domains", extra_conf=(
        "webhook_nameservers = 127.0.0.1:%d\n" % stub.port))
    try:
        inst.start()
    except Exception:
        stub.close()
        raise


def tearDownModule():
    if inst is not None:
        inst.stop()
    if stub is not None:
        stub.close()


BROWSER = ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
           "Firefox/120.0")


def visit(host, path, method="GET"):
    """A browser's visit through nginx with Host: host (straight to nginx:
    Prism passes requests on to one host of its own)."""
    return inst.request(method, path, headers={
        "Host": host, "User-Agent": BROWSER}, direct=True)


def wait_until(cond, what, timeout=10.0):
    lzenv.wait_for(cond, timeout, what)


def rows():
    """lzctl domain list as {host: row dict}."""
    out = inst.ctl("domain", "list")[1].splitlines()
    head = out[0].split("\t")
    return {r.split("\t")[0]: dict(zip(head, r.split("\t")))
            for r in out[1:]}


class Domains(unittest.TestCase):
    def test_add_list_set_remove(self):
        acct = inst.account("dom@example.com")
        rc, out, err = inst.ctl("domain", "add", "Go.Brand-One.TEST.",
                                "--root-url", "https://brand-one.example/")
        self.assertIn("server_name go.brand-one.test;", out)
        rc, out, err = inst.ctl("domain", "add", "mine.test", "--account",
                                "dom@example.com", "--expired-url",
                                "https://mine.example/gone")
        self.assertIn("account domain", out)
        d = rows()
        self.assertEqual(d["127.0.0.1"]["DEFAULT"], "yes")
        one = d["go.brand-one.test"]
        self.assertEqual((one["SCOPE"], one["ROOT"], one["NOT-FOUND"],
                          one["LINKS"]),
                         ("instance", "https://brand-one.example/", "-",
                          "0"))
        self.assertNotEqual(one["VERIFIED"], "no")  # the admin's: verified
        mine = d["mine.test"]
        self.assertEqual((mine["SCOPE"], mine["ACCOUNT"], mine["EXPIRED"]),
                         ("account", str(acct), "https://mine.example/gone"))

        # set: one URL set, one cleared, the third kept.
        inst.ctl("domain", "set", "GO.brand-one.test", "--not-found-url",
                 "https://brand-one.example/404", "--root-url", "")
        one = rows()["go.brand-one.test"]
        self.assertEqual((one["ROOT"], one["NOT-FOUND"]),
                         ("-", "https://brand-one.example/404"))
        rc, out, err = inst.ctl("domain", "set", "go.brand-one.test",
                                check=False)
        self.assertEqual(rc, 2)
        self.assertIn("nothing to set", err)

        # A live link on it keeps it; a deleted one does not.
        did = inst.sql("SELECT id FROM domains WHERE host = "
                       "'go.brand-one.test'")[0][0]
        key = inst.key(acct)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://example.com/dom"})
        self.assertEqual(r.status, 201)
        lid = r.json()["id"]
        inst.sql("UPDATE links SET domain_id = %d WHERE id = %d" %
                 (did, lid))
        self.assertEqual(rows()["go.brand-one.test"]["LINKS"], "1")
        rc, out, err = inst.ctl("domain", "remove", "go.brand-one.test",
                                check=False)
        self.assertEqual(rc, 1)
        self.assertIn("1 live link", err)
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" % lid,
                                  key).status, 200)
        rc, out, err = inst.ctl("domain", "remove", "go.brand-one.test")
        self.assertIn("removed go.brand-one.test", out)
        self.assertNotIn("go.brand-one.test", rows())
        rc, out, err = inst.ctl("domain", "remove", "go.brand-one.test",
                                check=False)
        self.assertEqual(rc, 3)

        # Added again: the same row (its deleted link's slug stays its).
        inst.ctl("domain", "add", "go.brand-one.test")
        self.assertEqual(inst.sql("SELECT id FROM domains WHERE host = "
                                  "'go.brand-one.test'")[0][0], did)
        self.assertEqual(rows()["go.brand-one.test"]["ROOT"], "-")

    def test_refused(self):
        inst.ctl("domain", "add", "taken.test")
        for host, rc, words in [
                ("taken.test", 1, "taken"),
                ("TAKEN.test.", 1, "taken"),
                ("127.0.0.1", 1, "default domain"),
                ("https://x.test/", 2, "URL"),
                ("x.test:8080", 2, "port"),
                ("x..test", 2, "empty label"),
                ("x-.test", 2, "'-'"),
                ("x_y.test", 2, "letters, digits"),
                ("a" * 64 + ".test", 2, "63"),
                ("", 2, "empty")]:
            r, out, err = inst.ctl("domain", "add", host, check=False)
            self.assertEqual((r, words in err), (rc, True), (host, err))
        # A URL the safety scan refuses, and one that is no URL.
        r, out, err = inst.ctl("domain", "add", "scan.test", "--root-url",
                               "http://127.0.0.1/", check=False)
        self.assertEqual(r, 2, err)
        self.assertIn("root_url", err)
        r, out, err = inst.ctl("domain", "add", "scan.test",
                               "--not-found-url", "ftp://x.test/",
                               check=False)
        self.assertEqual(r, 2, err)
        self.assertNotIn("scan.test", rows())
        r, out, err = inst.ctl("domain", "add", "acct.test", "--account",
                               "nobody@example.com", check=False)
        self.assertEqual(r, 3)

    def test_idn(self):
        rc, out, err = inst.ctl("domain", "add", "Bücher.test")
        self.assertIn("xn--bcher-kva.test", out)
        self.assertIn("xn--bcher-kva.test", rows())
        inst.ctl("domain", "remove", "bücher.TEST")
        self.assertNotIn("xn--bcher-kva.test", rows())



class Visits(unittest.TestCase):
    """Links on several domains, visited by host."""

    @classmethod
    def setUpClass(cls):
        cls.acct = inst.account("visits@example.com", "pro")
        cls.key = inst.key(cls.acct)
        inst.ctl("domain", "add", "go.visits.test", "--root-url",
                 "https://visits.example/home", "--not-found-url",
                 "https://visits.example/missing", "--expired-url",
                 "https://visits.example/over")
        inst.ctl("domain", "add", "bare.visits.test")
        # Each worker reads the domains at most a second apart (hostmap.h):
        # past that, every one has these.
        time.sleep(1.1)

    def create(self, body):
        r = inst.api("POST", "/api/v1/links", self.key, body)
        self.assertEqual(r.status, 201, r.body)
        return inst.api("GET", "/api/v1/links/%d" % r.json()["id"],
                        self.key).json()["link"]

    def clicks(self, lid):
        return inst.sql("SELECT count(*) FROM clicks WHERE link_id = %d" %
                        lid)[0][0]

    def test_same_slug_two_domains(self):
        a = self.create({"target_url": "https://a.example/", "slug": "twin"})
        b = self.create({"target_url": "https://b.example/", "slug": "twin",
                         "domain": "GO.visits.test"})
        self.assertEqual((a["domain"], b["domain"]),
                         ("127.0.0.1", "go.visits.test"))
        self.assertEqual(b["short_url"], "http://go.visits.test/twin")
        self.assertTrue(a["short_url"].endswith("/twin"))
        # The same slug twice on one domain is still taken.
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://c.example/", "slug": "twin",
                      "domain": "go.visits.test"})
        self.assertEqual((r.status, r.json()["error"]),
                         (409, "slug_taken"))
        for _ in range(3):
            r = visit("go.visits.test", "/twin")
            self.assertEqual((r.status, r.header("location")),
                             (302, "https://b.example/"))
        r = visit("127.0.0.1:%d" % inst.links_port, "/twin")
        self.assertEqual((r.status, r.header("location")),
                         (302, "https://a.example/"))
        # A port and a trailing dot change nothing.
        r = visit("Go.Visits.Test.:80", "/twin")
        self.assertEqual(r.header("location"), "https://b.example/")
        wait_until(lambda: self.clicks(b["id"]) == 4 and
                   self.clicks(a["id"]) == 1, "clicks by domain")
        # An unknown host: the 404 page, never the default's link.
        for host in ("unknown.test", "bad_host", "x.test:port"):
            r = visit(host, "/twin")
            self.assertEqual(r.status, 404, host)
        # The list filter, and PATCH cannot move a link.
        r = inst.api("GET", "/api/v1/links?domain=go.visits.test",
                     self.key)
        got = r.json()["links"]
        self.assertIn(b["id"], [x["id"] for x in got])
        self.assertEqual({x["domain"] for x in got}, {"go.visits.test"})
        r = inst.api("GET", "/api/v1/links?domain=127.0.0.1&q=twin",
                     self.key)
        self.assertEqual([x["id"] for x in r.json()["links"]], [a["id"]])
        r = inst.api("GET", "/api/v1/links?domain=nope.test", self.key)
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "domain"))
        r = inst.api("PATCH", "/api/v1/links/%d" % b["id"], self.key,
                     {"domain": "127.0.0.1"})
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "domain"))
        # Conversions find the slug on the domain named, else the
        # host's: "only" lives on go.visits.test alone.
        self.create({"target_url": "https://o.example/", "slug": "only",
                     "domain": "go.visits.test"})

        def conv(host, domain=None):
            body = {"slug": "only"}
            if domain is not None:
                body["domain"] = domain
            return inst.request("POST", "/api/conv", body=body, headers={
                "Host": host, "User-Agent": BROWSER}, direct=True).status
        # 200 (not counted: no click of this visitor) or 403 (the plan),
        # not 404: the link was found.
        found = conv("127.0.0.1", "go.visits.test")
        self.assertIn(found, (200, 403))
        self.assertEqual(conv("go.visits.test"), found)
        self.assertEqual(conv("127.0.0.1"), 404)
        self.assertEqual(conv("go.visits.test", "127.0.0.1"), 404)
        self.assertEqual(conv("127.0.0.1", "nope.test"), 404)
        self.assertEqual(conv("127.0.0.1", "a b"), 400)

    def test_root_not_found_expired(self):
        r = visit("go.visits.test", "/")
        self.assertEqual((r.status, r.header("location")),
                         (302, "https://visits.example/home"))
        r = visit("go.visits.test", "/no-such-slug")
        self.assertEqual((r.status, r.header("location")),
                         (302, "https://visits.example/missing"))
        self.assertEqual(visit("bare.visits.test", "/").status, 404)
        self.assertEqual(visit("bare.visits.test", "/nothing").status, 404)
        past = "2020-01-01T00:00:00Z"
        # A link that expires: the domain's expired_url, then its own.
        l1 = self.create({"target_url": "https://e.example/",
                          "domain": "go.visits.test", "max_clicks": 1})
        self.assertEqual(visit("go.visits.test", "/" + l1["slug"])
                         .header("location"), "https://e.example/")
        r = visit("go.visits.test", "/" + l1["slug"])
        self.assertEqual((r.status, r.header("location")),
                         (302, "https://visits.example/over"))
        l2 = self.create({"target_url": "https://e.example/",
                          "domain": "go.visits.test", "max_clicks": 1,
                          "expired_url": "https://e.example/sorry"})
        visit("go.visits.test", "/" + l2["slug"])
        r = visit("go.visits.test", "/" + l2["slug"])
        self.assertEqual(r.header("location"), "https://e.example/sorry")
        # On a domain without one: the 410 page, unless the link has one.
        l3 = self.create({"target_url": "https://e.example/",
                          "domain": "bare.visits.test", "max_clicks": 1})
        visit("bare.visits.test", "/" + l3["slug"])
        self.assertEqual(visit("bare.visits.test", "/" + l3["slug"])
                         .status, 410)
        r = inst.api("PATCH", "/api/v1/links/%d" % l3["id"], self.key,
                     {"expired_url": "https://e.example/later"})
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(r.json()["link"]["expired_url"],
                         "https://e.example/later")
        wait_until(lambda: visit("bare.visits.test", "/" + l3["slug"])
                   .header("location") == "https://e.example/later",
                   "the edit seen")
        # An expired_url the scan refuses; and null clears it.
        r = inst.api("PATCH", "/api/v1/links/%d" % l3["id"], self.key,
                     {"expired_url": "http://10.0.0.1/"})
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "expired_url"))
        r = inst.api("PATCH", "/api/v1/links/%d" % l3["id"], self.key,
                     {"expired_url": None})
        self.assertIsNone(r.json()["link"]["expired_url"])
        del past

    def test_targets_on_own_domains_refused(self):
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://go.visits.test/x"})
        self.assertEqual(r.status, 400, r.body)
        self.assertIn("short domain", r.json()["message"])


class API(unittest.TestCase):
    """/api/v1/domains, two accounts."""

    @classmethod
    def setUpClass(cls):
        cls.a = inst.key(inst.account("a@example.com", "pro"))
        cls.b = inst.key(inst.account("b@example.com", "pro"))
        inst.ctl("domain", "add", "shared.test")

    def test_add_verify_use(self):
        r = inst.api("POST", "/api/v1/domains", self.a,
                     {"host": "Brand-A.test"})
        self.assertEqual(r.status, 201, r.body)
        d = r.json()["domain"]
        self.assertEqual((d["host"], d["scope"], d["verified"], d["links"],
                          d["default"]),
                         ("brand-a.test", "account", False, 0, False))
        rec = d["verification"]
        self.assertEqual((rec["type"], rec["name"]),
                         ("TXT", "_lz-verify.brand-a.test"))
        self.assertTrue(rec["value"].startswith("lz-verify="))
        # Taken, by either account; and the default domain.
        for key, host in ((self.b, "brand-a.test"), (self.a, "shared.test"),
                          (self.a, "127.0.0.1")):
            r = inst.api("POST", "/api/v1/domains", key, {"host": host})
            self.assertEqual((r.status, r.json()["error"]),
                             (409, "domain_taken"), host)
        r = inst.api("POST", "/api/v1/domains", self.a, {"host": "a b"})
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "host"))
        # Not verified: no links on it.
        r = inst.api("POST", "/api/v1/links", self.a,
                     {"target_url": "https://x.example/",
                      "domain": "brand-a.test"})
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "domain"))
        self.assertIn("not verified", r.json()["message"])
        # B cannot see, verify, change or delete it.
        for m, path in (("GET", ""), ("POST", "/verify"), ("PATCH", ""),
                        ("DELETE", "")):
            r = inst.api(m, "/api/v1/domains/brand-a.test" + path, self.b,
                         {} if m == "PATCH" else None)
            self.assertEqual(r.status, 404, (m, path))
        hosts = [x["host"] for x in inst.api("GET", "/api/v1/domains",
                                             self.b).json()["domains"]]
        self.assertEqual(hosts[0], "127.0.0.1")
        self.assertIn("shared.test", hosts)
        self.assertNotIn("brand-a.test", hosts)
        name = "_lz-verify.brand-a.test"
        # Absent, wrong token, then right.
        r = inst.api("POST", "/api/v1/domains/brand-a.test/verify", self.a)
        self.assertEqual(r.status, 409, r.body)
        self.assertIn("no TXT record", r.json()["message"])
        stub.txt[name] = ["lz-verify=wrong", "v=spf1 -all"]
        r = inst.api("POST", "/api/v1/domains/brand-a.test/verify", self.a)
        self.assertEqual(r.status, 409, r.body)
        self.assertIn("does not hold", r.json()["message"])
        stub.txt[name] = ["v=spf1 -all", rec["value"]]
        r = inst.api("POST", "/api/v1/domains/brand-a.test/verify", self.a)
        self.assertEqual(r.status, 200, r.body)
        d = r.json()["domain"]
        self.assertEqual((d["verified"], d["verification"]), (True, None))
        # Now A's links go on it; B's cannot.
        r = inst.api("POST", "/api/v1/links", self.a,
                     {"target_url": "https://x.example/", "slug": "hello",
                      "domain": "brand-a.test"})
        self.assertEqual(r.status, 201, r.body)
        lid = r.json()["id"]
        self.assertEqual(r.json()["short_url"], "http://brand-a.test/hello")
        r = inst.api("POST", "/api/v1/links", self.b,
                     {"target_url": "https://x.example/",
                      "domain": "brand-a.test"})
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "domain"))
        # Both use the instance's.
        for key in (self.a, self.b):
            r = inst.api("POST", "/api/v1/links", key,
                         {"target_url": "https://y.example/",
                          "domain": "shared.test"})
            self.assertEqual(r.status, 201, r.body)
        r = inst.api("GET", "/api/v1/domains/brand-a.test", self.a)
        self.assertEqual(r.json()["domain"]["links"], 1)
        shared = [x for x in inst.api("GET", "/api/v1/domains",
                                      self.a).json()["domains"]
                  if x["host"] == "shared.test"][0]
        self.assertEqual((shared["links"], shared["scope"]), (1, "instance"))
        # The account's URLs: set, scanned, cleared; not the instance's.
        r = inst.api("PATCH", "/api/v1/domains/brand-a.test", self.a,
                     {"root_url": "https://brand-a.example/"})
        self.assertEqual(r.json()["domain"]["root_url"],
                         "https://brand-a.example/")
        wait_until(lambda: visit("brand-a.test", "/").header("location") ==
                   "https://brand-a.example/", "the root redirect")
        r = inst.api("PATCH", "/api/v1/domains/brand-a.test", self.a,
                     {"root_url": "http://127.0.0.1/"})
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "root_url"))
        r = inst.api("PATCH", "/api/v1/domains/brand-a.test", self.a,
                     {"root_url": None, "nope": 1})
        self.assertEqual(r.status, 400)
        r = inst.api("PATCH", "/api/v1/domains/brand-a.test", self.a,
                     {"root_url": None})
        self.assertIsNone(r.json()["domain"]["root_url"])
        r = inst.api("PATCH", "/api/v1/domains/shared.test", self.a,
                     {"root_url": None})
        self.assertEqual(r.status, 403)
        # Delete: refused while the link lives.
        r = inst.api("DELETE", "/api/v1/domains/brand-a.test", self.a)
        self.assertEqual((r.status, r.json()["error"]),
                         (409, "domain_in_use"))
        inst.api("DELETE", "/api/v1/links/%d" % lid, self.a)
        r = inst.api("DELETE", "/api/v1/domains/brand-a.test", self.a)
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(inst.api("GET", "/api/v1/domains/brand-a.test",
                                  self.a).status, 404)

    def test_deep_link_files(self):
        host = "deep.test"
        inst.ctl("domain", "add", host, "--account", "a@example.com")
        aasa = {"applinks": {"details": [{"appIDs": ["ABCDE.example.app"],
                                          "components": [{"/": "/*"}]}]}}
        links = [{"relation": ["delegate_permission/common.handle_all_urls"],
                  "target": {"namespace": "android_app",
                             "package_name": "com.example.app"}}]
        r = inst.api("PATCH", "/api/v1/domains/" + host, self.a,
                     {"apple_app_site_association": aasa,
                      "assetlinks": links})
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(r.json()["domain"]["assetlinks"], links)
        for path, want in (("/.well-known/apple-app-site-association", aasa),
                           ("/.well-known/assetlinks.json", links)):
            got = {}

            def served():
                # Each worker sees the change within its second of
                # domains: the answer checked is the one that was 200.
                got["r"] = visit(host, path)
                return got["r"].status == 200
            wait_until(served, path)
            r = got["r"]
            self.assertEqual(r.header("content-type"), "application/json")
            self.assertEqual(r.json(), want)
            # Another host has none.
            self.assertEqual(visit("shared.test", path).status, 404)
        # Of the wrong kind: an array for Apple's, an object for Google's.
        for field, bad in (("apple_app_site_association", []),
                           ("assetlinks", {})):
            r = inst.api("PATCH", "/api/v1/domains/" + host, self.a,
                         {field: bad})
            self.assertEqual((r.status, r.json().get("param")),
                             (400, field))
        # The admin's way: a file, and "" clears.
        f = inst.path("aasa.json")
        with open(f, "w") as out:
            out.write('{"webcredentials": {"apps": ["ABCDE.x"]}}')
        inst.ctl("domain", "set", host, "--aasa", f, "--assetlinks", "")
        d = inst.api("GET", "/api/v1/domains/" + host, self.a).json()
        self.assertEqual((d["domain"]["apple_app_site_association"],
                          d["domain"]["assetlinks"]),
                         ({"webcredentials": {"apps": ["ABCDE.x"]}}, None))
        with open(f, "w") as out:
            out.write("[1, 2]")
        rc, out, err = inst.ctl("domain", "set", host, "--aasa", f,
                                check=False)
        self.assertEqual(rc, 2, err)
        self.assertIn("JSON object", err)

    def test_silent_name_server(self):
        r = inst.api("POST", "/api/v1/domains", self.b,
                     {"host": "slow.brand-b.test"})
        self.assertEqual(r.status, 201, r.body)
        t0 = time.monotonic()
        r = inst.api("POST", "/api/v1/domains/slow.brand-b.test/verify",
                     self.b)
        took = time.monotonic() - t0
        self.assertEqual(r.status, 409, r.body)
        self.assertIn("did not answer", r.json()["message"])
        self.assertLess(took, 3.5)
        self.assertGreater(took, 1.5)


if __name__ == "__main__":
    unittest.main()
