"""benchlib -- shared pieces of the benchmarks in bench/.

Every benchmark measures the service and a baseline in the same run, on
the same nginx, with the same number of FastCGI workers: the baseline is
bench/null-fcgi.c, a libfcgi responder that does nothing.  Machines are
shared and noisy, so absolute numbers mean little; the ratio service/null
of interleaved rounds is what we report.
"""

import atexit
import os
import re
import shutil
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "t", "e2e"))
os.environ.setdefault("LZ_BUILDDIR", os.path.join(TOP, "build"))
os.environ.setdefault("LZ_SRCDIR", TOP)

import lzenv  # noqa: E402
import pgcluster  # noqa: E402


_server = None


def instance(name, **kw):
    """An lzenv.Instance; with LZ_DB=postgresql on a server of this run
    that syncs as a real one does (fsync on), a database of its own."""
    global _server
    if not lzenv.PG:
        return lzenv.Instance(name, **kw)
    if _server is None:
        why = pgcluster.available()
        if why:
            sys.exit("LZ_DB=postgresql: " + why)
        _server = pgcluster.Cluster(durable=True).start()
        atexit.register(_server.stop)
    db = "".join(ch if ch.isalnum() else "_" for ch in name)
    _server.create_db(db)
    return lzenv.Instance(name, pg=(_server, db), **kw)

# LZ_BENCH_SHORT=1: the smoke run ("make bench-smoke", t/bench_smoke.py)
# -- every benchmark for a second or two on tiny data, so that its
# correctness lines are checked at every "make check"; its figures mean
# nothing.
SHORT = os.environ.get("LZ_BENCH_SHORT") == "1"


def size(full, short):
    """full, or short in a smoke run."""
    return short if SHORT else full


def verdict(name, bad):
    """Exits non-zero when bad (the count of failed correctness lines)
    is not 0."""
    if bad:
        sys.exit("%s: %d correctness line%s failed" % (
            name, bad, "" if bad == 1 else "s"))
    print("%s: correctness lines ok%s" % (
        name, " (short run: LZ_BENCH_SHORT=1)" if SHORT else ""))


def build_null(outdir):
    """Compiles bench/null-fcgi.c into outdir; returns the binary path."""
    out = os.path.join(outdir, "null-fcgi")
    subprocess.run(["cc", "-O2", "-o", out,
                    os.path.join(TOP, "bench", "null-fcgi.c"), "-lfcgi"],
                   check=True)
    return out


# The two baselines every benchmark prints: null-fcgi with kept
# connections (the baseline of its ratios) and null-fcgi with one
# connection per request (the old baseline, printed beside).
BASE = "null, kept"
OLD = "null, per request"


class NullResponder:
    """null-fcgi on a unix socket, served by its own nginx server block
    on port self.port (see nginx_with_null)."""

    def __init__(self, inst, workers, status=200, mode="kept"):
        """mode: "kept" (the baseline), "linger" or "at-once" (one
        connection per request, see bench/null-fcgi.c)."""
        self.mode = mode
        self.sock = inst.path("run", "null-%s.sock" % mode)
        self.port = lzenv.free_port()
        self.proc = subprocess.Popen(
            [build_null(inst.dir), self.sock, str(workers), str(status),
             mode], start_new_session=True)
        lzenv.wait_for(lambda: lzenv.unix_connectable(self.sock),
                       what="null-fcgi")

    def url(self):
        return "http://127.0.0.1:%d/null-%s" % (self.port, self.mode)

    def stop(self):
        os.killpg(self.proc.pid, 15)
        self.proc.wait()
        try:            # a worker the TERM missed (mid-fork, say)
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass


def null_pair(inst, workers, status=200, old="linger"):
    """The baseline and the old baseline (closing the way the service
    under test did before it kept connections: "linger" or "at-once"),
    with their server blocks added to inst's nginx.  Returns
    {BASE: NullResponder, OLD: NullResponder}."""
    nulls = {}
    try:
        nulls[BASE] = NullResponder(inst, workers, status, "kept")
        nulls[OLD] = NullResponder(inst, workers, status, old)
    except BaseException:
        stop_nulls(nulls)
        raise
    nginx_with_null(inst, nulls.values())
    return nulls


def stop_nulls(nulls):
    for null in (nulls or {}).values():
        null.stop()


