"""Kept FastCGI connections, spoken to the lz-links pool's socket directly
(t/e2e/fcgiclient.py) the way nginx speaks with fastcgi_keep_conn on, one
worker so that every connection is the same worker's (DESIGN 1,
src/core/pool.c):

  - the worker serves several kept connections, whichever has a request:
    an idle one holds up no other;
  - a request whose body the handler did not read leaves nothing behind
    on the connection: the next request on it is answered;
  - a request that never arrives whole holds the worker for at most the
    read time-out, then its connection is closed;
  - a worker that leaves (SIGHUP's new generation, SIGTERM) and a worker
    about to check a password first hand their kept connections back with
    an empty FCGI_STDERR record, never close them under a request: a
    request that crosses the record is answered, and the leaving worker
    exits once its connections are closed.
"""

import os
import signal
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcgiclient  # noqa: E402
import lzenv  # noqa: E402
from fcgiclient import STDERR, END_REQUEST  # noqa: E402

READ_TIMEOUT = 5        # pool.c
HANDED_BACK = (STDERR, b"")


def get(uri, method="GET"):
    return fcgiclient.request({"REQUEST_METHOD": method,
                               "REQUEST_URI": uri,
                               "REMOTE_ADDR": "127.0.0.1"})


class KeptConnections(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance("kept", workers=1,
                                  extra_conf="shutdown_timeout = 20\n")
        cls.inst.start()
        key = cls.inst.key(cls.inst.account("k@example.com", "pro"))
        r = cls.inst.api("POST", "/api/v1/links", key, {
            "slug": "pw", "password": "kept pass",
            "target_url": "https://example.com/"})
        assert r.status == 201, r

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def sock(self):
        return self.inst.path("run", "links.sock")

    def conn(self):
        c = fcgiclient.Conn(self.sock())
        self.addCleanup(c.close)
        return c

    def assert_answer(self, records, status):
        self.assertEqual(records[-1][0], END_REQUEST)
        self.assertTrue(fcgiclient.stdout(records).startswith(
            b"Status: %d " % status), records[:2])

    def test_1_an_idle_connection_holds_up_no_other(self):
        a, b = self.conn(), self.conn()
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)
        # a stays open and idle: the one worker still serves b, then a.
        for _ in range(3):
            b.send(get("/nothing-here"))
            self.assert_answer(b.answer(), 404)
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)

    def test_2_an_unread_body_is_not_left_behind(self):
        c = self.conn()
        c.send(fcgiclient.request({"REQUEST_METHOD": "POST",
                                   "REQUEST_URI": "/nothing-here",
                                   "CONTENT_TYPE": "text/plain"},
                                  body=b"x" * 60000))
        self.assert_answer(c.answer(), 404)
        c.send(get("/nothing-here"))
        self.assert_answer(c.answer(), 404)

    def test_3_a_half_request_is_bounded(self):
        a = self.conn()
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)
        t = time.monotonic()
        a.send(get("/nothing-here")[:20])   # BEGIN_REQUEST and a little
        time.sleep(0.2)                     # the worker waits for the rest
        b = self.conn()
        b.send(get("/nothing-here"))
        self.assert_answer(b.answer(), 404)
        self.assertGreater(time.monotonic() - t, READ_TIMEOUT - 1)
        self.assertLess(time.monotonic() - t, READ_TIMEOUT + 3)
        # a was closed without an answer to its half request.
        self.assertTrue(a.closed())

    def test_4_a_password_check_hands_the_others_back(self):
        a, b = self.conn(), self.conn()
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)
        b.send(fcgiclient.request({
            "REQUEST_METHOD": "POST", "REQUEST_URI": "/pw",
            "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_TYPE": "application/x-www-form-urlencoded"},
            body=b"password=kept+pass"))
        self.assert_answer(b.answer(), 303)
        # a was handed back before the check; b, the slow one's own, not.
        self.assertEqual(a.next_record(), HANDED_BACK)
        # A request that crossed the record is answered all the same.
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)
        b.send(get("/nothing-here"))
        self.assert_answer(b.answer(), 404)

    def test_5_a_leaving_worker_hands_back_and_serves_what_crosses(self):
        inst = self.inst
        old = inst.worker_pids("lz-links")
        a = self.conn()
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)
        inst.procs["lz-links"].send_signal(signal.SIGHUP)
        self.assertEqual(a.next_record(), HANDED_BACK)
        a.send(get("/nothing-here"))        # crossed the record
        records = a.answer()
        self.assert_answer(records, 404)
        self.assertEqual(a.next_record(), HANDED_BACK)   # again
        self.assertTrue(all(os.path.exists("/proc/%d" % p) for p in old))
        a.close()                           # as nginx does
        lzenv.wait_for(lambda: not any(os.path.exists("/proc/%d" % p)
                                       for p in old),
                       timeout=5, what="the old worker to exit")
        c = self.conn()                     # the new generation's
        c.send(get("/nothing-here"))
        self.assert_answer(c.answer(), 404)
        self.assertNotIn("did not close", inst.log("lz-links"))

    def test_6_stop_hands_back(self):
        inst = self.inst
        a = self.conn()
        a.send(get("/nothing-here"))
        self.assert_answer(a.answer(), 404)
        p = inst.procs["lz-links"]
        p.send_signal(signal.SIGTERM)
        self.assertEqual(a.next_record(), HANDED_BACK)
        time.sleep(0.3)
        self.assertIsNone(p.poll())         # waits for the connection
        a.close()
        p.wait(5)
        self.assertEqual(p.returncode, 0)
        inst.procs.pop("lz-links")
        inst.start_pool("lz-links")         # for tearDownClass


if __name__ == "__main__":
    lzenv.main()
