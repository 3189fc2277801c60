"""End-to-end tests of the admin operations: lzctl backup (online, under
write load), restore, migrate (refusing a newer database) and check."""

import os
import sqlite3
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
        import subprocess
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
