"""End-to-end tests of lzctl import csv (lzctl(8) import, lz-links(8)
"Importing") on the instance's engine (LZ_DB=postgresql too), with the
pools serving: Shlink's and Dub's export headers, ';' and RFC 4180
quoting, a BOM, bad rows reported with their line, slugs taken or
outside lz's rules renamed or skipped, unsafe targets skipped, the link
cap, the domain of a short_url, a second run that imports nothing, a dry
run that writes nothing, the report, and 100,000 rows (bounded in time).
"""

import json
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402
from test_dashboard_api import Browser  # noqa: E402

inst = None
BRAND = "go.import.test"


def setUpModule():
    global inst
    inst = lzenv.Instance("importcsv", extra_conf="signup = open\n"
                          "plan.small.links = 3\n"
                          "plan.small.quota = 1000\n"
                          "plan.big.links = 1000000\n"
                          "plan.big.quota = 1000\n")
    inst.start()
    inst.ctl("domain", "add", BRAND)


def tearDownModule():
    if inst is not None:
        inst.stop()


def write(name, text, bom=False):
    path = inst.path(name)
    with open(path, "wb") as f:
        f.write((b"\xef\xbb\xbf" if bom else b"") + text.encode())
    return path


def links(account):
    return {r[0]: r[1:] for r in inst.sql(
        "SELECT l.slug, l.target_url, l.title, l.created_at, "
        "coalesce(d.host, '') FROM links l LEFT JOIN domains d ON "
        "d.id = l.domain_id WHERE l.account_id = %d AND l.deleted_at IS "
        "NULL" % account)}


