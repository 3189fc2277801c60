"""Privileges: pools started as root with "user = nobody" in lz.conf drop
to that user after binding their sockets, supervisors and workers alike,
on a data directory that lzctl made theirs; and a live worker refuses
what its sandbox forbids.  lz-hooks, which talks to servers accounts
chose, drops to the user and confines itself the same way.

The refusals are asked of the live worker itself: gdb attaches to it
between requests and makes it call execve(), fork(), setuid(0) and
open() (outside its data directory, and inside it as the control), then
detaches; the worker goes on serving.  t/check_sandbox.c proves the same
filter in a child process; this proves that the pool applies it.

Needs root (to start the pools as root) and gdb (tools/setup-debian).
"""

import grp
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402

USER = "nobody"
GDB = shutil.which("gdb")


def gdb_calls():
    """None when gdb can make a process call a function here, else why
    not: on some machines it cannot restore a stopped thread's extended
    register state ("Couldn't write extended state status") and every
    call it makes fails, a plain sleep's too -- a fault of gdb on that
    machine, which these tests must not take for one of lz's."""
    if GDB is None:
        return "gdb is needed: tools/setup-debian installs it"
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        p = subprocess.run([GDB, "-nx", "-batch", "-p", str(sleeper.pid),
                            "-ex", "print (int)getpid()"],
                           capture_output=True, text=True, timeout=60)
    finally:
        sleeper.kill()
        sleeper.wait()
    if re.search(r"^\$1 = %d$" % sleeper.pid, p.stdout, re.M):
        return None
    return "gdb cannot call functions in a process on this machine: " + \
        (p.stderr.strip().splitlines() or ["no answer"])[-1]


