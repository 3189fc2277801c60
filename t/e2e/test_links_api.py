"""End-to-end tests of the link management API (/api/v1/links) through
real nginx and the real lz-links pool: every status code of the spec,
headers, paging, tombstones, quotas, link caps and a pool restart."""

import concurrent.futures
import json
import os
import re
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None

EXTRA = """
plan.tiny.links = 3
plan.tiny.quota = 1000
plan.small.quota = 8
plan.small.links = 100
reserved_slugs = about, help
"""


def setUpModule():
    global inst
    # start() stops what it started when something fails.
    inst = lzenv.Instance("links-api", extra_conf=EXTRA).start()


def tearDownModule():
    if inst is not None:
        inst.stop()


def new_key(email, plan=None):
    acct = inst.account(email, plan)
    return acct, inst.key(acct)


class Base(unittest.TestCase):
    def assertError(self, r, status, code=None, param=None):
        self.assertEqual(r.status, status, r)
        self.assertTrue(r.header("content-type", "").startswith(
            "application/json"), r.headers)
        body = r.json()
        self.assertIs(body["ok"], False)
        self.assertIsInstance(body["error"], str)
        self.assertRegex(body["error"], r"^[a-z_]+$")
        self.assertIsInstance(body["message"], str)
        self.assertTrue(body["message"])
        self.assertEqual(body["request_id"], r.header("x-request-id"))
        if code is not None:
            self.assertEqual(body["error"], code, body)
        if param is not None:
            self.assertEqual(body.get("param"), param, body)
        return body


