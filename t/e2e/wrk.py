"""wrk -- runs wrk(1) against an lz instance with a Lua script that counts
every answer by status, for the load and crash tests.

    res = wrk.run(port, LUA, ["arg1", "arg2"], seconds=5, connections=32)
    res.status          {302: 12000, 201: 3000, ...}
    res.errors          {"connect": 0, "read": 0, "write": 0, "timeout": 0}
    res.requests, res.seconds, res.p50_ms, res.p99_ms, res.max_ms

A script defines request() (and may use init(args)); the counting,
setup() and done() are appended here.  It may also define
on_response(status, headers, body), on_setup(thread) (in the main
state, e.g. thread:set("tid", n)) and report(threads), which done()
calls to write lines of its own (Result.out holds them).
"""

import os
import re
import shutil
import subprocess
import tempfile

WRK = shutil.which("wrk") or "/usr/bin/wrk"

PRELUDE = """
-- prepended by t/e2e/wrk.py
threads = {}
"""

COUNTING = """
-- appended by t/e2e/wrk.py: count answers by status, report them all.
function setup(thread)
  table.insert(threads, thread)
  if on_setup then on_setup(thread) end
end
counts = {}
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if on_response then on_response(status, headers, body) end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do
      io.write(string.format("status %d %d\\n", k, v))
    end
  end
  local e = summary.errors
  io.write(string.format("errors %d %d %d %d\\n", e.connect, e.read,
    e.write, e.timeout))
  io.write(string.format("summary %d %d %d %d %d\\n", summary.requests,
    summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max))
  if report then report(threads) end
end
"""


class Result:
    def __init__(self, out):
        self.out = out
        self.status = {}
        self.errors = None
        self.requests = 0
        for ln in out.splitlines():
            f = ln.split()
            if f and f[0] == "status":
                k = int(f[1])
                self.status[k] = self.status.get(k, 0) + int(f[2])
            elif f and f[0] == "errors":
                self.errors = dict(zip(("connect", "read", "write",
                                        "timeout"), map(int, f[1:5])))
            elif f and f[0] == "summary":
                self.requests = int(f[1])
                self.seconds = int(f[2]) / 1e6
                self.p50_ms, self.p99_ms, self.max_ms = (
                    int(x) / 1000 for x in f[3:6])
        if self.errors is None:
            raise RuntimeError("wrk said nothing of use:\n" + out)

    def answered(self):
        return sum(self.status.values())

    def count(self, lo, hi=None):
        """Answers with a status in lo..hi (lo alone: exactly lo)."""
        hi = lo if hi is None else hi
        return sum(n for s, n in self.status.items() if lo <= s <= hi)

    def rate(self):
        return self.answered() / self.seconds if self.seconds else 0

    def line(self):
        return ("%d requests in %.1f s (%.0f/s), p50 %.1f ms, p99 %.1f ms, "
                "max %.1f ms, statuses %s, socket errors %s" %
                (self.answered(), self.seconds, self.rate(), self.p50_ms,
                 self.p99_ms, self.max_ms, dict(sorted(self.status.items())),
                 self.errors))


def run(port, script, args=(), seconds=5, connections=32, threads=2,
        timeout_s=10, path="/"):
    """Runs wrk for seconds with connections clients; returns Result."""
    fd, lua = tempfile.mkstemp(prefix="lz-wrk-", suffix=".lua")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(PRELUDE + script + COUNTING)
        cmd = [WRK, "-t%d" % threads, "-c%d" % connections,
               "-d%ds" % max(1, round(seconds)), "--timeout",
               "%ds" % timeout_s, "-s", lua,
               "http://127.0.0.1:%d%s" % (port, path)]
        if args:
            cmd += ["--"] + list(args)
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=seconds + timeout_s + 60)
        if p.returncode != 0:
            raise RuntimeError("wrk: %d %s%s" % (p.returncode, p.stdout,
                                                 p.stderr))
        return Result(p.stdout)
    finally:
        os.unlink(lua)


def seconds_from_env(short):
    """The length of a load or fault test: LZ_TEST_SECONDS (set by
    "make check-long"), else short."""
    v = os.environ.get("LZ_TEST_SECONDS")
    return float(v) if v and re.fullmatch(r"\d+(\.\d+)?", v) else short
