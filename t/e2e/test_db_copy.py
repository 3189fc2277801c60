"""lzctl db copy: an SQLite instance moved to PostgreSQL (DESIGN 7).

An instance on SQLite gets rows in every table -- accounts, keys, usage,
short domains, links of every kind (tagged, with notes, archived), clicks (some still in the journal of a pool killed
with SIGKILL), password tries, webhooks with deliveries and attempts,
an invitation and its mail waiting to be sent,
blocklist entries, conversions with revenue, dashboard sessions and
sign-in failures -- then is copied to a new PostgreSQL database:

  - refused while lz-links answers, and into a database with data;
  - every table holds the same rows on both sides, ids and all, and the
    journal's clicks are among them;
  - the instance runs on the copy: its key, its dashboard session, its
    links and their statistics are there, and a new link's id follows
    the copied ones.
"""

import os
import signal
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402

UA = ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
      "Firefox/120.0")
CONF = """signup = open
trusted_proxies = 127.0.0.1
webhook_allow_loopback = yes
mail_command = /bin/true
"""


@unittest.skipUnless(lzenv.PG, "PostgreSQL (make check-pg)")
class DbCopy(unittest.TestCase):

    def setUp(self):
        self.inst = lzenv.Instance("copy", extra_conf=CONF, engine="sqlite")

    def tearDown(self):
        self.inst.stop()

    def ctl(self, *args):
        p = subprocess.run([lzenv.prog("lzctl"), "-f", self.inst.conf] +
                           list(args), capture_output=True, text=True,
                           timeout=120)
        return p.returncode, p.stdout, p.stderr

    def fill(self):
        """Rows in every table; returns a key, a dashboard session's
        cookie and the links."""
        inst = self.inst
        acct = inst.account("copy@example.com", "pro")
        key = inst.key(acct)
        links = []
        for fields in ({}, {"slug": "copy-pw", "password": "open sesame"},
                       {"slug": "copy-cap", "max_clicks": 5},
                       {"slug": "copy-utm", "utm": {"source": "news"},
                        "title": "A \\ back\\slash, \\N, \"quotes\" "
                        "and \u00fcn\u00efc\u00f6d\u00e9"},
                       {"mode": "ab", "variants": [
                           {"url": "https://a.example/", "weight": 1},
                           {"url": "https://b.example/", "weight": 1}]}):
            fields.setdefault("target_url", "https://copy.example/landing")
            r = inst.api("POST", "/api/v1/links", key, fields)
            self.assertEqual(r.status, 201, r)
            links.append(r.json())
        h = {"User-Agent": UA, "X-Forwarded-For": "198.51.100.30"}
        for _ in range(3):
            for slug in (links[0]["slug"], "copy-cap", "copy-utm"):
                self.assertEqual(inst.request("GET", "/" + slug,
                                              headers=h).status, 302)
        form = dict(h, **{"Content-Type":
                          "application/x-www-form-urlencoded"})
        self.assertEqual(inst.request("POST", "/copy-pw", body="password=no",
                                      headers=form).status, 403)
        r = inst.request("POST", "/api/conv", body={
            "slug": links[0]["slug"], "value": "12.5", "currency": "EUR"},
            headers={"User-Agent": UA, "X-Forwarded-For": "198.51.100.30",
                     "Origin": "https://shop.example"})
        self.assertTrue(r.json()["counted"], r)
        origin = {"Origin": "http://127.0.0.1:%d" % inst.links_port}
        r = inst.request("POST", "/dashboard/api/signup", headers=origin,
                         body={"email": "dash@example.com",
                               "password": "correct horse battery"})
        self.assertEqual(r.status, 201, r)
        cookie = r.header("set-cookie").split(";")[0]
        r = inst.request("POST", "/dashboard/api/signin", headers=origin,
                         body={"email": "dash@example.com",
                               "password": "wrong one"})
        self.assertEqual(r.status, 401, r)
        rc, out, err = self.ctl("webhook", "add", str(acct),
                                "https://127.0.0.1:9/hook")
        self.assertEqual(rc, 0, err)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://copy.example/evented"})
        self.assertEqual(r.status, 201, r)
        # One attempt, failed: nothing listens there.
        p = subprocess.run([lzenv.prog("lz-hooks"), "-f", inst.conf],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.ctl("blocklist", "add", "evil.example")[0], 0)
        # A short domain with a link on it (DESIGN 3.12).
        self.assertEqual(self.ctl("domain", "add", "go.copy.test",
                                  "--root-url", "https://copy.example/")[0],
                         0)
        r = inst.api("POST", "/api/v1/links", key, {
            "target_url": "https://copy.example/branded",
            "domain": "go.copy.test", "slug": links[0]["slug"],
            "expired_url": "https://copy.example/over",
            "tags": ["Spring", "print"], "notes": "moved\nwith it",
            "archived": True})
        self.assertEqual(r.status, 201, r)
        # An invitation (its mail queued), and a link moved in by an
        # import.
        inst.ctl("member", "add", "copy@example.com", "later@example.com",
                 "--role", "viewer")
        path = inst.path("copy.csv")
        with open(path, "w") as f:
            f.write("url,slug\nhttps://copy.example/imported,copy-imp\n")
        inst.ctl("import", "csv", path, "--account", "copy@example.com")
        return key, cookie, links

    def test_copy(self):
        inst = self.inst
        inst.start()
        key, cookie, links = self.fill()
        pg = lzenv.pgcluster.shared()
        uri = pg.create_db("copied")
        # Every table holds rows (but scope_pause, empty at rest).
        self.assertEqual([t for t in inst.tables() if t not in
                          ("click_journals", "scope_pause")
                          and not inst.sql("SELECT count(*) FROM %s" % t)
                          [0][0]], [])
        rc, _, err = self.ctl("db", "copy", "--to", uri)
        self.assertEqual(rc, 1)
        self.assertIn("stop the pools", err)
        # Clicks left in the journal of a pool that died (unless its
        # mover was quicker).
        for _ in range(4):
            self.assertEqual(inst.request("GET", "/" + links[0]["slug"],
                                          headers={"User-Agent": UA}
                                          ).status, 302)
        workers = inst.worker_pids("lz-links")
        inst.stop_pool("lz-links", sig=signal.SIGKILL)
        # The workers outlive their supervisor for a moment, and the
        # socket answers until they are gone (db copy rightly refuses).
        lzenv.wait_for(lambda: not any(os.path.exists("/proc/%d" % w)
                                       for w in workers),
                       what="the workers of the killed pool to exit")
        rc, out, err = self.ctl("db", "copy", "--to", uri)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("MISMATCH", out)

        # The same rows on both sides, the journal's clicks among them.
        self.assertEqual(pg.query("copied", "SELECT count(*) FROM clicks"),
                         [(3 * 3 + 4,)])
        for t in inst.tables():
            # scope_pause holds a row only inside a writer's
            # transaction (0021): nothing to copy.
            if t in ("click_journals", "scope_pause"):
                continue
            cols = inst.columns(t)
            # The scopes' sums are not copied: the rollups' triggers
            # make them again, the same rows.
            made = t.startswith("scope_")
            q = "SELECT %s FROM %s ORDER BY %s" % (
                ", ".join(cols), t, ", ".join(cols if made else cols[:2]))
            rows = inst.sql(q)
            self.assertEqual(pg.query("copied", q), rows, t)
            if made:
                self.assertTrue(rows, t)
                self.assertNotIn("\n" + t, out)
            else:
                self.assertIn("\n%-20s %12d\n" % (t, len(rows)), out)

        # Again: the database holds data now.
        rc, _, err = self.ctl("db", "copy", "--to", uri)
        self.assertEqual(rc, 1)
        self.assertIn("holds data", err)

        # The instance on its copy.
        with open(inst.conf) as f:
            conf = f.read().replace("links_db = data/links.db",
                                    "links_db = " + uri)
        with open(inst.conf, "w") as f:
            f.write(conf + "clicks_dir = data/clicks\nhost_id = copied\n")
        inst.start_pool("lz-links")
        r = inst.api("GET", "/api/v1/links/%d" % links[0]["id"], key)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json()["link"]["stats"]["clicks"], 7)
        r = inst.request("GET", "/dashboard/api/session",
                         headers={"Cookie": cookie})
        self.assertIs(r.json()["signed_in"], True, r)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://copy.example/after"})
        self.assertEqual(r.status, 201, r)
        self.assertGreater(r.json()["id"], max(x["id"] for x in links) + 1)
        self.assertEqual(inst.request("GET", "/copy-utm", headers={
            "User-Agent": UA}).status, 302)


if __name__ == "__main__":
    lzenv.main()
