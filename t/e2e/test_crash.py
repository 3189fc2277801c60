"""Crash safety under a mixed load: for LZ_TEST_SECONDS ("make
check-long": 60; "make check": a few) 32 clients (wrk) create links,
visit short links and read the API through real nginx, while lz-hooks
(in --loop) sends the webhooks of the events to a real HTTPS receiver.
Meanwhile:
  - a random lz-links worker is killed with SIGKILL every 1 to 3 s;
  - lz-hooks is killed with SIGKILL every 2 to 5 s, and started again;
  - at 40% of the run the whole pool dies (SIGKILL to its process
    group) and is started again a second later;
  - at 70% it is stopped (SIGTERM) and started again.

Afterwards, with the pool and lz-hooks running normally again:
  - every link a 201 acknowledged exists;
  - every served redirect's click is recorded (and at most one more per
    request a killed worker had in hand, which nginx retried);
  - every event is delivered at least once: a link.created delivery for
    every acknowledged link of the subscribed account and a click
    delivery for every recorded click of its link, each received by the
    receiver with a valid signature;
  - the statistics' rollups equal a recount from the raw rows;
  - PRAGMA integrity_check is ok, and no journal is left behind.

Conversions join the mix from four client threads of their own (wrk's
answer callback cannot tell which request an answer belongs to, and each
conversion is checked one by one): every POST /api/conv carries a value
of its own, and afterwards every value answered "counted" is recorded,
nothing is recorded that was not sent, at most one conversion per
unanswered report (a worker killed after its commit) is recorded
unacknowledged, and each link's running totals equal its rows.
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import receiver  # noqa: E402
import rollups  # noqa: E402
import wrk  # noqa: E402

SECONDS = wrk.seconds_from_env(8)
CLIENTS = 32

CONF = """plan.crash.quota = 1000000000
plan.crash.links = 1000000000
webhook_allow_loopback = yes
webhook_timeout = 2
webhook_parallel = 16
webhook_ca_file = %s
plan.crash.conversions = yes
conversion_rate_limit = 0
"""

UA = ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
      "Firefox/120.0")

# In every 100 requests: 3 creates by account A (its webhook gets
# link.created), 12 by B, 4 visits of A's link (click events), 60 of B's
# links, 21 reads.  Answers of interest are kept: the slug of each 201,
# the Location of each 302 (each link has its own target).
LUA = """
local keya, keyb, slugsa, slugsb, n, ua
acked, located = {}, {}
function init(args)
  keya, keyb = args[1], args[2]
  slugsa, slugsb = {}, {}
  for s in string.gmatch(args[3], "[^,]+") do table.insert(slugsa, s) end
  for s in string.gmatch(args[4], "[^,]+") do table.insert(slugsb, s) end
  ua = args[5]
  n = 0
end
local function create(key, slug)
  local body = '{"target_url": "https://example.com/made/' .. tid .. '/' ..
    n .. '"' .. (slug and (', "slug": "' .. slug .. '"') or '') .. '}'
  return wrk.format("POST", "/api/v1/links", {
    ["Authorization"] = "Bearer " .. key,
    ["Content-Type"] = "application/json" }, body)
