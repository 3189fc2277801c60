"""End-to-end tests of organising links (DESIGN 3.13, lz-links(8)
"Organising links") through nginx, on the instance's engine
(LZ_DB=postgresql too): tags (case folding, first spelling kept, limits,
the list filter by several tags, renames that merge, deletes), notes, and
the archive (hidden from the list, still redirecting, no place of the
link cap)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None
BROWSER = ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
           "Firefox/120.0")


def setUpModule():
    global inst
    inst = lzenv.Instance("organise", extra_conf="plan.tiny.links = 3\n"
                          "plan.tiny.quota = 100000\n")
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


class Tags(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.key = inst.key(inst.account("tags@example.com", "pro"))

    def make(self, **body):
        body.setdefault("target_url", "https://example.com/t")
        r = inst.api("POST", "/api/v1/links", self.key, body)
        self.assertEqual(r.status, 201, r.body)
        return self.get(r.json()["id"])

    def get(self, lid):
        return inst.api("GET", "/api/v1/links/%d" % lid,
                        self.key).json()["link"]

    def ids(self, query):
        r = inst.api("GET", "/api/v1/links?" + query, self.key)
        self.assertEqual(r.status, 200, r.body)
        return [x["id"] for x in r.json()["links"]]

    def test_round_trip_and_filters(self):
        a = self.make(tags=["  Spring Sale ", "spring sale", "新品", "x.y_z-1"])
        self.assertEqual(a["tags"], ["Spring Sale", "x.y_z-1", "新品"])
        b = self.make(tags=["SPRING SALE", "Print"])
        # The first spelling stays the tag's.
        self.assertEqual(b["tags"], ["Print", "Spring Sale"])
        c = self.make()
        self.assertEqual(c["tags"], [])
        self.assertEqual(set(self.ids("tag=spring%20sale")),
                         {a["id"], b["id"]})
        self.assertEqual(self.ids("tag=Spring%20Sale&tag=PRINT"), [b["id"]])
        self.assertEqual(self.ids("tag=print&tag=print"), [b["id"]])
        self.assertEqual(self.ids("tag=nothing"), [])
        self.assertEqual(self.ids("tag=%E6%96%B0%E5%93%81&q=t"), [a["id"]])
        # PATCH replaces the array; null and [] clear.
        r = inst.api("PATCH", "/api/v1/links/%d" % a["id"], self.key,
                     {"tags": ["Print"]})
        self.assertEqual(r.json()["link"]["tags"], ["Print"])
        r = inst.api("PATCH", "/api/v1/links/%d" % a["id"], self.key,
                     {"title": "kept"})
        self.assertEqual(r.json()["link"]["tags"], ["Print"])
        r = inst.api("PATCH", "/api/v1/links/%d" % a["id"], self.key,
                     {"tags": None})
        self.assertEqual(r.json()["link"]["tags"], [])
        r = inst.api("PATCH", "/api/v1/links/%d" % b["id"], self.key,
                     {"tags": []})
        self.assertEqual(r.json()["link"]["tags"], [])

    def test_limits(self):
        for tags in (["t%d" % i for i in range(21)], ["x" * 65],
                     ["a\u0001b"], ["a/b"], [""], ["   "], [5], "x"):
            r = inst.api("POST", "/api/v1/links", self.key,
                         {"target_url": "https://example.com/", "tags": tags})
            self.assertEqual((r.status, r.json().get("param")),
                             (400, "tags"), (tags, r.body))
        ok = self.make(tags=["t%d" % i for i in range(20)] + ["T0"])
        self.assertEqual(len(ok["tags"]), 20)
        self.assertEqual(self.make(tags=["x" * 64])["tags"], ["x" * 64])
        r = inst.api("GET", "/api/v1/links?tag=a%2Fb", self.key)
        self.assertEqual((r.status, r.json().get("param")), (400, "tag"))

    def test_rename_merge_delete(self):
        key = inst.key(inst.account("rename@example.com", "pro"))

        def make(tags):
            r = inst.api("POST", "/api/v1/links", key, {
                "target_url": "https://example.com/r", "tags": tags})
            return r.json()["id"]
        one, two = make(["Alpha", "Beta"]), make(["beta"])
        make(["Gamma"])
        tags = inst.api("GET", "/api/v1/tags", key).json()["tags"]
        self.assertEqual(tags, [{"name": "Alpha", "links": 1},
                                {"name": "Beta", "links": 2},
                                {"name": "Gamma", "links": 1}])
        # Another spelling of itself: renamed.
        r = inst.api("PATCH", "/api/v1/tags/BETA", key, {"name": "BETA"})
        self.assertEqual(r.json(), {"ok": True, "from": "Beta",
                                    "name": "BETA", "merged": False})
        # Into an existing tag: merged, once per link.
        r = inst.api("PATCH", "/api/v1/tags/alpha", key, {"name": "beta"})
        self.assertEqual(r.json(), {"ok": True, "from": "Alpha",
                                    "name": "BETA", "merged": True})
        tags = inst.api("GET", "/api/v1/tags", key).json()["tags"]
        self.assertEqual(tags, [{"name": "BETA", "links": 2},
                                {"name": "Gamma", "links": 1}])
        link = inst.api("GET", "/api/v1/links/%d" % one, key).json()["link"]
        self.assertEqual(link["tags"], ["BETA"])
        r = inst.api("DELETE", "/api/v1/tags/beta", key)
        self.assertEqual(r.status, 200, r.body)
        link = inst.api("GET", "/api/v1/links/%d" % two, key).json()["link"]
        self.assertEqual(link["tags"], [])
        self.assertEqual(inst.api("DELETE", "/api/v1/tags/beta", key).status,
                         404)
        # Another account's tag is not the caller's.
        self.assertEqual(inst.api("DELETE", "/api/v1/tags/gamma",
                                  self.key).status, 404)
        r = inst.api("PATCH", "/api/v1/tags/gamma", key, {"name": "a/b"})
        self.assertEqual((r.status, r.json().get("param")), (400, "name"))

    def test_lzctl_tags(self):
        key = inst.key(inst.account("ctl-tags@example.com", "pro"))
        for tags in (["One", "two"], ["ONE"]):
            inst.api("POST", "/api/v1/links", key, {
                "target_url": "https://example.com/c", "tags": tags})
        out = inst.ctl("tag", "list", "ctl-tags@example.com")[1]
        self.assertEqual(out, "TAG\tLINKS\nOne\t2\ntwo\t1\n")
        out = inst.ctl("tag", "rename", "ctl-tags@example.com", "TWO",
                       "one")[1]
        self.assertEqual(out, "two -> One (merged)\n")
        out = inst.ctl("tag", "delete", "ctl-tags@example.com", "one")[1]
        self.assertEqual(out, "deleted One\n")
        rc, out, err = inst.ctl("tag", "delete", "ctl-tags@example.com",
                                "one", check=False)
        self.assertEqual(rc, 3, err)
        rc, out, err = inst.ctl("tag", "rename", "ctl-tags@example.com",
                                "x", "a/b", check=False)
        self.assertEqual(rc, 2, err)

    def test_notes(self):
        head = "Line one\nline two\twith a tab, 中文"
        text = head + "x" * (2000 - len(head))
        self.assertEqual(len(text), 2000)
        n = self.make(notes=text)
        self.assertEqual(n["notes"], text)
        for bad in ("x" * 2001, "a\u0007b"):
            r = inst.api("POST", "/api/v1/links", self.key,
                         {"target_url": "https://example.com/", "notes": bad})
            self.assertEqual((r.status, r.json().get("param")),
                             (400, "notes"))
        r = inst.api("PATCH", "/api/v1/links/%d" % n["id"], self.key,
                     {"notes": None})
        self.assertIsNone(r.json()["link"]["notes"])


class Archive(unittest.TestCase):
    def test_hidden_redirects_frees_cap(self):
        key = inst.key(inst.account("archive@example.com", "tiny"))

        def make(**body):
            body.setdefault("target_url", "https://example.com/a")
            return inst.api("POST", "/api/v1/links", key, body)
        ids = [make(slug="arch%d" % i).json()["id"] for i in range(3)]
        r = make()
        self.assertEqual((r.status, r.json()["error"]), (403,
                                                         "link_cap_reached"))
        # Archived: hidden, redirecting, its place free.
        r = inst.api("PATCH", "/api/v1/links/%d" % ids[0], key,
                     {"archived": True})
        self.assertEqual(r.json()["link"]["archived"], True)
        self.assertEqual(r.json()["link"]["status"], "active")
        listed = [x["id"] for x in inst.api("GET", "/api/v1/links",
                                            key).json()["links"]]
        self.assertNotIn(ids[0], listed)
        only = [x["id"] for x in inst.api("GET", "/api/v1/links?archived=only",
                                          key).json()["links"]]
        self.assertEqual(only, [ids[0]])
        both = [x["id"] for x in inst.api(
            "GET", "/api/v1/links?archived=include", key).json()["links"]]
        self.assertEqual(sorted(both), sorted(ids))
        r = inst.request("GET", "/arch0", headers={"User-Agent": BROWSER})
        self.assertEqual(r.status, 302)
        r = make(slug="fourth")
        self.assertEqual(r.status, 201, r.body)
        # Out of the archive with the cap full: refused, still archived.
        r = inst.api("PATCH", "/api/v1/links/%d" % ids[0], key,
                     {"archived": False})
        self.assertEqual((r.status, r.json()["error"]),
                         (403, "link_cap_reached"))
        self.assertTrue(inst.api("GET", "/api/v1/links/%d" % ids[0],
                                 key).json()["link"]["archived"])
        # Made archived: no place taken; deleting it gives none back.
        r = make(archived=True)
        self.assertEqual(r.status, 201, r.body)
        self.assertEqual(inst.api("DELETE", "/api/v1/links/%d" %
                                  r.json()["id"], key).status, 200)
        self.assertEqual(make().status, 403)
        r = inst.api("GET", "/api/v1/links?archived=maybe", key)
        self.assertEqual((r.status, r.json().get("param")),
                         (400, "archived"))


if __name__ == "__main__":
    unittest.main()
