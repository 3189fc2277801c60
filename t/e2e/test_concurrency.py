"""Checks that then write, made at once: every limit stays exact (DESIGN 7).

SQLite serialises every writer (BEGIN IMMEDIATE); PostgreSQL runs
transactions side by side, so each check that then writes is either one
statement or takes the row it depends on first.  Here each is hit by
many requests at once -- on SQLite through one instance's four workers,
on PostgreSQL (LZ_DB=postgresql) through two hosts of one database, their
requests interleaved -- and exactly the limit gets through:

  the link cap, a custom slug, the monthly quota, a link's max_clicks,
  a conversion's de-duplication, a link's password tries, sign-in
  failures, and the cap on an account's webhooks.
"""

import concurrent.futures
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

CONF = """trusted_proxies = 127.0.0.1
conversion_rate_limit = 0
signup = open
login_max_failures = 3
link_password_max_failures = 4
webhook_allow_loopback = yes
plan.few.quota = 100000
plan.few.links = 3
plan.calls.quota = 20
plan.calls.links = 100
"""
UA = ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
      "Firefox/120.0")
N = 24          # requests at once, split over the hosts

hosts = []


def setUpModule():
    a = lzenv.Instance("conc-a", workers=4, extra_conf=CONF)
    hosts.append(a)
    if lzenv.PG:
        hosts.append(lzenv.Instance("conc-b", workers=4, extra_conf=CONF,
                                    share_db=a))
    for h in hosts:
        h.start()


def tearDownModule():
    for h in hosts:
        h.stop()


def at_once(fn, n=N):
    """fn(i, host) for i in 0..n-1, all at once, host by turns."""
    with concurrent.futures.ThreadPoolExecutor(n) as ex:
        return list(ex.map(lambda i: fn(i, hosts[i % len(hosts)]),
                           range(n)))


class Concurrency(unittest.TestCase):
    n = 0

    def key(self, plan="pro"):
        Concurrency.n += 1
        a = hosts[0].account("conc%d@example.com" % Concurrency.n, plan)
        return a, hosts[0].key(a)

    def link(self, key, **fields):
        fields.setdefault("target_url", "https://conc.example/landing")
        r = hosts[0].api("POST", "/api/v1/links", key, fields)
        self.assertEqual(r.status, 201, r)
        return r.json()

    def count(self, sql):
        return hosts[0].sql(sql)[0][0]

    def test_link_cap(self):
        acct, key = self.key("few")
        st = at_once(lambda i, h: h.api("POST", "/api/v1/links", key, {
            "target_url": "https://conc.example/%d" % i}).status)
        self.assertEqual((st.count(201), st.count(403)), (3, N - 3), st)
        self.assertEqual(self.count("SELECT count(*) FROM links WHERE "
                                    "account_id = %d" % acct), 3)

    def test_custom_slug(self):
        _, key = self.key()
        st = at_once(lambda i, h: h.api("POST", "/api/v1/links", key, {
            "target_url": "https://conc.example/%d" % i,
            "slug": "conc-same"}).status)
        self.assertEqual((st.count(201), st.count(409)), (1, N - 1), st)

    def test_quota(self):
        acct, key = self.key("calls")
        st = at_once(lambda i, h: h.api("GET", "/api/v1/links", key).status,
                     40)
        self.assertEqual((st.count(200), st.count(429)), (20, 20), st)
        self.assertEqual(self.count("SELECT calls FROM usage WHERE "
                                    "account_id = %d" % acct), 20)

    def test_max_clicks(self):
        _, key = self.key()
        link = self.link(key, slug="conc-cap", max_clicks=10)
        st = at_once(lambda i, h: h.request("GET", "/conc-cap", headers={
            "User-Agent": UA}).status, 40)
        self.assertEqual((st.count(302), st.count(410)), (10, 30), st)
        self.assertEqual(self.count("SELECT clicks FROM links WHERE id = "
                                    "%d" % link["id"]), 10)
        self.assertEqual(self.count("SELECT count(*) FROM clicks WHERE "
                                    "link_id = %d AND bot = 0" %
                                    link["id"]), 10)

    def test_conversion_once(self):
        _, key = self.key()
        link = self.link(key, slug="conc-conv")
        res = at_once(lambda i, h: h.request(
            "POST", "/api/conv", body={"slug": "conc-conv", "value": 5},
            headers={"User-Agent": UA, "Origin": "https://conc.example",
                     "X-Forwarded-For": "198.51.100.20"}).json())
        counted = [r["counted"] for r in res]
        self.assertEqual(counted.count(True), 1, res)
        self.assertEqual({r.get("reason") for r in res if not r["counted"]},
                         {"duplicate"}, res)
        self.assertEqual(self.count("SELECT count(*) FROM conversions "
                                    "WHERE link_id = %d" % link["id"]), 1)
        self.assertEqual(self.count("SELECT micros FROM link_revenue WHERE "
                                    "link_id = %d" % link["id"]), 5000000)

    def test_link_password_tries(self):
        _, key = self.key()
        self.link(key, slug="conc-pw", password="the right one")
        st = at_once(lambda i, h: h.request(
            "POST", "/conc-pw", body="password=wrong%d" % i, headers={
                "User-Agent": UA, "X-Forwarded-For": "198.51.100.21",
                "Content-Type": "application/x-www-form-urlencoded"}).status)
        self.assertEqual((st.count(403), st.count(429)), (4, N - 4), st)

    def test_signin_failures(self):
        email = "conc-signin@example.com"
        r = hosts[0].request("POST", "/dashboard/api/signup", body={
            "email": email, "password": "correct horse battery"}, headers={
            "Origin": "http://127.0.0.1:%d" % hosts[0].links_port,
            "X-Forwarded-For": "198.51.100.22"})
        self.assertEqual(r.status, 201, r)
        st = at_once(lambda i, h: h.request(
            "POST", "/dashboard/api/signin", body={
                "email": email, "password": "wrong guess %d" % i},
            headers={"Origin": "http://127.0.0.1:%d" % h.links_port,
                     "X-Forwarded-For": "198.51.100.23"}).status)
        self.assertEqual((st.count(401), st.count(429)), (3, N - 3), st)

    def test_webhook_cap(self):
        acct, _ = self.key()

        def add(i, h):
            return subprocess.run(
                [lzenv.prog("lzctl"), "-f", h.conf, "webhook", "add",
                 str(acct), "https://127.0.0.1:9/hook%d" % i],
                capture_output=True, text=True, timeout=60).returncode
        rcs = at_once(add, 16)
        self.assertEqual((rcs.count(0), rcs.count(1)), (10, 6), rcs)
        self.assertEqual(self.count("SELECT count(*) FROM webhooks WHERE "
                                    "account_id = %d" % acct), 10)


if __name__ == "__main__":
    lzenv.main()