@unittest.skipUnless(os.geteuid() == 0, "dropping root needs root")
class Privileges(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pw = pwd.getpwnam(USER)
        cls.inst = lzenv.Instance("priv", prompts=True, user=USER)
        inst = cls.inst
        inst.ctl("prompts", "import",
                 os.path.join(lzenv.SRCDIR, "data", "prompts.json"))
        # Admin commands as root before the pools run: what they create
        # must stay usable by the pools' user.
        acct = inst.account("priv@example.com")
        cls.key = inst.key(acct)
        try:
            inst.start()
            for p in ("lz-links", "lz-prompts"):
                inst.confined_workers(p)
        except Exception:
            inst.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def owned(self, path):
        st = os.lstat(path)
        self.assertEqual((st.st_uid, st.st_gid),
                         (self.pw.pw_uid, self.pw.pw_gid), path)
        return st

    def assertDropped(self, pid, what, confined):
        """Process pid runs as the user, without capabilities; confined:
        under no_new_privs and a seccomp filter too."""
        uid, gid = str(self.pw.pw_uid), str(self.pw.pw_gid)
        s = lzenv.proc_status(pid)
        self.assertEqual(s["Uid"].split(), [uid] * 4, what)
        self.assertEqual(s["Gid"].split(), [gid] * 4, what)
        self.assertEqual(s["Groups"].split(), [gid], what)
        self.assertEqual(int(s["CapEff"], 16), 0, what)
        self.assertEqual(int(s["CapPrm"], 16), 0, what)
        if confined:
            self.assertEqual(s["NoNewPrivs"], "1", what)
            self.assertEqual(s["Seccomp"], "2", what)

    def test_pools_run_as_the_user(self):
        inst = self.inst
        for name in ("lz-links", "lz-prompts"):
            sup = inst.procs[name].pid
            for pid in [sup] + inst.worker_pids(name):
                self.assertDropped(pid, "%s %d" % (name, pid), pid != sup)
            # The socket is the user's, so a restart can replace it (its
            # group is socket_group's, for nginx).
            sock = inst.path("run", "%s.sock" % name.split("-")[1])
            self.assertEqual(os.stat(sock).st_uid, self.pw.pw_uid, sock)

        # The pools work as the user: writes, clicks, reads.
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://example.com/priv"})
        self.assertEqual(r.status, 201, r)
        slug = r.json()["slug"]
        r = inst.request("GET", "/" + slug, headers={
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"})
        self.assertEqual(r.status, 302, r)
        r = inst.request("GET", "/api/v1/prompts", port=inst.prompts_port)
        self.assertEqual(r.status, 200, r)
        # An admin command as root while the pool runs, then the pool
        # writes again: nothing it needs became root's.
        inst.account("priv2@example.com")
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://example.com/priv2"})
        self.assertEqual(r.status, 201, r)

        # The data directory and what is in it are the user's (on
        # PostgreSQL the links database is the server's).
        data = inst.path("data")
        self.assertTrue(stat.S_ISDIR(self.owned(data).st_mode))
        for name in ("lz.key", "prompts.db", "clicks") + (
                () if lzenv.PG else
                ("links.db", "links.db-wal", "links.db-shm")):
            self.owned(os.path.join(data, name))
        journals = [n for n in os.listdir(os.path.join(data, "clicks"))]
        self.assertTrue(journals)
        for n in journals:
            self.owned(os.path.join(data, "clicks", n))
        self.assertEqual(os.stat(os.path.join(data, "lz.key")).st_mode &
                         0o077, 0)

    # -- refusals of a live worker --------------------------------------

    def ask(self, pid, calls):
        """Makes worker pid call each of calls (C expressions returning
        int) through gdb; returns [(result, errno)]."""
        args = [GDB, "-nx", "-batch", "-p", str(pid)]
        for c in calls:
            args += ["-ex", "print (int)(%s)" % c,
                     "-ex", "print *(int *)__errno_location()",
                     "-ex", "call (void)(*(int *)__errno_location() = 0)"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        vals = [int(v) for v in re.findall(r"^\$\d+ = (-?\d+)$", p.stdout,
                                           re.M)]
        self.assertEqual(len(vals), 2 * len(calls), p.stdout + p.stderr)
        return list(zip(vals[0::2], vals[1::2]))

    def test_live_worker_refuses(self):
        why = gdb_calls()
        if why is not None and GDB is not None:
            self.skipTest(why)
        self.assertIsNotNone(GDB, why)
        inst = self.inst
        data = inst.path("data")
        # It writes in the database's directory; on PostgreSQL only in
        # its journals' (the database is a server's).
        rw = inst.path("data", "clicks") if lzenv.PG else data
        EPERM, EACCES = 1, 13
        O_RDONLY, O_RDWR_CREAT = 0, 0o102
        pid = inst.worker_pids("lz-links")[0]
        got = self.ask(pid, [
            'execve("/bin/true", (char **)0, (char **)0)',
            "fork()",
            "setuid(0)",
            'open("/etc/passwd", %d)' % O_RDONLY,
            'open("/tmp/lz-priv-outside", %d, 0600)' % O_RDWR_CREAT,
            'open("%s/probe", %d, 0600)' % (rw, O_RDWR_CREAT),
            'unlink("%s/probe")' % rw,
            'open("%s/probe", %d, 0600)' % (data, O_RDWR_CREAT)])
        sys.stderr.write("lz-links worker %d: %s\n" % (pid, got))
        self.assertEqual(got[0], (-1, EPERM), "execve")
        self.assertEqual(got[1], (-1, EPERM), "fork")
        self.assertEqual(got[2], (-1, EPERM), "setuid")
        self.assertEqual(got[3], (-1, EACCES), "open /etc/passwd")
        self.assertEqual(got[4], (-1, EACCES), "open outside, O_CREAT")
        self.assertGreaterEqual(got[5][0], 0, "open in the data directory")
        self.assertEqual(got[6][0], 0, "unlink in the data directory")
        if lzenv.PG:
            self.assertEqual(got[7], (-1, EACCES), "open beside clicks/")
        else:
            os.unlink(os.path.join(data, "probe"))
        self.assertFalse(os.path.exists("/tmp/lz-priv-outside"))

        ppid = inst.worker_pids("lz-prompts")[0]
        got = self.ask(ppid, [
            'execve("/bin/sh", (char **)0, (char **)0)',
            'open("%s/prompts.db", %d)' % (data, O_RDONLY),
            'open("%s/probe", %d, 0600)' % (data, O_RDWR_CREAT),
            'open("/etc/shadow", %d)' % O_RDONLY])
        sys.stderr.write("lz-prompts worker %d: %s\n" % (ppid, got))
        self.assertEqual(got[0], (-1, EPERM), "execve")
        self.assertGreaterEqual(got[1][0], 0, "read its database")
        self.assertEqual(got[2], (-1, EACCES), "write in its data dir")
        self.assertEqual(got[3], (-1, EACCES), "open /etc/shadow")

        # Both go on serving, the same processes.
        r = inst.api("POST", "/api/v1/links", self.key,
                     {"target_url": "https://example.com/after"})
        self.assertEqual(r.status, 201, r)
        for _ in range(4):
            r = inst.request("GET", "/api/v1/tags", port=inst.prompts_port)
            self.assertEqual(r.status, 200, r)
        self.assertIn(pid, inst.worker_pids("lz-links"))
        self.assertIn(ppid, inst.worker_pids("lz-prompts"))
        for name in ("lz-links", "lz-prompts"):
            self.assertNotIn("killed by signal", inst.log(name))

    def test_hooks_drop_and_confine(self):
        """lz-hooks started as root (cron's) runs as the user, without
        capabilities, under no_new_privs and seccomp, and refuses what
        its sandbox forbids -- asked of the live process through gdb --
        while it goes on sending."""
        why = gdb_calls()
        if why is not None and GDB is not None:
            self.skipTest(why)
        self.assertIsNotNone(GDB, why)
        inst = self.inst
        data = inst.path("data")
        log = open(inst.path("lz-hooks.log"), "ab")
        p = subprocess.Popen([lzenv.prog("lz-hooks"), "-f", inst.conf,
                              "--loop", "-i", "1"], stdout=log, stderr=log,
                             start_new_session=True)
        log.close()
        try:
            # Confined once its database is open (or never: a failure).
            lzenv.wait_for(lambda: p.poll() is not None or
                           lzenv.proc_status(p.pid)["Seccomp"] == "2",
                           what="lz-hooks confined")
            self.assertIsNone(p.poll(), inst.log("lz-hooks"))
            self.assertDropped(p.pid, "lz-hooks", True)
            EPERM, EACCES = 1, 13
            got = self.ask(p.pid, [
                'execve("/bin/true", (char **)0, (char **)0)',
                "fork()",
                "setuid(0)",
                'open("/etc/shadow", 0)',
                'open("/etc/passwd", 0)',
                'open("/tmp/lz-priv-hooks", 0102, 0600)',
                'open("%s/probe-hooks", 0102, 0600)' % data,
                'unlink("%s/probe-hooks")' % data,
                'open("/etc/ssl/certs/ca-certificates.crt", 0)'])
            sys.stderr.write("lz-hooks %d: %s\n" % (p.pid, got))
            self.assertEqual(got[0], (-1, EPERM), "execve")
            self.assertEqual(got[1], (-1, EPERM), "fork")
            self.assertEqual(got[2], (-1, EPERM), "setuid")
            self.assertEqual(got[3], (-1, EACCES), "open /etc/shadow")
            self.assertEqual(got[4], (-1, EACCES), "open /etc/passwd")
            self.assertEqual(got[5], (-1, EACCES), "open outside")
            if lzenv.PG:
                # Nothing of its own to write: its database is a server's.
                self.assertEqual(got[6], (-1, EACCES), "open in data/")
            else:
                self.assertGreaterEqual(got[6][0], 0, "open in data/")
                self.assertEqual(got[7][0], 0, "unlink in the data dir")
            self.assertGreaterEqual(got[8][0], 0, "read the CA bundle")
            self.assertFalse(os.path.exists("/tmp/lz-priv-hooks"))
            # It goes on with its runs (one a second), the same process.
            time.sleep(1.5)
            self.assertIsNone(p.poll(), inst.log("lz-hooks"))
        finally:
            p.terminate()
            rc = p.wait(20)
        self.assertEqual(rc, 0, inst.log("lz-hooks"))
        self.assertNotIn("sandbox", inst.log("lz-hooks"))
        for name in () if lzenv.PG else ("links.db", "links.db-wal",
                                         "links.db-shm"):
            self.owned(os.path.join(data, name))


if __name__ == "__main__":
    lzenv.main()
