"""End-to-end tests of short domains' registry (lz-links(8) "Domains",
lzctl(8) "domain"): lzctl domain add, list, set and remove on the
instance's engine (LZ_DB=postgresql too), host names as admins type them
(upper case, a trailing dot, IDN), the default domain, a host taken, a
URL the safety scan refuses, removal refused while a live link uses the
domain, and a removed host added again."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None


def setUpModule():
    global inst
    inst = lzenv.Instance("domains")
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


def rows():
    """lzctl domain list as {host: row dict}."""
    out = inst.ctl("domain", "list")[1].splitlines()
    head = out[0].split("\t")
    return {r.split("\t")[0]: dict(zip(head, r.split("\t")))
            for r in out[1:]}


class Domains(unittest.TestCase):
    def test_add_list_set_remove(self):
        acct = inst.account("dom@example.com")
        rc, out, err = inst.ctl("domain", "add", "Go.Brand-One.TEST.",
                                "--root-url", "https://brand-one.example/")
        self.assertIn("server_name go.brand-one.test;", out)
        rc, out, err = inst.ctl("domain", "add", "mine.test", "--account",
                                "dom@example.com", "--expired-url",
                                "https://mine.example/gone")
        self.assertIn("account domain", out)
        d = rows()
        self.assertEqual(d["127.0.0.1"]["DEFAULT"], "yes")
        one = d["go.brand-one.test"]
        self.assertEqual((one["SCOPE"], one["ROOT"], one["NOT-FOUND"],
                          one["LINKS"]),
                         ("instance", "https://brand-one.example/", "-",
                          "0"))
        self.assertNotEqual(one["VERIFIED"], "no")  # the admin's: verified
        mine = d["mine.test"]
        self.assertEqual((mine["SCOPE"], mine["ACCOUNT"], mine["EXPIRED"]),
                         ("account", str(acct), "https://mine.example/gone"))

        # set: one URL set, one cleared, the third kept.
        inst.ctl("domain", "set", "GO.brand-one.test", "--not-found-url",
                 "https://brand-one.example/404", "--root-url", "")
        one = rows()["go.brand-one.test"]
        self.assertEqual((one["ROOT"], one["NOT-FOUND"]),
                         ("-", "https://brand-one.example/404"))
        rc, out, err = inst.ctl("domain", "set", "go.brand-one.test",
                                check=False)
        self.assertEqual(rc, 2)
        self.assertIn("nothing to set", err)

        # A live link on it keeps it; a deleted one does not.
        did = inst.sql("SELECT id FROM domains WHERE host = "
                       "'go.brand-one.test'")[0][0]
        key = inst.key(acct)
        r = inst.api("POST", "/api/v1/links", key,
                     {"target_url": "https://example.com/dom"})
        self.assertEqual(r.status, 201)
        lid = r.json()["id"]
        inst.sql("UPDATE links SET domain_id = %d WHERE id = %d" %
                 (did, lid))
        self.assertEqual(rows()["go.brand-one.test"]["LINKS"], "1")
        rc, out, err = inst.ctl("domain", "remove", "go.brand-one.test",
                                check=False)
        self.assertEqual(rc, 1)
        self.assertIn("1 live link", err)
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" % lid,
                                  key).status, 200)
        rc, out, err = inst.ctl("domain", "remove", "go.brand-one.test")
        self.assertIn("removed go.brand-one.test", out)
        self.assertNotIn("go.brand-one.test", rows())
        rc, out, err = inst.ctl("domain", "remove", "go.brand-one.test",
                                check=False)
        self.assertEqual(rc, 3)

        # Added again: the same row (its deleted link's slug stays its).
        inst.ctl("domain", "add", "go.brand-one.test")
        self.assertEqual(inst.sql("SELECT id FROM domains WHERE host = "
                                  "'go.brand-one.test'")[0][0], did)
        self.assertEqual(rows()["go.brand-one.test"]["ROOT"], "-")

    def test_refused(self):
        inst.ctl("domain", "add", "taken.test")
        for host, rc, words in [
                ("taken.test", 1, "taken"),
                ("TAKEN.test.", 1, "taken"),
                ("127.0.0.1", 1, "default domain"),
                ("https://x.test/", 2, "URL"),
                ("x.test:8080", 2, "port"),
                ("x..test", 2, "empty label"),
                ("x-.test", 2, "'-'"),
                ("x_y.test", 2, "letters, digits"),
                ("a" * 64 + ".test", 2, "63"),
                ("", 2, "empty")]:
            r, out, err = inst.ctl("domain", "add", host, check=False)
            self.assertEqual((r, words in err), (rc, True), (host, err))
        # A URL the safety scan refuses, and one that is no URL.
        r, out, err = inst.ctl("domain", "add", "scan.test", "--root-url",
                               "http://127.0.0.1/", check=False)
        self.assertEqual(r, 2, err)
        self.assertIn("root_url", err)
        r, out, err = inst.ctl("domain", "add", "scan.test",
                               "--not-found-url", "ftp://x.test/",
                               check=False)
        self.assertEqual(r, 2, err)
        self.assertNotIn("scan.test", rows())
        r, out, err = inst.ctl("domain", "add", "acct.test", "--account",
                               "nobody@example.com", check=False)
        self.assertEqual(r, 3)

    def test_idn(self):
        rc, out, err = inst.ctl("domain", "add", "Bücher.test")
        self.assertIn("xn--bcher-kva.test", out)
        self.assertIn("xn--bcher-kva.test", rows())
        inst.ctl("domain", "remove", "bücher.TEST")
        self.assertNotIn("xn--bcher-kva.test", rows())


if __name__ == "__main__":
    unittest.main()