class Create(Base):
    @classmethod
    def setUpClass(cls):
        cls.acct, cls.key = new_key("create@example.com")

    def test_created_with_defaults(self):
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://example.com/a?b=1"})
        self.assertEqual(r.status, 201, r)
        body = r.json()
        self.assertEqual(set(body), {"ok", "id", "slug", "short_url"})
        self.assertIs(body["ok"], True)
        self.assertIsInstance(body["id"], int)
        self.assertRegex(body["slug"], r"^[0-9A-Za-z]{7}$")
        self.assertEqual(body["short_url"], "http://127.0.0.1:%d/%s" %
                         (inst.links_port, body["slug"]))
        self.assertEqual(r.header("location"),
                         "/api/v1/links/%d" % body["id"])
        self.assertRegex(r.header("x-request-id"), r"^[0-9a-f]{32}$")
        g = inst.api("GET", "/api/v1/links/%d" % body["id"], self.key)
        self.assertEqual(g.status, 200, g)
        link = g.json()["link"]
        self.assertEqual(link["mode"], "simple")
        self.assertEqual(link["redirect_type"], 302)
        self.assertIs(link["escape_inapp"], False)
        self.assertEqual(link["max_clicks"], 0)
        self.assertIsNone(link["expires_at"])
        self.assertIsNone(link["variants"])
        self.assertIs(link["has_password"], False)
        self.assertEqual(link["status"], "active")
        self.assertEqual(link["stats"], {"clicks": 0, "conversions": 0,
                                         "revenue": {},
                                         "conversion_rate": 0})
        self.assertRegex(link["created_at"],
                         r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

    def test_every_field_round_trips(self):
        body = {
            "target_url": "https://example.com/landing",
            "slug": "full-Options_1",
            "title": "春季特賣 <b>&</b>",
            "mode": "ab",
            "variants": [{"url": "https://a.example/", "weight": 70},
                         {"url": "https://b.example/", "weight": 30}],
            "redirect_type": 301,
            "og": {"title": "T", "description": "D",
                   "image": "https://img.example/x.png"},
            "pixel_fb": "123456789012345",
            "pixel_ga": "G-ABC123XYZ",
            "pixel_gtm": "GTM-AB12CD",
            "pixel_tiktok": "C4ABCDEF12345",
            "pixel_line": "abcd-1234-efgh",
            "escape_inapp": True,
            "expires_at": "2099-01-01T08:00:00+08:00",
            "max_clicks": 100,
            "utm": {"source": "news", "medium": "email",
                    "campaign": "spring"},
            "password": "open sesame",
        }
        r = inst.api("POST", "/api/v1/links", self.key, body)
        self.assertEqual(r.status, 201, r)
        self.assertEqual(r.json()["slug"], "full-Options_1")
        link = inst.api("GET", "/api/v1/links/%d" % r.json()["id"],
                        self.key).json()["link"]
        for k in ("target_url", "slug", "title", "mode", "variants",
                  "redirect_type", "og", "pixel_fb", "pixel_ga", "pixel_gtm",
                  "pixel_tiktok", "pixel_line", "escape_inapp", "max_clicks",
                  "utm"):
            self.assertEqual(link[k], body[k], k)
        self.assertEqual(link["expires_at"], "2099-01-01T00:00:00Z")
        self.assertIs(link["has_password"], True)
        self.assertNotIn("password", link)
        self.assertNotIn("password_hash", link)
        raw = inst.sql("SELECT password_hash FROM links WHERE slug = "
                       "'full-Options_1'")[0][0]
        self.assertTrue(raw.startswith("$argon2id$"), raw)

    BAD = [
        ({}, "target_url"),
        ({"target_url": None}, "target_url"),
        ({"target_url": 5}, "target_url"),
        ({"target_url": ""}, "target_url"),
        ({"target_url": "example.com"}, "target_url"),
        ({"target_url": "ftp://example.com/"}, "target_url"),
        ({"target_url": "javascript:alert(1)"}, "target_url"),
        ({"target_url": "https://example.com/" + "a" * 2048}, "target_url"),
        ({"target_url": "https://example.com", "bogus": 1}, "bogus"),
        ({"target_url": "https://example.com", "slug": "no spaces"}, "slug"),
        ({"target_url": "https://example.com", "slug": "x" * 65}, "slug"),
        ({"target_url": "https://example.com", "slug": 12}, "slug"),
        ({"target_url": "https://example.com", "title": {"a": 1}}, "title"),
        ({"target_url": "https://example.com", "title": "x" * 501}, "title"),
        ({"target_url": "https://example.com", "mode": "weighted"}, "mode"),
        ({"target_url": "https://example.com", "mode": "ab"}, "variants"),
        ({"target_url": "https://example.com", "mode": "ab",
          "variants": [{"url": "https://a.example", "weight": 1}]},
         "variants"),
        ({"target_url": "https://example.com", "mode": "ab",
          "variants": [{"url": "https://a.example", "weight": 1},
                       {"url": "https://b.example", "weight": 0}]},
         "variants[1].weight"),
        ({"target_url": "https://example.com", "mode": "device",
          "variants": {"fridge": "https://a.example"}}, "variants.fridge"),
        ({"target_url": "https://example.com", "mode": "geo",
          "variants": {"tw": "https://a.example"}}, "variants.tw"),
        ({"target_url": "https://example.com",
          "variants": {"TW": "https://a.example"}}, "variants"),
        ({"target_url": "https://example.com", "redirect_type": 307},
         "redirect_type"),
        ({"target_url": "https://example.com", "redirect_type": "302"},
         "redirect_type"),
        ({"target_url": "https://example.com", "og": {"video": "x"}},
         "og.video"),
        ({"target_url": "https://example.com", "og": {"image": "data:x"}},
         "og.image"),
        ({"target_url": "https://example.com", "pixel_fb": "abc"},
         "pixel_fb"),
        ({"target_url": "https://example.com", "pixel_ga": "G-\"><x"},
         "pixel_ga"),
        ({"target_url": "https://example.com", "pixel_gtm": "GTM"},
         "pixel_gtm"),
        ({"target_url": "https://example.com", "pixel_tiktok": "</script>"},
         "pixel_tiktok"),
        ({"target_url": "https://example.com", "pixel_line": "a"},
         "pixel_line"),
        ({"target_url": "https://example.com", "escape_inapp": "yes"},
         "escape_inapp"),
        ({"target_url": "https://example.com",
          "expires_at": "2001-01-01T00:00:00Z"}, "expires_at"),
        ({"target_url": "https://example.com", "expires_at": "tomorrow"},
         "expires_at"),
        ({"target_url": "https://example.com", "expires_at": 4102444800},
         "expires_at"),
        ({"target_url": "https://example.com", "max_clicks": -5},
         "max_clicks"),
        ({"target_url": "https://example.com", "max_clicks": 2 ** 40},
         "max_clicks"),
        ({"target_url": "https://example.com", "max_clicks": 3.0},
         "max_clicks"),
        ({"target_url": "https://example.com", "utm": {"id": "x"}},
         "utm.id"),
        ({"target_url": "https://example.com", "utm": {"source": 1}},
         "utm.source"),
        ({"target_url": "https://example.com", "password": "abc"},
         "password"),
        ({"target_url": "https://example.com", "password": "x" * 129},
         "password"),
    ]

    def test_each_invalid_field_is_400_naming_it(self):
        before = inst.sql("SELECT count(*) FROM links")[0][0]
        for body, param in self.BAD:
            with self.subTest(body=json.dumps(body)[:80]):
                r = inst.api("POST", "/api/v1/links", self.key, body)
                self.assertError(r, 400, param=param)
        self.assertEqual(inst.sql("SELECT count(*) FROM links")[0][0], before)

    def test_malformed_bodies(self):
        k = {"Authorization": "Bearer " + self.key}
        for raw, code in [
                (b'{"target_url": "https://example.com"', "invalid_json"),
                (b'', "invalid_json"),
                (b'[]', "invalid_json"),
                (b'"x"', "invalid_json"),
                (b'{"target_url":"https://a.example","target_url":'
                 b'"https://b.example"}', "invalid_json"),
                (b'{"target_url":"https://a.example"} trailing',
                 "invalid_json"),
                (b'{"a":' * 5000 + b'1' + b'}' * 5000, "invalid_json"),
                (b'{"target_url":"\xff"}', "invalid_json"),
                (b'{"target_url":"https://a.example","title":"\\u0000"}',
                 "invalid_json"),
                (b'{"max_clicks": 99999999999999999999999}', "invalid_json"),
        ]:
            with self.subTest(raw=raw[:40]):
                r = inst.request("POST", "/api/v1/links", body=raw,
                                 headers=dict(k, **{
                                     "Content-Type": "application/json"}))
                self.assertError(r, 400, code=code)

    def test_content_type_415(self):
        for ct in ("text/plain", "application/x-www-form-urlencoded",
                   "application/jsonx", "application/json; charset=latin1"):
            with self.subTest(ct=ct):
                r = inst.request("POST", "/api/v1/links",
                                 body=b'{"target_url":"https://a.example"}',
                                 headers={"Authorization": "Bearer " +
                                          self.key, "Content-Type": ct})
                self.assertError(r, 415, code="unsupported_media_type")
        r = inst.request("POST", "/api/v1/links",
                         body=b'{"target_url":"https://a.example"}',
                         headers={"Authorization": "Bearer " + self.key})
        self.assertError(r, 415)
        r = inst.request("POST", "/api/v1/links",
                         body=b'{"target_url":"https://a.example"}',
                         headers={"Authorization": "Bearer " + self.key,
                                  "Content-Type":
                                  "Application/JSON; charset=UTF-8"})
        self.assertEqual(r.status, 201, r)

    def test_body_too_large_413(self):
        big = {"target_url": "https://example.com", "title": "x" * 70000}
        r = inst.api("POST", "/api/v1/links", self.key, big)
        self.assertError(r, 413, code="body_too_large")
        # Past nginx's own limit the answer is still the JSON error body.
        r = inst.api("POST", "/api/v1/links", self.key,
                     b"x" * (2 * 1024 * 1024),
                     headers={"Content-Type": "application/json"})
        self.assertError(r, 413)

    def test_slug_taken_reserved_and_tombstoned_409(self):
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://a.example", "slug": "taken1"})
        self.assertEqual(r.status, 201, r)
        r2 = inst.api("POST", "/api/v1/links", self.key,
                      {"target_url": "https://b.example", "slug": "taken1"})
        self.assertError(r2, 409, code="slug_taken", param="slug")
        # Another account cannot take it either.
        _, other = new_key("slug-other@example.com")
        r3 = inst.api("POST", "/api/v1/links", other,
                      {"target_url": "https://b.example", "slug": "taken1"})
        self.assertError(r3, 409, code="slug_taken")
        for slug in ("api", "dashboard", "Dashboard", "static", "login",
                     "admin", "about", "HELP"):
            with self.subTest(slug=slug):
                r = inst.api("POST", "/api/v1/links", self.key,
                             {"target_url": "https://a.example",
                              "slug": slug})
                self.assertError(r, 409, code="slug_reserved", param="slug")
        # A deleted link's slug stays taken (tombstone).
        lid = inst.sql("SELECT id FROM links WHERE slug = 'taken1'")[0][0]
        d = inst.api("DELETE", "/api/v1/links/%d" % lid, self.key)
        self.assertEqual(d.status, 200, d)
        r4 = inst.api("POST", "/api/v1/links", self.key,
                      {"target_url": "https://c.example", "slug": "taken1"})
        self.assertError(r4, 409, code="slug_taken")

    def test_slugs_are_case_sensitive(self):
        a = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://a.example", "slug": "CaseX"})
        b = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://a.example", "slug": "casex"})
        self.assertEqual((a.status, b.status), (201, 201))


class Auth(Base):
    @classmethod
    def setUpClass(cls):
        cls.acct, cls.key = new_key("auth@example.com")

    def test_missing_invalid_revoked_401(self):
        cases = [
            ({}, "missing_api_key"),
            ({"Authorization": ""}, "missing_api_key"),
            ({"Authorization": "Basic dXNlcjpwYXNz"}, "invalid_api_key"),
            ({"Authorization": "Bearer"}, "invalid_api_key"),
            ({"Authorization": "Bearer lk_live_"}, "invalid_api_key"),
            ({"Authorization": "Bearer " + self.key[:-1] +
              ("A" if self.key[-1] != "A" else "B")}, "invalid_api_key"),
            ({"Authorization": "Bearer " + self.key + "x"},
             "invalid_api_key"),
            ({"Authorization": "Bearer ' OR 1=1 --"}, "invalid_api_key"),
        ]
        for h, code in cases:
            for method, path in (("GET", "/api/v1/links"),
                                 ("POST", "/api/v1/links"),
                                 ("GET", "/api/v1/links/1"),
                                 ("DELETE", "/api/v1/links/1")):
                with self.subTest(h=h, method=method, path=path):
                    r = inst.request(method, path, headers=h)
                    self.assertError(r, 401, code=code)
                    self.assertIsNone(r.header("x-ratelimit-remaining"))
                    self.assertTrue(r.header("www-authenticate", "")
                                    .startswith("Bearer"))
        # A well-formed key that was never issued.
        rc, out, _ = inst.ctl("key", "create", str(self.acct))
        fresh = out.strip()
        kid = inst.sql("SELECT max(id) FROM api_keys")[0][0]
        inst.sql("DELETE FROM api_keys WHERE id = %d" % kid)
        self.assertError(inst.api("GET", "/api/v1/links", fresh), 401,
                         code="invalid_api_key")

    def test_revoked_key_and_disabled_account(self):
        acct, key = new_key("revoke@example.com")
        self.assertEqual(inst.api("GET", "/api/v1/links", key).status, 200)
        kid = inst.sql("SELECT id FROM api_keys WHERE account_id = %d" %
                       acct)[0][0]
        inst.ctl("key", "revoke", str(kid))
        self.assertError(inst.api("GET", "/api/v1/links", key), 401,
                         code="revoked_api_key")
        acct2, key2 = new_key("disabled@example.com")
        inst.ctl("account", "disable", "disabled@example.com")
        self.assertError(inst.api("GET", "/api/v1/links", key2), 401,
                         code="account_disabled")
        inst.ctl("account", "enable", str(acct2))
        self.assertEqual(inst.api("GET", "/api/v1/links", key2).status, 200)

    def test_key_stored_only_as_hash(self):
        rows = inst.sql("SELECT hash, prefix, last4 FROM api_keys")
        for h, prefix, last4 in rows:
            self.assertEqual(len(h), 32)
            self.assertEqual(len(prefix), 12)
            self.assertEqual(len(last4), 4)
        self.assertNotIn(self.key.encode(), inst.dump())

    def test_other_accounts_link_404(self):
        _, other = new_key("auth-other@example.com")
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://mine.example"})
        lid = r.json()["id"]
        self.assertError(inst.api("GET", "/api/v1/links/%d" % lid, other),
                         404, code="not_found")
        self.assertError(inst.api("DELETE", "/api/v1/links/%d" % lid, other),
                         404, code="not_found")
        self.assertEqual(inst.api("GET", "/api/v1/links/%d" % lid,
                                  self.key).status, 200)
        ids = [x["id"] for x in
               inst.api("GET", "/api/v1/links?limit=100", other)
               .json()["links"]]
        self.assertNotIn(lid, ids)


class Quota(Base):
    def test_quota_headers_and_429(self):
        acct, key = new_key("quota@example.com", "small")
        seen = []
        for i in range(8):
            r = inst.api("GET", "/api/v1/links", key)
            self.assertEqual(r.status, 200, r)
            self.assertEqual(r.header("x-ratelimit-limit"), "8")
            seen.append(int(r.header("x-ratelimit-remaining")))
            reset = int(r.header("x-ratelimit-reset"))
            t = time.gmtime(reset)
            self.assertEqual((t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec),
                             (1, 0, 0, 0))
            self.assertGreater(reset, time.time())
        self.assertEqual(seen, [7, 6, 5, 4, 3, 2, 1, 0])
        for method, path, body in (("GET", "/api/v1/links", None),
                                   ("POST", "/api/v1/links",
                                    {"target_url": "https://a.example"})):
            r = inst.api(method, path, key, body)
            self.assertError(r, 429, code="quota_exceeded")
            self.assertEqual(r.header("x-ratelimit-remaining"), "0")
            wait = int(r.header("retry-after"))
            self.assertGreaterEqual(wait, 1)
            self.assertLessEqual(wait, 31 * 86400)
            self.assertAlmostEqual(time.time() + wait,
                                   int(r.header("x-ratelimit-reset")),
                                   delta=2)
        month = time.strftime("%Y-%m", time.gmtime())
        self.assertEqual(inst.sql("SELECT calls FROM usage WHERE "
                                  "account_id = %d AND month = '%s'" %
                                  (acct, month))[0][0], 8)
        # A plan change lifts the limit at once.
        inst.ctl("account", "plan", str(acct), "pro")
        r = inst.api("GET", "/api/v1/links", key)
        self.assertEqual(r.status, 200)
        self.assertEqual(r.header("x-ratelimit-limit"), "100000")

    def test_quota_exact_under_concurrency(self):
        acct, key = new_key("quota-conc@example.com", "small")
        with concurrent.futures.ThreadPoolExecutor(16) as ex:
            statuses = list(ex.map(
                lambda _: inst.api("GET", "/api/v1/links", key).status,
                range(30)))
        self.assertEqual(statuses.count(200), 8, statuses)
        self.assertEqual(statuses.count(429), 22, statuses)

    def test_every_authenticated_answer_has_headers(self):
        _, key = new_key("quota-hdr@example.com")
        for method, path, body in (
                ("GET", "/api/v1/links", None),
                ("GET", "/api/v1/links?limit=0", None),
                ("GET", "/api/v1/links/999999", None),
                ("DELETE", "/api/v1/links/999999", None),
                ("POST", "/api/v1/links", {"target_url": "bad"}),
                ("POST", "/api/v1/links", {"target_url": "https://x.example"})):
            r = inst.api(method, path, key, body)
            self.assertIsNotNone(r.header("x-ratelimit-remaining"), r)
            self.assertIsNotNone(r.header("x-ratelimit-limit"), r)
            self.assertIsNotNone(r.header("x-ratelimit-reset"), r)


class Cap(Base):
    def test_link_cap_403_and_delete_frees(self):
        _, key = new_key("cap@example.com", "tiny")
        ids = []
        for i in range(3):
            r = inst.api("POST", "/api/v1/links", key,
                         {"target_url": "https://cap.example/%d" % i})
            self.assertEqual(r.status, 201, r)
            ids.append(r.json()["id"])
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://cap.example/4"})
        self.assertError(r, 403, code="link_cap_reached")
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" % ids[0],
                                  key).status, 200)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://cap.example/5"})
        self.assertEqual(r.status, 201, r)

    def test_cap_exact_under_concurrency(self):
        acct, key = new_key("cap-conc@example.com", "tiny")
        with concurrent.futures.ThreadPoolExecutor(12) as ex:
            statuses = list(ex.map(
                lambda i: inst.api("POST", "/api/v1/links", key,
                                   {"target_url": "https://c.example/%d" % i}
                                   ).status, range(12)))
        self.assertEqual(statuses.count(201), 3, statuses)
        self.assertEqual(statuses.count(403), 9, statuses)
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE "
                                  "account_id = %d" % acct)[0][0], 3)


