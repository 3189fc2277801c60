"""Adding a webhook resolves its host inside a pool worker: the worker
must never wait on DNS longer than 2 s, must not tell the account where
a name leads, and an account may only make so many additions and test
events a minute (DESIGN 3.11).

The worker's name server is a stub on 127.0.0.1 (webhook_nameservers, a
test and operations knob of lz.conf(5)) that answers "private.*" with
10.9.8.7, "public.*" with 93.184.216.34 and never answers "slow.*".
Redirects are measured while one worker waits for it.
"""

import os
import socket
import struct
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from test_dashboard_api import Browser  # noqa: E402

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) "
          "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 "
          "Mobile/15E148 Safari/604.1")
ANSWERS = {"private": "10.9.8.7", "public": "93.184.216.34"}


class DNSStub:
    """A UDP name server on 127.0.0.1: A records from ANSWERS by the
    name's first label, nothing for AAAA, silence for "slow"."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.queries = []               # (name, qtype)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stop.is_set():
            try:
                q, peer = self.sock.recvfrom(512)
            except socket.timeout:
                continue
            labels, i = [], 12
            while i < len(q) and q[i]:
                labels.append(q[i + 1:i + 1 + q[i]].decode("ascii",
                                                           "replace"))
                i += 1 + q[i]
            qtype = struct.unpack("!H", q[i + 1:i + 3])[0]
            question = q[12:i + 5]
            name = ".".join(labels).lower()
            self.queries.append((name, qtype))
            addr = ANSWERS.get(labels[0].lower() if labels else "")
            if labels and labels[0].lower() == "slow":
                continue
            answer = b""
            if addr and qtype == 1:
                answer = (b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) +
                          socket.inet_aton(addr))
            header = q[:2] + struct.pack("!HHHHH", 0x8180, 1,
                                         1 if answer else 0, 0, 0)
            self.sock.sendto(header + question + answer, peer)

    def close(self):
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


stub = None
inst = None


def setUpModule():
    global stub, inst
    stub = DNSStub()
    inst = lzenv.Instance("hook-dns", workers=2, extra_conf=(
        "signup = open\nwebhook_nameservers = 127.0.0.1:%d\n" % stub.port))
    try:
        inst.start()	# stops what it started when something fails
    except Exception:
        stub.close()
        raise


def tearDownModule():
    if inst is not None:
        inst.stop()
    if stub is not None:
        stub.close()


class WebhookDNS(unittest.TestCase):

    def add(self, b, host):
        return b.req("POST", "/dashboard/api/webhooks",
                     {"url": "https://%s/in" % host, "events": ["click"]})

    def test_1_silent_name_server(self):
        """A name server that never answers costs the adding request 2 s
        and nothing more; the other worker keeps redirecting."""
        b = Browser(inst)
        self.assertEqual(b.signup("dns@example.com").status, 201)
        r = b.req("POST", "/dashboard/api/links",
                  {"target_url": "https://example.com/flow", "slug": "flow"})
        self.assertEqual(r.status, 201, r)
        done = {}

        def slow_add():
            t0 = time.monotonic()
            done["r"] = self.add(b, "slow.hooks.test")
            done["s"] = time.monotonic() - t0

        t = threading.Thread(target=slow_add)
        t.start()
        lzenv.wait_for(lambda: ("slow.hooks.test", 1) in stub.queries,
                       what="the worker's query at the stub")
        lat, statuses = [], []
        end = time.monotonic() + 10
        while t.is_alive() and time.monotonic() < end:
            t0 = time.monotonic()
            r = inst.request("GET", "/flow", headers={"User-Agent": IPHONE})
            lat.append(time.monotonic() - t0)
            statuses.append(r.status)
        t.join(10)
        r, took = done["r"], done["s"]
        sys.stderr.write("FIGURE webhook add, silent name server: %.2f s; "
                         "%d redirects meanwhile, slowest %.0f ms\n" %
                         (took, len(lat), 1000 * max(lat)))
        self.assertEqual(r.status, 400, r)
        self.assertEqual(r.json()["error"], "unsafe_url")
        self.assertGreaterEqual(took, 1.9)
        self.assertLessEqual(took, 2.5)
        self.assertEqual(set(statuses), {302})
        self.assertGreaterEqual(len(lat), 20)
        self.assertLess(max(lat), 1.0)
        WebhookDNS.browser = b
        WebhookDNS.silent = r.json()["message"]

    def test_2_generic_message(self):
        """Where a name leads is not told: an internal address gets the
        message a silent server got; the log has it for the admin."""
        b = self.browser
        r = self.add(b, "private.hooks.test")
        self.assertEqual(r.status, 400, r)
        self.assertEqual(r.json()["error"], "unsafe_url")
        self.assertEqual(r.json()["message"], self.silent)
        self.assertNotIn(b"10.9.8.7", r.body)
        for text in (b"10.9.8.7", b"private", b"no answer"):
            self.assertNotIn(text, r.body)
        lzenv.wait_for(lambda: "10.9.8.7" in inst.log("lz-links"),
                       what="the reason in the log")
        r = self.add(b, "public.hooks.test")
        self.assertEqual(r.status, 201, r)
        # lzctl is the admin's: it says why, within the same 2 s.
        t0 = time.monotonic()
        p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf, "webhook",
                            "add", "dns@example.com",
                            "https://slow.hooks.test/"],
                           capture_output=True, text=True, timeout=30)
        self.assertLessEqual(time.monotonic() - t0, 2.5)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no answer in time", p.stderr)

    def test_3_rate_limit(self):
        """Additions and test events count together against the
        account's webhook_rate_limit (10) a minute, refused or not; a
        body that does not parse does not count."""
        b = self.browser
        hooks = b.req("GET", "/dashboard/api/webhooks").json()["webhooks"]
        wid = hooks[0]["id"]
        r = b.req("POST", "/dashboard/api/webhooks", {"url": "x"})
        self.assertEqual(r.status, 400)
        # Three additions so far; seven more of anything fit.
        got = [b.req("POST", "/dashboard/api/webhooks/%d/test" % wid).status
               for _ in range(8)]
        self.assertEqual(got, [202] * 7 + [429])
        r = self.add(b, "public.hooks.test")
        self.assertEqual(r.status, 429, r)
        self.assertEqual(r.json()["error"], "rate_limited")
        self.assertTrue(1 <= int(r.header("Retry-After")) <= 60)
        # Another account is not held up.
        other = Browser(inst)
        other.signup("dns-other@example.com")
        self.assertEqual(self.add(other, "public.hooks.test").status, 201)


if __name__ == "__main__":
    lzenv.main()
