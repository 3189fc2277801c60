"""Writes under load (DESIGN 1, lz-links(8) "Writes"): creates that
queue instead of colliding, contention answered 503 and never 500, the
monthly quota counted out of leases, the link cap kept in the account's
row.

  - Many clients creating links with one key at once through two
    workers: every create answered 201, every 201 a row, nothing logged
    as "database is locked".
  - A writer outside the queue (an admin's sqlite3 shell) holding the
    database's write lock longer than a request waits: the create is
    answered 503 busy with Retry-After and the JSON error body, never
    500; once the lock is let go, creates go through again (SQLite).
  - The quota: calls counted on two workers, X-RateLimit-Remaining
    exact, the month's count in the database what was leased, never
    more than the quota, in blocks of an eighth of what is left.
  - The link cap with deletes between: the account's row counts its
    live links (schema 12), so a delete frees a place at once.
"""

import concurrent.futures
import os
import sqlite3
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

CONF = """plan.big.quota = 1000000
plan.big.links = 1000000
plan.q.quota = 300
plan.q.links = 1000
plan.few.quota = 100000
plan.few.links = 3
"""

inst = None


def setUpModule():
    global inst
    inst = lzenv.Instance("writes", workers=2, extra_conf=CONF)
    inst.start()


def tearDownModule():
    inst.stop()


class Writes(unittest.TestCase):
    n = 0

    def key(self, plan):
        Writes.n += 1
        a = inst.account("writes%d@example.com" % Writes.n, plan)
        return a, inst.key(a)

    def test_creates_queue(self):
        acct, key = self.key("big")
        per, clients = 40, 16

        def client(c):
            return [inst.api("POST", "/api/v1/links", key, {
                "target_url": "https://writes.example/%d/%d" % (c, i),
                "title": "write %d of %d" % (i, c)}).status
                for i in range(per)]
        with concurrent.futures.ThreadPoolExecutor(clients) as ex:
            st = sum(ex.map(client, range(clients)), [])
        self.assertEqual(st.count(201), per * clients,
                         {s: st.count(s) for s in set(st)})
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE "
                                  "account_id = %d" % acct)[0][0],
                         per * clients)
        self.assertEqual(inst.sql("SELECT link_count FROM accounts WHERE "
                                  "id = %d" % acct)[0][0], per * clients)
        self.assertNotIn("database is locked", inst.log("lz-links"))

    @unittest.skipIf(lzenv.PG, "SQLite's write lock")
    def test_outside_writer_is_503_not_500(self):
        acct, key = self.key("big")
        # A first call leases the key's calls: the create below then
        # waits on the link's write alone.
        self.assertEqual(inst.api("GET", "/api/v1/links", key).status, 200)
        held = threading.Event()

        def hold():
            db = sqlite3.connect(inst.path("data", "links.db"),
                                 isolation_level=None, timeout=5)
            db.execute("BEGIN IMMEDIATE")
            held.set()
            time.sleep(12)
            db.execute("ROLLBACK")
            db.close()
        t = threading.Thread(target=hold)
        t.start()
        try:
            self.assertTrue(held.wait(10))
            t0 = time.monotonic()
            r = inst.api("POST", "/api/v1/links", key,
                         {"target_url": "https://writes.example/held"})
            waited = time.monotonic() - t0
        finally:
            t.join()
        self.assertEqual(r.status, 503, r)
        body = r.json()
        self.assertEqual((body["ok"], body["error"]), (False, "busy"))
        self.assertIn("request_id", body)
        self.assertEqual(r.header("retry-after"), "1")
        self.assertLess(waited, 11.5)
        # Let go, the same create goes through.
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://writes.example/held"})
        self.assertEqual(r.status, 201, r)
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE "
                                  "account_id = %d" % acct)[0][0], 1)

    def test_quota_leased(self):
        acct, key = self.key("q")
        got = []
        lock = threading.Lock()

        def call(_):
            r = inst.api("GET", "/api/v1/links?limit=1", key)
            with lock:
                got.append((r.status,
                            int(r.header("x-ratelimit-remaining"))))
        with concurrent.futures.ThreadPoolExecutor(8) as ex:
            list(ex.map(call, range(320)))
        ok = [rem for st, rem in got if st == 200]
        self.assertEqual(len(ok), 300, sorted(set(s for s, _ in got)))
        self.assertEqual([st for st, _ in got].count(429), 20)
        # Every call told a different remainder: exact on one host.
        self.assertEqual(sorted(ok), list(range(300)))
        month = time.strftime("%Y-%m", time.gmtime())
        self.assertEqual(inst.sql(
            "SELECT calls FROM usage WHERE account_id = %d AND month = "
            "'%s'" % (acct, month))[0][0], 300)

    def test_lease_in_blocks(self):
        """A call leases an eighth of what is left of the quota and
        writes nothing more until the block is counted out (the
        dashboard's account subtracts what the host holds:
        test_dashboard_api.test_api_key_usage_counts)."""
        acct, key = self.key("q")
        month = time.strftime("%Y-%m", time.gmtime())

        def leased():
            return inst.sql("SELECT calls FROM usage WHERE account_id = %d "
                            "AND month = '%s'" % (acct, month))[0][0]
        for _ in range(3):
            self.assertEqual(inst.api("GET", "/api/v1/links", key).status,
                             200)
        self.assertEqual(leased(), 300 // 8)
        for _ in range(300 // 8 - 3):
            self.assertEqual(inst.api("GET", "/api/v1/links", key).status,
                             200)
        self.assertEqual(leased(), 300 // 8)
        self.assertEqual(inst.api("GET", "/api/v1/links", key).status, 200)
        self.assertEqual(leased(), 300 // 8 + (300 - 300 // 8) // 8)

    def test_cap_counted_in_the_row(self):
        acct, key = self.key("few")
        ids = []
        for i in range(3):
            r = inst.api("POST", "/api/v1/links", key,
                         {"target_url": "https://writes.example/c%d" % i})
            self.assertEqual(r.status, 201, r)
            ids.append(r.json()["id"])
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://writes.example/c3"})
        self.assertEqual(r.status, 403, r)
        self.assertEqual(r.json()["error"], "link_cap_reached")
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" % ids[0],
                                  key).status, 200)
        self.assertEqual(inst.sql("SELECT link_count FROM accounts WHERE "
                                  "id = %d" % acct)[0][0], 2)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://writes.example/c3"})
        self.assertEqual(r.status, 201, r)


if __name__ == "__main__":
    unittest.main()