class ListGetDelete(Base):
    @classmethod
    def setUpClass(cls):
        cls.acct, cls.key = new_key("list@example.com")
        cls.ids = []
        for i in range(25):
            r = inst.api("POST", "/api/v1/links", cls.key,
                         {"target_url": "https://list.example/%d" % i,
                          "slug": "list-%02d" % i})
            assert r.status == 201, r
            cls.ids.append(r.json()["id"])

    def test_paging_with_cursor(self):
        seen, cursor, pages = [], None, 0
        while True:
            path = "/api/v1/links?limit=10"
            if cursor:
                path += "&cursor=" + cursor
            r = inst.api("GET", path, self.key)
            self.assertEqual(r.status, 200, r)
            body = r.json()
            self.assertEqual(set(body), {"ok", "links", "next_cursor"})
            pages += 1
            seen += [x["id"] for x in body["links"]]
            cursor = body["next_cursor"]
            if cursor is None:
                break
            self.assertEqual(len(body["links"]), 10)
        self.assertEqual(pages, 3)
        self.assertEqual(seen, sorted(self.ids, reverse=True))
        # Default limit 20; limit 25 fits in one page with a null cursor.
        r = inst.api("GET", "/api/v1/links", self.key).json()
        self.assertEqual(len(r["links"]), 20)
        self.assertIsNotNone(r["next_cursor"])
        r = inst.api("GET", "/api/v1/links?limit=25", self.key).json()
        self.assertEqual(len(r["links"]), 25)
        self.assertIsNone(r["next_cursor"])
        # Each item is the full representation.
        item = r["links"][0]
        for k in ("id", "slug", "short_url", "target_url", "title", "mode",
                  "variants", "redirect_type", "og", "pixel_fb", "pixel_ga",
                  "pixel_gtm", "pixel_tiktok", "pixel_line", "escape_inapp",
                  "expires_at", "max_clicks", "utm", "has_password",
                  "status", "created_at", "stats"):
            self.assertIn(k, item)

    def test_list_parameters_400(self):
        for q, param in (("limit=0", "limit"), ("limit=101", "limit"),
                         ("limit=ten", "limit"), ("limit=", "limit"),
                         ("limit=-1", "limit"), ("limit=1e1", "limit"),
                         ("cursor=", "cursor"), ("cursor=%%%", None),
                         ("cursor=bm9wZQ", "cursor"), ("cursor=@@", "cursor"),
                         ("page=2", "page"), ("limit=5&limit=6", "limit"),
                         ("limit=%00", None)):
            with self.subTest(q=q):
                r = inst.api("GET", "/api/v1/links?" + q, self.key)
                self.assertError(r, 400, param=param)

    def test_get_and_delete(self):
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://gone.example"})
        lid = r.json()["id"]
        g = inst.api("GET", "/api/v1/links/%d" % lid, self.key)
        self.assertEqual(g.status, 200)
        self.assertEqual(set(g.json()), {"ok", "link"})
        self.assertEqual(g.json()["link"]["id"], lid)
        d = inst.api("DELETE", "/api/v1/links/%d" % lid, self.key)
        self.assertEqual(d.status, 200, d)
        self.assertEqual(d.json(), {"ok": True, "id": lid, "deleted": True})
        self.assertError(inst.api("GET", "/api/v1/links/%d" % lid, self.key),
                         404, code="not_found")
        self.assertError(inst.api("DELETE", "/api/v1/links/%d" % lid,
                                  self.key), 404)
        ids = [x["id"] for x in inst.api("GET", "/api/v1/links?limit=100",
                                         self.key).json()["links"]]
        self.assertNotIn(lid, ids)

    def test_bad_ids_404(self):
        for p in ("0", "999999999", "abc", "1.5", "-1", "01",
                  "99999999999999999999999", "%31"):
            with self.subTest(id=p):
                r = inst.api("GET", "/api/v1/links/" + p, self.key)
                self.assertError(r, 404)


