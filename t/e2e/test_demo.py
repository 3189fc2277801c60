#!/usr/bin/env python3
"""tools/demo.py, as "tools/quickstart run" starts it: what it prints
works.  The demo account signs in to the dashboard with the printed
password, its printed key lists links, and the printed short link
redirects; SIGTERM stops everything.

Run as root, the demo is confined as an installation is (issue 31,
finding 4; it wrote socket_mode = 0666 and user = root before): the
pools' sockets are mode 0660, group www-data (nginx's workers run as
www-data), the workers run as the unprivileged user lz, and another
local user (nobody) cannot connect to a pool, so cannot name any
REMOTE_ADDR to it."""

import grp
import os
import pwd
import re
import select
import stat
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402


class Client:
    request = lzenv.Instance.request
    api = lzenv.Instance.api
    prism = {}                  # the demo's nginx, never through Prism

    def __init__(self, port):
        self.links_port = port


class Demo(unittest.TestCase):

    def test_printed_credentials_work(self):
        top = tempfile.mkdtemp(prefix="lz-demo-")
        os.chmod(top, 0o755)    # the demo's PostgreSQL server runs as postgres
        port, pport = lzenv.free_port(), lzenv.free_port()
        env = dict(os.environ, LZ_DEMO_LINKS_PORT=str(port),
                   LZ_DEMO_PROMPTS_PORT=str(pport))
        p = subprocess.Popen([sys.executable, os.path.join(
            lzenv.SRCDIR, "tools", "demo.py"), os.path.join(top, "demo")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
            bufsize=0, start_new_session=True)
        try:
            out = self.read_banner(p)
            self.check(out, port)
        finally:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            p.stdout.close()
            if not os.environ.get("LZ_KEEP"):
                shutil.rmtree(top, ignore_errors=True)
        self.assertEqual(p.returncode, 0)
        self.assertFalse(lzenv.tcp_connectable(port), "nginx left running")

    def read_banner(self, p):
        """The demo's output up to its last line (admin CLI ...)."""
        out = ""
        deadline = time.monotonic() + 60
        while "admin CLI" not in out:
            left = deadline - time.monotonic()
            self.assertGreater(left, 0, "no banner:\n" + out)
            ready, _, _ = select.select([p.stdout], [], [], left)
            if ready:
                data = os.read(p.stdout.fileno(), 4096)
                self.assertTrue(data, "demo.py ended:\n" + out)
                out += data.decode()
        return out

    def check(self, out, port):
        key = re.search(r"demo API key +(\S+)", out).group(1)
        pw = re.search(r"^  dashboard password +(\S+)$", out, re.M).group(1)
        email = re.search(r"demo account +(\S+)", out).group(1)
        dash = re.search(r"dashboard +(http://\S+)", out).group(1)
        short = re.search(r"a short link +(http://\S+)", out).group(1)
        # An Instance's HTTP helpers, pointed at the demo's nginx.
        inst = Client(port)
        # The dashboard the banner names, and a sign-in with what it
        # prints (as the dashboard's page sends it).
        self.assertEqual(dash, "http://127.0.0.1:%d/dashboard/" % port)
        r = inst.request("GET", "/dashboard/")
        self.assertEqual(r.status, 200, r)
        origin = {"Origin": "http://127.0.0.1:%d" % port}
        r = inst.request("POST", "/dashboard/api/signin",
                         body={"email": email, "password": pw},
                         headers=origin)
        self.assertEqual(r.status, 200, r)
        self.assertIn("lz_session=", r.header("set-cookie", ""))
        r = inst.request("POST", "/dashboard/api/signin",
                         body={"email": email, "password": pw + "x"},
                         headers=origin)
        self.assertEqual(r.status, 401, r)
        # The key and the short link.
        r = inst.api("GET", "/api/v1/links", key)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(len(r.json()["links"]), 1)
        r = inst.request("GET", short[len("http://127.0.0.1:%d" % port):])
        self.assertEqual((r.status, r.header("location")),
                         (302, "https://www.debian.org/"), r)
        if os.geteuid() == 0:
            self.check_confined(re.search(r"instance files +(\S+)",
                                          out).group(1))

    def check_confined(self, directory):
        lz = pwd.getpwnam("lz").pw_uid
        for name in ("links", "prompts"):
            sock = os.path.join(directory, "run", name + ".sock")
            st = os.stat(sock)
            self.assertEqual(stat.S_IMODE(st.st_mode), 0o660, sock)
            self.assertEqual(grp.getgrgid(st.st_gid).gr_name, "www-data")
            # Another local user is refused by the socket's mode.
            p = subprocess.run(
                ["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c",
                 "import socket, sys\n"
                 "s = socket.socket(socket.AF_UNIX)\n"
                 "try:\n"
                 "    s.connect(sys.argv[1])\n"
                 "except PermissionError:\n"
                 "    sys.exit(13)\n", sock],
                capture_output=True, text=True, timeout=30)
            self.assertEqual(p.returncode, 13, (sock, p.stderr))
        # The workers (children of the pools' supervisors) run as lz.
        out = subprocess.run(["ps", "-eo", "pid=,ppid=,uid=,args="],
                             capture_output=True, text=True).stdout
        conf = os.path.join(directory, "lz.conf")
        procs = {}
        for line in out.splitlines():
            pid, ppid, uid, args = line.split(None, 3)
            if args.endswith(" -f " + conf) and "/lz-" in args:
                procs[pid] = (ppid, int(uid), args.split()[0])
        workers = [(uid, prog) for ppid, uid, prog in procs.values()
                   if ppid in procs]
        self.assertEqual({os.path.basename(p) for _, p in workers},
                         {"lz-links", "lz-prompts"}, out)
        self.assertEqual({uid for uid, _ in workers}, {lz}, out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
