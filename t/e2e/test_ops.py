"""End-to-end tests of the admin operations: lzctl backup (online, under
write load, private from its first byte), restore, migrate (refusing a
newer database) and check."""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None


def setUpModule():
    global inst
    inst = lzenv.Instance("ops")
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


class Ops(unittest.TestCase):
    def test_backup_under_load_and_restore(self):
        acct = inst.account("ops@example.com", "pro")
        key = inst.key(acct)
        created, stop = [], threading.Event()

        def writer():
            i = 0
            while not stop.is_set() and i < 400:
                r = inst.api("POST", "/api/v1/links", key,
                             {"target_url": "https://ops.example/%d" % i})
                if r.status == 201:
                    created.append(r.json()["id"])
                i += 1
        t = threading.Thread(target=writer)
        t.start()
        lzenv.wait_for(lambda: len(created) >= 20, what="writes")
        backup = inst.path("backup.db")
        rc, out, err = inst.ctl("backup", backup)
        stop.set()
        t.join(60)
        self.assertIn("backed up", out)
        self.assertEqual(os.stat(backup).st_mode & 0o777, 0o600)
        c = sqlite3.connect(backup)
        self.assertEqual(c.execute("PRAGMA integrity_check").fetchone()[0],
                         "ok")
        in_backup = {r[0] for r in c.execute("SELECT id FROM links")}
        c.close()
        # A consistent snapshot: a prefix of what was acknowledged.
        self.assertGreaterEqual(len(in_backup), 20)
        acked = sorted(created)
        self.assertEqual(sorted(in_backup), acked[:len(in_backup)])
        # Refuses to overwrite.
        rc, _, err = inst.ctl("backup", backup, check=False)
        self.assertEqual(rc, 1)
        # Delete some links, then restore: they are back.
        victim = acked[0]
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" % victim,
                                  key).status, 200)
        self.assertEqual(inst.api("GET", "/api/v1/links/%d" % victim,
                                  key).status, 404)
        rc, out, _ = inst.ctl("restore", backup)
        self.assertIn("restored", out)
        r = inst.api("GET", "/api/v1/links/%d" % victim, key)
        self.assertEqual(r.status, 200, r)

    @unittest.skipUnless(shutil.which("gdb"), "gdb (tools/setup-debian)")
    def test_backup_private_from_the_first_byte(self):
        """The copy holds every hash and sealed secret: under umask 000
        it is 0600 when SQLite starts writing into it (gdb stops lzctl
        at sqlite3_backup_step and looks), not only after the rename."""
        out = inst.path("private.db")
        p = subprocess.run(
            ["gdb", "-nx", "-batch",
             "-ex", "set breakpoint pending on",
             "-ex", "break sqlite3_backup_step",
             "-ex", "run",
             "-ex", "shell stat -c 'MODE %%a' %s.part" % out,
             "-ex", "continue",
             "--args", lzenv.prog("lzctl"), "-f", inst.conf, "backup", out],
            capture_output=True, text=True, timeout=120,
            preexec_fn=lambda: os.umask(0),
            # LeakSanitizer cannot work under a debugger (ASan builds).
            env=dict(os.environ, ASAN_OPTIONS=os.environ.get(
                "ASAN_OPTIONS", "") + ":detect_leaks=0"))
        modes = re.findall(r"^MODE (\d+)$", p.stdout, re.M)
        self.assertEqual(modes, ["600"], p.stdout + p.stderr)
        self.assertIn("backed up", p.stdout)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o600)
        self.assertFalse(os.path.exists(out + ".part"))

    def test_restore_refuses_garbage(self):
        junk = inst.path("junk.db")
        with open(junk, "wb") as f:
            f.write(b"not a database" * 100)
        rc, _, err = inst.ctl("restore", junk, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("nothing restored", err)
        self.assertEqual(inst.ctl("check")[0], 0)

    def test_migrate_refuses_newer(self):
        path = inst.path("newer.conf")
        dbdir = inst.path("newer")
        os.makedirs(dbdir)
        db = os.path.join(dbdir, "links.db")
        c = sqlite3.connect(db)
        c.execute("CREATE TABLE t(x)")
        c.execute("PRAGMA user_version = 999")
        c.commit()
        c.close()
        before = open(db, "rb").read()
        with open(path, "w") as f:
            f.write(open(inst.conf).read().replace(
                "links_db = data/links.db", "links_db = newer/links.db"))
        p = subprocess.run([lzenv.prog("lzctl"), "-f", path, "migrate"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("newer", p.stderr)
        self.assertEqual(open(db, "rb").read(), before)
        # And the pool refuses to start on it, saying why.
        p = subprocess.run([lzenv.prog("lz-links"), "-t", "-f", path],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("newer", p.stderr)

    def test_check(self):
        rc, out, _ = inst.ctl("check")
        self.assertEqual(rc, 0, out)
        for what in ("key file", "links database integrity",
                     "links database schema", "lz-links socket",
                     "nginx reaches lz-links"):
            self.assertRegex(out, r"(?m)^ok\s+%s" % what)
        inst.stop_pool("lz-links")
        try:
            rc, out, _ = inst.ctl("check", check=False)
            self.assertEqual(rc, 1)
            self.assertRegex(out, r"(?m)^FAIL\s+lz-links socket")
            self.assertRegex(out, r"(?m)^FAIL\s+nginx reaches lz-links")
        finally:
            inst.start_pool("lz-links")


if __name__ == "__main__":
    lzenv.main()
