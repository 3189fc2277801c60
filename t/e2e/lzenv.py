"""lzenv -- a throw-away lz instance for end-to-end tests.

Starts the real programs: lzctl initialises a fresh instance in a temporary
directory, the lz-links (and lz-prompts) pools bind unix sockets there, and
a real nginx listens on 127.0.0.1 with the shipped snippets from nginx/
included unchanged.  Tests then speak HTTP to nginx.

Environment (set by "make check"):
  LZ_BUILDDIR  the build tree (programs)
  LZ_SRCDIR    the source tree (nginx/, www/, data/)
  LZ_NGINX     the nginx binary
  LZ_KEEP=1    keep the instance directory after the run, for debugging
  LZ_DB=postgresql
               the link service on PostgreSQL ("make check-pg"): a server
               of this test process (pgcluster.py), a database in it per
               Instance; inst.sql() then runs there
"""

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.parse
import threading
import time

import pgcluster

BUILDDIR = os.environ.get("LZ_BUILDDIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", "build"))
SRCDIR = os.environ.get("LZ_SRCDIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
# Not $NGINX: nginx itself reads that variable (inherited sockets).
NGINX = (os.environ.get("LZ_NGINX") or shutil.which("nginx") or
         "/usr/sbin/nginx")
# The link service's engine: "sqlite" (the default) or "postgresql".
ENGINE = os.environ.get("LZ_DB") or "sqlite"
if ENGINE not in ("sqlite", "postgresql"):
    raise SystemExit("LZ_DB: expected sqlite or postgresql, not " + ENGINE)
PG = ENGINE == "postgresql"


def _sanitized():
    """Whether the programs under test were built with ASan and UBSan
    (configure --enable-sanitizers, as make check-asan's tree is): they
    run two to three times slower there, so a test's time bound is a
    bound on the design (nothing waits behind something else), not the
    release build's figure, which bench/ measures."""
    try:
        with open(os.path.join(BUILDDIR, "config.status")) as f:
            return "--enable-sanitizers" in f.read()
    except OSError:
        return False


SANITIZED = _sanitized()


# LZ_PRISM=1: requests under /api/ (and /healthz) go through Stoplight Prism's
# validation proxy (t/openapi, installed by openapilib.install_validators)
# in front of each service's nginx server, with the service's OpenAPI
# document; every violation Prism reports of an answer (not of a request:
# the tests' bad requests are deliberate) fails the test at stop().
# t/e2e/test_prism.py runs the API tests so.
PRISM = os.environ.get("LZ_PRISM")
PRISM_TOOL = os.path.join(BUILDDIR, "t", "openapi", "node_modules", ".bin",
                          "prism")

# LZ_STRACE=DIR: the confined programs run under strace -f -c, each run's
# count of system calls in DIR (src/core/sandbox.c: how its allow-list
# was made and is checked again; tests that look at the workers' /proc
# fail meanwhile, as the pool is strace's child).
STRACE = os.environ.get("LZ_STRACE")


def prog(name):
    """Path of a built program."""
    for sub in ("src/links", "src/lzctl", "src/prompts", "src/hooks"):
        p = os.path.join(BUILDDIR, sub, name)
        if os.path.exists(p):
            if STRACE and name in ("lz-links", "lz-prompts", "lz-hooks"):
                return traced(name, p)
            return p
    raise FileNotFoundError(name)


def traced(name, path):
    os.makedirs(STRACE, exist_ok=True)
    names = os.path.join(STRACE, "names.awk")
    with open(names, "w") as f:     # "1234 read(3, ..." -> "read"
        f.write('{ sub(/^[0-9]+ +/, ""); sub(/\\(.*/, ""); print }\n')
    wrapper = os.path.join(STRACE, name)
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec strace -f -qq -X raw -o "|awk -f %s | '
                'sort -u > %s/%s.$$.calls" "%s" "$@"\n' % (
                    names, STRACE, name, path))
    os.chmod(wrapper, 0o755)
    return wrapper


