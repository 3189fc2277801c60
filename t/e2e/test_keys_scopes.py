"""End-to-end tests of API keys with scopes and an end, and of the audit
log (lz-links(8) "API keys", "Audit log"), through nginx on the
instance's engine (LZ_DB=postgresql too).

Table-driven from the route table as the service publishes it: every
operation of /api/v1/openapi.json that takes a key names its scope (and
lz-links does not start when a route of its table taking a key names
none), and each is called with a key holding every scope but that one
(403 insufficient_scope naming it, the call counted) and with a key
holding that one alone (let through).  Then expired keys, the scopes of
keys made in the dashboard and by lzctl, and the audit log's entries:
each action noted, by whom, from which network, never a secret.
"""

import json
import os
import sys
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402
from test_dashboard_api import Browser  # noqa: E402

inst = None
SCOPES = ["links:read", "links:write", "stats:read", "conversions:read",
          "domains:read", "domains:write", "tags:write", "audit:read"]


def setUpModule():
    global inst
    inst = lzenv.Instance("scopes", extra_conf="signup = open\n"
                          "trusted_proxies = 127.0.0.1\n")
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


def key_with(account, scopes, expires=None):
    args = ["key", "create", str(account)]
    for s in scopes:
        args += ["--scope", s]
    if expires:
        args += ["--expires", expires]
    return inst.ctl(*args)[1].strip()


class Scopes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.acct = inst.account("scopes@example.com", "pro")
        cls.full = full = key_with(cls.acct, SCOPES)
        r = inst.api("POST", "/api/v1/links", full,
                     {"target_url": "https://example.com/s",
                      "tags": ["t1"]})
        assert r.status == 201, r.body
        cls.link = r.json()["id"]
        doc = inst.request("GET", "/api/v1/openapi.json").json()
        cls.ops = []
        for path, ops in doc["paths"].items():
            for method, op in ops.items():
                if not isinstance(op, dict) or method == "parameters":
                    continue
                sec = op.get("security", doc.get("security"))
                if not sec:
                    continue            # no key: /api/conv, /healthz
                cls.ops.append((method.upper(), path, sec[0]["apiKey"]))

    def call(self, method, path, key):
        link = self.link
        if method == "DELETE" and "{id}" in path:
            # A link of its own to delete.
            link = inst.api("POST", "/api/v1/links", self.full, {
                "target_url": "https://example.com/d"}).json()["id"]
        p = path.replace("{id}", str(link)).replace(
            "{host}", "127.0.0.1").replace("{name}", "t1")
        body = None
        if method == "POST" and p == "/api/v1/links":
            body = {"target_url": "https://example.com/x"}
        elif method in ("POST", "PATCH"):
            body = {}
        return inst.api(method, p, key, body)

    def test_every_operation_names_one_scope(self):
        self.assertGreaterEqual(len(self.ops), 19)
        for method, path, scopes in self.ops:
            self.assertEqual(len(scopes), 1, (method, path))
            self.assertIn(scopes[0], SCOPES, (method, path))

    def test_each_scope_against_each_route(self):
        keys = {}
        for s in SCOPES:
            keys["only " + s] = key_with(self.acct, [s])
            keys["all but " + s] = key_with(
                self.acct, [x for x in SCOPES if x != s])
        for method, path, (scope,) in self.ops:
            with self.subTest(method=method, path=path, scope=scope):
                r = self.call(method, path, keys["all but " + scope])
                self.assertEqual(r.status, 403, r.body)
                self.assertEqual(r.json()["error"], "insufficient_scope")
                self.assertIn(scope, r.json()["message"])
                self.assertEqual(r.header("www-authenticate"),
                                 'Bearer realm="lz", error="insufficient_'
                                 'scope", scope="%s"' % scope)
                # Counted as a call.
                self.assertTrue(r.header("x-ratelimit-remaining"))
                r = self.call(method, path, keys["only " + scope])
                self.assertNotEqual(r.status, 401, r.body)
                if r.status == 403:     # another refusal (the instance's
                    self.assertNotEqual(r.json()["error"],   # domain)
                                        "insufficient_scope", r.body)

    def test_quota_counts_refused_calls(self):
        k = key_with(self.acct, ["links:read"])
        a = inst.api("GET", "/api/v1/links", k)
        b = inst.api("DELETE", "/api/v1/links/%d" % self.link, k)
        c = inst.api("GET", "/api/v1/links", k)
        self.assertEqual(b.status, 403)
        left = [int(x.header("x-ratelimit-remaining")) for x in (a, b, c)]
        self.assertEqual(left, [left[0], left[0] - 1, left[0] - 2])

    def test_default_key_has_all_but_audit(self):
        k = inst.key(self.acct)
        self.assertEqual(inst.api("GET", "/api/v1/links", k).status, 200)
        r = inst.api("GET", "/api/v1/audit", k)
        self.assertEqual(r.status, 403)
        self.assertIn("audit:read", r.json()["message"])

    def test_expired_key(self):
        soon = time.strftime("%Y-%m-%dT%H:%M:%SZ",
                             time.gmtime(time.time() + 2))
        k = key_with(self.acct, ["links:read"], soon)
        self.assertEqual(inst.api("GET", "/api/v1/links", k).status, 200)
        time.sleep(2.5)
        r = inst.api("GET", "/api/v1/links", k)
        self.assertEqual(r.status, 401)
        self.assertEqual(r.json()["error"], "expired_api_key")
        self.assertIsNone(r.header("x-ratelimit-remaining"))
        out = inst.ctl("key", "list", str(self.acct))[1]
        self.assertIn("expired", out)

    def test_lzctl_refuses_bad_scopes(self):
        for bad in (["links:delete"], ["links:read", "links:read"], [""]):
            rc, _, err = inst.ctl(*(["key", "create", str(self.acct)] +
                                    sum((["--scope", s] for s in bad), [])),
                                  check=False)
            self.assertEqual(rc, 2, (bad, err))
        rc, _, err = inst.ctl("key", "create", str(self.acct), "--expires",
                              "2001-01-01T00:00:00Z", check=False)
        self.assertEqual(rc, 2, err)
        k = key_with(self.acct, ["links:read,stats:read"])
        self.assertEqual(inst.api("GET", "/api/v1/links/%d/stats" %
                                  self.link, k).status, 200)