def nginx_with_null(inst, nulls):
    """Adds a server block for each null responder to inst's nginx (call
    before inst.start()).  A kept one gets the shipped lz-keepalive.conf
    and fastcgi_keep_conn on, as the services' locations.  They are in
    the configuration nginx starts with (lzenv's nginx_edit), not added
    by a reload."""
    orig = inst.start_nginx

    def edit(text):
        text = text.rstrip()[:-1]
        # The combined format, then nginx's times (see nginx_times).
        text = text.replace(
            "    access_log %s;" % inst.path("nginx", "access.log"),
            "    log_format bench '$remote_addr - $remote_user [$time_local] "
            "\"$request\" $status $body_bytes_sent \"$http_referer\" "
            "\"$http_user_agent\" $request_time $upstream_response_time';\n"
            "    access_log %s bench;" % inst.path("nginx", "access.log"))
        for null in nulls:
            kept = null.mode == "kept"
            text += """
    upstream lz_null_%s { server unix:%s max_fails=0;
                          server unix:%s max_fails=0;%s }
    server {
        listen 127.0.0.1:%d;
        location / {
            include lz/lz-fastcgi.conf;
            fastcgi_keep_conn %s;
            fastcgi_pass lz_null_%s;
        }
    }
""" % (null.mode.replace("-", "_"), null.sock, null.sock,
                "\n                          include lz/lz-keepalive.conf;"
                if kept else "", null.port, "on" if kept else "off",
                null.mode.replace("-", "_"))
        return text + "}\n"

    def start_nginx():
        orig()
        for null in nulls:
            lzenv.wait_for(lambda: lzenv.tcp_connectable(null.port),
                           what="nginx")
    inst.nginx_edit = edit
    inst.start_nginx = start_nginx


def nginx_times(inst, offset=0):
    """{path: sorted upstream response times in ms} of the GET requests
    in inst's nginx access log from byte offset on: how long the FastCGI
    answer took, nginx's side of the latency (a client's latency adds the
    waits for CPU of the client and of nginx, large on a small busy
    machine).  The log must be written with nginx_with_null's format."""
    times = {}
    with open(inst.path("nginx", "access.log"), "rb") as f:
        f.seek(offset)
        for line in f.read().decode(errors="replace").splitlines():
            m = re.search(r'"GET (\S+?)(?:\?\S*)? HTTP/1\.1" .* '
                          r'[\d.]+ ([\d.]+)$', line)
            if m:
                times.setdefault(m.group(1), []).append(
                    float(m.group(2)) * 1000)
    for v in times.values():
        v.sort()
    return times


def log_size(inst):
    return os.path.getsize(inst.path("nginx", "access.log"))


def pct(xs, p):
    """The p-th percentile of sorted xs."""
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))]


def report_upstream(times, cases):
    """Prints nginx's side of each case's latency (nginx_times)."""
    print("\nFastCGI answer times (nginx's $upstream_response_time), ms:")
    for name, url, *_ in cases:
        path = "/" + url.split("/", 3)[3]
        xs = times.get(path.split("?")[0])
        if xs:
            print("  %-26s p50 %6.2f  p99 %6.2f  max %7.2f" % (
                name, pct(xs, 50), pct(xs, 99), xs[-1]))
    sys.stdout.flush()


def wrk(url, seconds=5, connections=32, threads=2, headers=(), script=None):
    """Runs wrk; returns (requests/s, p50 ms, p99 ms, non-2xx/3xx).
    script: a wrk Lua script (e.g. one that varies headers)."""
    cmd = ["wrk", "-t%d" % threads, "-c%d" % connections,
           "-d%ds" % seconds, "--latency"]
    for h in headers:
        cmd += ["-H", h]
    if script:
        cmd += ["-s", script]
    cmd.append(url)
    out = subprocess.run(cmd, capture_output=True, text=True,
                         check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def pct(p):
        m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)" % p, out, re.M)
        v = float(m.group(1))
        return {"us": v / 1000, "ms": v, "s": v * 1000}[m.group(2)]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rps, pct(50), pct(99), int(bad.group(1)) if bad else 0


