"""End-to-end tests of the admin operations: lzctl backup (online, under
write load, private from its first byte), restore, migrate (refusing a
newer database) and check.  On PostgreSQL (LZ_DB=postgresql): check
tries the connection, backup and restore say to use pg_dump and
pg_restore, migrate refuses a newer database there too, and lzctl db
copy moves an SQLite instance, journals and all, to a new database."""

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


SQLITE_ONLY = unittest.skipIf(lzenv.PG, "SQLite's backups")


class Ops(unittest.TestCase):
    @SQLITE_ONLY
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

    @SQLITE_ONLY
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

    @SQLITE_ONLY
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
        if lzenv.PG:
            uri = inst.pg.create_db("newer")
            inst.pg.query("newer", "CREATE TABLE t (x int); CREATE TABLE "
                          "lz_schema_version (version integer NOT NULL); "
                          "INSERT INTO lz_schema_version VALUES (999)")

            def state():
                return inst.pg.dump("newer")
        else:
            dbdir = inst.path("newer")
            os.makedirs(dbdir)
            db = os.path.join(dbdir, "links.db")
            uri = "newer/links.db"
            c = sqlite3.connect(db)
            c.execute("CREATE TABLE t(x)")
            c.execute("PRAGMA user_version = 999")
            c.commit()
            c.close()

            def state():
                return open(db, "rb").read()
        before = state()
        with open(path, "w") as f:
            f.write(open(inst.conf).read().replace(
                "links_db = " + inst.links_db, "links_db = " + uri))
        p = subprocess.run([lzenv.prog("lzctl"), "-f", path, "migrate"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("newer", p.stderr)
        self.assertEqual(state(), before)
        # And the pool refuses to start on it, saying why.
        p = subprocess.run([lzenv.prog("lz-links"), "-t", "-f", path],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("newer", p.stderr)

    def test_check(self):
        rc, out, _ = inst.ctl("check")
        self.assertEqual(rc, 0, out)
        for what in ("key file", "links database connection" if lzenv.PG
                     else "links database integrity",
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


@unittest.skipUnless(lzenv.PG, "PostgreSQL (make check-pg)")
class OpsPostgreSQL(unittest.TestCase):
    def test_backup_and_restore_say_how(self):
        for cmd, tool in (("backup", "pg_dump"), ("restore", "pg_restore")):
            rc, out, err = inst.ctl(cmd, inst.path("x.dump"), check=False)
            self.assertEqual(rc, 1)
            self.assertIn(tool, err)
            self.assertNotIn(inst.path("x.dump"), out)
        self.assertFalse(os.path.exists(inst.path("x.dump")))

    def test_server_down(self):
        """While the server is down requests fail with 500 and no worker
        dies; the first requests after it is up again work (a refused
        connection is tried again at once, not a second later)."""
        acct = inst.account("down@example.com", "pro")
        key = inst.key(acct)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://down.example/"})
        self.assertEqual(r.status, 201, r)
        path = "/api/v1/links/%d" % r.json()["id"]
        workers = inst.worker_pids("lz-links")
        inst.pg.halt()
        try:
            down = [inst.api("GET", path, key) for i in range(10)]
        finally:
            inst.pg.start()
        self.assertEqual({r.status for r in down}, {500}, down)
        self.assertEqual(down[0].json()["error"], "internal_error")
        up = [inst.api("GET", path, key).status for i in range(10)]
        self.assertEqual(set(up), {200}, up)
        self.assertEqual(inst.worker_pids("lz-links"), workers)

    def test_check_without_the_server(self):
        path = inst.path("gone.conf")
        with open(path, "w") as f:
            f.write(open(inst.conf).read().replace(
                "links_db = " + inst.links_db,
                "links_db = " + inst.pg.uri("no_such_database")))
        p = subprocess.run([lzenv.prog("lzctl"), "-f", path, "check"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stdout, r"(?m)^FAIL\s+links database "
                         r"connection: .*no_such_database")

    def test_server_restart(self):
        """The pool's workers, their movers and lz-hooks connect again
        when the server restarts: no request fails, no worker dies."""
        acct = inst.account("restart@example.com", "pro")
        key = inst.key(acct)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://restart.example/"})
        self.assertEqual(r.status, 201, r)
        link = r.json()
        ua = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"}
        workers = inst.worker_pids("lz-links")
        inst.pg.restart()
        statuses = []
        for i in range(20):
            statuses.append(inst.api("GET", "/api/v1/links/%d" % link["id"],
                                     key).status)
            statuses.append(inst.request("GET", "/" + link["slug"],
                                         headers=ua).status)
        self.assertEqual(set(statuses), {200, 302}, statuses)
        self.assertEqual(inst.worker_pids("lz-links"), workers)
        # The clicks were moved after the restart too.
        lzenv.wait_for(lambda: inst.sql(
            "SELECT count(*) FROM clicks WHERE link_id = %d" %
            link["id"])[0][0] == 20, timeout=10, what="the clicks")
        self.assertIn("connected again", inst.log("lz-links"))
        p = subprocess.run([lzenv.prog("lz-hooks"), "-f", inst.conf],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    lzenv.main()