def traced_pid(pid):
    """The program strace runs as pid (its child), or pid itself."""
    if not STRACE:
        return pid
    out = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(pid)],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        child, args = line.split(None, 1)
        if not args.startswith("sh -c"):       # not the output's pipe
            return int(child)
    return pid


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def burst(call, n, threads=16):
    """call() n times from threads threads at once; returns the results
    in the order they came back.  A rate limit's test: exactly its
    quota of them must get through, however they interleave."""
    out, lock = [], threading.Lock()
    left = [n]

    def run():
        while True:
            with lock:
                if left[0] == 0:
                    return
                left[0] -= 1
            r = call()
            with lock:
                out.append((time.monotonic(), r))
    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    return [r for _, r in sorted(out, key=lambda x: x[0])]


def wait_for(cond, timeout=10.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.02)
    raise TimeoutError("timed out waiting for " + what)


def proc_status(pid):
    """/proc/PID/status as a dict of its fields; None once pid is gone."""
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for ln in f:
                k, _, v = ln.partition(":")
                out[k] = v.strip()
    except FileNotFoundError:
        return None
    return out


def unix_connectable(path):
    if not os.path.exists(path):
        return False
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


def tcp_connectable(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers          # lower-case name -> value
        self.body = body

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def header(self, name, default=None):
        return self.headers.get(name.lower(), default)

    def __repr__(self):
        return "<Response %d %r>" % (self.status, self.body[:300])


INSTANCES = []
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                   "runtime error:")


def main():
    """unittest.main, then the logs of every instance if a test failed."""
    import unittest
    prog = unittest.main(exit=False, verbosity=2)
    ok = prog.result.wasSuccessful()
    if not ok:
        for inst in INSTANCES:
            for name, text in inst.saved_logs.items():
                sys.stderr.write("---- %s: last lines of %s ----\n%s\n" %
                                 (inst.dir, name,
                                  "\n".join(text.splitlines()[-60:])))
    sys.exit(0 if ok else 1)


def prism_can(method, path, body, headers):
    """Whether Prism's proxy carries a request as it is: under /api/ or /healthz, not
    HEAD, a path and query that decode to text without control
    characters, and no body or a JSON one that JavaScript's
    JSON.parse and JSON.stringify give back unchanged in meaning (Prism
    sends the body on re-serialised).  The tests' deliberately
    malformed requests go to nginx directly: Prism answers a body it
    cannot parse itself, merges duplicate keys, turns 3.0 into 3 and big
    integers into floats, and stops on a body of invalid UTF-8."""
    if not (path.startswith("/api/") or path.split("?")[0] == "/healthz") \
            or method == "HEAD":
        return False
    # Answers Prism does not pass on as they are: images (re-encoded as
    # text), the document itself (re-serialised), compressed ones
    # (inflated); and %-escapes it rewrites.
    route = path.split("?")[0]
    if route.endswith("/qr") or route.endswith("/openapi.json") or \
            (route == "/api/conv" and method == "GET"):
        return False
    if any(k.lower() == "accept-encoding" for k in headers):
        return False
    if re.search(r"%(?![0-9A-Fa-f]{2})", path):
        return False
    try:
        text = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError:
        return False
    if any(ord(c) < 0x20 or c == "\x7f" for c in text):
        return False
    if not body:
        return True
    ctype = {k.lower(): v for k, v in headers.items()}.get(
        "content-type", "")
    if not ctype.startswith("application/json"):
        return False
    def pairs(kv):
        if len({k for k, _ in kv}) != len(kv):
            raise ValueError("duplicate keys")
        return dict(kv)

    def number(text):
        if "." in text or "e" in text.lower():
            if float(text).is_integer():
                raise ValueError("JavaScript writes it as an integer")
            return float(text)
        if abs(int(text)) > 2 ** 53:
            raise ValueError("beyond JavaScript's exact integers")
        return int(text)
    try:
        json.loads(body.decode("utf-8", errors="strict"),
                   object_pairs_hook=pairs, parse_float=number,
                   parse_int=number)
    except (ValueError, RecursionError):
        return False
    return True