class Audit(unittest.TestCase):
    def test_audit_log(self):
        b = Browser(inst, ip="203.0.113.7")
        self.assertEqual(b.signup("audit@example.com").status, 201)
        acct = inst.sql("SELECT id FROM accounts WHERE email = "
                        "'audit@example.com'")[0][0]
        # A key made in the dashboard with scopes and an end.
        r = b.req("POST", "/dashboard/api/keys", {
            "name": "reports", "scopes": ["stats:read", "audit:read"],
            "expires_at": "2099-01-01T00:00:00Z"})
        self.assertEqual(r.status, 201, r.body)
        secret = r.json()["secret"]
        self.assertEqual(r.json()["key"]["scopes"],
                         ["stats:read", "audit:read"])
        self.assertEqual(r.json()["key"]["expires_at"],
                         "2099-01-01T00:00:00Z")
        for bad in ({"scopes": ["links:delete"]}, {"scopes": []},
                    {"scopes": ["stats:read", "stats:read"]},
                    {"expires_at": "2001-01-01T00:00:00Z"},
                    {"expires_at": "soon"}):
            r = b.req("POST", "/dashboard/api/keys", bad)
            self.assertEqual(r.status, 400, (bad, r.body))
            self.assertEqual(r.json()["param"], list(bad)[0])
        # A link made and deleted with a full key, a password change, a
        # sign-in from another network, a second one from it.
        full = key_with(acct, SCOPES)
        lid = inst.api("POST", "/api/v1/links", full, {
            "target_url": "https://example.com/a"}).json()["id"]
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" % lid,
                                  full).status, 200)
        r = b.req("POST", "/dashboard/api/password", {
            "current_password": "correct horse battery",
            "new_password": "another horse battery"})
        self.assertEqual(r.status, 200, r.body)
        for ip in ("198.51.100.20", "198.51.100.21", "2001:db8:5:1::9"):
            o = Browser(inst, ip=ip)
            self.assertEqual(o.signin("audit@example.com",
                                      "another horse battery").status, 200)
        r = b.req("GET", "/dashboard/api/keys")
        kid = [k["id"] for k in r.json()["keys"] if k["name"] ==
               "reports"][0]
        self.assertEqual(b.req("DELETE", "/dashboard/api/keys/%d" % kid)
                         .status, 200)

        entries = []
        page = inst.api("GET", "/api/v1/audit?limit=2", inst.key(acct))
        self.assertEqual(page.status, 403)      # the default scopes
        reader = key_with(acct, ["audit:read"])
        cursor = None
        while True:
            q = "?limit=2" + ("&cursor=" + urllib.parse.quote(cursor)
                              if cursor else "")
            page = inst.api("GET", "/api/v1/audit" + q, reader)
            self.assertEqual(page.status, 200, page.body)
            entries += page.json()["entries"]
            cursor = page.json()["next_cursor"]
            if cursor is None:
                break
        got = [(e["action"], e["actor"].split(" ")[0], e["network"])
               for e in reversed(entries)]
        self.assertEqual(got, [
            ("signin.new_network", "dashboard", "203.0.113.0/24"),
            ("key.created", "dashboard", "203.0.113.0/24"),
            ("key.created", "lzctl", ""),
            ("link.deleted", "key", "127.0.0.0/24"),
            ("password.changed", "dashboard", "203.0.113.0/24"),
            ("signin.new_network", "dashboard", "198.51.100.0/24"),
            ("signin.new_network", "dashboard", "2001:db8:5::/48"),
            ("key.revoked", "dashboard", "203.0.113.0/24"),
            ("key.created", "lzctl", ""),
            ("key.created", "lzctl", "")])
        ids = [e["id"] for e in entries]
        self.assertEqual(ids, sorted(ids, reverse=True))
        text = json.dumps(entries)
        for never in (secret, full, reader, "another horse battery",
                      "correct horse battery", "198.51.100.20",
                      "2001:db8:5:1::9"):
            self.assertNotIn(never, text)
        self.assertIn("reports", [e for e in entries if e["action"] ==
                                  "key.created" and e["actor"] ==
                                  "dashboard"][0]["target"])
        # The dashboard reads the same log.
        r = b.req("GET", "/dashboard/api/audit")
        self.assertEqual([e["id"] for e in r.json()["entries"]], ids)
        # Another account sees none of it: its own key's making alone.
        other = key_with(inst.account("else@example.com"), ["audit:read"])
        self.assertEqual([(e["action"], e["actor"]) for e in inst.api(
            "GET", "/api/v1/audit", other).json()["entries"]],
            [("key.created", "lzctl")])


if __name__ == "__main__":
    unittest.main()
