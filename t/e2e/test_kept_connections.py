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
    exits once its connections are closed;
  - a worker whose 128 slots are all kept connections hands the one idle
    the longest back at once when a new connection comes (it waited 75 s
    for one to go idle long enough before), and closes it itself when
    nginx has not within a second;
  - a request's params and stdin must arrive within 5 s in all, however
    they trickle: a peer sending a byte every second no longer holds the
    worker (each single read was bounded, the request was not);
  - an answer read on a thread of its own (statistics, an export: DESIGN
    8) leaves its connection kept, as nginx asked: the next request on it
    is answered, and the worker served the others meanwhile.
"""

import os
import signal
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcgiclient  # noqa: E402
import lzenv  # noqa: E402
from fcgiclient import STDERR, END_REQUEST  # noqa: E402

READ_TIMEOUT = 5        # pool.c
READ_DEADLINE = 5       # pool.c
SLOTS = 128             # pool.c
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
        cls.key = key = cls.inst.key(cls.inst.account("k@example.com",
                                                      "pro"))
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

    def fill_slots(self):
        """SLOTS kept connections, each after one answered request, the
        first the one idle the longest."""
        conns = []
        for _ in range(SLOTS):
            c = self.conn()
            c.send(get("/nothing-here"))
            self.assert_answer(c.answer(), 404)
            conns.append(c)
            time.sleep(0.001)           # distinct idle times
        return conns

    def test_7_a_full_worker_makes_room_at_once(self):
        conns = self.fill_slots()
        t = time.monotonic()
        new = self.conn()
        new.send(get("/nothing-here"))
        # The one idle the longest is handed back; nginx closes it.
        self.assertEqual(conns[0].next_record(), HANDED_BACK)
        conns[0].close()
        self.assert_answer(new.answer(), 404)
        self.assertLess(time.monotonic() - t, 1.0)
        # The others were kept and still serve.
        for c in (conns[1], conns[-1]):
            c.send(get("/nothing-here"))
            self.assert_answer(c.answer(), 404)
        for c in conns[1:] + [new]:
            c.close()

    def test_8_a_handed_back_connection_nginx_keeps_is_closed(self):
        conns = self.fill_slots()
        t = time.monotonic()
        new = self.conn()
        new.send(get("/nothing-here"))
        # This peer ignores the record: the worker closes the connection
        # after a second and takes the new one.
        self.assert_answer(new.answer(), 404)
        self.assertLess(time.monotonic() - t, 2.5)
        self.assertEqual(conns[0].next_record(), HANDED_BACK)
        self.assertTrue(conns[0].closed())
        for c in conns[1:] + [new]:
            c.close()

    def test_9_a_trickling_request_is_cut_at_the_deadline(self):
        a = self.conn()
        head = fcgiclient.request({
            "REQUEST_METHOD": "POST", "REQUEST_URI": "/nothing-here",
            "REMOTE_ADDR": "127.0.0.1", "CONTENT_TYPE": "text/plain",
            "CONTENT_LENGTH": "100"})
        head = head[:-8]                    # all but the end of stdin
        stop = threading.Event()
        sent = []

        def trickle():
            # One stdin byte a second, each read well within the read
            # time-out; at most 20 (the test's bound).
            try:
                a.send(head)
                for _ in range(20):
                    if stop.wait(1.0):
                        return
                    a.send(fcgiclient.record(fcgiclient.STDIN, b"x"))
                    sent.append(time.monotonic())
            except OSError:
                pass
        t = time.monotonic()
        th = threading.Thread(target=trickle)
        th.start()
        self.addCleanup(th.join, 25)
        self.addCleanup(stop.set)
        time.sleep(0.5)
        b = self.conn()
        b.send(get("/nothing-here"))        # waits behind the trickle
        self.assert_answer(b.answer(), 404)
        waited = time.monotonic() - t
        self.assertLess(waited, READ_DEADLINE + 1.5)
        self.assertGreater(waited, READ_DEADLINE - 1)
        # The trickling request was dropped unanswered.
        self.assertTrue(a.closed())
        stop.set()
        th.join(25)
        self.assertIn("within %d s; dropped" % READ_DEADLINE,
                      self.inst.log("lz-links"))

    def test_10_a_detached_answer_keeps_its_connection(self):
        stats = fcgiclient.request({
            "REQUEST_METHOD": "GET", "REQUEST_URI": "/api/v1/stats",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_AUTHORIZATION": "Bearer " + self.key})
        a, b = self.conn(), self.conn()
        for _ in range(3):
            a.send(stats)
            b.send(get("/nothing-here"))
            self.assert_answer(a.answer(), 200)
            self.assert_answer(b.answer(), 404)
        # Neither handed back nor closed: a's next request is answered
        # on the same connection, with no record before it.
        a.send(get("/nothing-here"))
        records = a.answer()
        self.assertNotEqual(records[0], HANDED_BACK, records[:2])
        self.assert_answer(records, 404)


if __name__ == "__main__":
    lzenv.main()