class Instance:
    """One lz instance: config, databases, pools and nginx."""

    def __init__(self, name="lz", workers=2, extra_conf="", prompts=False,
                 links=True, directory=None, links_port=None,
                 prompts_port=None, user=None, dashboard=False,
                 share_db=None, pg_tcp=False, engine=None, pg=None,
                 socket_group=None, nginx_user=None, www=None):
        """share_db: another Instance whose database (and key file) this
        one shares, as a second host of one PostgreSQL database does;
        socket_group: the pools' sockets' group (socket_group of
        lz.conf), for nginx_user: the user nginx's workers run as
        (default: root as root, else nginx's own); www: the dashboard's
        static files, when nginx_user cannot read the checkout's;
        pg_tcp: reach the server over TCP instead of its unix socket;
        engine: "sqlite" or "postgresql" whatever LZ_DB says;
        pg: (cluster, database name) to run on, kept as it is (the
        demo's)."""
        if directory:
            self.dir = os.path.abspath(directory)
            os.makedirs(self.dir, exist_ok=True)
            self.keep = True
        else:
            self.dir = tempfile.mkdtemp(prefix="lz-%s-" % name)
            self.keep = bool(os.environ.get("LZ_KEEP"))
        os.chmod(self.dir, 0o755)
        self.links_port = links_port or free_port()
        self.prompts_port = prompts_port or free_port()
        self.workers = workers
        self.want_links = links
        self.want_prompts = prompts
        # A server of its own for the dashboard (dashboard_host), with
        # nginx/lz-dashboard-locations.conf: dashboard is its port.
        self.dashboard_port = dashboard or None
        # The pools' user; as root, root itself unless a test names one.
        self.user = user
        self.socket_group = socket_group
        self.nginx_user = nginx_user
        self.www = www or os.path.join(SRCDIR, "www")
        self.procs = {}
        self.saved_logs = {}
        self.prism = {}         # nginx port: (Prism's port, its document)
        self.prism_docs = {}    # "links"/"prompts": another document
                                # (set before start(): Prism even
                                # without LZ_PRISM)
        self.violations = []    # Prism's reports of answers
        self.prism_checked = 0  # answers that went through Prism
        INSTANCES.append(self)
        self.conf = os.path.join(self.dir, "lz.conf")
        self.host_id = name
        self.pg = None
        if pg is not None:
            self.pg, self.dbname = pg
        elif share_db is not None:
            if not share_db.pg:
                raise RuntimeError("share_db: only on PostgreSQL")
            self.pg, self.dbname = share_db.pg, share_db.dbname
            os.makedirs(self.path("data"), exist_ok=True)
            shutil.copy(share_db.path("data", "lz.key"),
                        self.path("data", "lz.key"))
            self.host_id = "%s-%d" % (name, len(INSTANCES))
        elif (engine or ENGINE) == "postgresql":
            self.pg = pgcluster.shared()
            self.dbname = "lz%d_%s" % (len(INSTANCES), "".join(
                ch if ch.isalnum() else "_" for ch in name.lower()))
            self.pg.create_db(self.dbname)
        if self.pg:
            self.links_db = self.pg.uri(self.dbname, tcp=pg_tcp)
        else:
            self.links_db = "data/links.db"
        self.write_conf(extra_conf)
        self.ctl("init")

    # -- configuration -------------------------------------------------

    def write_conf(self, extra=""):
        if self.user:
            user = "user = %s\n" % self.user
        else:
            user = "user = root\n" if os.geteuid() == 0 else ""
        if self.pg:
            # A host of its own: its journals beside its other files.
            user += "clicks_dir = data/clicks\nhost_id = %s\n" % self.host_id
        with open(self.conf, "w") as f:
            f.write(
                "# written by t/e2e/lzenv.py\n"
                "base_url = http://127.0.0.1:%d\n"
                "links_db = %s\n"
                "prompts_db = data/prompts.db\n"
                "links_socket = run/links.sock\n"
                "prompts_socket = run/prompts.sock\n"
                "links_workers = %d\n"
                "prompts_workers = %d\n"
                "key_file = data/lz.key\n"
                "socket_mode = 0660\n"
                "%s%s%s%s\n" % (self.links_port, self.links_db,
                                self.workers, self.workers, user,
                                "socket_group = %s\n" % self.socket_group
                                if self.socket_group else "",
                                "" if "log_level" in extra else
                                "log_level = info\n", extra))
        os.makedirs(os.path.join(self.dir, "run"), exist_ok=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    # -- programs ------------------------------------------------------

    def ctl(self, *args, check=True, input=None):
        """Runs lzctl; returns (exit status, stdout, stderr)."""
        p = subprocess.run([prog("lzctl"), "-f", self.conf] + list(args),
                           capture_output=True, text=True, input=input,
                           timeout=120)
        if check and p.returncode != 0:
            raise RuntimeError("lzctl %s failed (%d): %s" %
                               (" ".join(args), p.returncode, p.stderr))
        return p.returncode, p.stdout, p.stderr

    def start_pool(self, name):
        sock = self.path("run", "%s.sock" % name.split("-")[1])
        log = open(self.path("%s.log" % name), "ab")
        p = subprocess.Popen([prog(name), "-f", self.conf], stdout=log,
                             stderr=log, start_new_session=True)
        self.procs[name] = p
        try:
            wait_for(lambda: unix_connectable(sock) or p.poll() is not None,
                     what=name + " socket")
        finally:
            log.close()
        if p.poll() is not None:
            raise RuntimeError("%s exited with %d; log:\n%s" %
                               (name, p.returncode, self.log(name)))
        return p

    def stop_pool(self, name, sig=signal.SIGTERM, timeout=20):
        p = self.procs.pop(name, None)
        if p is None:
            return None
        if p.poll() is None:
            # strace passes no signal on: the pool's own supervisor.
            os.kill(traced_pid(p.pid), sig)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        return p.returncode

    def worker_pids(self, name):
        """PIDs of the workers of pool name (children of its supervisor)."""
        sup = self.procs[name].pid
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(sup)],
                             capture_output=True, text=True).stdout
        return [int(x) for x in out.split()]

    def confined_workers(self, name, n=None, timeout=20.0):
        """Wait until pool name has n workers (default: self.workers), each
        past its sandbox: a fresh worker sets no_new_privs, then Landlock,
        then seccomp, and is only worth asserting on after that.  Returns
        their /proc statuses by pid; a worker that never loads its filter
        times this out."""
        n = self.workers if n is None else n
        got = {}

        def ready():
            got.clear()
            for pid in self.worker_pids(name):
                st = proc_status(pid)
                if st is None or st.get("Seccomp") != "2":
                    return False
                got[pid] = st
            return len(got) == n
        wait_for(ready, timeout, what=name + " workers confined")
        return got

    def log(self, name):
        try:
            with open(self.path("%s.log" % name), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def start_nginx(self):
        ndir = self.path("nginx")
        os.makedirs(ndir, exist_ok=True)
        for sub in ("body", "fastcgi", "proxy", "uwsgi", "scgi"):
            os.makedirs(os.path.join(ndir, "tmp", sub), exist_ok=True)
        link = os.path.join(ndir, "lz")
        if not os.path.exists(link):
            os.symlink(os.path.join(SRCDIR, "nginx"), link)
        params = os.path.join(ndir, "fastcgi_params")
        if not os.path.exists(params):
            shutil.copy("/etc/nginx/fastcgi_params", params)
        if self.nginx_user:
            user = "user %s;\n" % self.nginx_user
        else:
            user = "user root root;\n" if os.geteuid() == 0 else ""
        www = "set $lz_www %s;" % self.www
        servers = ""
        for port, snippet, sets in (
                (self.want_links and self.links_port, "links", www),
                (self.dashboard_port, "dashboard", www),
                (self.want_prompts and self.prompts_port, "prompts", "")):
            if port:
                servers += """
    server {
        listen 127.0.0.1:%d;
        server_name _;
        %s
        include lz/lz-%s-locations.conf;
    }
""" % (port, sets, snippet)
        conf = """# written by t/e2e/lzenv.py
%sworker_processes 2;
pid %s/nginx.pid;
error_log %s/error.log warn;
events { worker_connections 1024; }
http {
    access_log %s/access.log;
    client_body_temp_path %s/tmp/body;
    fastcgi_temp_path %s/tmp/fastcgi;
    proxy_temp_path %s/tmp/proxy;
    uwsgi_temp_path %s/tmp/uwsgi;
    scgi_temp_path %s/tmp/scgi;
    default_type application/octet-stream;
    types { text/html html; text/css css; application/javascript js;
            application/json json; image/svg+xml svg; image/png png; }
    upstream lz_links { server unix:%s max_fails=0;
                        server unix:%s max_fails=0;
                        include lz/lz-keepalive.conf; }
    upstream lz_prompts { server unix:%s max_fails=0;
                          server unix:%s max_fails=0;
                          include lz/lz-keepalive.conf; }
%s}
""" % (user, ndir, ndir, ndir, ndir, ndir, ndir, ndir, ndir,
            self.path("run", "links.sock"), self.path("run", "links.sock"),
            self.path("run", "prompts.sock"), self.path("run", "prompts.sock"),
            servers)
        # A benchmark's additions (benchlib.nginx_with_null), in the file
        # nginx starts with: a reload sent at once could reach nginx
        # before its signal handlers, and a SIGHUP would stop it.
        if getattr(self, "nginx_edit", None):
            conf = self.nginx_edit(conf)
        with open(os.path.join(ndir, "nginx.conf"), "w") as f:
            f.write(conf)
        log = open(self.path("nginx.log"), "ab")
        p = subprocess.Popen([NGINX, "-p", ndir, "-c",
                              os.path.join(ndir, "nginx.conf"),
                              "-g", "daemon off;"],
                             stdout=log, stderr=log, start_new_session=True)
        log.close()
        self.procs["nginx"] = p
        ports = []
        if self.want_links:
            ports.append(self.links_port)
        if self.dashboard_port:
            ports.append(self.dashboard_port)
        if self.want_prompts:
            ports.append(self.prompts_port)
        for port in ports:
            wait_for(lambda: tcp_connectable(port) or p.poll() is not None,
                     what="nginx")
        if p.poll() is not None:
            raise RuntimeError("nginx exited: " + self.log("nginx") +
                               open(os.path.join(ndir, "error.log")).read())

    def start(self):
        """Starts the pools and nginx; stops what it started (and keeps
        the logs) when one of them does not start."""
        try:
            if self.want_links:
                self.start_pool("lz-links")
            if self.want_prompts:
                self.start_pool("lz-prompts")
            self.start_nginx()
            if PRISM or self.prism_docs:
                self.start_prism()
        except BaseException:
            self.stop()
            raise
        return self

    def start_prism(self):
        """Prism's validation proxy in front of each service's server."""
        if not os.path.exists(PRISM_TOOL):
            raise RuntimeError("LZ_PRISM: %s is missing (t/e2e/openapilib."
                               "install_validators installs it)" %
                               PRISM_TOOL)
        for name, port, want in (("links", self.links_port, self.want_links),
                                 ("prompts", self.prompts_port,
                                  self.want_prompts)):
            if not want:
                continue
            doc = self.prism_docs.get(name) or os.path.join(
                SRCDIR, "src", name, "openapi.json")
            pport = free_port()
            log = open(self.path("prism-%s.log" % name), "ab")
            p = subprocess.Popen(
                [PRISM_TOOL, "proxy", "--cors=false", "-h", "127.0.0.1",
                 "-p", str(pport),
                 doc, "http://127.0.0.1:%d" % port],
                stdout=log, stderr=log, start_new_session=True)
            log.close()
            self.procs["prism-" + name] = p
            wait_for(lambda: tcp_connectable(pport) or p.poll() is not None,
                     timeout=60, what="prism")
            if p.poll() is not None:
                raise RuntimeError("prism exited: " +
                                   self.log("prism-" + name))
            self.prism[port] = pport

    def stop(self):
        for name in ("prism-links", "prism-prompts"):
            p = self.procs.pop(name, None)
            if p is not None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        if self.prism:
            sys.stderr.write("prism: %d answers checked\n" %
                             self.prism_checked)
        self.prism.clear()
        p = self.procs.pop("nginx", None)
        if p is not None and p.poll() is None:
            p.send_signal(signal.SIGQUIT)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        for name in list(self.procs):
            self.stop_pool(name)
        for name in ("lz-links", "lz-prompts", "lz-hooks", "nginx"):
            text = self.log(name)
            if name == "nginx":
                try:
                    with open(self.path("nginx", "error.log")) as f:
                        text += f.read()
                except OSError:
                    pass
            if text:
                self.saved_logs[name] = text
        if self.keep:
            sys.stderr.write("instance kept in %s\n" % self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
        if self.violations:
            found, self.violations = self.violations, []
            raise AssertionError("Prism found answers that break the "
                                 "OpenAPI document:\n" + "\n".join(
                                     "%s %s -> %d: %s" % v for v in found))
        # Under --enable-sanitizers a worker's report only reaches its log:
        # make it fail the test run.
        for name, text in self.saved_logs.items():
            for mark in SANITIZER_MARKS:
                if mark in text:
                    raise AssertionError("%s reported '%s' (see its log "
                                         "below)" % (name, mark))

    # -- HTTP ----------------------------------------------------------

    def request(self, method, path, body=None, headers=None, port=None,
                timeout=30, direct=False):
        """One HTTP/1.1 request on a new connection; returns Response.
        direct: to nginx even under LZ_PRISM (an answer Prism would not
        pass on as it is: integers beyond JavaScript's exact ones)."""
        port = port or self.links_port
        asked = port
        hdrs = dict(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        elif isinstance(body, str):
            body = body.encode()
        if port in self.prism and not direct and \
                prism_can(method, path, body, hdrs):
            port = self.prism[port]
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        try:
            c.request(method, path, body=body, headers=hdrs)
            r = c.getresponse()
            data = r.read()
            h = {k.lower(): v for k, v in r.getheaders()}
            if port != asked:
                self.prism_checked += 1
                self.prism_saw(method, path, r.status,
                               h.pop("sl-violations", None))
            return Response(r.status, h, data)
        finally:
            c.close()

    def prism_saw(self, method, path, status, violations):
        """Notes what Prism reported of an answer (its sl-violations
        header): the answer's own violations, not the request's."""
        if not violations:
            return
        try:
            found = json.loads(violations)
        except ValueError:
            # A long list (a request's many violations) may come cut
            # short: what it says of the answer, as text.
            if '"location":["response"' in violations:
                self.violations.append((method, path, status, violations))
            return
        for v in found:
            if v.get("location", [""])[0] == "response":
                self.violations.append((method, path, status,
                                        "%s: %s" % (".".join(
                                            map(str, v["location"])),
                                            v.get("message"))))

    def raw(self, data, port=None, timeout=10):
        """Sends raw bytes; returns the raw response bytes."""
        s = socket.create_connection(("127.0.0.1", port or self.links_port),
                                     timeout=timeout)
        try:
            s.sendall(data)
            chunks = []
            while True:
                b = s.recv(65536)
                if not b:
                    break
                chunks.append(b)
            return b"".join(chunks)
        finally:
            s.close()

    # -- accounts and keys ---------------------------------------------

    def account(self, email, plan=None):
        args = ["account", "add", email]
        if plan:
            args += ["--plan", plan]
        return int(self.ctl(*args)[1].strip())

    def key(self, account):
        return self.ctl("key", "create", str(account))[1].strip()

    def api(self, method, path, key=None, body=None, headers=None,
            direct=False):
        h = dict(headers or {})
        if key:
            h["Authorization"] = "Bearer " + key
        return self.request(method, path, body=body, headers=h,
                            direct=direct)

    def sql(self, query, db="links"):
        """Runs SQL on a database (read-mostly): the links database on
        its engine (SQL both read: no PRAGMA, hex() or other dialect),
        the prompts database with the sqlite3 module.  Rows are tuples,
        blobs bytes, whatever the engine."""
        if db == "links" and self.pg:
            return self.pg.query(self.dbname, query)
        import sqlite3
        c = sqlite3.connect(self.path("data", "%s.db" % db), timeout=10)
        try:
            rows = c.execute(query).fetchall()
            c.commit()
            return rows
        finally:
            c.close()

    def connect(self):
        """A DB-API connection to the links database, in a transaction
        until commit(): sqlite3's or psycopg2's.  Placeholders differ
        (? and %s): see execmany()."""
        if self.pg:
            return self.pg.connect(self.dbname)
        import sqlite3
        return sqlite3.connect(self.path("data", "links.db"), timeout=30)

    def execmany(self, query, rows):
        """Runs query (? placeholders) once per row, in one transaction
        of the links database."""
        c = self.connect()
        try:
            if self.pg:
                query = query.replace("?", "%s")
            c.cursor().executemany(query, rows)
            c.commit()
        finally:
            c.close()

    def dump(self):
        """Every byte the links database holds: its SQLite file (and
        WAL), or PostgreSQL's pg_dump of it."""
        if self.pg:
            return self.pg.dump(self.dbname)
        out = b""
        for name in ("links.db", "links.db-wal"):
            try:
                with open(self.path("data", name), "rb") as f:
                    out += f.read()
            except FileNotFoundError:
                pass
        return out

    def tables(self):
        """The tables of the links database, by name (the schema
        version's left out)."""
        if not self.pg:
            q = ("SELECT name FROM sqlite_master WHERE type = 'table' "
                 "ORDER BY name")
        else:
            q = ("SELECT table_name FROM information_schema.tables WHERE "
                 "table_schema = current_schema() AND table_name != "
                 "'lz_schema_version' ORDER BY table_name")
        return [t for (t,) in self.sql(q)]

    def columns(self, table):
        """The columns of a table of the links database, in order."""
        if not self.pg:
            return [r[1] for r in self.sql("PRAGMA table_info(%s)" % table)]
        return [c for (c,) in self.sql(
            "SELECT column_name FROM information_schema.columns WHERE "
            "table_schema = current_schema() AND table_name = '%s' "
            "ORDER BY ordinal_position" % table)]

    def integrity_ok(self):
        """The links database checks out: SQLite's integrity_check, or on
        PostgreSQL amcheck's bt_index_check of every index with all its
        heap tuples (each index holds exactly its table's rows)."""
        if not self.pg:
            return self.sql("PRAGMA integrity_check") == [("ok",)]
        self.sql("CREATE EXTENSION IF NOT EXISTS amcheck")
        self.sql("SELECT bt_index_check(c.oid, true) FROM pg_index i "
                 "JOIN pg_class c ON c.oid = i.indexrelid JOIN "
                 "pg_namespace n ON n.oid = c.relnamespace WHERE "
                 "n.nspname = current_schema()")
        return True
