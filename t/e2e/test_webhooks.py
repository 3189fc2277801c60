"""End-to-end tests of webhooks: subscriptions with lzctl, events queued
by lz-links, and lz-hooks sending them to a real HTTPS receiver on
127.0.0.1 (t/e2e/receiver.py) -- headers, signatures, body, retries after
500s and time-outs, 410, the SSRF guard, leases under kill -9 and two runs
at once, a slow receiver, housekeeping.

The receiver's certificate comes from a CA the test makes with openssl;
lz-hooks trusts it through webhook_ca_file.  webhook_timeout is 2 s here so
time-outs stay short; waiting for a retry is done by moving the delivery's
next_at to now, which is what the clock would do.
"""

import hashlib
import hmac
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import receiver  # noqa: E402

BASE_CONF = """webhook_allow_loopback = yes
webhook_ca_file = %s
webhook_timeout = 2
webhook_parallel = 16
"""

MS_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


class WebhooksTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lz-hooks-ca-")
        cls.ca = receiver.CA(cls.tmp)
        cls.inst = lzenv.Instance("hooks", extra_conf=BASE_CONF % cls.ca.ca)
        try:
            cls.inst.start()
        except Exception:
            cls.inst.stop()
            raise
        cls.strict = cls.variant("strict.conf", webhook_allow_loopback="no")
        cls.noca = cls.variant("noca.conf", webhook_ca_file="")
        cls.narrow = cls.variant("narrow.conf", webhook_parallel="4")
        cls.n = 0

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def variant(cls, name, **keys):
        """A copy of the instance's lz.conf with keys changed."""
        with open(cls.inst.conf) as f:
            lines = [ln for ln in f
                     if ln.split("=")[0].strip() not in keys]
        for k, v in keys.items():
            lines.append("%s = %s\n" % (k, v))
        path = cls.inst.path(name)
        with open(path, "w") as f:
            f.writelines(lines)
        return path

    def setUp(self):
        self.rx = receiver.Receiver(self.ca).start()
        self.hooks = []

    def tearDown(self):
        # Cancel what this test left queued: other tests' runs skip it.
        for wid in self.hooks:
            self.ctl("webhook", "disable", str(wid), check=False)
        self.rx.stop()

    # -- helpers -------------------------------------------------------

    def ctl(self, *args, conf=None, check=True):
        p = subprocess.run([lzenv.prog("lzctl"), "-f",
                            conf or self.inst.conf] + list(args),
                           capture_output=True, text=True, timeout=60)
        if check and p.returncode != 0:
            self.fail("lzctl %s: %d %s" % (" ".join(args), p.returncode,
                                           p.stderr))
        return p

    def account(self):
        WebhooksTest.n += 1
        email = "hooks%d@example.com" % WebhooksTest.n
        acct = self.inst.account(email, plan="pro")
        return acct, self.inst.key(acct)

    def webhook(self, acct, url=None, events=None, conf=None):
        args = ["webhook", "add", str(acct), url or self.rx.url()]
        if events:
            args += ["--events", events]
        out = self.ctl(*args, conf=conf).stdout.split()
        self.assertEqual(len(out), 2, out)
        wid, secret = int(out[0]), out[1]
        self.assertRegex(secret, r"^whsec_[0-9A-Za-z]{32}$")
        self.hooks.append(wid)
        return wid, secret

    def link(self, key, target="https://example.com/landing"):
        r = self.inst.api("POST", "/api/v1/links", key,
                          {"target_url": target})
        self.assertEqual(r.status, 201, r)
        return r.json()

    def run_hooks(self, conf=None, check=True, timeout=60):
        p = subprocess.run([lzenv.prog("lz-hooks"), "-f",
                            conf or self.inst.conf],
                           capture_output=True, text=True, timeout=timeout)
        if check and p.returncode != 0:
            self.fail("lz-hooks: %d %s" % (p.returncode, p.stderr))
        return p

    def rows(self, wid):
        cols = ("id", "uuid", "event", "body", "state", "attempts",
                "next_at", "lease", "last_status", "last_error",
                "finished_at")
        got = self.inst.sql("SELECT %s FROM webhook_deliveries WHERE "
                            "webhook_id = %d ORDER BY id" %
                            (", ".join(cols), wid))
        return [dict(zip(cols, r)) for r in got]

    def attempts(self, delivery_id):
        return self.inst.sql("SELECT at, status, error FROM "
                             "webhook_attempts WHERE delivery_id = %d "
                             "ORDER BY id" % delivery_id)

    def make_due(self, wid):
        """What the clock would do: pending deliveries due now."""
        self.inst.sql("UPDATE webhook_deliveries SET next_at = %d WHERE "
                      "webhook_id = %d AND state = 'pending'" %
                      (int(time.time() * 1000), wid))

    # -- events, headers, body, signature --------------------------------

    def test_link_created_delivery(self):
        acct, key = self.account()
        wid, secret = self.webhook(acct, events="link.created")
        created = self.link(key, "https://example.com/a?x=1")
        [row] = self.rows(wid)
        self.assertEqual(row["state"], "pending")
        self.run_hooks()

        [req] = self.rx.wait(1)
        self.assertEqual(req.method, "POST")
        self.assertEqual(req.path, "/hook")
        self.assertEqual(req.header("Content-Type"), "application/json")
        self.assertEqual(req.header("X-Lz-Event"), "link.created")
        self.assertEqual(req.delivery(), row["uuid"])
        self.assertRegex(req.delivery(), r"^dlv_[0-9A-Za-z]{22}$")
        self.assertRegex(req.header("X-Lz-Signature"),
                         r"^sha256=[0-9a-f]{64}$")
        # The signature is over the raw bytes, which are the stored ones.
        self.assertTrue(req.verify(secret))
        wrong = secret[:-1] + ("y" if secret.endswith("x") else "x")
        self.assertFalse(req.verify(wrong))
        self.assertEqual(req.body, row["body"].encode())

        body = req.json()
        self.assertEqual(list(body), ["event", "sent_at", "data"])
        self.assertEqual(body["event"], "link.created")
        self.assertRegex(body["sent_at"], MS_RE)
        # data is the link representation, as GET shows it.
        got = self.inst.api("GET", "/api/v1/links/%d" % created["id"],
                            key).json()["link"]
        self.assertEqual(body["data"], got)
        self.assertEqual(body["data"]["slug"], created["slug"])

        [row] = self.rows(wid)
        self.assertEqual((row["state"], row["attempts"], row["last_status"]),
                         ("delivered", 1, 200))
        self.assertIsNone(row["next_at"])
        [att] = self.attempts(row["id"])
        self.assertEqual(att[1], 200)

    def test_click_delivery(self):
        """A counted click of a visit becomes one signed click event; a bot
        visit and a HEAD become none."""
        acct, key = self.account()
        wid, secret = self.webhook(acct, events="click")
        created = self.link(key, "https://example.com/clicked?x=1")
        iphone = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) "
                  "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
                  "Mobile/15E148 Safari/604.1")
        r = self.inst.request("GET", "/%s/newsletter" % created["slug"],
                              headers={"User-Agent": iphone,
                                       "Referer": "https://news.example/a"})
        self.assertEqual(r.status, 302, r)
        self.assertEqual(r.header("location"),
                         "https://example.com/clicked?x=1")
        self.inst.request("GET", "/" + created["slug"],
                          headers={"User-Agent": "curl/8.0"})
        self.inst.request("HEAD", "/" + created["slug"],
                          headers={"User-Agent": iphone})
        # Clicks reach the database from the workers' journals within
        # about a second; the event is written in the same transaction.
        lzenv.wait_for(lambda: len(self.rows(wid)) >= 1, timeout=15,
                       what="click event in the outbox")
        time.sleep(2)       # time for a wrongly counted bot or HEAD
        rows = self.rows(wid)
        self.assertEqual(len(rows), 1, rows)
        self.assertEqual(rows[0]["event"], "click")
        self.run_hooks()
        [req] = self.rx.wait(1)
        self.assertEqual(req.header("X-Lz-Event"), "click")
        self.assertTrue(req.verify(secret))
        body = req.json()
        self.assertEqual(body["event"], "click")
        self.assertRegex(body["sent_at"], MS_RE)
        self.assertEqual(body["data"], {
            "slug": created["slug"], "domain": "127.0.0.1",
            "suffix": "newsletter",
            "target": "https://example.com/clicked?x=1", "country": "",
            "device": "mobile", "os": "ios",
            "referrer": "https://news.example/a"})

    def test_link_updated_and_deleted_delivery(self):
        """An edit sends link.updated with the link as edited, a delete
        link.deleted with {id, slug}, each queued with its change; a
        subscription with the default events gets neither."""
        acct, key = self.account()
        wid, secret = self.webhook(acct, events="link.updated,link.deleted")
        old, _ = self.webhook(acct, self.rx.url("/old"))
        created = self.link(key, "https://example.com/before")
        url = "/api/v1/links/%d" % created["id"]
        r = self.inst.api("PATCH", url, key, {"target_url":
                                               "https://example.com/after",
                                               "title": "Edited"})
        self.assertEqual(r.status, 200, r)
        edited = r.json()["link"]
        # Refused and unknown edits send nothing.
        self.assertEqual(self.inst.api("PATCH", url, key,
                                       {"slug": "x"}).status, 400)
        self.assertEqual(self.inst.api("DELETE", url, key).status, 200)
        self.assertEqual(self.inst.api("DELETE", url, key).status, 404)
        rows = self.rows(wid)
        self.assertEqual([x["event"] for x in rows],
                         ["link.updated", "link.deleted"])
        self.assertEqual([x["event"] for x in self.rows(old)],
                         ["link.created"])
        self.run_hooks()
        got = {q.header("X-Lz-Event"): q for q in self.rx.wait(
            2, path="/hook")}
        upd, dele = got["link.updated"], got["link.deleted"]
        for req, event in ((upd, "link.updated"), (dele, "link.deleted")):
            self.assertEqual(req.header("X-Lz-Event"), event)
            self.assertTrue(req.verify(secret))
            self.assertEqual(req.json()["event"], event)
            self.assertRegex(req.json()["sent_at"], MS_RE)
        self.assertEqual(upd.json()["data"], edited)
        self.assertEqual(upd.json()["data"]["target_url"],
                         "https://example.com/after")
        self.assertEqual(dele.json()["data"], {"id": created["id"],
                                               "slug": created["slug"],
                                               "domain": "127.0.0.1"})
        self.assertEqual(len(self.rx.got("/old")), 1)
        # lzctl lists the events; an unknown one is refused.
        out = self.ctl("webhook", "list", str(acct)).stdout
        self.assertIn("link.updated,link.deleted", out)
        p = self.ctl("webhook", "add", str(acct), self.rx.url(), "--events",
                     "link.renamed", check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("link.updated, link.deleted", p.stderr)

    def test_only_subscribed_events(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="click")
        other, okey = self.account()
        self.link(key)
        self.link(okey)
        self.assertEqual(self.rows(wid), [])
        self.assertEqual(self.inst.sql(
            "SELECT count(*) FROM webhook_deliveries d JOIN webhooks w ON "
            "w.id = d.webhook_id WHERE w.account_id IN (%d, %d)" %
            (acct, other)), [(0,)])
        self.run_hooks()
        self.assertEqual(self.rx.got(), [])

    def test_each_subscription_gets_its_own(self):
        acct, key = self.account()
        w1, s1 = self.webhook(acct, self.rx.url("/one"), "link.created")
        w2, s2 = self.webhook(acct, self.rx.url("/two"))
        self.link(key)
        self.run_hooks()
        [a] = self.rx.wait(1, path="/one")
        [b] = self.rx.wait(1, path="/two")
        self.assertTrue(a.verify(s1))
        self.assertTrue(b.verify(s2))
        self.assertFalse(a.verify(s2))
        self.assertEqual(a.body, b.body)
        self.assertNotEqual(a.delivery(), b.delivery())

    # -- failures and retries ------------------------------------------

    def test_retry_after_500(self):
        acct, key = self.account()
        wid, secret = self.webhook(acct, events="link.created")
        self.rx.respond("/hook", 500, 503)
        self.link(key)

        self.run_hooks()
        [row] = self.rows(wid)
        self.assertEqual((row["state"], row["attempts"], row["last_status"],
                          row["last_error"]), ("pending", 1, 500, "HTTP 500"))
        [(at, status, err)] = self.attempts(row["id"])
        # Retried a minute after the failure.
        self.assertAlmostEqual(row["next_at"] - at, 60000, delta=3000)
        # Not due yet: a run now sends nothing.
        self.run_hooks()
        self.assertEqual(len(self.rx.got()), 1)

        self.make_due(wid)
        self.run_hooks()
        [row] = self.rows(wid)
        self.assertEqual((row["attempts"], row["last_status"]), (2, 503))
        at = self.attempts(row["id"])[-1][0]
        self.assertAlmostEqual(row["next_at"] - at, 5 * 60000, delta=3000)

        self.make_due(wid)
        self.run_hooks()
        [row] = self.rows(wid)
        self.assertEqual((row["state"], row["attempts"], row["last_status"]),
                         ("delivered", 3, 200))
        reqs = self.rx.got()
        self.assertEqual(len(reqs), 3)
        # The same delivery, byte for byte, every time.
        self.assertEqual({r.delivery() for r in reqs}, {row["uuid"]})
        self.assertEqual({r.body for r in reqs}, {row["body"].encode()})
        self.assertTrue(all(r.verify(secret) for r in reqs))
        self.assertEqual([a[1] for a in self.attempts(row["id"])],
                         [500, 503, 200])
        out = self.ctl("webhook", "deliveries", row["uuid"]).stdout
        self.assertIn("state:    delivered", out)
        self.assertEqual(len(re.findall(r"^\d{4}-.*\t(500|503|200)\t",
                                        out, re.M)), 3)

    def test_timeout_then_retry(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="link.created")
        self.rx.respond("/hook", (200, 3.5))
        self.link(key)
        t0 = time.monotonic()
        self.run_hooks()
        took = time.monotonic() - t0
        self.assertLess(took, 3.4)          # did not wait for the answer
        [row] = self.rows(wid)
        self.assertEqual(row["state"], "pending")
        self.assertIsNone(row["last_status"])
        self.assertEqual(row["last_error"], "timed out after 2 s")
        [(at, status, err)] = self.attempts(row["id"])
        self.assertAlmostEqual(row["next_at"] - at, 60000, delta=5000)

        self.make_due(wid)
        self.run_hooks()
        [row] = self.rows(wid)
        self.assertEqual((row["state"], row["attempts"]), ("delivered", 2))
        reqs = self.rx.got()
        self.assertEqual(len(reqs), 2)
        self.assertEqual(reqs[0].delivery(), reqs[1].delivery())

    def test_redirects_are_not_followed(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="link.created")
        self.rx.respond("/hook", (307, 0, self.rx.url("/elsewhere")))
        self.link(key)
        self.run_hooks()
        [row] = self.rows(wid)
        self.assertEqual((row["state"], row["last_status"]),
                         ("pending", 307))
        self.assertIn("redirects are not followed", row["last_error"])
        self.assertEqual(self.rx.got("/elsewhere"), [])

    def test_410_disables_the_subscription(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="link.created")
        self.rx.always("/hook", 410)
        for _ in range(3):
            self.link(key)
        self.run_hooks()
        rows = self.rows(wid)
        self.assertEqual(len(rows), 3)
        states = sorted(r["state"] for r in rows)
        self.assertNotIn("pending", states)
        self.assertIn("failed", states)
        self.assertTrue(all(r["last_status"] == 410 for r in rows
                            if r["state"] == "failed"))
        listing = self.ctl("webhook", "list", str(acct)).stdout
        self.assertRegex(listing, r"(?m)^%d\t%d\tdisabled\t.*\t"
                         r"the receiver answered 410 Gone$" % (wid, acct))
        # No more events for it.
        self.link(key)
        self.assertEqual(len(self.rows(wid)), 3)
        n = len(self.rx.got())
        self.run_hooks()
        self.assertEqual(len(self.rx.got()), n)

    def test_tls_is_verified(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="link.created")
        self.link(key)
        self.run_hooks(conf=self.noca)        # the system CAs only
        [row] = self.rows(wid)
        self.assertEqual(row["state"], "pending")
        self.assertIsNone(row["last_status"])
        self.assertRegex(row["last_error"], r"(?i)ssl|certificate")
        self.assertEqual(self.rx.got(), [])

    # -- the SSRF guard ------------------------------------------------

    def test_unsafe_urls_refused_at_creation(self):
        acct, _ = self.account()
        p = self.rx.port
        refused = {
            "https://localhost:%d/" % p: "loopback",
            "https://127.0.0.1:%d/" % p: "loopback",
            "https://127.1:%d/" % p: "loopback",
            "https://0x7f000001:%d/" % p: "loopback",
            "https://2130706433:%d/" % p: "loopback",
            "https://0177.0.0.1:%d/" % p: "loopback",
            "https://[::1]:%d/" % p: "loopback",
            "https://[::ffff:127.0.0.1]:%d/" % p: "loopback",
            "https://10.0.0.1/": "private",
            "https://0xa000001/": "private",
            "https://192.168.0.10/": "private",
            "https://172.20.1.1/": "private",
            "https://100.64.1.1/": "private",
            "https://[fd00::1]/": "private",
            "https://169.254.169.254/latest/meta-data/": "link-local",
            "https://[fe80::1]/": "link-local",
            "https://224.0.0.1/": "multicast",
            "https://0.0.0.0/": "reserved",
            "https://[::]/": "reserved",
            "http://127.0.0.1:%d/" % p: "https",
            "https://user:secret@8.8.8.8/": "user name",
        }
        for url, why in refused.items():
            r = self.ctl("webhook", "add", str(acct), url,
                         conf=self.strict, check=False)
            self.assertEqual(r.returncode, 1, url)
            self.assertIn(why, r.stderr, url)
            self.assertEqual(r.stdout, "", url)
        self.assertEqual(self.inst.sql(
            "SELECT count(*) FROM webhooks WHERE account_id = %d" % acct),
            [(0,)])
        # The loopback switch lets loopback through, nothing else.
        self.webhook(acct, "https://localhost:%d/" % p)
        self.webhook(acct, "http://127.0.0.1:%d/" % p)
        for url in ("https://10.0.0.1/", "https://[fe80::1]/",
                    "http://8.8.8.8/"):
            r = self.ctl("webhook", "add", str(acct), url, check=False)
            self.assertEqual(r.returncode, 1, url)

    def test_unsafe_addresses_refused_at_sending(self):
        # Made while loopback was allowed; sent after it no longer is:
        # the guard at connection time refuses, whatever the notation.
        acct, key = self.account()
        p = self.rx.port
        urls = ["https://localhost:%d/a" % p, "https://127.1:%d/b" % p,
                "https://0x7f000001:%d/c" % p, "https://2130706433:%d/d" % p,
                "https://[::ffff:127.0.0.1]:%d/e" % p,
                "http://127.0.0.1:%d/f" % p]
        wids = [self.webhook(acct, u, "link.created")[0] for u in urls]
        self.link(key)
        self.run_hooks(conf=self.strict)
        self.assertEqual(self.rx.got(), [])
        for wid, url in zip(wids, urls):
            [row] = self.rows(wid)
            self.assertEqual(row["state"], "pending", url)
            self.assertIsNone(row["last_status"], url)
            if url.startswith("http:"):
                self.assertIn("http", row["last_error"], url)
            else:
                self.assertRegex(row["last_error"],
                                 r"^refused: (127\.0\.0\.1|::1) is a "
                                 r"loopback address$", url)
        # With the switch back on the same subscription is delivered.
        self.make_due(wids[0])
        self.run_hooks()
        self.assertEqual(self.rows(wids[0])[0]["state"], "delivered")
        self.assertEqual(len(self.rx.got("/a")), 1)

    # -- concurrency and crashes ----------------------------------------

    def test_kill9_loses_nothing(self):
        acct, key = self.account()
        wid, secret = self.webhook(acct, events="link.created")
        self.rx.always("/hook", 200, 0.3)
        n = 30
        for _ in range(n):
            self.link(key)
        proc = subprocess.Popen([lzenv.prog("lz-hooks"), "-f",
                                 self.inst.conf],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            self.rx.wait(6, timeout=20)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        sent = {q.delivery() for q in self.rx.got()}
        rows = self.rows(wid)
        # Sent and not yet answered when it died.  A row leased an instant
        # before the kill may not have reached the receiver yet: that one
        # goes out once, later, like any pending row.
        in_flight = [r for r in rows if r["state"] == "pending" and
                     r["lease"] is not None and r["uuid"] in sent]
        self.assertGreater(len(in_flight), 0)   # it died mid-send
        self.assertLess(sum(r["state"] == "delivered" for r in rows), n)

        # Runs after it: the leases end and everything goes out.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            self.run_hooks()
            rows = self.rows(wid)
            if all(r["state"] == "delivered" for r in rows):
                break
            time.sleep(0.5)
        self.assertEqual([r["state"] for r in rows], ["delivered"] * n)
        seen = {}
        for req in self.rx.got():
            self.assertTrue(req.verify(secret))
            seen.setdefault(req.delivery(), set()).add(req.body)
        self.assertEqual(set(seen), {r["uuid"] for r in rows})
        # Sent again after the kill: the same id and the same bytes.
        self.assertTrue(all(len(b) == 1 for b in seen.values()))
        for r in in_flight:
            self.assertGreaterEqual(
                sum(q.delivery() == r["uuid"] for q in self.rx.got()), 2)

    def test_two_runs_at_once(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="link.created")
        self.rx.always("/hook", 200, 0.2)
        n = 20
        for _ in range(n):
            self.link(key)
        procs = [subprocess.Popen([lzenv.prog("lz-hooks"), "-f",
                                   self.inst.conf],
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
                 for _ in range(2)]
        for p in procs:
            self.assertEqual(p.wait(timeout=60), 0)
        rows = self.rows(wid)
        self.assertEqual([r["state"] for r in rows], ["delivered"] * n)
        ids = [q.delivery() for q in self.rx.got()]
        # Every delivery exactly once: never by both runs.
        self.assertEqual(sorted(ids), sorted(r["uuid"] for r in rows))
        self.assertEqual(sum(self.inst.sql(
            "SELECT count(*) FROM webhook_attempts a JOIN "
            "webhook_deliveries d ON d.id = a.delivery_id WHERE "
            "d.webhook_id = %d" % wid)[0]), n)

    def test_slow_receiver_does_not_hold_up_others(self):
        slow_acct, slow_key = self.account()
        fast_acct, fast_key = self.account()
        ws, _ = self.webhook(slow_acct, self.rx.url("/slow"), "link.created")
        wf, _ = self.webhook(fast_acct, self.rx.url("/fast"), "link.created")
        self.rx.always("/slow", 200, 0.5)
        # The slow one's backlog is older and larger than the run's
        # webhook_parallel (4 in narrow.conf).
        for _ in range(6):
            self.link(slow_key)
        for _ in range(6):
            self.link(fast_key)
        self.run_hooks(conf=self.narrow)
        slow = self.rx.got("/slow")
        fast = self.rx.got("/fast")
        self.assertEqual((len(slow), len(fast)), (6, 6))
        first_slow_answer = min(r.answered for r in slow)
        self.assertLess(max(r.answered for r in fast), first_slow_answer)
        self.assertTrue(all(r["state"] == "delivered"
                            for r in self.rows(ws) + self.rows(wf)))

    def test_loop(self):
        acct, key = self.account()
        wid, secret = self.webhook(acct, events="link.created")
        proc = subprocess.Popen([lzenv.prog("lz-hooks"), "-f",
                                 self.inst.conf, "--loop", "--interval", "1"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        try:
            # Events made while it runs go out within the interval.
            for i in range(2):
                self.link(key)
                got = self.rx.wait(i + 1, timeout=5)
                self.assertTrue(got[-1].verify(secret))
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=15)
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual([r["state"] for r in self.rows(wid)],
                         ["delivered"] * 2)

    # -- lzctl and housekeeping -------------------------------------------

    def test_rotate(self):
        acct, key = self.account()
        wid, old = self.webhook(acct, events="link.created")
        self.rx.respond("/hook", 500)
        self.link(key)
        self.run_hooks()
        new = self.ctl("webhook", "rotate", str(wid)).stdout.strip()
        self.assertRegex(new, r"^whsec_[0-9A-Za-z]{32}$")
        self.assertNotEqual(new, old)
        self.make_due(wid)
        self.link(key)
        self.run_hooks()
        reqs = self.rx.got()
        self.assertEqual(len(reqs), 3)
        self.assertTrue(reqs[0].verify(old))
        # After rotation, the retry and the new one carry the new secret.
        for r in reqs[1:]:
            self.assertTrue(r.verify(new))
            self.assertFalse(r.verify(old))
        # The secret is stored only encrypted.
        [(box,)] = self.inst.sql("SELECT secret_box FROM webhooks WHERE "
                                 "id = %d" % wid)
        self.assertNotIn(new[6:].encode(), box)
        self.assertNotIn(new.encode(), self.inst.dump())

    def test_lzctl(self):
        acct, _ = self.account()
        r = self.ctl("webhook", "add", "nobody@example.com", self.rx.url(),
                     check=False)
        self.assertEqual(r.returncode, 3)
        r = self.ctl("webhook", "add", str(acct), self.rx.url(), "--events",
                     "click,bogus", check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("bogus", r.stderr)
        wid, _ = self.webhook(acct, events="click")
        out = self.ctl("webhook", "list", str(acct)).stdout.splitlines()
        self.assertEqual(out[0], "ID\tACCOUNT\tSTATUS\tEVENTS\tPENDING\t"
                         "CREATED\tURL")
        self.assertRegex(out[1], r"^%d\t%d\tactive\tclick\t0\t\S+\t%s$" %
                         (wid, acct, re.escape(self.rx.url())))
        self.assertEqual(self.ctl("webhook", "rotate", "999999",
                                  check=False).returncode, 3)
        self.assertEqual(self.ctl("webhook", "deliveries", "dlv_nope",
                                  check=False).returncode, 3)
        self.ctl("webhook", "disable", str(wid))
        self.assertEqual(self.ctl("webhook", "disable", str(wid),
                                  check=False).returncode, 3)
        self.assertEqual(self.ctl("webhook", "rotate", str(wid),
                                  check=False).returncode, 3)
        self.assertEqual(self.ctl("webhook", "bogus",
                                  check=False).returncode, 2)

    def test_housekeeping(self):
        acct, key = self.account()
        wid, _ = self.webhook(acct, events="link.created")
        self.link(key)
        self.run_hooks()
        [recent] = self.rows(wid)
        self.assertEqual(recent["state"], "delivered")
        old = int(time.time() * 1000) - 31 * 86400000
        for i in range(3):
            self.inst.sql(
                "INSERT INTO webhook_deliveries (uuid, webhook_id, event, "
                "body, state, attempts, created_at, finished_at) VALUES "
                "('dlv_old%d_%d', %d, 'click', '{}', 'delivered', 1, %d, "
                "%d)" % (wid, i, wid, old, old))
            self.inst.sql(
                "INSERT INTO webhook_attempts (delivery_id, at, status, "
                "duration_ms) SELECT id, %d, 200, 5 FROM "
                "webhook_deliveries WHERE uuid = 'dlv_old%d_%d'" %
                (old, wid, i))
        self.assertEqual(len(self.rows(wid)), 4)
        p = self.run_hooks()
        self.assertIn("purged 3 deliveries", p.stderr)
        self.assertEqual([r["uuid"] for r in self.rows(wid)],
                         [recent["uuid"]])
        self.assertEqual(self.inst.sql(
            "SELECT count(*) FROM webhook_attempts WHERE at = %d" % old),
            [(0,)])
        # The write-ahead log was folded back and truncated (SQLite's:
        # PostgreSQL keeps its own).
        if not lzenv.PG:
            self.assertEqual(os.path.getsize(
                self.inst.path("data", "links.db-wal")), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
