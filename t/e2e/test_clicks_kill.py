"""No served redirect loses its click (DESIGN 3.4, 5): lz-links workers
are killed with SIGKILL under a redirect load through real nginx, then the
whole pool is; afterwards the clicks table holds a click for every 302
that was served, and at most one more per killed worker (a worker killed
between recording a click and answering; nginx retries that request on
another worker, which records it again).
"""

import os
import random
import signal
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

UA = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
      "(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")


class Load:
    """Clients requesting a short link until stopped; counts answers."""

    def __init__(self, inst, path, clients):
        self.inst, self.path = inst, path
        self.served = 0
        self.failed = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.client)
                        for _ in range(clients)]

    def client(self):
        while not self.stop.is_set():
            try:
                r = self.inst.request("GET", self.path, timeout=10,
                                      headers={"User-Agent": UA})
                ok = r.status == 302
            except OSError:
                ok = False
            with self.lock:
                if ok:
                    self.served += 1
                else:
                    self.failed += 1

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(30)


class TestKill(unittest.TestCase):

    def setUp(self):
        self.inst = lzenv.Instance(name="kill", workers=4)
        self.inst.start()
        acct = self.inst.account("k@example.com", plan="pro")
        key = self.inst.key(acct)
        r = self.inst.api("POST", "/api/v1/links", key,
                          {"target_url": "https://example.com/", "slug": "k"})
        self.assertEqual(r.status, 201)
        self.link = r.json()["id"]
        self.jdir = self.inst.path("data", "clicks")

    def tearDown(self):
        self.inst.stop()


    def clicks(self):
        return self.inst.sql("SELECT count(*) FROM clicks WHERE link_id = %d"
                             % self.link)[0][0]

    def settle(self, want, timeout=20):
        """Waits until at least want clicks are in, then a bit longer."""
        deadline = time.monotonic() + timeout
        while self.clicks() < want and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.5)
        return self.clicks()

    def test_kill_workers_and_pool(self):
        killed = []
        with Load(self.inst, "/k", 16) as load:
            for at in (1.0, 1.0, 1.0):
                time.sleep(at)
                pid = random.choice(self.inst.worker_pids("lz-links"))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            time.sleep(1.0)
        self.assertGreater(load.served, 200)
        got = self.settle(load.served)
        self.assertGreaterEqual(got, load.served,
                                "clicks of served redirects were lost")
        self.assertLessEqual(got, load.served + len(killed))
        # The dead workers' journals were moved and removed.
        names = os.listdir(self.jdir)
        for pid in killed:
            self.assertFalse([n for n in names if n.startswith("w%d-" % pid)],
                             names)
        self.assertTrue(self.inst.integrity_ok())
        counted = self.inst.sql("SELECT clicks FROM links WHERE id = %d" %
                                self.link)[0][0]
        self.assertEqual(counted, got)

        # Now the whole pool dies at once, supervisor and all, mid-load.
        before = got
        with Load(self.inst, "/k", 16) as load2:
            time.sleep(1.5)
            p = self.inst.procs["lz-links"]
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            self.inst.procs.pop("lz-links")
        self.assertGreater(load2.served, 50)
        left = [n for n in os.listdir(self.jdir) if n.endswith(".j")]
        self.assertTrue(left)
        # A new pool takes the journals over when it starts.
        self.inst.start_pool("lz-links")
        got = self.settle(before + load2.served)
        self.assertGreaterEqual(got, before + load2.served)
        self.assertLessEqual(got, before + load2.served + self.inst.workers)
        for n in left:
            self.assertFalse(os.path.exists(os.path.join(self.jdir, n)), n)

        # A clean stop moves everything and leaves no journal behind.
        with Load(self.inst, "/k", 4) as load3:
            time.sleep(0.5)
        self.inst.stop_pool("lz-links")
        self.assertEqual([n for n in os.listdir(self.jdir)
                          if n != "mover.lock"], [])
        self.assertEqual(self.inst.sql("SELECT count(*) FROM click_journals"),
                         [(0,)])
        final = self.clicks()
        self.assertEqual(load3.failed, 0)
        self.assertEqual(final, got + load3.served)
        self.assertTrue(self.inst.integrity_ok())


if __name__ == "__main__":
    lzenv.main()
