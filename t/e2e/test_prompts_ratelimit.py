#!/usr/bin/env python3
"""Per-IP rate limits of the prompt library (spec 8, DESIGN 4), exact
across all workers: concurrent clients from one address get exactly the
tier's quota and then 429 with a correct Retry-After, while other
addresses, other /64s and the other tier are untouched.

The exact sliding-window arithmetic (Retry-After to the millisecond,
windows sliding, refusals not counted) is tested with a simulated clock
in t/check_ratelimit.c; here the real service is tested within one
window (a test cannot wait a minute)."""

import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from promptlib import API, PromptsInstance  # noqa: E402


class RateLimits(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        # Four workers, so requests from one client land on different
        # processes and only the shared table can count them right.
        cls.inst = PromptsInstance("prompts-rl", workers=4)
        try:
            cls.inst.start()
        except Exception:
            cls.inst.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def burst(self, path, ip, n, threads=16):
        """n concurrent requests from ip; returns (t0, responses)."""
        t0 = time.monotonic()
        return t0, lzenv.burst(lambda: self.inst.get(path, ip=ip), n,
                               threads)

    def check_tier(self, path, ip, quota, tier, extra=10):
        t0, rs = self.burst(path, ip, quota + extra)
        statuses = [r.status for r in rs]
        self.assertEqual(statuses.count(200), quota, statuses)
        self.assertEqual(statuses.count(429), extra, statuses)
        for r in rs:
            self.assertEqual(r.header("RateLimit-Policy"),
                             '"%s";q=%d;w=60' % (tier, quota))
        for r in rs:
            if r.status != 429:
                continue
            j = r.json()
            self.assertEqual(j["error"], "rate_limited")
            self.assertIs(j["ok"], False)
            self.assertEqual(r.header("Cache-Control"), "no-store")
            ra = int(r.header("Retry-After"))
            # The oldest of the quota's requests leaves the window 60 s
            # after it was served, i.e. at or after t0 and before now.
            waited = time.monotonic() - t0
            self.assertGreaterEqual(ra, 1)
            self.assertLessEqual(ra, 60)
            self.assertGreaterEqual(ra, 60 - waited - 1, (ra, waited))
            self.assertEqual(r.header("RateLimit"),
                             '"%s";r=0;t=%d' % (tier, ra))
        # Still refused right after, with a Retry-After that did not grow.
        r = self.inst.get(path, ip=ip)
        self.assertEqual(r.status, 429)
        self.assertLessEqual(int(r.header("Retry-After")), 60)
        return rs

    def test_list_tier_exact_under_concurrency(self):
        ip = "198.51.100.10"
        self.check_tier(API + "/prompts?limit=1", ip, 30, "list")
        # Another address is not affected ...
        r = self.inst.get(API + "/prompts?limit=1", ip="198.51.100.11")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.header("RateLimit"), '"list";r=29;t=60')
        # ... and the same address still has its detail tier.
        r = self.inst.get(API + "/prompts/window-light-cat-portrait", ip=ip)
        self.assertEqual(r.status, 200)
        self.assertEqual(r.header("RateLimit-Policy"), '"detail";q=60;w=60')

    def test_list_tier_is_shared_by_list_endpoints(self):
        """Prompts, tags, collections, models, tools, integrations,
        changelog, tutorials and keywords lists draw on one budget."""
        ip = "198.51.100.20"
        paths = ["/prompts", "/tags", "/collections", "/models", "/tools",
                 "/integrations", "/changelog", "/tutorials", "/keywords"]
        for i in range(30):
            r = self.inst.get(API + paths[i % len(paths)], ip=ip)
            self.assertEqual(r.status, 200, (i, r))
        for p in paths:
            r = self.inst.get(API + p, ip=ip)
            self.assertEqual(r.status, 429, p)

    def test_detail_tier(self):
        ip = "198.51.100.30"
        rs = self.check_tier(API + "/collections/starter-kit", ip, 60,
                             "detail", extra=5)
        self.assertTrue(all(r.status in (200, 429) for r in rs))
        for p in ("/prompts/window-light-cat-portrait",
                  "/tutorials/prompt-basics", "/keywords/bokeh",
                  "/openapi.json"):
            self.assertEqual(self.inst.get(API + p, ip=ip).status, 429, p)
        # Its list tier is untouched.
        self.assertEqual(self.inst.get(API + "/tags", ip=ip).status, 200)

    def test_errors_count_too(self):
        """400s and 404s are requests like any other."""
        ip = "198.51.100.40"
        for i in range(30):
            self.assertEqual(self.inst.get(API + "/prompts?bad=1",
                                           ip=ip).status, 400)
        self.assertEqual(self.inst.get(API + "/prompts", ip=ip).status, 429)

    def test_ipv6_by_64(self):
        a, b = "2001:db8:aa:1::1", "2001:db8:aa:1:ffff:ffff:ffff:ffff"
        for i in range(30):
            ip = a if i % 2 else b
            self.assertEqual(self.inst.get(API + "/models", ip=ip).status,
                             200)
        # Any address in the same /64 is the same client ...
        self.assertEqual(self.inst.get(API + "/models",
                                       ip="2001:db8:aa:1::99").status, 429)
        # ... the next /64 is another one.
        self.assertEqual(self.inst.get(API + "/models",
                                       ip="2001:db8:aa:2::1").status, 200)

    def test_not_limited_by_workers_dying(self):
        """Killing a worker (even one that might hold a bucket lock) does
        not reset or wedge the shared counts."""
        import signal
        ip = "198.51.100.50"
        for _ in range(20):
            self.assertEqual(self.inst.get(API + "/tags", ip=ip).status, 200)
        for pid in self.inst.worker_pids("lz-prompts")[:2]:
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        ok = 0
        while ok < 10 and time.monotonic() < deadline:
            r = self.inst.get(API + "/tags", ip=ip)
            if r.status == 200:
                ok += 1
            elif r.status == 429:
                self.fail("refused before the quota was used")
        self.assertEqual(ok, 10)
        self.assertEqual(self.inst.get(API + "/tags", ip=ip).status, 429)


if __name__ == "__main__":
    unittest.main(verbosity=2)
