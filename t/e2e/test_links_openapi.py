#!/usr/bin/env python3
"""The OpenAPI document of the link service's API against a real validator
and against the running service (modelled on test_prompts_openapi.py; the
validators and the checks are openapilib's and t/openapi/check.mjs).

- The served document (GET /api/v1/openapi.json, no key) is
  src/links/openapi.json, and it is valid OpenAPI 3.1.
- Live answers of every path and status -- successes, 400 for many bad
  fields, 401, 403 (link cap, plan), 404, 405, 409, 413, 415, 429 (quota,
  conversion rate), 503 -- validate against the schemas the document
  gives (Ajv, JSON Schema 2020-12) and carry the headers it documents.
- The create schema and the service agree, body by body: each enum value
  is accepted, bounds are exactly the document's (the value at a bound is
  accepted by both, one past it refused by both), patterns accept and
  refuse what the service does, and the documented defaults are the ones
  applied.  The edit (merge patch) schema agrees the same way, and the
  query parameters of list, stats, QR codes and clicks.
- The documented operations are exactly the /api/ routes of
  src/links/main.c, and the error codes are exactly those the sources and
  the nginx snippets can answer on them.
"""

import base64
import json
import os
import re
import sys
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from openapilib import (Recorder, assert_served_document,  # noqa: E402
                        assert_tools_pass, compile_client, lint,
                        load_document, operations, routes, run_check)

DOC = os.path.join(lzenv.SRCDIR, "src", "links", "openapi.json")
L = "/api/v1/links"
ID = L + "/{id}"
ST = ID + "/stats"
QR = ID + "/qr"
CL = ID + "/clicks"
CONV = "/api/conv"
SELF = "/api/v1/openapi.json"
q = urllib.parse.quote

CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
          "(KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36")

EXTRA = """
trusted_proxies = 127.0.0.1
conversion_rate_limit = 3
plan.tiny.links = 2
plan.small.quota = 4
"""

URL = "https://example.com/oa"
VARIANTS = {
    "ab": [{"url": "https://a.example/", "weight": 70},
           {"url": "https://b.example/", "weight": 30}],
    "device": {"ios": "https://ios.example/", "desktop": "https://d.example/"},
    "geo": {"TW": "https://tw.example/", "JP": "https://jp.example/"},
}


