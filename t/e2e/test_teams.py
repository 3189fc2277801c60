"""End-to-end tests of teams (lz-links(8) "Teams"): several people on one
account with roles, through nginx on the instance's engine
(LZ_DB=postgresql too).

A table of the dashboard's routes against the four roles (each write and
read allowed or 403, checked server-side), invitations (taken by a new
user and by a signed-in one; used, expired, for another e-mail, for an
e-mail that must sign in first), the last owner who can neither leave
nor be demoted, an admin who cannot touch owners, a removed member whose
session dies at once, one user in two accounts who sees only the one
chosen, lzctl member, and the audit log's member entries.
"""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import lzenv  # noqa: E402
from test_dashboard_api import Browser  # noqa: E402

inst = None
PW = "correct horse battery"
ROLES = ["viewer", "member", "admin", "owner"]


def setUpModule():
    global inst
    inst = lzenv.Instance("teams", extra_conf="signup = open\n"
                          "trusted_proxies = 127.0.0.1\n")
    inst.start()


def tearDownModule():
    if inst is not None:
        inst.stop()


def member_add(account, email, role, password=PW):
    p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf, "member",
                        "add", account, email, "--role", role] +
                       (["--password-stdin"] if password else []),
                       input=(password + "\n") if password else None,
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def signed_in(email, password=PW):
    b = Browser(inst)
    r = b.signin(email, password)
    assert r.status == 200, (email, r.body)
    return b