def paced(port, path, seconds, rate, threads=4, headers=None,
          status=302):
    """GET path on 127.0.0.1:port at a steady rate (requests a second,
    over threads kept connections) for seconds: (rate, p50 ms, p99 ms,
    answers not status).  Each latency counts from when its request was
    due, so a server that falls behind shows it.  The traffic a site
    has, where wrk flat out takes the machine's cores by itself and
    measures the machine."""
    import http.client
    import threading
    times, bad = [], [0]
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def connect():
        return http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def run(k):
        conn = connect()
        gap = threads / rate
        nxt = time.monotonic() + k * gap / threads
        mine = []
        while nxt < end:
            time.sleep(max(0, nxt - time.monotonic()))
            try:
                conn.request("GET", path, headers=headers or {})
                r = conn.getresponse()
                r.read()
                ok = r.status == status
            except (OSError, http.client.HTTPException):
                ok = False
                conn.close()
                conn = connect()
            mine.append((time.monotonic() - nxt) * 1000)
            if not ok:
                with lock:
                    bad[0] += 1
            nxt += gap
        conn.close()
        with lock:
            times.extend(mine)
    ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    times.sort()
    return (len(times) / seconds, pct(times, 50), pct(times, 99), bad[0])


def proc_stat(pid):
    """The fields of /proc/pid/stat after the command's name: [11] and
    [12] are its user and system ticks, [13] and [14] those of the
    children it has reaped."""
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pids, reaped=()):
    """User + system CPU seconds used so far by the processes pids, and
    by the children those in reaped have waited for."""
    total = 0
    for pid in pids:
        try:
            fields = proc_stat(pid)
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        if pid in reaped:
            total += int(fields[13]) + int(fields[14])
    return total / os.sysconf("SC_CLK_TCK")


def server_cpu_seconds():
    """CPU seconds used so far by the PostgreSQL server of this run (its
    postmaster, the backends it has reaped and those alive), or None
    without one."""
    if _server is None:
        return None
    with open(os.path.join(_server.data, "postmaster.pid")) as f:
        pm = int(f.readline())
    return cpu_seconds([pm] + children(pm), reaped=(pm,))


def children(pid):
    """The pids of the children of pid (a pool's workers)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)],
                         capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def rounds(cases, n=3, seconds=5, connections=32, script=None, pids=None,
           cpu=None, server=None):
    """Runs each (name, url, headers) case n times, interleaved; returns
    {name: [(rps, p50, p99, bad), ...]}.  With pids (name -> the FastCGI
    workers serving that case), cpu gets {name: [microseconds of worker
    CPU per request, ...]}: less disturbed by a busy machine than req/s.
    With server (a dict) and a PostgreSQL server of the run, server gets
    the same of that server's CPU."""
    res = {name: [] for name, _, _ in cases}
    for _ in range(n):
        for name, url, headers in cases:
            c0 = cpu_seconds(pids[name]) if pids else 0
            s0 = server_cpu_seconds() if server is not None else None
            r = wrk(url, seconds, connections, headers=headers,
                    script=script)
            res[name].append(r)
            done = max(r[0] * seconds, 1)
            if pids:
                c1 = cpu_seconds(pids[name])
                cpu.setdefault(name, []).append((c1 - c0) / done * 1e6)
            if s0 is not None:
                server.setdefault(name, []).append(
                    (server_cpu_seconds() - s0) / done * 1e6)
    return res


def report_cpu(cpu, server=None):
    print("\nFastCGI worker CPU per request (user + system, median)%s:" % (
        "; PostgreSQL server's" if server else ""))
    for name, xs in cpu.items():
        print("  %-26s %6.1f us%s" % (
            name, median(xs), "  %6.1f us" % median(server[name])
            if server and name in server else ""))
    sys.stdout.flush()


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def report(res, baseline=BASE, old=OLD):
    """Prints a table of medians, the ratio of each case to baseline and,
    when old is one of the cases, to old."""
    base = median([r[0] for r in res[baseline]])
    obase = median([r[0] for r in res[old]]) if old in res else None
    print("%-28s %10s %8s %8s %6s %7s%s" % (
        "case", "req/s", "p50 ms", "p99 ms", "errors", "ratio",
        " %7s" % "old" if obase else ""))
    for name, runs in res.items():
        rps = median([r[0] for r in runs])
        print("%-28s %10.0f %8.2f %8.2f %6d %7.2f%s" % (
            name, rps, median([r[1] for r in runs]),
            median([r[2] for r in runs]), sum(r[3] for r in runs),
            rps / base, " %7.2f" % (rps / obase) if obase else ""))
    print("ratio: to %s (the baseline)%s" % (
        baseline, "; old: to %s (the old baseline)" % old if obase else ""))
    sys.stdout.flush()
