"""bytea as an administrator may have PostgreSQL send it (issue 31):
with bytea_output = 'escape' instead of the default hex, every binary
column still reads back whole.

Before, a value not in hex came back with its length unset: every API
key was refused (the key's hash compared against garbage) and the
clicks reader copied the wrong length.  Here the database of the test
is set to escape, and the paths that read binary columns are used: an
API key (api_keys.hash), the dashboard's session (sessions.hash), a
link's clicks (clicks.visitor, exported as JSON and CSV), a webhook's
sealed secret (webhooks.secret_box, rotated).  PostgreSQL only.
"""

import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

UA = ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
      "Firefox/120.0")


@unittest.skipUnless(lzenv.PG, "PostgreSQL's bytea_output")
class EscapedBytea(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance("bytea", workers=2, extra_conf=(
            "webhook_allow_loopback = yes\nsignup = open\n"))
        c = cls.inst.pg.connect(cls.inst.dbname)
        c.autocommit = True
        c.cursor().execute("ALTER DATABASE %s SET bytea_output = 'escape'"
                           % cls.inst.dbname)
        c.close()
        cls.inst.start()

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def test_escape_is_set(self):
        self.assertEqual(self.inst.sql("SHOW bytea_output"), [("escape",)])
        # A hash in escape form has backslashes: not hex.
        acct = self.inst.account("shape@example.com")
        self.inst.key(acct)
        c = self.inst.pg.connect(self.inst.dbname)
        cur = c.cursor()
        cur.execute("SELECT hash::text FROM api_keys LIMIT 1")
        self.assertFalse(cur.fetchone()[0].startswith("\\x"))
        c.close()

    def test_key_clicks_and_webhook(self):
        inst = self.inst
        acct = inst.account("bytea@example.com")
        key = inst.key(acct)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://bytea.example/", "slug": "by"})
        self.assertEqual(r.status, 201, r)
        lid = r.json()["id"]
        for i in range(5):
            r = inst.request("GET", "/by", headers={
                "User-Agent": UA, "X-Forwarded-For": "192.0.2.%d" % i})
            self.assertEqual(r.status, 302, r)
        deadline = time.time() + 15
        while time.time() < deadline:
            n = inst.sql("SELECT count(*) FROM clicks WHERE link_id = %d" %
                         lid)[0][0]
            if n == 5:
                break
            time.sleep(0.3)
        self.assertEqual(n, 5)
        r = inst.api("GET", "/api/v1/links/%d/clicks" % lid, key)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(len(r.json()["clicks"]), 5)
        r = inst.api("GET", "/api/v1/links/%d/clicks?format=csv" % lid, key)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(len(r.body.decode().strip().splitlines()), 6)
        # A sealed secret read back and sealed anew.
        rc, out, err = inst.ctl("webhook", "add", str(acct),
                                "https://127.0.0.1:9/hook", "--events",
                                "click")
        self.assertEqual(rc, 0, err)
        wid = inst.sql("SELECT max(id) FROM webhooks")[0][0]
        rc, out, err = inst.ctl("webhook", "rotate", str(wid))
        self.assertEqual(rc, 0, err)
        self.assertIn("whsec_", out)

    def test_dashboard_session(self):
        inst = self.inst
        origin = "http://127.0.0.1:%d" % inst.links_port
        r = inst.request("POST", "/dashboard/api/signup", body={
            "email": "sess@example.com", "password": "a long password"},
            headers={"Origin": origin})
        self.assertEqual(r.status, 201, r)
        cookie = r.header("set-cookie").split(";")[0]
        r = inst.request("GET", "/dashboard/api/account",
                         headers={"Cookie": cookie})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["account"]["email"], "sess@example.com")


if __name__ == "__main__":
    unittest.main()