class Teams(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        b = Browser(inst)
        assert b.signup("boss@example.com", PW).status == 201
        cls.owner = b
        cls.acct = inst.sql("SELECT id FROM accounts WHERE email = "
                            "'boss@example.com'")[0][0]
        r = b.req("POST", "/dashboard/api/links",
                  {"target_url": "https://example.com/team", "slug": "tm"})
        assert r.status == 201, r.body
        cls.link = r.json()["id"]
        cls.people = {}
        for role in ROLES[:3]:
            email = "%s@example.com" % role
            rc, out, err = member_add("boss@example.com", email, role)
            assert rc == 0, err
            cls.people[role] = signed_in(email)
        cls.people["owner"] = b

    # ---- role x route -------------------------------------------------

    def route_table(self):
        """(method, path, body, least role): each dashboard route of
        the account's data."""
        lid = self.link
        return [
            ("GET", "/dashboard/api/account", None, "viewer"),
            ("GET", "/dashboard/api/links", None, "viewer"),
            ("GET", "/dashboard/api/links/%d" % lid, None, "viewer"),
            ("GET", "/dashboard/api/links/%d/stats" % lid, None, "viewer"),
            ("GET", "/dashboard/api/links/%d/qr" % lid, None, "viewer"),
            ("GET", "/dashboard/api/stats", None, "viewer"),
            ("GET", "/dashboard/api/tags", None, "viewer"),
            ("GET", "/dashboard/api/domains", None, "viewer"),
            ("POST", "/dashboard/api/links",
             {"target_url": "https://example.com/r"}, "member"),
            ("PATCH", "/dashboard/api/links/%d" % lid, {"title": "t"},
             "member"),
            ("PATCH", "/dashboard/api/links/bulk",
             {"ids": [lid], "patch": {"title": "b"}}, "member"),
            ("GET", "/dashboard/api/keys", None, "admin"),
            ("POST", "/dashboard/api/keys", {"name": "k"}, "admin"),
            ("GET", "/dashboard/api/webhooks", None, "admin"),
            ("GET", "/dashboard/api/audit", None, "admin"),
            ("GET", "/dashboard/api/members", None, "admin"),
            ("POST", "/dashboard/api/domains", {"host": "x.example"},
             "admin"),
        ]

    def test_1_role_by_route(self):
        for method, path, body, least in self.route_table():
            for role in ROLES:
                with self.subTest(method=method, path=path, role=role):
                    r = self.people[role].req(method, path, body)
                    if ROLES.index(role) < ROLES.index(least):
                        self.assertEqual(r.status, 403, r.body)
                        self.assertEqual(r.json()["error"], "forbidden")
                    else:
                        self.assertNotIn(r.status, (401, 403), r.body)
        # The session says who one is.
        s = self.people["member"].req("GET", "/dashboard/api/session").json()
        self.assertEqual((s["role"], s["user"], s["account"]["email"]),
                         ("member", "member@example.com",
                          "boss@example.com"))

    def test_2_invitations(self):
        r = self.people["admin"].req("POST", "/dashboard/api/members",
                                     {"email": "new@example.com",
                                      "role": "viewer"})
        self.assertEqual(r.status, 201, r.body)
        # No mail_command here: the inviter passes the URL on.
        self.assertIs(r.json()["mailed"], False)
        url = r.json()["invitation_url"]
        token = url.rsplit("/", 1)[1]
        self.assertIn("#invite/", url)
        # An admin invites no owner.
        r = self.people["admin"].req("POST", "/dashboard/api/members",
                                     {"email": "o2@example.com",
                                      "role": "owner"})
        self.assertEqual(r.status, 403, r.body)
        # Taken by a new user, with a password: signed in, a viewer.
        nb = Browser(inst)
        r = nb.req("POST", "/dashboard/api/invitation",
                   {"token": token, "password": "short"})
        self.assertEqual((r.status, r.json()["param"]), (400, "password"))
        r = nb.req("POST", "/dashboard/api/invitation",
                   {"token": token, "password": PW})
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual((r.json()["role"], r.json()["account"]["email"]),
                         ("viewer", "boss@example.com"))
        self.assertEqual(nb.req("GET", "/dashboard/api/links").status, 200)
        # Used.
        r = Browser(inst).req("POST", "/dashboard/api/invitation",
                              {"token": token, "password": PW})
        self.assertEqual((r.status, r.json()["error"]),
                         (410, "invitation_used"))
        # Expired.
        tok2 = self.owner.req("POST", "/dashboard/api/members", {
            "email": "late@example.com", "role": "member"}).json()[
                "invitation_url"].rsplit("/", 1)[1]
        inst.sql("UPDATE invitations SET expires_at = 1 WHERE email = "
                 "'late@example.com'")
        r = Browser(inst).req("POST", "/dashboard/api/invitation",
                              {"token": tok2, "password": PW})
        self.assertEqual(r.status, 410)
        # For another e-mail than the one signed in; for a user who must
        # sign in first; then taken signed in.
        tok3 = self.owner.req("POST", "/dashboard/api/members", {
            "email": "member@example.com", "role": "viewer"})
        self.assertEqual(tok3.status, 400)      # a member already
        other = Browser(inst)
        self.assertEqual(other.signup("elsewhere@example.com", PW).status,
                         201)
        tok4 = self.owner.req("POST", "/dashboard/api/members", {
            "email": "elsewhere@example.com", "role": "member"}).json()[
                "invitation_url"].rsplit("/", 1)[1]
        r = self.people["viewer"].req("POST", "/dashboard/api/invitation",
                                      {"token": tok4})
        self.assertEqual((r.status, r.json()["error"]), (403, "wrong_user"))
        r = Browser(inst).req("POST", "/dashboard/api/invitation",
                              {"token": tok4, "password": PW})
        self.assertEqual((r.status, r.json()["error"]),
                         (409, "sign_in_first"))
        r = other.req("POST", "/dashboard/api/invitation", {"token": tok4})
        self.assertEqual(r.status, 200, r.body)
        self.assertEqual(r.json()["account"]["email"], "boss@example.com")
        # One user, two accounts: each shows its own links alone.
        accts = {a["email"]: a["id"] for a in r.json()["accounts"]}
        self.assertEqual(set(accts), {"boss@example.com",
                                      "elsewhere@example.com"})
        slugs = [x["slug"] for x in other.req(
            "GET", "/dashboard/api/links").json()["links"]]
        self.assertIn("tm", slugs)
        r = other.req("POST", "/dashboard/api/switch",
                      {"account_id": accts["elsewhere@example.com"]})
        self.assertEqual((r.status, r.json()["role"]), (200, "owner"))
        self.assertEqual(other.req("GET", "/dashboard/api/links").json()[
            "links"], [])
        self.assertEqual(other.req("GET", "/dashboard/api/links/%d" %
                                   self.link).status, 404)
        r = other.req("POST", "/dashboard/api/switch", {"account_id": 99999})
        self.assertEqual(r.status, 404)
        r = Browser(inst).req("POST", "/dashboard/api/invitation",
                              {"token": "x" * 43, "password": PW})
        self.assertEqual(r.status, 404)

    def test_3_owners_and_removal(self):
        members = {m["email"]: m for m in self.owner.req(
            "GET", "/dashboard/api/members").json()["members"]}
        boss = members["boss@example.com"]["id"]
        admin = members["admin@example.com"]["id"]
        # The last owner can neither leave nor be demoted.
        r = self.owner.req("PATCH", "/dashboard/api/members/%d" % boss,
                           {"role": "admin"})
        self.assertEqual((r.status, r.json()["error"]), (409, "last_owner"))
        r = self.owner.req("DELETE", "/dashboard/api/members/%d" % boss)
        self.assertEqual((r.status, r.json()["error"]), (409, "last_owner"))
        rc, _, err = member_add("boss@example.com", "boss@example.com",
                                "member", None)
        self.assertNotEqual(rc, 0)
        # An admin touches no owner, and makes none.
        r = self.people["admin"].req("PATCH", "/dashboard/api/members/%d" %
                                     boss, {"role": "viewer"})
        self.assertEqual(r.status, 403)
        r = self.people["admin"].req(
            "PATCH", "/dashboard/api/members/%d" % members[
                "viewer@example.com"]["id"], {"role": "owner"})
        self.assertEqual(r.status, 403)
        # A second owner: the first may step down.
        r = self.owner.req("PATCH", "/dashboard/api/members/%d" % admin,
                           {"role": "owner"})
        self.assertEqual(r.status, 200, r.body)
        r = self.people["admin"].req("PATCH", "/dashboard/api/members/%d" %
                                     boss, {"role": "admin"})
        self.assertEqual(r.status, 200, r.body)
        r = self.owner.req("GET", "/dashboard/api/session").json()
        self.assertEqual(r["role"], "admin")
        # A removed member's session dies at once.
        m = self.people["member"]
        self.assertEqual(m.req("GET", "/dashboard/api/links").status, 200)
        r = self.people["admin"].req(
            "DELETE", "/dashboard/api/members/%d" % members[
                "member@example.com"]["id"])
        self.assertEqual(r.status, 200, r.body)
        r = m.req("GET", "/dashboard/api/links")
        self.assertEqual(r.status, 401, r.body)
        # Back as it was, by lzctl (which acts as an owner).
        for email, role in (("boss@example.com", "owner"),
                            ("admin@example.com", "admin")):
            p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf,
                                "member", "set", "boss@example.com", email,
                                "--role", role], capture_output=True,
                               text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
        p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf, "member",
                            "set", "boss@example.com", "boss@example.com",
                            "--role", "viewer"], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 1)       # the last owner
        self.assertIn("at least one owner", p.stderr)

    def test_4_lzctl_and_audit(self):
        rc, out, err = member_add("boss@example.com", "later@example.com",
                                  "viewer", None)
        self.assertEqual(rc, 0, err)
        self.assertIn("/dashboard/#invite/", out)
        p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf, "member",
                            "list", "boss@example.com"],
                           capture_output=True, text=True)
        self.assertIn("viewer@example.com\tviewer", p.stdout)
        self.assertIn("later@example.com\tviewer\tinvited", p.stdout)
        for args, want in ((["set", "boss@example.com",
                             "viewer@example.com", "--role", "boss"], 2),
                           (["remove", "boss@example.com",
                             "nobody@example.com"], 3),
                           (["list", "nobody@example.com"], 3)):
            p = subprocess.run([lzenv.prog("lzctl"), "-f", inst.conf,
                                "member"] + args, capture_output=True,
                               text=True)
            self.assertEqual(p.returncode, want, (args, p.stderr))
        log = self.owner.req("GET", "/dashboard/api/audit?limit=200").json()
        actions = {e["action"] for e in log["entries"]}
        self.assertTrue({"member.invited", "member.joined",
                         "member.changed", "member.removed"} <= actions,
                        actions)
        self.assertFalse(any("#invite/" in e["target"]
                             for e in log["entries"]))


if __name__ == "__main__":
    unittest.main()
