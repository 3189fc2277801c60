#!/usr/bin/env python3
"""lzctl's progress line (src/lzctl/progress.c): on a terminal, the long
commands -- prompts import, blocklist import, backup, restore, stats
rebuild -- rewrite
one line of standard error with \\r and end it with a final line; when
standard error is not a terminal they print nothing of it, and their
standard output is the same either way."""

import os
import pty
import re
import select
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402


def run(inst, args, tty):
    """lzctl args with standard error on a new pseudo-terminal (tty) or
    a pipe; returns (exit status, stdout, stderr)."""
    cmd = [lzenv.prog("lzctl"), "-f", inst.conf] + list(args)
    if not tty:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave,
                             text=True)
        # The slave stays open here until lzctl has exited and all it
        # wrote is read: a terminal whose last writer closes may drop
        # what was not read yet (seen on a loaded machine).
        out = []
        reader = threading.Thread(target=lambda: out.append(
            p.stdout.read()))
        reader.start()
        err = b""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                err += os.read(master, 4096)
            elif p.poll() is not None:
                break
        reader.join(120)
        p.wait(timeout=120)
        p.stdout.close()
        out = out[0] if out else ""
    finally:
        os.close(master)
        os.close(slave)
    # The terminal turns \n into \r\n.
    return p.returncode, out, err.decode().replace("\r\n", "\n")


class Progress(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance("progress", prompts=True)
        cls.hosts = cls.inst.path("hosts")
        with open(cls.hosts, "w") as f:
            for i in range(20000):
                f.write("0.0.0.0 h%d.malware-%d.test\n" % (i, i % 97))

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def both(self, args, steps, final, pipe_args=None):
        """Runs args on a terminal, then pipe_args (default: args) not:
        the terminal gets each step on a line rewritten with \\r and the
        final line; the pipe gets none of it; stdout is the same (but
        for counts and the operands that differ)."""
        rc, out, err = run(self.inst, args, True)
        self.assertEqual(rc, 0, err)
        for step in steps:
            self.assertRegex(err, r"\r%s" % step)
        self.assertRegex(err, r"\r%s \(\d+\.\d s\)\x1b\[K\n" % final)
        rc2, out2, err2 = run(self.inst, pipe_args or args, False)
        self.assertEqual(rc2, 0, err2)
        self.assertNotIn("\r", err2)
        self.assertNotIn(final, err2)
        if pipe_args:
            out2 = out2.replace(pipe_args[-1], args[-1])
        self.assertEqual(re.sub(r"\d+", "N", out), re.sub(r"\d+", "N", out2))
        return out

    def test_blocklist_import(self):
        out = self.both(["blocklist", "import", "--format", "hosts",
                         self.hosts],
                        [r"importing \(bytes of the file\): \d+ of %d "
                         r"\(\d+%%\)" % os.path.getsize(self.hosts),
                         r"re-checking the links \.\.\."], "imported")
        self.assertIn("20000 entries", out)

    def test_prompts_import(self):
        data = os.path.join(lzenv.SRCDIR, "data", "prompts.json")
        self.both(["prompts", "import", data],
                  [r"reading and checking the file \.\.\.",
                   r"writing prompts: 0 of \d+ \(0%\)",
                   r"creating the indexes \.\.\."], "database written")

    def test_stats_rebuild(self):
        acct = self.inst.account("rebuild@example.com")
        self.inst.sql("INSERT INTO links (account_id, slug, target_url, "
                      "created_at) VALUES (%d, 'rb', 'https://e.example/', "
                      "0)" % acct)
        visitor = ("decode(md5(random()::text), 'hex')"
                   if lzenv.ENGINE == "postgresql" else "randomblob(16)")
        self.inst.sql("INSERT INTO clicks (link_id, at, visitor) SELECT id, "
                      "%d, %s FROM links WHERE slug = 'rb'" %
                      (int(time.time() * 1000), visitor))
        out = self.both(["stats", "rebuild"],
                        [r"rebuilding the rollups \(link-days\): 1"],
                        "rebuilt")
        self.assertIn("rebuilt 1 link-days", out)

    def test_backup_and_restore(self):
        self.inst.ctl("account", "add", "progress@example.com")
        backup = self.inst.path("backup.db")
        if lzenv.ENGINE == "postgresql":
            # Backups of PostgreSQL are pg_dump's (lz-cluster(7)): lzctl
            # says so, on a terminal and not, and writes nothing.
            for tty in (True, False):
                rc, out, err = run(self.inst, ["backup", backup], tty)
                self.assertEqual(rc, 1, err)
                self.assertIn("pg_dump", err)
                self.assertFalse(os.path.exists(backup))
            return
        self.both(["backup", backup], [r"backing up: \d+ of \d+"],
                  "copied", ["backup", backup + ".2"])
        self.both(["restore", backup], [r"restoring: \d+ of \d+"],
                  "copied")


if __name__ == "__main__":
    lzenv.main()