class Http(Base):
    @classmethod
    def setUpClass(cls):
        cls.acct, cls.key = new_key("http@example.com")

    def test_405_with_allow(self):
        for method, path, allow in (
                ("PUT", "/api/v1/links", "GET, HEAD, POST, OPTIONS"),
                ("PUT", "/api/v1/links/1", "GET, HEAD, PATCH, DELETE, "
                 "OPTIONS"),
                ("POST", "/api/v1/links/1", "GET, HEAD, PATCH, DELETE, "
                 "OPTIONS"),
                ("PATCH", "/api/v1/links/1/qr", "GET, HEAD, OPTIONS"),
                ("DELETE", "/api/v1/links", "GET, HEAD, POST, OPTIONS")):
            with self.subTest(method=method, path=path):
                r = inst.api(method, path, self.key)
                self.assertError(r, 405, code="method_not_allowed")
                self.assertEqual(r.header("allow"), allow)

    def test_options_204(self):
        r = inst.request("OPTIONS", "/api/v1/links")
        self.assertEqual(r.status, 204)
        self.assertEqual(r.header("allow"), "GET, HEAD, POST, OPTIONS")

    def test_unknown_api_path_json_404(self):
        for p in ("/api/v1/nothing", "/api/v2/links", "/api/v1/links/1/x/y",
                  "/api/"):
            with self.subTest(path=p):
                self.assertError(inst.api("GET", p, self.key), 404,
                                 code="not_found")

    def test_head_has_no_body(self):
        r = inst.api("HEAD", "/api/v1/links", self.key)
        self.assertEqual(r.status, 200)
        self.assertEqual(r.body, b"")

    def test_bad_path_encoding_400(self):
        for p in ("/api/v1/links/%00", "/api/v1/links/%ff", "/api/v1/%0a"):
            with self.subTest(path=p):
                self.assertError(inst.api("GET", p, self.key), 400)

    def test_request_id_passes_through(self):
        r = inst.api("GET", "/api/v1/links", self.key)
        rid = r.header("x-request-id")
        self.assertRegex(rid, r"^[0-9a-f]{32}$")
        self.assertIn("rid=" + rid, inst.log("lz-links"))


