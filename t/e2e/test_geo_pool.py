"""End-to-end tests of the country table in the real lz-links pool: loaded
once by the supervisor before the fork and shared by every worker (DESIGN
3.4, 5), checked by "lz-links -t", kept on a SIGHUP with a broken file."""

import os
import signal
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

FIX_V4 = os.path.join(lzenv.SRCDIR, "t", "data", "geoip-v4")
FIX_V6 = os.path.join(lzenv.SRCDIR, "t", "data", "geoip-v6")
DEB_V4 = "/usr/share/tor/geoip"
DEB_V6 = "/usr/share/tor/geoip6"


def geo_mappings(pid):
    """(inode, size in KiB, perms) of the shared anonymous mappings of pid,
    as listed in /proc/PID/maps ("/dev/zero (deleted)" or anon_shmem)."""
    out = []
    with open("/proc/%d/maps" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6 or not parts[1].endswith("s"):
                continue
            if "zero" not in line and "anon_shmem" not in line:
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            out.append((parts[4], (hi - lo) // 1024, parts[1]))
    return out


class GeoPool(unittest.TestCase):
    def test_workers_share_one_read_only_table(self):
        if not (os.path.exists(DEB_V4) and os.path.exists(DEB_V6)):
            self.skipTest("tor-geoipdb not installed")
        inst = lzenv.Instance("geo", workers=3, extra_conf=(
            "geoip_file = %s\ngeoip6_file = %s\n" % (DEB_V4, DEB_V6)))
        try:
            inst.start_pool("lz-links")
            lzenv.wait_for(lambda: len(inst.worker_pids("lz-links")) == 3,
                           what="3 workers")
            log = inst.log("lz-links")
            self.assertRegex(log, r"geo: \d{6} IPv4 and \d{6} IPv6 ranges "
                                  r"in \d+ KiB shared")
            sup = inst.procs["lz-links"].pid
            tables = {}
            for pid in [sup] + inst.worker_pids("lz-links"):
                # The rate-limit tables are shared too, but writable; the
                # country table is the one big read-only shared mapping.
                big = [m for m in geo_mappings(pid)
                       if m[1] >= 4096 and not m[2].startswith("rw")]
                self.assertEqual(len(big), 1, "pid %d: %r" % (pid, big))
                self.assertEqual(big[0][2], "r--s")   # read-only, shared
                tables[pid] = big[0]
            # One object: the same inode in the supervisor and all workers.
            self.assertEqual(len(set(t[0] for t in tables.values())), 1,
                             tables)
        finally:
            inst.stop()

    def test_check_mode_and_reload_with_a_broken_file(self):
        good = "geoip_file = %s\ngeoip6_file = %s\n" % (FIX_V4, FIX_V6)
        inst = lzenv.Instance("geobad", workers=1, extra_conf=good)
        try:
            bad_file = inst.path("geoip-bad")
            with open(bad_file, "w") as f:
                f.write("# broken\n16777216,16777471,AU\n5,4,US\n")
            bad = "geoip_file = %s\ngeoip6_file = %s\n" % (bad_file, FIX_V6)
            links = lzenv.prog("lz-links")

            def check():
                return subprocess.run([links, "-t", "-f", inst.conf],
                                      capture_output=True, text=True,
                                      timeout=60)

            p = check()
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("geo: 22 IPv4 and 33 IPv6 ranges", p.stderr)
            inst.write_conf(bad)
            p = check()
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("%s:3: range is empty" % bad_file, p.stderr)

            # A pool started with good files keeps its table when a reload
            # meets a bad one, and goes on with new workers.
            inst.write_conf(good)
            inst.start_pool("lz-links")
            old = inst.worker_pids("lz-links")
            inst.write_conf(bad)
            inst.procs["lz-links"].send_signal(signal.SIGHUP)
            lzenv.wait_for(lambda: "keeping the loaded country table" in
                           inst.log("lz-links"), what="reload log")
            lzenv.wait_for(lambda: (inst.worker_pids("lz-links") and
                                    inst.worker_pids("lz-links") != old),
                           what="new workers after the reload")
            self.assertIsNone(inst.procs["lz-links"].poll())
            # Without a geo file at all the pool starts; countries are "".
            inst.stop_pool("lz-links")
            inst.write_conf("geoip_file = \ngeoip6_file = %s\n" %
                            inst.path("missing6"))
            inst.start_pool("lz-links")
            lzenv.wait_for(lambda: "not found; IPv6 countries will be "
                           "unknown" in inst.log("lz-links"),
                           what="missing-file log")
        finally:
            inst.stop()

if __name__ == "__main__":
    lzenv.main()