end
function request()
  n = n + 1
  local k = n % 100
  if k < 3 then
    return create(keya, "a_" .. runtag .. "_" .. tid .. "_" .. n)
  elseif k < 15 then
    return create(keyb, nil)
  elseif k < 19 then
    return wrk.format("GET", "/" .. slugsa[n % #slugsa + 1] .. "/mail",
      { ["User-Agent"] = ua })
  elseif k < 79 then
    return wrk.format("GET", "/" .. slugsb[n % #slugsb + 1],
      { ["User-Agent"] = ua })
  else
    return wrk.format("GET", "/api/v1/links?limit=3",
      { ["Authorization"] = "Bearer " .. keyb })
  end
end
function on_response(status, headers, body)
  if status == 201 then
    local slug = body:match('"slug":"([^"]+)"')
    if slug then acked[#acked + 1] = slug end
  elseif status == 302 then
    local loc = headers["Location"] or "?"
    located[loc] = (located[loc] or 0) + 1
  end
end
local nthreads = 0
function on_setup(thread)
  nthreads = nthreads + 1
  thread:set("tid", nthreads)
  thread:set("runtag", string.format("%x", os.time() % 65536))
end
function report(threads)
  for _, t in ipairs(threads) do
    for _, s in ipairs(t:get("acked")) do
      io.write("acked " .. s .. "\\n")
    end
    for loc, c in pairs(t:get("located")) do
      io.write(string.format("located %d %s\\n", c, loc))
    end
  end
end
"""


class Conversions:
    """Four threads POST conversion reports to B's links until stop is
    set, each with a value (whole currency units) and a User-Agent (so
    a visitor) of its own; they note what was sent, what was answered
    counted, and how many reports got no answer from the service."""

    THREADS = 4

    def __init__(self, inst, slugs, stop):
        self.inst, self.slugs, self.stop = inst, slugs, stop
        self.sent, self.counted, self.wrong = [], [], []
        self.unanswered = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(i,))
                        for i in range(self.THREADS)]
        for t in self.threads:
            t.start()

    def run(self, tid):
        n = 0
        while not self.stop.is_set():
            n += 1
            value = tid * 10000000 + n
            body = json.dumps({"slug": self.slugs[n % len(self.slugs)],
                               "value": value, "currency": "TWD"})
            with self.lock:
                self.sent.append(value)
            try:
                r = self.inst.request("POST", "/api/conv", body=body,
                                      headers={
                                          "Content-Type": "application/json",
                                          "User-Agent": "%s.%d" % (UA, value)},
                                      timeout=30)
            except OSError:
                r = None
            with self.lock:
                if r is not None and r.status == 200 and \
                        r.json()["counted"]:
                    self.counted.append(value)
                elif r is not None and r.status < 500:
                    # A new visitor's valid report is always counted.
                    self.wrong.append((value, r.status, r.body))
                else:
                    self.unanswered += 1
            time.sleep(0.005)

    def join(self):
        for t in self.threads:
            t.join(60)


class Crash(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="lz-crash-ca-")
        self.ca = receiver.CA(self.tmp)
        self.rx = receiver.Receiver(self.ca).start()
        self.inst = lzenv.Instance("crash", workers=4,
                                   extra_conf=CONF % self.ca.ca)
        self.hooks = None
        try:
            self.inst.start()
        except Exception:
            self.inst.stop()
            raise

    def tearDown(self):
        self.stop_hooks(signal.SIGTERM)
        self.inst.stop()
        self.rx.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    # -- lz-hooks, as a long-running loop --------------------------------

    def start_hooks(self):
        log = open(self.inst.path("lz-hooks.log"), "ab")
        self.hooks = subprocess.Popen(
            [lzenv.prog("lz-hooks"), "-f", self.inst.conf, "-l", "-i", "1"],
            stdout=log, stderr=log, start_new_session=True)
        log.close()

    def stop_hooks(self, sig):
        if self.hooks is not None and self.hooks.poll() is None:
            self.hooks.send_signal(sig)
            try:
                self.hooks.wait(30)
            except subprocess.TimeoutExpired:
                self.hooks.kill()
                self.hooks.wait()
        self.hooks = None

    # -- the faults ------------------------------------------------------

    def faults(self, seconds, stop, tally):
        """Kills on the schedule of the docstring until stop is set."""
        inst = self.inst
        t0 = time.monotonic()
        next_worker = t0 + random.uniform(1, 3)
        next_hooks = t0 + random.uniform(2, 5)
        pool_kill, pool_stop = t0 + 0.4 * seconds, t0 + 0.7 * seconds
        while not stop.is_set():
            now = time.monotonic()
            if now >= next_worker and "lz-links" in inst.procs:
                pids = inst.worker_pids("lz-links")
                if pids:
                    try:
                        os.kill(random.choice(pids), signal.SIGKILL)
                        tally["workers"] += 1
                    except ProcessLookupError:
                        pass
                next_worker = now + random.uniform(1, 3)
            if now >= next_hooks:
                self.stop_hooks(signal.SIGKILL)
                tally["hooks"] += 1
                time.sleep(0.3)
                self.start_hooks()
                next_hooks = now + random.uniform(2, 5)
            if pool_kill and now >= pool_kill:
                p = inst.procs.pop("lz-links")
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                tally["pool_kills"] += 1
                time.sleep(1)
                inst.start_pool("lz-links")
                pool_kill = None
            if pool_stop and now >= pool_stop:
                inst.stop_pool("lz-links", signal.SIGTERM)
                tally["pool_stops"] += 1
                time.sleep(0.5)
                inst.start_pool("lz-links")
                pool_stop = None
            time.sleep(0.05)

    # -- afterwards ------------------------------------------------------

    def deliveries(self, wid):
        rows = self.inst.sql(
            "SELECT uuid, event, body, state FROM webhook_deliveries "
            "WHERE webhook_id = %d ORDER BY id" % wid)
        return [dict(zip(("uuid", "event", "body", "state"), r))
                for r in rows]

    def drain(self, wid, timeout=120):
        """Runs lz-hooks until every delivery of wid is delivered."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self.deliveries(wid)
            if rows and all(r["state"] == "delivered" for r in rows):
                return rows
            # What the clock would do for retries after the kills.
            self.inst.sql("UPDATE webhook_deliveries SET next_at = %d "
                          "WHERE webhook_id = %d AND state = 'pending' "
                          "AND lease IS NULL" %
                          (int(time.time() * 1000), wid))
            subprocess.run([lzenv.prog("lz-hooks"), "-f", self.inst.conf],
                           capture_output=True, timeout=120)
            time.sleep(0.5)
        return self.deliveries(wid)

    def test_mixed_load_with_kills(self):
        inst = self.inst
        a = inst.account("a@example.com", plan="crash")
        b = inst.account("b@example.com", plan="crash")
        key_a, key_b = inst.key(a), inst.key(b)
        out = inst.ctl("webhook", "add", str(a), self.rx.url(), "--events",
                       "link.created,click")[1].split()
        wid, secret = int(out[0]), out[1]
        self.rx.always("/hook", 200)

        links = {}              # target URL -> (id, slug)
        slugs = {"a": [], "b": []}
        for who, key in (("a", key_a), ("b", key_b)):
            for i in range(4 if who == "a" else 12):
                target = "https://example.com/%s/%d" % (who, i)
                r = inst.api("POST", "/api/v1/links", key,
                             {"target_url": target})
                self.assertEqual(r.status, 201, r)
                links[target] = (r.json()["id"], r.json()["slug"])
                slugs[who].append(r.json()["slug"])
        self.start_hooks()

        tally = {"workers": 0, "hooks": 0, "pool_kills": 0, "pool_stops": 0}
        stop = threading.Event()
        killer = threading.Thread(target=self.faults,
                                  args=(SECONDS, stop, tally))
        killer.start()
        try:
            conv = Conversions(inst, slugs["b"], stop)
            res = wrk.run(inst.links_port, LUA,
                          [key_a, key_b, ",".join(slugs["a"]),
                           ",".join(slugs["b"]), UA],
                          seconds=SECONDS, connections=CLIENTS)
        finally:
            stop.set()
            killer.join(60)
            conv.join()
        # Everything normal again: the pool up, lz-hooks as cron runs it.
        self.stop_hooks(signal.SIGTERM)
        if "lz-links" not in inst.procs:
            inst.start_pool("lz-links")

        acked = [ln.split()[1] for ln in res.out.splitlines()
                 if ln.startswith("acked ")]
        served = {}
        for ln in res.out.splitlines():
            if ln.startswith("located "):
                _, c, loc = ln.split(" ", 2)
                served[loc] = served.get(loc, 0) + int(c)
        kills = tally["workers"] + 4 * (tally["pool_kills"] +
                                        tally["pool_stops"])
        sys.stderr.write(
            "FIGURE crash: %s; %d workers, %d lz-hooks, %d pools killed "
            "with SIGKILL, %d pools stopped and started\n" %
            (res.line(), tally["workers"], tally["hooks"],
             tally["pool_kills"], tally["pool_stops"]))
        self.assertGreater(tally["workers"], 0)
        self.assertGreater(tally["hooks"], 0)
        self.assertEqual(tally["pool_kills"], 1)
        self.assertEqual(tally["pool_stops"], 1)
        self.assertEqual(len(acked), res.count(201))
        self.assertGreater(len(acked), 10)

        # Every acknowledged link exists.
        have = {s for (s,) in inst.sql("SELECT slug FROM links")}
        lost_links = [s for s in acked if s not in have]

        # Every served redirect's click is recorded: journals are moved
        # within seconds of the pool running again.
        def clicks_of(link_id):
            return inst.sql("SELECT count(*) FROM clicks WHERE link_id = "
                            "%d" % link_id)[0][0]

        def short():
            return [t for t, n in served.items() if t in links and
                    clicks_of(links[t][0]) < n]

        lzenv.wait_for(lambda: not short(), timeout=30,
                       what="the clicks of served redirects")
        lost_clicks = sum(served[t] - clicks_of(links[t][0])
                          for t in short())
        extra = sum(clicks_of(links[t][0]) - n for t, n in served.items()
                    if t in links)
        self.assertEqual(set(served) - set(links), set())

        # Every event is delivered at least once.
        rows = self.drain(wid)
        got = {}
        for q in self.rx.got():
            self.assertTrue(q.verify(secret), q.delivery())
            got.setdefault(q.delivery(), q)
        undelivered = [r["uuid"] for r in rows if r["state"] != "delivered"
                       or r["uuid"] not in got]
        created = {json.loads(r["body"])["data"]["slug"] for r in rows
                   if r["event"] == "link.created"}
        acked_a = [s for s in acked if s.startswith("a_")]
        no_event = [s for s in acked_a if s not in created]
        a_link_ids = [links[t][0] for t in links if t.startswith(
            "https://example.com/a/")]
        clicks_a = inst.sql("SELECT count(*) FROM clicks WHERE bot = 0 AND "
                            "link_id IN (%s)" % ",".join(map(str,
                                                             a_link_ids)))[0][0]
        click_events = sum(r["event"] == "click" for r in rows)

        sys.stderr.write(
            "FIGURE crash: %d links acknowledged, %d lost; %d redirects "
            "served, %d clicks lost, %d more clicks than counted answers "
            "(bound: %d requests in killed workers' hands, which nginx "
            "retries, and %d in flight when wrk stopped counting); %d "
            "events, %d not delivered, %d delivered more than once\n" %
            (len(acked), len(lost_links), sum(served.values()), lost_clicks,
             extra, kills, CLIENTS, len(rows), len(undelivered),
             sum(1 for q in self.rx.got()) - len(got)))
        self.assertEqual(lost_links, [])
        self.assertEqual(lost_clicks, 0)
        self.assertLessEqual(extra, kills + CLIENTS)
        self.assertEqual(undelivered, [])
        self.assertEqual(no_event, [])
        self.assertEqual(click_events, clicks_a)
        self.assertGreater(click_events, 0)

        # Every counted conversion is recorded; nothing else is.
        rows = inst.sql("SELECT value FROM conversions")
        recorded = [v // 1000000 for (v,) in rows]
        lost_conv = set(conv.counted) - set(recorded)
        phantom = set(recorded) - set(conv.sent)
        unacked = len(recorded) - len(set(recorded) & set(conv.counted))
        sys.stderr.write(
            "FIGURE crash: %d conversion reports, %d counted, %d lost, "
            "%d recorded without an answer (bound: %d reports unanswered)"
            "\n" % (len(conv.sent), len(conv.counted), len(lost_conv),
                     unacked, conv.unanswered))
        self.assertGreater(len(conv.counted), 0)
        self.assertEqual(conv.wrong[:5], [])
        self.assertEqual(lost_conv, set())
        self.assertEqual(phantom, set())
        self.assertEqual(len(recorded), len(set(recorded)))
        self.assertLessEqual(unacked, conv.unanswered)
        # The running totals moved in the same transactions as the rows.
        self.assertEqual(inst.sql(
            "SELECT l.id FROM links l WHERE l.conversions != (SELECT "
            "count(*) FROM conversions c WHERE c.link_id = l.id) OR "
            "coalesce((SELECT micros FROM link_revenue r WHERE r.link_id = "
            "l.id), 0) != (SELECT coalesce(sum(value), 0) FROM "
            "conversions c WHERE c.link_id = l.id)"), [])

        # The statistics' rollups moved with the clicks and conversions
        # (in their transactions): they equal a recount.
        m = rollups.mismatches(inst)
        sys.stderr.write("FIGURE crash: rollups of %d clicks against a "
                         "recount: %s\n" % (m["clicks"],
                                             rollups.wrong(m) or "equal"))
        self.assertEqual(rollups.wrong(m), {})
        self.assertGreater(m["clicks"], 0)

        self.assertTrue(inst.integrity_ok())
        # A clean stop leaves no journal behind.
        inst.stop_pool("lz-links")
        jdir = inst.path("data", "clicks")
        self.assertEqual([n for n in os.listdir(jdir) if n != "mover.lock"],
                         [])


if __name__ == "__main__":
    lzenv.main()