class Restart(Base):
    def test_data_survives_pool_restart(self):
        _, key = new_key("restart@example.com")
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://persist.example",
                      "slug": "persist-me"})
        self.assertEqual(r.status, 201)
        lid = r.json()["id"]
        self.assertEqual(inst.stop_pool("lz-links"), 0)
        # nginx answers with the JSON 503 while the pool is down.
        down = inst.api("GET", "/api/v1/links/%d" % lid, key)
        self.assertError(down, 503, code="service_unavailable")
        inst.start_pool("lz-links")
        g = inst.api("GET", "/api/v1/links/%d" % lid, key)
        self.assertEqual(g.status, 200, g)
        self.assertEqual(g.json()["link"]["slug"], "persist-me")

    def test_workers_are_sandboxed(self):
        # A worker the pool has just respawned (test_worker_crash...) may
        # still be on its way into the sandbox; wait, bounded, for that.
        sts = inst.confined_workers("lz-links", 2)
        self.assertEqual(len(sts), 2)
        for pid, st in sts.items():
            self.assertEqual(st["NoNewPrivs"], "1", pid)
            self.assertEqual(st["Seccomp"], "2", pid)

    def test_worker_crash_does_not_stop_service(self):
        _, key = new_key("crash@example.com")
        pids = inst.worker_pids("lz-links")
        self.assertEqual(len(pids), 2)
        os.kill(pids[0], 9)
        for _ in range(20):
            self.assertEqual(inst.api("GET", "/api/v1/links", key).status,
                             200)
        lzenv.wait_for(lambda: len(inst.worker_pids("lz-links")) == 2,
                       what="respawn")
        self.assertNotIn(pids[0], inst.worker_pids("lz-links"))


if __name__ == "__main__":
    lzenv.main()
