"""End-to-end tests of the bulk calls (lz-links(8) "Bulk calls"):
POST, PATCH and DELETE /api/v1/links/bulk through nginx on the
instance's engine (LZ_DB=postgresql too): mixed good and bad items
answered in input order, the quota and the link cap per item, each
item's webhook event, another account's ids, the envelope's limits, a
thousand items in one call.
"""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402

inst = None


def setUpModule():
    global inst
    inst = lzenv.Instance("bulk", extra_conf="plan.capped.links = 5\n"
                          "plan.capped.quota = 100000\n"
                          "plan.metered.links = 100000\n"
                          "plan.metered.quota = 12\n")
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


def events(account, kind):
    """The bodies of account's queued events of kind."""
    rows = inst.sql("SELECT d.body FROM webhook_deliveries d JOIN webhooks "
                    "w ON w.id = d.webhook_id WHERE w.account_id = %d AND "
                    "d.event = '%s' ORDER BY d.id" % (account, kind))
    return [json.loads(b) for (b,) in rows]


class Bulk(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.acct = inst.account("bulk@example.com", "pro")
        cls.key = inst.key(cls.acct)

    def post(self, items, key=None):
        return inst.api("POST", "/api/v1/links/bulk", key or self.key,
                        {"links": items})

    def test_create_mixed(self):
        items = [{"target_url": "https://example.com/a", "slug": "bk-a"},
                 {"target_url": "not a url"},
                 {"target_url": "https://example.com/b", "slug": "bk-a"},
                 "x",
                 {"target_url": "https://example.com/c", "tags": ["Bulk"],
                  "title": "C"},
                 {"target_url": "https://example.com/d", "zz": 1}]
        r = self.post(items)
        self.assertEqual(r.status, 200, r.body)
        res = r.json()["results"]
        self.assertEqual([x["ok"] for x in res],
                         [True, False, False, False, True, False])
        self.assertEqual(res[0]["slug"], "bk-a")
        self.assertTrue(res[0]["short_url"].endswith("/bk-a"))
        self.assertEqual((res[1]["index"], res[1]["error"], res[1]["param"]),
                         (1, "invalid_url", "target_url"))
        self.assertEqual((res[2]["error"], res[2]["param"]),
                         ("slug_taken", "slug"))
        self.assertEqual((res[3]["index"], res[3]["error"]),
                         (3, "invalid_json"))
        self.assertEqual((res[5]["error"], res[5]["param"]),
                         ("unknown_field", "zz"))
        got = inst.api("GET", "/api/v1/links/%d" % res[4]["id"],
                       self.key).json()["link"]
        self.assertEqual((got["tags"], got["title"]), (["Bulk"], "C"))
        # Every stored one redirects.
        self.assertEqual(inst.request("GET", "/bk-a").status, 302)

    def test_envelope(self):
        for body, param in (({"links": []}, "links"),
                            ({"links": [{}] * 1001}, "links"),
                            ({"links": {}}, "links"),
                            ({"links": [], "x": 1}, "x"),
                            ({}, "links")):
            r = inst.api("POST", "/api/v1/links/bulk", self.key, body)
            self.assertEqual(r.status, 400, (param, r.body))
            self.assertEqual(r.json()["param"], param)
        for method in ("PATCH", "DELETE"):
            for body, param in (({"ids": []}, "ids"),
                                ({"ids": list(range(1, 1002))}, "ids")):
                b = dict(body)
                if method == "PATCH":
                    b["patch"] = {"title": "x"}
                r = inst.api(method, "/api/v1/links/bulk", self.key, b)
                self.assertEqual(r.status, 400, (method, r.body))
                self.assertEqual(r.json()["param"], param)
        r = inst.api("PATCH", "/api/v1/links/bulk", self.key, {"ids": [1]})
        self.assertEqual((r.status, r.json()["param"]), (400, "patch"))
        r = inst.api("PATCH", "/api/v1/links/bulk", self.key, {
            "ids": [1], "patch": {"tags": ["a"]}, "add_tags": ["b"]})
        self.assertEqual((r.status, r.json()["param"]), (400, "patch.tags"))
        r = inst.api("PUT", "/api/v1/links/bulk", self.key, {"ids": [1]})
        self.assertEqual(r.status, 405)

    def test_cap_per_item(self):
        acct = inst.account("capped@example.com", "capped")
        key = inst.key(acct)
        items = [{"target_url": "https://example.com/%d" % i}
                 for i in range(4)] + [
                     {"target_url": "https://example.com/arch",
                      "archived": True}] + [
                     {"target_url": "https://example.com/x%d" % i}
                     for i in range(3)]
        r = self.post(items, key)
        res = r.json()["results"]
        # Five places: four, the archived one takes none, one more; then
        # the cap.
        self.assertEqual([x["ok"] for x in res],
                         [True] * 6 + [False] * 2)
        self.assertEqual({x["error"] for x in res if not x["ok"]},
                         {"link_cap_reached"})
        self.assertEqual(inst.sql("SELECT link_count FROM accounts WHERE "
                                  "id = %d" % acct), [(5,)])

    def test_quota_per_item(self):
        acct = inst.account("metered@example.com", "metered")
        key = inst.key(acct)
        r = self.post([{"target_url": "https://example.com/q%d" % i}
                       for i in range(15)], key)
        self.assertEqual(r.status, 200, r.body)
        res = r.json()["results"]
        self.assertEqual([x["ok"] for x in res], [True] * 12 + [False] * 3)
        self.assertEqual({x["error"] for x in res[12:]}, {"quota_exceeded"})
        self.assertEqual(r.header("x-ratelimit-remaining"), "0")
        self.assertEqual(inst.api("GET", "/api/v1/links", key).status, 429)

    def test_patch_and_delete(self):
        other = inst.key(inst.account("other@example.com"))
        theirs = inst.api("POST", "/api/v1/links", other, {
            "target_url": "https://example.com/theirs"}).json()["id"]
        r = self.post([{"target_url": "https://example.com/p%d" % i}
                       for i in range(3)])
        ids = [x["id"] for x in r.json()["results"]]
        r = inst.api("PATCH", "/api/v1/links/bulk", self.key, {
            "ids": ids + [theirs, "7", 0],
            "patch": {"title": "Moved in", "archived": True}})
        self.assertEqual(r.status, 200, r.body)
        res = r.json()["results"]
        self.assertEqual([x["ok"] for x in res], [True] * 3 + [False] * 3)
        self.assertEqual([x["link"]["title"] for x in res[:3]],
                         ["Moved in"] * 3)
        self.assertTrue(all(x["link"]["archived"] for x in res[:3]))
        self.assertEqual(res[3]["error"], "not_found")
        self.assertEqual((res[4]["error"], res[4]["param"]),
                         ("invalid_field", "ids[4]"))
        self.assertEqual(inst.api("GET", "/api/v1/links/%d" % theirs,
                                  other).json()["link"]["title"], None)
        # A bad patch fails each item the same way.
        r = inst.api("PATCH", "/api/v1/links/bulk", self.key, {
            "ids": ids[:2], "patch": {"redirect_type": 307}})
        self.assertEqual([x["error"] for x in r.json()["results"]],
                         ["invalid_field"] * 2)
        r = inst.api("DELETE", "/api/v1/links/bulk", self.key, {
            "ids": ids + [theirs, ids[0]]})
        res = r.json()["results"]
        self.assertEqual([x["ok"] for x in res],
                         [True, True, True, False, False])
        self.assertEqual([x.get("error") for x in res[3:]],
                         ["not_found", "not_found"])
        self.assertEqual(inst.api("GET", "/api/v1/links/%d" % theirs,
                                  other).status, 200)

    def test_add_and_remove_tags(self):
        r = self.post([{"target_url": "https://example.com/g1",
                        "tags": ["Keep", "Old"]},
                       {"target_url": "https://example.com/g2"}])
        ids = [x["id"] for x in r.json()["results"]]
        r = inst.api("PATCH", "/api/v1/links/bulk", self.key, {
            "ids": ids, "add_tags": ["New", "keep"],
            "remove_tags": ["OLD"]})
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual([x["link"]["tags"] for x in r.json()["results"]],
                         [["Keep", "New"], ["Keep", "New"]])
        r = inst.api("PATCH", "/api/v1/links/bulk", self.key, {
            "ids": ids, "add_tags": ["bad/tag"]})
        self.assertEqual([x["error"] for x in r.json()["results"]],
                         ["invalid_field"] * 2)

    def test_events_per_item(self):
        acct = inst.account("events@example.com", "pro")
        key = inst.key(acct)
        # Every event (the bits of webhook.h): a subscription as the
        # dashboard leaves it, its secret not needed to queue events.
        inst.execmany("INSERT INTO webhooks (account_id, url, events, "
                      "secret_box, created_at) VALUES (?, ?, ?, ?, ?)",
                      [(acct, "https://hooks.example/x", 15, b"\x00", 1)])
        r = self.post([{"target_url": "https://example.com/e%d" % i}
                       for i in range(3)] + [{"target_url": "bad"}], key)
        ids = [x["id"] for x in r.json()["results"] if x["ok"]]
        inst.api("PATCH", "/api/v1/links/bulk", key, {
            "ids": ids, "patch": {"title": "T"}})
        inst.api("DELETE", "/api/v1/links/bulk", key, {"ids": ids[:2]})
        self.assertEqual(sorted(e["data"]["id"] for e in
                                events(acct, "link.created")), ids)
        self.assertEqual(len(events(acct, "link.updated")), 3)
        self.assertEqual(len(events(acct, "link.deleted")), 2)

    def test_a_thousand(self):
        acct = inst.account("thousand@example.com", "pro")
        key = inst.key(acct)
        r = self.post([{"target_url": "https://example.com/t/%d" % i,
                        "slug": "t-%d" % i} for i in range(1000)], key)
        self.assertEqual(r.status, 200, r.body)
        res = r.json()["results"]
        self.assertEqual(len(res), 1000)
        self.assertTrue(all(x["ok"] for x in res))
        self.assertEqual([x["slug"] for x in res],
                         ["t-%d" % i for i in range(1000)])
        self.assertEqual(inst.sql("SELECT count(*) FROM links WHERE "
                                  "account_id = %d" % acct), [(1000,)])
        r = inst.api("DELETE", "/api/v1/links/bulk", key,
                     {"ids": [x["id"] for x in res]})
        self.assertTrue(all(x["ok"] for x in r.json()["results"]))


if __name__ == "__main__":
    unittest.main()
