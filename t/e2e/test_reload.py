"""Reloads under load: a SIGHUP every second to lz-links and to
lz-prompts while 32 clients (wrk) keep each busy through real nginx, for
LZ_TEST_SECONDS each ("make check-long": 60; "make check": a few):
not one request fails.

nginx keeps its FastCGI connections (lz-keepalive.conf), so every reload
retires workers that hold connections nginx may be writing a request on
at that very moment.  They hand them back (pool.c) and nginx must never
find one closed under a request it sent: it would retry such a request
only for GET and HEAD, so the links mix has POSTs that nginx never
retries (API creates, password forms), and nginx's error log must be
empty (a retried GET leaves an upstream error there).  Afterwards: every
answer is the expected 2xx or 3xx, no socket error, every 201-created
link is stored, every served redirect's click is recorded, a generation
of workers came per second, and no worker had to close a kept
connection nginx had not closed.
"""

import os
import signal
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import wrk  # noqa: E402

SECONDS = wrk.seconds_from_env(4)
CLIENTS = 32
PASSWORD = "reload pass"

CONF = """trusted_proxies = 127.0.0.1
plan.reload.quota = 1000000000
plan.reload.links = 1000000000
"""

# 80% visits, 19% API creates, 1% password forms (an argon2id check).
LINKS_LUA = """
local key, slug, pw, n, tag
function init(args)
  key, slug, pw = args[1], args[2], args[3]
  n = 0
  tag = tostring(math.random(1, 1000000000))
end
function request()
  n = n + 1
  local k = n % 100
  if k < 80 then
    return wrk.format("GET", "/" .. slug .. (k % 2 == 0 and "/mail" or ""))
  elseif k < 99 then
    return wrk.format("POST", "/api/v1/links",
      { ["Authorization"] = "Bearer " .. key,
        ["Content-Type"] = "application/json" },
      '{"target_url": "https://example.com/' .. tag .. '/' .. n .. '"}')
  else
    return wrk.format("POST", "/pw",
      { ["Content-Type"] = "application/x-www-form-urlencoded" },
      "password=" .. pw)
  end
end
"""

PROMPTS_LUA = """
local n, paths
function init(args)
  n = tonumber(args[1])
  paths = {}
  for s in string.gmatch(args[2], "[^ ]+") do table.insert(paths, s) end
end
function request()
  n = n + 1
  local a = n % 131072
  return wrk.format("GET", paths[n % #paths + 1],
    { ["X-Forwarded-For"] = string.format("198.%d.%d.%d",
      18 + math.floor(a / 65536), math.floor(a / 256) % 256, a % 256) })
end
"""


def log_figure(text):
    sys.stderr.write("FIGURE reload: %s\n" % text)


class Hup:
    """Sends SIGHUP to a process every second until stopped; counts."""

    def __init__(self, proc):
        self.proc = proc
        self.sent = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self):
        while not self.stop.wait(1.0):
            self.proc.send_signal(signal.SIGHUP)
            self.sent += 1

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


class Reload(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        inst = cls.inst = lzenv.Instance("reload", workers=2,
                                         prompts=True, extra_conf=CONF)
        inst.ctl("prompts", "import",
                 os.path.join(lzenv.SRCDIR, "data", "prompts.json"))
        inst.start()
        cls.key = inst.key(inst.account("reload@example.com",
                                        plan="reload"))
        r = inst.api("POST", "/api/v1/links", cls.key,
                     {"target_url": "https://example.com/", "slug": "r"})
        assert r.status == 201, r
        r = inst.api("POST", "/api/v1/links", cls.key,
                     {"target_url": "https://example.com/", "slug": "pw",
                      "password": PASSWORD})
        assert r.status == 201, r

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def count(self, query):
        return self.inst.sql(query)[0][0]

    def assert_reloaded(self, name, hup):
        """A generation per SIGHUP, and no kept connection closed under
        nginx."""
        log = self.inst.log(name)
        self.assertGreaterEqual(log.count("reloaded; replacing"),
                                hup.sent - 1, name)
        for mark in ("did not close", "killed by signal", "internal_error",
                     "accept:"):
            self.assertNotIn(mark, log, name)
        with open(self.inst.path("nginx", "error.log")) as f:
            errors = [ln for ln in f if "[error]" in ln or "[crit]" in ln
                      or "[alert]" in ln]
        self.assertEqual(errors, [])

    def test_1_links(self):
        inst = self.inst
        links0 = self.count("SELECT count(*) FROM links")
        clicks0 = self.count("SELECT count(*) FROM clicks")
        with Hup(inst.procs["lz-links"]) as hup:
            res = wrk.run(inst.links_port, LINKS_LUA,
                          [self.key, "r", PASSWORD.replace(" ", "+")],
                          seconds=SECONDS, connections=CLIENTS)
        log_figure("lz-links, %d clients, %d reloads, %s" % (
            CLIENTS, hup.sent, res.line()))
        self.assertEqual(res.errors, {"connect": 0, "read": 0, "write": 0,
                                      "timeout": 0}, res.line())
        self.assertEqual(set(res.status) - {201, 302, 303}, set(),
                         res.line())
        self.assertGreater(res.count(302), 100 * SECONDS / 4)
        self.assertGreater(res.count(201), 10 * SECONDS / 4)
        self.assertGreaterEqual(hup.sent, int(SECONDS) - 1)
        # wrk stops counting at the end of its time with up to one
        # request per client in flight: served, but not counted.
        n = self.count("SELECT count(*) FROM links")
        self.assertGreaterEqual(n, links0 + res.count(201))
        self.assertLessEqual(n, links0 + res.count(201) + CLIENTS)
        want = clicks0 + res.count(302) + res.count(303)
        deadline = time.monotonic() + 30
        while (self.count("SELECT count(*) FROM clicks") < want and
               time.monotonic() < deadline):
            time.sleep(0.2)
        time.sleep(1.2)
        got = self.count("SELECT count(*) FROM clicks")
        self.assertGreaterEqual(got, want)
        self.assertLessEqual(got, want + CLIENTS)
        self.assert_reloaded("lz-links", hup)

    def test_2_prompts(self):
        inst = self.inst
        paths = ["/api/v1/prompts", "/api/v1/prompts?q=cat&lang=en",
                 "/api/v1/prompts/window-light-cat-portrait",
                 "/api/v1/tags", "/api/v1/collections", "/api/v1/tools"]
        with Hup(inst.procs["lz-prompts"]) as hup:
            res = wrk.run(inst.prompts_port, PROMPTS_LUA,
                          [str(int(time.time()) % 100000), " ".join(paths)],
                          seconds=SECONDS, connections=CLIENTS)
        log_figure("lz-prompts, %d clients, %d reloads, %s" % (
            CLIENTS, hup.sent, res.line()))
        self.assertEqual(res.errors, {"connect": 0, "read": 0, "write": 0,
                                      "timeout": 0}, res.line())
        self.assertEqual(set(res.status) - {200}, set(), res.line())
        self.assertGreater(res.count(200), 100 * SECONDS / 4)
        self.assertGreaterEqual(hup.sent, int(SECONDS) - 1)
        self.assert_reloaded("lz-prompts", hup)


if __name__ == "__main__":
    lzenv.main()
