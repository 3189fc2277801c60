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


def build_null(outdir):
    """Compiles bench/null-fcgi.c into outdir; returns the binary path."""
    out = os.path.join(outdir, "null-fcgi")
    subprocess.run(["cc", "-O2", "-o", out,
                    os.path.join(TOP, "bench", "null-fcgi.c"), "-lfcgi"],
                   check=True)
    return out


class NullResponder:
    """null-fcgi on a unix socket, served by its own nginx server block."""

    def __init__(self, inst, workers, status=200, close="linger"):
        """close: "linger" as lz-links, "at-once" as lz-prompts
        (close_at_once in src/core/pool.h)."""
        self.sock = inst.path("run", "null.sock")
        self.proc = subprocess.Popen(
            [build_null(inst.dir), self.sock, str(workers), str(status),
             close], start_new_session=True)
        lzenv.wait_for(lambda: lzenv.unix_connectable(self.sock),
                       what="null-fcgi")

    def stop(self):
        os.killpg(self.proc.pid, 15)
        self.proc.wait()


def nginx_with_null(inst, null_port):
    """Adds a server block for the null responder to inst's nginx
    (call before inst.start())."""
    orig = inst.start_nginx

    def start_nginx():
        orig()
        conf = inst.path("nginx", "nginx.conf")
        text = open(conf).read()
        extra = """
    upstream lz_null { server unix:%s max_fails=0;
                       server unix:%s max_fails=0; }
    server {
        listen 127.0.0.1:%d;
        location / {
            include lz/lz-fastcgi.conf;
            fastcgi_pass lz_null;
        }
    }
}
""" % (inst.path("run", "null.sock"), inst.path("run", "null.sock"),
            null_port)
        text = text.rstrip()[:-1] + extra
        open(conf, "w").write(text)
        inst.procs["nginx"].send_signal(1)      # SIGHUP: reload
        lzenv.wait_for(lambda: lzenv.tcp_connectable(null_port),
                       what="nginx reload")
    inst.start_nginx = start_nginx


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


def cpu_seconds(pids):
    """User + system CPU seconds used so far by the processes pids."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / tick


def children(pid):
    """The pids of the children of pid (a pool's workers)."""
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)],
                         capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def rounds(cases, n=3, seconds=5, connections=32, script=None, pids=None,
           cpu=None):
    """Runs each (name, url, headers) case n times, interleaved; returns
    {name: [(rps, p50, p99, bad), ...]}.  With pids (name -> the FastCGI
    workers serving that case), cpu gets {name: [microseconds of worker
    CPU per request, ...]}: less disturbed by a busy machine than req/s."""
    res = {name: [] for name, _, _ in cases}
    for _ in range(n):
        for name, url, headers in cases:
            c0 = cpu_seconds(pids[name]) if pids else 0
            r = wrk(url, seconds, connections, headers=headers,
                    script=script)
            res[name].append(r)
            if pids:
                c1 = cpu_seconds(pids[name])
                cpu.setdefault(name, []).append(
                    (c1 - c0) / max(r[0] * seconds, 1) * 1e6)
    return res


def report_cpu(cpu):
    print("\nFastCGI worker CPU per request (user + system, median):")
    for name, xs in cpu.items():
        print("  %-26s %6.1f us" % (name, median(xs)))
    sys.stdout.flush()


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def report(res, baseline):
    """Prints a table of medians and the ratio of each case to baseline."""
    base = median([r[0] for r in res[baseline]])
    print("%-28s %10s %8s %8s %6s %7s" % ("case", "req/s", "p50 ms",
                                           "p99 ms", "errors", "ratio"))
    for name, runs in res.items():
        rps = median([r[0] for r in runs])
        print("%-28s %10.0f %8.2f %8.2f %6d %7.2f" % (
            name, rps, median([r[1] for r in runs]),
            median([r[2] for r in runs]), sum(r[3] for r in runs),
            rps / base))
    sys.stdout.flush()