class ImportCsv(unittest.TestCase):
    def run_import(self, path, email, *extra):
        rc, out, err = inst.ctl("import", "csv", path, "--account", email,
                                *extra, check=False)
        return rc, out, err

    def test_shlink_export(self):
        acct = inst.account("shlink@example.com", "big")
        # Shlink's "Export" CSV: its own header names, comma, quotes.
        path = write("shlink.csv", (
            "Long URL,Short URL,Title,Short code,Domain,Tags,Visits,"
            "Date created\r\n"
            "https://example.com/a,https://%s/a1,\"Spring, sale\",a1,%s,"
            "\"spring|sale\",12,2023-04-05T10:20:30+00:00\r\n"
            "https://example.com/b,https://127.0.0.1/b1,,b1,,,0,"
            "2023-04-06T00:00:00Z\r\n"
            "\"https://example.com/c?x=\"\"1\"\"\",,\"say \"\"hi\"\"\",c1,,,,"
            "\r\n" % (BRAND, BRAND)), bom=True)
        rc, out, err = self.run_import(path, "shlink@example.com")
        self.assertEqual(rc, 0, err)
        self.assertIn("3 links imported", out, err)
        got = links(acct)
        self.assertEqual(got["a1"][0], "https://example.com/a")
        self.assertEqual(got["a1"][1], "Spring, sale")
        self.assertEqual(got["a1"][3], BRAND)
        self.assertEqual(got["a1"][2], 1680690030000)
        self.assertEqual(got["b1"][3], "")
        self.assertEqual(got["c1"][0], 'https://example.com/c?x="1"')
        self.assertEqual(got["c1"][1], 'say "hi"')
        tags = inst.api("GET", "/api/v1/tags", inst.key(acct)).json()["tags"]
        self.assertEqual(sorted(t["name"] for t in tags), ["sale", "spring"])
        # It redirects on its domain.
        r = inst.request("GET", "/a1", headers={"Host": BRAND},
                         direct=True)
        self.assertEqual(r.status, 302)
        # Again: nothing new.
        rc, out, err = self.run_import(path, "shlink@example.com")
        self.assertEqual(rc, 0, err)
        self.assertIn("0 links imported", out)
        self.assertIn("3 imported before", out)
        self.assertIn("nothing new", out)
        self.assertEqual(len(links(acct)), 3)

    def test_dub_semicolons_bad_rows_and_report(self):
        acct = inst.account("dub@example.com", "big")
        key = inst.key(acct)
        inst.api("POST", "/api/v1/links", key,
                 {"target_url": "https://example.com/", "slug": "taken"})
        path = write("dub.csv", (
            "link;url;key;title;tags;createdAt\n"
            "https://127.0.0.1/d1;https://example.com/d1;d1;D one;a,b;"
            "2024-01-02T03:04:05.000Z\n"
            ";https://example.com/t;taken;T;;\n"
            ";https://example.com/bad;bad slug!;B;;\n"
            ";not a url;x1;;;\n"
            ";https://example.com/q;q\"x;;;\n"
            ";;nourl;;;\n"
            ";https://example.com/e;e1;E;;yesterday\n"
            "\n"
            ";http://127.0.0.1/loop;lp;;;\n"))
        report = inst.path("dub-report.json")
        rc, out, err = self.run_import(path, "dub@example.com",
                                       "--report", report)
        self.assertEqual(rc, 0, err)
        got = links(acct)
        self.assertIn("d1", got)
        self.assertNotIn("bad slug!", got)
        with open(report) as f:
            rep = json.load(f)
        self.assertEqual((rep["rows"], rep["imported"], rep["skipped"]),
                         (8, 1, 7))
        why = {s["line"]: s["error"] for s in rep["skipped_rows"]}
        self.assertEqual(why, {3: "slug_taken", 4: "invalid_field",
                               5: "invalid_url", 6: "bad_row",
                               7: "missing_field", 8: "invalid_field",
                               10: "unsafe_destination"})
        # With rename: the taken slug and the bad one come in renamed.
        rc, out, err = self.run_import(path, "dub@example.com",
                                       "--on-conflict", "rename")
        self.assertEqual(rc, 0, err)
        self.assertIn("2 links imported (2 under another slug)", out)
        got = links(acct)
        self.assertIn("taken-2", got)
        self.assertIn("bad-slug-", got)

    def test_cap_dry_run_and_ignore_cap(self):
        acct = inst.account("small@example.com", "small")
        path = write("small.csv", "url,slug\n" + "".join(
            "https://example.com/s%d,s%d\n" % (i, i) for i in range(5)))
        rc, out, err = self.run_import(path, "small@example.com",
                                       "--dry-run")
        self.assertEqual(rc, 0, err)
        self.assertIn("dry run: 3 links imported", out)
        self.assertEqual(links(acct), {})
        rc, out, err = self.run_import(path, "small@example.com")
        self.assertIn("3 links imported", out, err)
        self.assertIn("2 skipped", out)
        self.assertIn("link_cap_reached", err)
        rc, out, err = self.run_import(path, "small@example.com",
                                       "--ignore-cap")
        self.assertIn("2 links imported", out)
        self.assertEqual(len(links(acct)), 5)

    def test_refused_files(self):
        inst.account("refused@example.com", "big")
        for text, why in (("title,slug\nx,y\n", "no URL column"),
                          ('url,"slug\n', "never closed")):
            rc, out, err = self.run_import(write("r.csv", text),
                                           "refused@example.com")
            self.assertEqual(rc, 1, out)
            self.assertIn(why, err)
        rc, _, err = self.run_import(write("r.csv", "url\n"),
                                     "nobody@example.com")
        self.assertEqual(rc, 3, err)
        rc, _, err = self.run_import(write("r.csv", "url\n"),
                                     "refused@example.com",
                                     "--on-conflict", "merge")
        self.assertEqual(rc, 2, err)

    def test_dashboard_import(self):
        b = Browser(inst)
        self.assertEqual(b.signup("dash-import@example.com").status, 201)
        text = ("url,slug,title\n"
                "https://example.com/di1,di1,One\n"
                "https://example.com/di2,bad slug,Two\n"
                "not a url,di3,\n")
        h = {"Content-Type": "text/csv"}
        r = b.req("POST", "/dashboard/api/import?dry_run=1", text,
                  headers=h)
        self.assertEqual(r.status, 200, r.body)
        j = r.json()
        self.assertEqual((j["dry_run"], j["rows"], j["imported"],
                          j["skipped"]), (True, 3, 1, 2))
        self.assertEqual([x["line"] for x in j["skipped_rows"]], [3, 4])
        self.assertEqual(inst.sql("SELECT count(*) FROM links l JOIN "
                                  "accounts a ON a.id = l.account_id WHERE "
                                  "a.email = 'dash-import@example.com'"),
                         [(0,)])
        r = b.req("POST", "/dashboard/api/import?on_conflict=rename", text,
                  headers=h)
        j = r.json()
        self.assertEqual((j["dry_run"], j["imported"], j["renamed"]),
                         (False, 2, 1))
        r = b.req("POST", "/dashboard/api/import", text, headers=h)
        self.assertEqual(r.json()["already_imported"], 1)
        for body, hdr, status, code in (
                (text, {"Content-Type": "application/json"}, 415,
                 "unsupported_media_type"),
                ("title\nx\n", h, 400, "invalid_field"),
                ("", h, 400, "invalid_field")):
            r = b.req("POST", "/dashboard/api/import", body, headers=hdr)
            self.assertEqual((r.status, r.json()["error"]), (status, code),
                             r.body)
        # Without the CSRF token: refused.
        r = b.req("POST", "/dashboard/api/import", text, csrf=False,
                  headers=h)
        self.assertEqual(r.status, 403)

    def test_many_rows(self):
        n = int(os.environ.get("LZ_IMPORT_ROWS", "100000"))
        acct = inst.account("many@example.com", "big")
        path = write("many.csv", "long_url,short_code,title\n" + "".join(
            "https://example.com/m/%d,m%d,Row %d\n" % (i, i, i)
            for i in range(n)))
        t = time.monotonic()
        rc, out, err = self.run_import(path, "many@example.com")
        took = time.monotonic() - t
        self.assertEqual(rc, 0, err)
        self.assertIn("%d links imported" % n, out)
        sys.stderr.write("FIGURE import-csv: %d rows in %.1f s (%.0f "
                         "rows/s) while the pools serve\n" % (
                             n, took, n / took))
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE "
                                  "account_id = %d" % acct), [(n,)])
        self.assertEqual(inst.request("GET", "/m%d" % (n - 1)).status, 302)
        self.assertLess(took, 120)


if __name__ == "__main__":
    unittest.main()