class OpenAPI(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.doc = load_document(DOC)
        cls.schemas = cls.doc["components"]["schemas"]
        cls.inst = lzenv.Instance("links-openapi", extra_conf=EXTRA)
        try:
            cls.inst.start()
            cls.acct = cls.inst.account("api@example.com", "pro")
            cls.key = cls.inst.key(cls.acct)
            cls.other_key = cls.inst.key(cls.inst.account(
                "other@example.com", "pro"))
        except Exception:
            cls.inst.stop()
            raise
        cls.ip = 0

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    # -- helpers --------------------------------------------------------

    def call(self, rec, method, template, url, key=None, body=None,
             headers=None, schema=None):
        """One request; its answer recorded for the operation (template,
        method) unless rec is None."""
        h = dict(headers or {})
        if key:
            h["Authorization"] = "Bearer " + key
        r = self.inst.request(method, url, body=body, headers=h)
        if rec is not None:
            rec.answer(template, r, url, method, schema=schema)
        return r

    def next_ip(self):
        type(self).ip += 1
        return "198.51.100.%d" % type(self).ip

    def create(self, body, key=None, rec=None):
        return self.call(rec, "POST", L, L, key or self.key, body)

    def created(self, body, key=None, rec=None):
        r = self.create(body, key, rec)
        self.assertEqual(r.status, 201, r)
        return r.json()

    def resolve(self, s):
        while "$ref" in s:
            s = self.schemas[s["$ref"].split("/")[-1]]
        return s

    # -- the document itself ---------------------------------------------

    def test_served_document_is_the_source_and_valid(self):
        r = self.inst.request("GET", SELF)
        self.assertEqual(r.status, 200, r)
        assert_served_document(self, self.inst, r.body, DOC)
        self.assertEqual(r.header("content-type"),
                         "application/json; charset=utf-8")
        self.assertEqual(r.header("cache-control"), "public, max-age=60")
        self.assertEqual(r.header("access-control-allow-origin"), "*")
        self.assertIsNone(r.header("x-ratelimit-limit"))  # not counted
        # Revalidation: the ETag (also weak, as nginx makes it when it
        # compresses) gives a 304 without a body; another tag the 200.
        etag = r.header("etag")
        self.assertRegex(etag, r'^"[0-9a-f]{32}"$')
        for inm in (etag, "W/" + etag, '"x", ' + etag):
            c = self.inst.request("GET", SELF,
                                  headers={"If-None-Match": inm})
            self.assertEqual((c.status, c.body), (304, b""), inm)
            self.assertEqual(c.header("etag"), etag)
        c = self.inst.request("GET", SELF, headers={"If-None-Match": '"x"'})
        self.assertEqual(c.status, 200)
        h = self.inst.request("HEAD", SELF)
        self.assertEqual((h.status, h.body), (200, b""))
        self.assertEqual(h.header("content-type"), r.header("content-type"))

    def test_lint_and_typed_client(self):
        """No error or warning of @redocly/cli lint (recommended rules),
        and t/openapi/client-links.ts compiles (tsc --strict) against the
        types openapi-typescript generates: create with target_url only,
        each mode with its variants, list and search, get, edit (PATCH),
        QR codes, raw clicks, stats, delete -- and the bodies the service
        refuses do not compile."""
        assert_tools_pass(self, self.inst, DOC, "links")

    def test_lint_and_typed_client_can_fail(self):
        """A lint warning is reported, and a document whose create fields
        have their defaults inline (openapi-typescript makes them
        required) or whose variants no longer depend on the mode fails the
        client's compilation."""
        broken = json.loads(json.dumps(self.doc))
        broken["components"]["schemas"]["Unused"] = {"type": "string"}
        path = self.inst.path("unused.json")
        with open(path, "w") as f:
            json.dump(broken, f)
        errors, warnings, text = lint(path)
        self.assertEqual((errors, warnings), (0, 1), text)
        self.assertIn("no-unused-components", text)
        for name, change in (
                ("inline-default", lambda s: s["properties"].update(
                    mode=self.resolve(s["properties"]["mode"]))),
                ("no-oneof", lambda s: s.pop("oneOf"))):
            broken = json.loads(json.dumps(self.doc))
            change(broken["components"]["schemas"]["LinkCreate"])
            path = self.inst.path(name + ".json")
            with open(path, "w") as f:
                json.dump(broken, f)
            rc, out = compile_client(path, "links", self.inst.path(name))
            self.assertNotEqual(rc, 0, name)
            self.assertIn("client-links.ts", out)

    def test_validator_catches_a_broken_document(self):
        """The checks can fail: a broken document, an answer that breaks a
        schema or lacks a documented header, and a request schema that
        disagrees with the service, are all reported."""
        broken = json.loads(json.dumps(self.doc))
        del broken["paths"][L]["get"]["parameters"][0]["in"]
        path = self.inst.path("broken.json")
        with open(path, "w") as f:
            json.dump(broken, f)
        rc, out = run_check(path)
        self.assertNotEqual(rc, 0)
        rec = Recorder()
        rec.records.append({"path": ID, "status": 200, "headers": {},
                            "body": {"ok": True, "link": {"id": 1}}})
        rec.records.append({"path": CONV, "method": "post", "status": 429,
                            "headers": {"retry-after": "0"},
                            "body": {"ok": False, "error": "quota_exceeded",
                                     "message": "x", "request_id": "r"}})
        rec.request(L, "post", {"target_url": URL, "mode": "zz"}, True)
        rec.request(L, "post", {"target_url": URL}, False)
        where = self.inst.path("bad-records.json")
        with open(where, "w") as f:
            json.dump(rec.records, f)
        rc, out = run_check(DOC, where)
        self.assertNotEqual(rc, 0)
        self.assertIn(ID + " 200: [", out)
        self.assertIn("documented header X-RateLimit-Limit missing", out)
        self.assertIn(CONV + " POST 429: header Retry-After", out)
        self.assertIn(CONV + " POST 429: [", out)       # wrong error code
        self.assertIn("the schema refuses what the service accepted", out)
        self.assertIn("the schema accepts what the service refused", out)

    def test_operations_are_the_routes(self):
        main_c = os.path.join(lzenv.SRCDIR, "src", "links", "main.c")
        found = routes(main_c, "/api/") | routes(main_c, "/healthz")
        self.assertEqual(found, operations(self.doc))
        # The dashboard's internal API is left out, and the document says
        # so.
        self.assertFalse([p for p in self.doc["paths"] if "dashboard" in p])
        self.assertIn("/dashboard/api/", self.doc["info"]["description"])

    def test_error_codes_are_the_sources(self):
        """The Error enum is exactly what the core, the link service
        (but its dashboard) and nginx's error snippet can answer."""
        codes = set()
        call = re.compile(r'(?:lz_verr_set|lz_resp_error|unauthorized)\(\s*'
                          r'\w+,\s*(?:\d+,\s*)?"([a-z_]+)"')
        for sub, skip in (("core", ()),
                          ("links", ("api_dash_session.c",
                                     "api_dash_keys.c", "api_dash_hooks.c",
                                     "api_dash_members.c", "team.c",
                                     "session.c", "guard.c", "subs.c",
                                     "webhook.c"))):
            top = os.path.join(lzenv.SRCDIR, "src", sub)
            for d, _, names in sorted(os.walk(top)):
                for name in sorted(names):
                    if name.endswith(".c") and name not in skip:
                        with open(os.path.join(d, name)) as f:
                            codes |= set(call.findall(f.read()))
        # The route flags of the dashboard (main.c's before()).
        codes -= {"cross_origin", "csrf_token_invalid", "not_signed_in"}
        with open(os.path.join(lzenv.SRCDIR, "nginx", "lz-errors.conf")) as f:
            codes |= set(re.findall(r'"error":"([a-z_]+)"', f.read()))
        enum = self.schemas["Error"]["properties"]["error"]["enum"]
        self.assertEqual(len(enum), len(set(enum)))
        self.assertEqual(set(enum), codes)

    # -- live answers against the schemas --------------------------------

    def test_live_answers_match_schemas(self):
        rec = Recorder()
        key = self.key
        # Creates: 201 with every kind of link.
        full = {
            "target_url": URL, "slug": "oa-full", "title": "春季特賣",
            "mode": "ab", "variants": VARIANTS["ab"], "redirect_type": 301,
            "og": {"title": "T", "description": "D",
                   "image": "https://img.example/x.png"},
            "pixel_fb": "123456789012345", "pixel_ga": "G-ABC123XYZ",
            "pixel_gtm": "GTM-AB12CD", "pixel_tiktok": "C4ABCDEF12345",
            "pixel_line": "abcd-1234-efgh", "escape_inapp": True,
            "expires_at": "2099-01-01T08:00:00+08:00", "max_clicks": 100,
            "utm": {"source": "news", "medium": "", "campaign": None},
            "password": "open sesame",
        }
        ids = [self.created(full, rec=rec)["id"]]
        for body in ({"target_url": URL},
                     {"target_url": URL, "slug": "oa-ab", "mode": "ab",
                      "variants": VARIANTS["ab"]},
                     {"target_url": URL, "mode": "device",
                      "variants": VARIANTS["device"], "og": {"title": ""},
                      "utm": {}},
                     {"target_url": URL, "mode": "geo",
                      "variants": VARIANTS["geo"], "slug": "  ",
                      "title": None, "pixel_fb": ""}):
            ids.append(self.created(body, rec=rec)["id"])
        ab_id = ids[2]
        # 400: bad fields and bodies, each naming what is at fault.
        for body, code, param in (
                ({"target_url": "javascript:alert(1)"}, "unsafe_destination",
                 "target_url"),
                ({"target_url": "https://127.0.0.1/"}, "unsafe_destination",
                 "target_url"),
                ({"target_url": "no url"}, "invalid_url", "target_url"),
                ({}, "missing_field", "target_url"),
                ({"target_url": 5}, "invalid_field", "target_url"),
                ({"target_url": URL, "zz": 1}, "unknown_field", "zz"),
                ({"target_url": URL, "mode": "zz"}, "invalid_field", "mode"),
                ({"target_url": URL, "redirect_type": 303}, "invalid_field",
                 "redirect_type"),
                ({"target_url": URL, "variants": VARIANTS["geo"]},
                 "invalid_field", "variants"),
                ({"target_url": URL, "mode": "ab"}, "missing_field",
                 "variants"),
                ({"target_url": URL, "mode": "ab", "variants": [
                    {"url": URL, "weight": 1},
                    {"url": "ftp://x.example/", "weight": 1}]},
                 "unsafe_destination", "variants[1].url"),
                ({"target_url": URL, "og": {"title": "x" * 201}},
                 "invalid_field", "og.title"),
                ({"target_url": URL, "utm": {"zz": "a"}}, "unknown_field",
                 "utm.zz"),
                ({"target_url": URL, "expires_at": "2001-01-01T00:00:00Z"},
                 "invalid_field", "expires_at"),
                ({"target_url": URL, "slug": "a b"}, "invalid_field",
                 "slug")):
            r = self.create(body, rec=rec)
            self.assertEqual((r.status, r.json()["error"],
                              r.json().get("param")), (400, code, param),
                             (body, r))
        for raw in ("{", "[]", '{"target_url": "%s", "target_url": "x"}' %
                    URL):
            r = self.call(rec, "POST", L, L, key, raw,
                          {"Content-Type": "application/json"})
            self.assertEqual((r.status, r.json()["error"]),
                             (400, "invalid_json"), r)
        # 401: no key, a malformed one, another scheme, a disabled account.
        disabled = self.inst.account("disabled@example.com", "pro")
        dkey = self.inst.key(disabled)
        self.inst.ctl("account", "disable", str(disabled))
        for h, code in (({}, "missing_api_key"),
                        ({"Authorization": "Bearer lk_live_nope"},
                         "invalid_api_key"),
                        ({"Authorization": "Basic " + key},
                         "invalid_api_key"),
                        ({"Authorization": "Bearer " + dkey},
                         "account_disabled")):
            for method, template in (("POST", L), ("GET", L), ("GET", ID),
                                     ("PATCH", ID), ("DELETE", ID),
                                     ("GET", ST), ("GET", QR), ("GET", CL)):
                url = template.replace("{id}", str(ids[0]))
                r = self.call(rec, method, template, url, None,
                              {"target_url": URL} if method in (
                                  "POST", "PATCH") else None, h)
                self.assertEqual((r.status, r.json()["error"]), (401, code))
        # 403: the link cap of the account's plan.
        tiny = self.inst.key(self.inst.account("tiny@example.com", "tiny"))
        for _ in range(2):
            self.created({"target_url": URL}, tiny)
        r = self.create({"target_url": URL}, tiny, rec)
        self.assertEqual((r.status, r.json()["error"]),
                         (403, "link_cap_reached"))
        # 409: taken (live or deleted) and reserved slugs.
        for slug, code in (("oa-full", "slug_taken"),
                           ("admin", "slug_reserved"),
                           ("ADMIN", "slug_reserved")):
            r = self.create({"target_url": URL, "slug": slug}, rec=rec)
            self.assertEqual((r.status, r.json()["error"]), (409, code))
        # 413 and 415.
        r = self.create({"target_url": URL, "title": "x" * 70000}, rec=rec)
        self.assertEqual(r.status, 413, r)
        r = self.call(rec, "POST", L, L, key, json.dumps({"target_url": URL}),
                      {"Content-Type": "text/plain"})
        self.assertEqual(r.status, 415, r)
        # The list: pages, then 400s.
        r = self.call(rec, "GET", L, L + "?limit=2", key)
        cursor = r.json()["next_cursor"]
        self.assertIsNotNone(cursor)
        self.call(rec, "GET", L, L + "?limit=100&cursor=" + cursor, key)
        self.call(rec, "GET", L, L, key)
        for query in ("limit=0", "limit=101", "limit=x", "cursor=zzz",
                      "cursor=", "limit=1&limit=1", "zz=1", "a=%00"):
            r = self.call(rec, "GET", L, L + "?" + query, key)
            self.assertEqual(r.status, 400, (query, r))
        # One link: each kind, then 400 and 404s.
        for i in ids:
            self.call(rec, "GET", ID, "%s/%d" % (L, i), key)
        self.assertEqual(self.call(rec, "GET", ID, "%s/%d?x=1" % (L, ids[0]),
                                   key).status, 400)
        for url, k in (("%s/%d" % (L, ids[0]), self.other_key),
                       (L + "/999999999", key), (L + "/0", key),
                       (L + "/01", key), (L + "/abc", key)):
            for method, template, suffix in (("GET", ID, ""),
                                             ("PATCH", ID, ""),
                                             ("DELETE", ID, ""),
                                             ("GET", ST, "/stats"),
                                             ("GET", QR, "/qr"),
                                             ("GET", CL, "/clicks")):
                r = self.call(rec, method, template, url + suffix, k,
                              {"title": "x"} if method == "PATCH" else None)
                self.assertEqual((r.status, r.json()["error"]),
                                 (404, "not_found"), (url, r))
        # Statistics, with clicks and conversions to show.
        for i, ip in enumerate(("203.0.113.1", "203.0.113.2", "203.0.113.3")):
            v = self.inst.request("GET", "/oa-ab/ch%d" % i, headers={
                "User-Agent": CHROME, "X-Forwarded-For": ip,
                "Referer": "https://news.example/a"})
            self.assertEqual(v.status, 302, v)
        self.inst.request("GET", "/oa-ab", headers={"User-Agent": "curl/8"})
        deadline = time.monotonic() + 15
        while self.call(None, "GET", ST, "%s/%d/stats" % (L, ab_id), key
                        ).json()["totals"]["clicks"] < 3:
            self.assertLess(time.monotonic(), deadline, "clicks not counted")
            time.sleep(0.2)
        for ip, body in (("203.0.113.1", {"slug": "oa-ab", "value": 19.9,
                                          "currency": "TWD"}),
                         ("203.0.113.2", {"slug": "oa-ab", "value": "5",
                                          "suffix": "ig"}),
                         ("203.0.113.9", {"slug": "oa-ab", "value": 1e2})):
            r = self.call(rec, "POST", CONV, CONV, body=body, headers={
                "User-Agent": CHROME, "X-Forwarded-For": ip})
            self.assertEqual(r.json(), {"ok": True, "counted": True,
                                        "reason": None})
        today = time.strftime("%Y-%m-%d", time.gmtime())
        tomorrow = time.strftime("%Y-%m-%d", time.gmtime(time.time() +
                                                         86400))
        for query in ("", "?interval=hour", "?interval=day&from=" + today,
                      "?from=%sT00:00:00Z&to=%s" % (today, tomorrow),
                      "?from=" + q(today + "T08:00+08:00") + "&interval=hour"):
            r = self.call(rec, "GET", ST, "%s/%d/stats%s" % (L, ab_id, query),
                          key)
            self.assertEqual(r.status, 200, (query, r))
        j = r.json()
        self.assertEqual(j["totals"]["conversions"], 3)
        self.assertGreaterEqual(j["totals"]["clicks"], 3)
        self.assertIn(None, [x["key"] for x in
                             j["conversion_breakdowns"]["variant"]])
        for query in ("?interval=week", "?from=yesterday", "?to=2030-02-30",
                      "?from=2000-01-01&interval=hour", "?from=" + tomorrow,
                      "?zz=1"):
            r = self.call(rec, "GET", ST, "%s/%d/stats%s" % (L, ab_id, query),
                          key)
            self.assertEqual(r.status, 400, (query, r))
        # Edits: 200 (both media types), then 400, 413 and 415.
        url = "%s/%d" % (L, ab_id)
        for body, ctype in (({"title": "edited", "og": {"title": "O"}},
                             "application/json"),
                            ({"og": None, "max_clicks": 5},
                             "application/merge-patch+json"),
                            ({}, "application/json; charset=utf-8")):
            r = self.call(rec, "PATCH", ID, url, key, json.dumps(body),
                          {"Content-Type": ctype})
            self.assertEqual(r.status, 200, (body, r))
        for body, code, param in (
                ({"slug": "x"}, "read_only_field", "slug"),
                ({"status": "active"}, "read_only_field", "status"),
                ({"zz": 1}, "unknown_field", "zz"),
                ({"target_url": None}, "missing_field", "target_url"),
                ({"mode": "geo"}, "invalid_field", "variants"),
                ({"target_url": "https://127.0.0.1/"}, "unsafe_destination",
                 "target_url")):
            r = self.call(rec, "PATCH", ID, url, key, body)
            self.assertEqual((r.status, r.json()["error"],
                              r.json().get("param")), (400, code, param),
                             (body, r))
        for raw, ctype, status in (("[]", "application/json", 400),
                                   ("{", "application/merge-patch+json", 400),
                                   ('{"title":"x"}', "text/plain", 415),
                                   (json.dumps({"title": "x" * 70000}),
                                    "application/json", 413)):
            r = self.call(rec, "PATCH", ID, url, key, raw,
                          {"Content-Type": ctype})
            self.assertEqual(r.status, status, (raw[:20], r))
        self.assertEqual(self.call(rec, "PATCH", ID, url + "?x=1", key,
                                   {}).status, 400)
        # Searches and status filters.
        for query in ("q=OA-", "q=" + q("春季"), "q=%25", "status=active",
                      "status=disabled", "q=a&status=capped&limit=1"):
            r = self.call(rec, "GET", L, L + "?" + query, key)
            self.assertEqual(r.status, 200, (query, r))
        for query in ("q=", "status=Active", "q=" + "a" * 201):
            r = self.call(rec, "GET", L, L + "?" + query, key)
            self.assertEqual(r.status, 400, (query, r))
        # QR codes: each format, 304, then 400s.
        for query in ("", "?format=png", "?format=svg&size=64&margin=0&ecc=H",
                      "?format=png&size=2048&suffix=ig.x"):
            r = self.call(rec, "GET", QR, "%s/qr%s" % (url, query), key)
            self.assertEqual(r.status, 200, (query, r))
        r = self.call(rec, "GET", QR, url + "/qr", key, headers={
            "If-None-Match": r.header("etag")})
        self.assertEqual(r.status, 200, r)      # another image
        etag = self.call(None, "GET", QR, url + "/qr", key).header("etag")
        r = self.call(rec, "GET", QR, url + "/qr", key,
                      headers={"If-None-Match": etag})
        self.assertEqual((r.status, r.body), (304, b""))
        for query in ("format=gif", "size=63", "size=2049", "margin=17",
                      "ecc=m", "suffix=a%20b", "suffix=", "x=1"):
            r = self.call(rec, "GET", QR, "%s/qr?%s" % (url, query), key)
            self.assertEqual(r.status, 400, (query, r))
        # Raw clicks: pages, CSV, then 400s.
        r = self.call(rec, "GET", CL, url + "/clicks?limit=1", key)
        cursor = r.json()["next_cursor"]
        self.assertIsNotNone(cursor)
        for query in ("?cursor=" + cursor, "?from=" + today, "",
                      "?format=csv", "?format=csv&from=%s&to=%s" %
                      (today, tomorrow)):
            r = self.call(rec, "GET", CL, url + "/clicks" + query, key)
            self.assertEqual(r.status, 200, (query, r))
        for query in ("limit=0", "limit=1001", "cursor=" + cursor[:-1],
                      "format=xml", "format=csv&limit=5", "from=" + tomorrow,
                      "to=yesterday", "format=csv&cursor=" + cursor):
            r = self.call(rec, "GET", CL, "%s/clicks?%s" % (url, query), key)
            self.assertEqual(r.status, 400, (query, r))
        # Delete, then again.
        url = "%s/%d" % (L, ids[1])
        self.assertEqual(self.call(rec, "DELETE", ID, url + "?x=1",
                                   key).status, 400)
        self.assertEqual(self.call(rec, "DELETE", ID, url, key).status, 200)
        self.assertEqual(self.call(rec, "DELETE", ID, url, key).status, 404)
        # Conversions: the pixel always answers its image.
        for query in ("slug=oa-ab&value=1.5&currency=usd&suffix=px",
                      "slug=oa-ab&value=-1", "slug=nope", "", "a=%00"):
            r = self.call(rec, "GET", CONV, CONV + "?" + query, headers={
                "User-Agent": CHROME, "X-Forwarded-For": self.next_ip()})
            self.assertEqual((r.status, r.header("content-type"),
                              len(r.body)), (200, "image/gif", 43))
        r = self.call(None, "HEAD", CONV, CONV + "?slug=oa-ab")
        self.assertEqual((r.status, r.body), (200, b""))
        # The JSON report: each outcome and error.
        ip = self.next_ip()
        free = self.inst.key(self.inst.account("free@example.com"))
        self.created({"target_url": URL, "slug": "oa-free"}, free)
        for body, hdrs, status, what in (
                ({"slug": "oa-full"}, {}, 200, None),
                ({"slug": "oa-full"}, {}, 200, "duplicate"),
                ({"slug": "oa-full"}, {"User-Agent": ""}, 200, "bot"),
                ({"slug": "oa-full", "value": -1}, {}, 400, "value"),
                ({"slug": "oa-full", "value": "1.0000001"}, {}, 400, "value"),
                ({"slug": "oa-full", "currency": "US"}, {}, 400, "currency"),
                ({"slug": "oa-full", "suffix": "a b"}, {}, 400, "suffix"),
                ({"slug": "oa-full", "zz": 1}, {}, 400, "zz"),
                ({"value": 1}, {}, 400, "slug"),
                ({"slug": "nope"}, {}, 404, "slug"),
                ({"slug": "oa-free"}, {}, 403, None)):
            h = {"User-Agent": CHROME, "X-Forwarded-For": ip}
            h.update(hdrs)
            if status != 200 or what is None:
                ip = self.next_ip()
                h["X-Forwarded-For"] = ip
            r = self.call(rec, "POST", CONV, CONV, body=body, headers=h)
            self.assertEqual(r.status, status, (body, r))
            if status == 200:
                self.assertEqual(r.json()["reason"], what)
            elif what:
                self.assertEqual(r.json()["param"], what)
        for body, hdrs, status in (
                (json.dumps({"slug": "x" * 70000}),
                 {"Content-Type": "application/json"}, 413),
                ("slug=oa-full", {"Content-Type":
                                  "application/x-www-form-urlencoded"}, 415),
                ("[1]", {"Content-Type": "application/json"}, 400)):
            hdrs["X-Forwarded-For"] = self.next_ip()
            r = self.call(rec, "POST", CONV, CONV, body=body, headers=hdrs)
            self.assertEqual(r.status, status, r)
        ip = self.next_ip()
        for i in range(4):
            r = self.call(rec if i == 3 else None, "POST", CONV, CONV,
                          body={"slug": "oa-full", "suffix": "s%d" % i},
                          headers={"User-Agent": CHROME,
                                   "X-Forwarded-For": ip})
        self.assertEqual((r.status, r.json()["error"]), (429, "rate_limited"))
        r = self.call(rec, "OPTIONS", CONV, CONV, headers={
            "Origin": "https://shop.example",
            "Access-Control-Request-Method": "POST"})
        self.assertEqual(r.status, 204, r)
        # This document.
        etag = self.call(rec, "GET", SELF, SELF).header("etag")
        self.assertEqual(self.call(rec, "GET", SELF, SELF, headers={
            "If-None-Match": etag}).status, 304)
        self.assertEqual(self.call(rec, "GET", SELF, SELF + "?v=2").status,
                         400)
        # 429: an account whose monthly quota is used up, on every path.
        small = self.inst.key(self.inst.account("small@example.com", "small"))
        sid = self.created({"target_url": URL}, small)["id"]
        for _ in range(3):
            self.call(None, "GET", L, L, small)
        for method, template in (("POST", L), ("GET", L), ("GET", ID),
                                 ("PATCH", ID), ("DELETE", ID), ("GET", ST),
                                 ("GET", QR), ("GET", CL)):
            url = template.replace("{id}", str(sid))
            r = self.call(rec, method, template, url, small,
                          {"target_url": URL} if method in ("POST", "PATCH")
                          else None)
            self.assertEqual((r.status, r.json()["error"]),
                             (429, "quota_exceeded"))
        # 405: any other method, with Allow naming the documented ones.
        for template, item in self.doc["paths"].items():
            url = template.replace("{id}", str(ids[0]))
            r = self.call(rec, "PUT", template, url, key, schema="Error")
            self.assertEqual((r.status, r.json()["error"]),
                             (405, "method_not_allowed"), r)
            self.assertEqual(r.header("cache-control"), "no-store")
            self.assertEqual(r.header("x-request-id"),
                             r.json()["request_id"])
            want = {m.upper() for m in item} | {"OPTIONS"}
            if "get" in item:
                want.add("HEAD")
            self.assertEqual(set(r.header("allow").split(", ")), want,
                             template)
        # 503: nginx's answer while the pool is down.
        self.inst.stop_pool("lz-links")
        try:
            for method, template in (("GET", L), ("POST", CONV),
                                     ("GET", CONV), ("GET", SELF)):
                r = self.call(rec, method, template, template, key,
                              {"slug": "oa-ab"} if method == "POST" else
                              None)
                self.assertEqual(r.status, 503, r)
        finally:
            self.inst.start_pool("lz-links")

        records = [x for x in rec.records if not x.get("request")]
        self.assertEqual({x["status"] for x in records},
                         {200, 201, 204, 304, 400, 401, 403, 404, 405, 409,
                          413, 415, 429, 503})
        # Every answer to a request whose key was accepted counts, and
        # says so (the BadRequest and BodyTooLarge responses cannot
        # require it: nginx's own 400 and 413 lack it).
        for x in records:
            if x["path"].startswith(L) and x["status"] not in (401, 405,
                                                               503):
                for h in ("x-ratelimit-limit", "x-ratelimit-remaining",
                          "x-ratelimit-reset"):
                    self.assertIn(h, x["headers"], x)
        out = rec.check(self, DOC, self.inst.path("answers.json"))
        sys.stderr.write(out)

    # -- the create schema and the service agree ---------------------------

    def candidates(self):
        """(body, param the service names when it refuses or None when it
        accepts, whether the schema can judge it) for every bound, enum
        value and pattern of the create schema."""
        s = self.resolve(self.schemas["LinkCreate"])
        props = s["properties"]
        out = []

        def ok(**f):
            out.append((dict({"target_url": URL}, **f), None, True))

        def bad(param, schema=True, **f):
            out.append((dict({"target_url": URL}, **f), param, schema))

        # Nulls: every optional field.
        for name in props:
            if name not in s["required"]:
                ok(**{name: None})
        # Enums, with the variants each mode needs.
        for v in self.resolve(props["mode"])["enum"]:
            if v is not None:
                ok(mode=v, variants=VARIANTS.get(v))
        bad("mode", mode="zz")
        bad("mode", mode="Simple")
        for v in self.resolve(props["redirect_type"])["enum"]:
            if v is not None:
                ok(redirect_type=v)
        bad("redirect_type", redirect_type=303)
        bad("redirect_type", redirect_type="301")
        for v in (True, False):
            ok(escape_inapp=v)
        bad("escape_inapp", escape_inapp="yes")
        # Bounds of strings, in characters.
        dest = self.resolve(props["target_url"])
        n = dest["maxLength"]
        out.append(({"target_url": "https://example.com/" + "a" * (n - 20)},
                    None, True))
        out.append(({"target_url": "https://example.com/" + "a" * (n - 19)},
                    "target_url", True))
        for name, fill in (("title", "貓"), ("password", "p")):
            p = props[name]
            ok(**{name: fill * p["maxLength"]})
            bad(name, **{name: fill * (p["maxLength"] + 1)})
            if "minLength" in p:
                ok(**{name: fill * p["minLength"]})
                bad(name, **{name: fill * (p["minLength"] - 1)})
        bad("title", title="a\x01b")
        bad("password", password="abc\x7fd")
        for obj in ("og", "utm"):
            for sub, p in props[obj]["properties"].items():
                if "maxLength" not in p:
                    continue
                if sub == "image":
                    base = "https://img.example/"
                    ok(og={sub: base + "x" * (p["maxLength"] - len(base))})
                    bad("og.image", og={sub: base + "x" * (
                        p["maxLength"] - len(base) + 1)})
                    bad("og.image", og={sub: "ftp://img.example/x"})
                    continue
                ok(**{obj: {sub: "雪" * p["maxLength"]}})
                bad("%s.%s" % (obj, sub),
                    **{obj: {sub: "雪" * (p["maxLength"] + 1)}})
                ok(**{obj: {sub: ""}})
            bad("%s.zz" % obj, **{obj: {"zz": "x"}})
        # Slugs.
        ok(slug="a" * 64)
        ok(slug="Az09_-")
        ok(slug="")
        ok(slug=" \t ")
        bad("slug", slug="a" * 65)
        bad("slug", slug="a.b")
        bad("slug", slug="ä")
        # Integers.
        p = self.resolve(props["max_clicks"])
        ok(max_clicks=p["minimum"])
        ok(max_clicks=p["maximum"])
        bad("max_clicks", max_clicks=p["minimum"] - 1)
        bad("max_clicks", max_clicks=p["maximum"] + 1)
        bad("max_clicks", max_clicks="5")
        # Patterns: pixels and times.
        for name, good, wrong in (
                ("pixel_fb", ["12345", "1" * 20, ""],
                 ["1234", "1" * 21, "12a45"]),
                ("pixel_ga", ["G-ABCD", "G-" + "A1" * 10, "UA-1234-1",
                              "UA-1234567890-1234"],
                 ["G-abcd", "G-ABC", "UA-123-1", "UA-1234-12345", "X-1234"]),
                ("pixel_gtm", ["GTM-ABCD", "GTM-" + "A" * 12],
                 ["GTM-ABC", "GTM-abcd", "GTM-" + "A" * 13]),
                ("pixel_tiktok", ["abcd-123", "A" * 40],
                 ["abc-123", "a" * 41, "abcd_123"]),
                ("pixel_line", ["ABCD1234"], ["ABCD 1234"]),
                ("expires_at", ["2099-01-01T00:00:00Z",
                                "2099-01-01t00:00+08:00",
                                "2099-01-01 00:00:00.123456789-0130"],
                 ["2099-01-01", "2099-01-01T00:00:00", "tomorrow",
                  "2099-01-01T00:00:00.12345678901Z"])):
            for v in good:
                ok(**{name: v})
            for v in wrong:
                bad(name, **{name: v})
        # What only the service can tell: time passing and the scan.
        bad("expires_at", False, expires_at="2001-01-01T00:00:00Z")
        bad("target_url", False, target_url="https://10.0.0.1/")
        # Variants by mode.
        ab = VARIANTS["ab"][0]
        p = self.resolve(self.schemas["AbVariants"])
        ok(mode="ab", variants=[ab] * p["minItems"])
        ok(mode="ab", variants=[ab] * p["maxItems"])
        bad("variants", mode="ab", variants=[ab] * (p["minItems"] - 1))
        bad("variants", mode="ab", variants=[ab] * (p["maxItems"] + 1))
        w = p["items"]["properties"]["weight"]
        for v, param in ((w["minimum"], None), (w["maximum"], None),
                         (w["minimum"] - 1, "variants[1].weight"),
                         (w["maximum"] + 1, "variants[1].weight")):
            body = dict(mode="ab", variants=[ab, {"url": URL, "weight": v}])
            if param:
                bad(param, **body)
            else:
                ok(**body)
        bad("variants[0].zz", mode="ab", variants=[dict(ab, zz=1), ab])
        bad("variants[1].weight", mode="ab", variants=[ab, {"url": URL}])
        bad("variants", mode="ab", variants=VARIANTS["geo"])
        bad("variants", mode="ab")
        bad("variants", mode="simple", variants=VARIANTS["ab"])
        bad("variants", variants=VARIANTS["device"])
        for k in self.resolve(self.schemas["DeviceVariants"])[
                "propertyNames"]["enum"]:
            ok(mode="device", variants={k: URL})
        bad("variants", mode="device", variants={})
        bad("variants.tv", mode="device", variants={"tv": URL})
        bad("variants", mode="device", variants=VARIANTS["ab"])
        geo = self.resolve(self.schemas["GeoVariants"])
        codes = ["%c%c" % (a, b) for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                 for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
        ok(mode="geo", variants={c: URL for c in
                                 codes[:geo["maxProperties"]]})
        bad("variants", mode="geo", variants={
            c: URL for c in codes[:geo["maxProperties"] + 1]})
        bad("variants.tw", mode="geo", variants={"tw": URL})
        bad("variants.TWN", mode="geo", variants={"TWN": URL})
        bad("variants.TW", mode="geo", variants={"TW": "mailto:a@b.example"})
        return out

    def test_create_schema_agrees_with_the_service(self):
        rec = Recorder()
        n = 0
        for body, param, judged in self.candidates():
            r = self.create(body)
            what = json.dumps(body)[:200]
            if param is None:
                self.assertEqual(r.status, 201, (what, r))
            else:
                self.assertEqual(r.status, 400, (what, r))
                self.assertEqual(r.json().get("param"), param, what)
            if judged:
                rec.request(L, "post", body, r.status == 201)
                n += 1
        self.assertGreater(n, 100)
        rec.check(self, DOC, self.inst.path("requests.json"))

    def test_patch_schema_agrees_with_the_service(self):
        """Each create candidate as an edit of a fresh simple link: the
        service answers as create did (but for the slug, read-only), and
        the LinkPatch schema agrees where a patch alone decides (not where
        the stored mode does: variants)."""
        key = self.inst.key(self.inst.account("patch@example.com", "pro"))
        rec = Recorder()
        n = 0
        for body, param, judged in self.candidates():
            i = self.created({"target_url": URL}, key)["id"]
            r = self.call(None, "PATCH", ID, "%s/%d" % (L, i), key, body)
            what = json.dumps(body)[:200]
            for fixed in ("slug", "domain"):    # read-only once created
                if fixed in body:
                    param, judged = fixed, True
            if param is None:
                self.assertEqual(r.status, 200, (what, r))
            else:
                self.assertEqual(r.status, 400, (what, r))
                self.assertEqual(r.json().get("param"), param, what)
            if judged and param != "variants":
                rec.request(ID, "patch", body, r.status == 200)
                n += 1
            self.call(None, "DELETE", ID, "%s/%d" % (L, i), key)
        # What the patch alone decides beyond create: clearing.
        i = self.created({"target_url": URL}, key)["id"]
        for body, ok in (({}, True), ({"target_url": None}, False),
                         ({"title": None, "og": None, "utm": None,
                           "password": None}, True),
                         ({"id": 1}, False), ({"short_url": "x"}, False),
                         ({"stats": None}, False)):
            r = self.call(None, "PATCH", ID, "%s/%d" % (L, i), key, body)
            self.assertEqual(r.status, 200 if ok else 400, (body, r))
            rec.request(ID, "patch", body, ok)
            n += 1
        self.assertGreater(n, 100)
        rec.check(self, DOC, self.inst.path("patches.json"))

    def test_defaults_are_applied(self):
        props = self.schemas["LinkCreate"]["properties"]
        defaults = {k: self.resolve(p)["default"] for k, p in props.items()
                    if "default" in self.resolve(p)}
        self.assertEqual(set(defaults), {"mode", "redirect_type",
                                         "escape_inapp", "max_clicks"})

        def link(body):
            i = self.created(body)["id"]
            j = self.call(None, "GET", ID, "%s/%d" % (L, i), self.key).json()
            for k in ("id", "slug", "short_url", "created_at"):
                del j["link"][k]
            return j["link"]

        implicit = link({"target_url": URL})
        for k, v in defaults.items():
            self.assertEqual(implicit[k], v, k)
        self.assertEqual(link(dict({"target_url": URL}, **defaults)),
                         implicit)
        # null is absent.
        self.assertEqual(link(dict({"target_url": URL},
                                   **{k: None for k in defaults})), implicit)
        # The list's limit.
        p = self.doc["paths"][L]["get"]["parameters"][0]
        self.assertEqual(p["name"], "limit")
        for i in range(p["schema"]["default"] + 1 - self.count_links()):
            self.created({"target_url": URL})
        j = self.call(None, "GET", L, L, self.key).json()
        self.assertEqual(len(j["links"]), p["schema"]["default"])
        # The stats' interval.
        p = self.doc["paths"][ST]["get"]["parameters"][3]
        self.assertEqual(p["name"], "interval")
        i = self.created({"target_url": URL})["id"]
        j = self.call(None, "GET", ST, "%s/%d/stats" % (L, i),
                      self.key).json()
        self.assertEqual(j["interval"], p["schema"]["default"])
        # The QR code's: the same image as with every default given, an
        # SVG of whole modules at most size wide.
        qp = {x["name"]: x["schema"] for x in
              self.doc["paths"][QR]["get"]["parameters"] if "name" in x}
        url = "%s/%d/qr" % (L, i)
        r = self.call(None, "GET", QR, url, self.key)
        self.assertEqual(r.header("content-type"),
                         "image/%s+xml" % qp["format"]["default"])
        given = self.call(None, "GET", QR, url + "?" + "&".join(
            "%s=%s" % (k, v["default"]) for k, v in qp.items()
            if "default" in v), self.key)
        self.assertEqual(given.body, r.body)
        m = re.search(rb'width="(\d+)" height="\1" viewBox="0 0 (\d+) \2"',
                      r.body)
        px, n = int(m.group(1)), int(m.group(2))
        self.assertEqual(px, n * (qp["size"]["default"] // n))
        # The clicks': JSON.
        cp = {x["name"]: x["schema"] for x in
              self.doc["paths"][CL]["get"]["parameters"] if "name" in x}
        r = self.call(None, "GET", CL, "%s/%d/clicks" % (L, i), self.key)
        self.assertEqual(r.header("content-type").split(";")[0],
                         "application/" + cp["format"]["default"])

    def count_links(self):
        return self.inst.sql("SELECT count(*) FROM links WHERE account_id "
                             "= %d AND deleted_at IS NULL" % self.acct)[0][0]

    # -- query parameters: the document and the service agree --------------

    def test_query_parameters_agree_with_the_service(self):
        i = self.created({"target_url": URL})["id"]
        self.created({"target_url": URL})
        cursor = self.call(None, "GET", L, L + "?limit=1", self.key).json()[
            "next_cursor"]
        today = time.strftime("%Y-%m-%d", time.gmtime())
        # A cursor of the clicks is two numbers (made here: the link has
        # no clicks to page through).
        ccursor = base64.urlsafe_b64encode(b"%d.1" % (time.time() * 1000)
                                           ).decode().rstrip("=")
        samples = {
            "cursor": ([cursor], ["zzz", "MA"]),
            CL + " cursor": ([ccursor], [cursor, "zzz", "MC4x"]),
            "q": (["x", "50%25", "a_b", q("春")], []),
            "suffix": (["ig", "a.b-c_D9"], ["a%20b", "a/b", "%C3%A9"]),
            "from": ([today, today + "T00:00:00Z", q(today + "T08:00+08:00")],
                     ["yesterday", today + "T00:00:00", "2030-13-01"]),
            "to": (["2999-01-01", "2999-01-01T00:00:00.5-01:30"],
                   ["1969-12-31", "2030-02-30", today + "X"]),
            # the default domain's host, any case; no domain, no host
            "domain": (["127.0.0.1", "127.0.0.1."],
                       ["nope.test", "a%20b", "x.test:80"]),
            "tag": (["spring", "Spring%20Sale", q("新品"),
                     "a&tag=b&tag=A"], ["a%2Fb", "%20%20", "a%01"]),
        }

        def expect(url, status, param=None):
            r = self.call(None, "GET", None, url, self.key)
            self.assertEqual(r.status, status, (url, r))
            if param:
                self.assertEqual(r.json().get("param"), param, url)

        checked = 0
        for template, item in self.doc["paths"].items():
            if not template.startswith(L):
                continue
            for method, op in item.items():
                if method not in ("get", "delete"):
                    continue    # PATCH: test_patch_schema_agrees...
                url = template.replace("{id}", str(i))
                if method == "get":
                    expect(url + "?zz_unknown=1", 400, "zz_unknown")
                for p in op.get("parameters", []):
                    if "$ref" in p or p["in"] != "query":
                        continue
                    name, s = p["name"], self.resolve(p["schema"])
                    u = url + "?" + name + "="
                    if "enum" in s:
                        for v in s["enum"]:
                            expect(u + v, 200)
                        for v in ("zz", "", s["enum"][0].swapcase()):
                            expect(u + v, 400, name)
                    elif s["type"] == "integer":
                        lo, hi = s["minimum"], s["maximum"]
                        expect(u + str(lo), 200)
                        expect(u + str(hi), 200)
                        for v in (lo - 1, hi + 1, "1.0", "", "01", "+1"):
                            expect(u + str(v), 400, name)
                    else:
                        # A repeatable one (tag=) is an array of them.
                        many = s["type"] == "array"
                        one = s["items"] if many else s
                        good, wrong = samples.get(template + " " + name,
                                                  samples.get(name))
                        for v in good:
                            expect(u + v, 200)
                        for v in wrong + ["", "a" * (one["maxLength"] + 1)]:
                            expect(u + v, 400, name)
                        if many:
                            expect(u + "&".join(["%s=t%d" % (name, k) for k
                                                 in range(s["maxItems"])])
                                   [len(name) + 1:], 200)
                            expect(u + "&".join(["%s=t%d" % (name, k) for k
                                                 in range(s["maxItems"] + 1)])
                                   [len(name) + 1:], 400, name)
                    expect(u + "1&" + name + "=1", 200 if s["type"] ==
                           "array" else 400, None if s["type"] == "array"
                           else name)
                    checked += 1
        self.assertEqual(checked, 20)


if __name__ == "__main__":
    lzenv.main()
