"""End-to-end tests of invitations mailed (lz-hooks(8) "Mail"), through
nginx on the instance's engine (LZ_DB=postgresql too).

No MTA is installed here: mail_command is a script the test writes, a
stand-in for "sendmail -t" that keeps each message it reads on its
standard input in a file of its own -- the receiver.  lz-hooks runs as
cron would start it.

  - an invitation made on the dashboard and one made by lzctl member add
    are queued with it and mailed by lz-hooks: a whole RFC 5322 message
    (From mail_from, To the invited, a Subject, Date, Message-ID, MIME
    headers, UTF-8 text in 8 bits) whose URL, followed, accepts the
    invitation; lzctl member add --password-stdin mails nothing;
  - the database never holds the URL's token: not while the mail waits
    (its text is sealed), nor once it is sent (the text dropped);
  - a command that fails is retried on the schedule, then given up, its
    text dropped; a mail whose invitation ended goes unsent; finished
    rows are deleted some days later;
  - an e-mail that would add a header is refused at the invitation (400,
    lzctl's usage error), and a row that holds one all the same (written
    to the database behind lz's back) never reaches the command;
  - two lz-hooks runs at once send each mail once.
"""

import email
import email.policy
import email.utils
import glob
import os
import re
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from test_dashboard_api import Browser  # noqa: E402

inst = None
owner = None
PW = "correct horse battery"
CONF = """signup = open
trusted_proxies = 127.0.0.1
mail_from = lz@links.test
"""
# The stand-in for sendmail -t: each message into a file of its own.
SENDMAIL = """#!/bin/sh
[ "$1" = "-t" ] && [ "$2" = "-i" ] || { echo "usage: $0 -t -i"; exit 64; }
cat > "%s/mail.$(date +%%s%%N).$$"
"""
FAILING = """#!/bin/sh
cat > /dev/null
echo "451 mailbox unavailable for now"
exit 1
"""
SLOW = """#!/bin/sh
sleep 1
cat > "%s/mail.$(date +%%s%%N).$$"
"""


def script(name, text):
    path = inst.path(name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def configure(command):
    """lz.conf with mail_command = command: lz-hooks reads it at each
    run (lz-links only needs it set, which it stays)."""
    inst.write_conf(CONF + "mail_command = %s\n" % command)


def setUpModule():
    global inst, owner
    inst = lzenv.Instance("mail")
    os.makedirs(inst.path("out"))
    configure(script("sendmail", SENDMAIL % inst.path("out")) + " -t -i")
    inst.start()
    owner = Browser(inst)
    assert owner.signup("boss@example.com", PW).status == 201


def tearDownModule():
    if inst is not None:
        inst.stop()


def run_hooks():
    """One run of lz-hooks, as cron would start it: its stderr."""
    p = subprocess.run([lzenv.prog("lz-hooks"), "-f", inst.conf],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or any(m in p.stderr
                                for m in lzenv.SANITIZER_MARKS):
        raise AssertionError("lz-hooks: %d %s" % (p.returncode, p.stderr))
    return p.stderr


def mails():
    """The messages received so far, oldest first, each taken away."""
    got = []
    for path in sorted(glob.glob(inst.path("out", "mail.*"))):
        with open(path, "rb") as f:
            got.append(email.message_from_bytes(
                f.read(), policy=email.policy.default))
        os.unlink(path)
    return got


def token_of(url):
    return url.rsplit("/", 1)[1]


class Mail(unittest.TestCase):

    def invite(self, who, role="member", browser=None):
        r = (browser or owner).req("POST", "/dashboard/api/members",
                                   {"email": who, "role": role})
        self.assertEqual(r.status, 201, r.body)
        return r.json()

    def outbox(self, rcpt):
        return self.rows("WHERE rcpt = '%s'" % rcpt)

    def rows(self, where):
        cols = ("id", "rcpt", "subject", "body_box", "state", "attempts",
                "next_at", "lease", "last_error", "finished_at",
                "expires_at")
        return [dict(zip(cols, r)) for r in inst.sql(
            "SELECT %s FROM mail_outbox %s ORDER BY id" %
            (", ".join(cols), where))]

    def assertNotStored(self, token):
        """No byte of the database (SQLite's file and WAL, PostgreSQL's
        dump) holds the token."""
        self.assertNotIn(token.encode(), inst.dump())

    def assertMessage(self, m, to, url, inviter, role):
        """A whole message of the invitation to `to` carrying url."""
        self.assertEqual(m["From"], "lz@links.test")
        self.assertEqual(m["To"], to)
        self.assertEqual(m["Subject"],
                         "Invitation to the account boss@example.com on lz")
        when = email.utils.parsedate_to_datetime(m["Date"])
        self.assertLess(abs(time.time() - when.timestamp()), 300)
        self.assertRegex(m["Message-ID"], r"^<lz\.\d+\.[0-9a-f]{16}"
                         r"@links\.test>$")
        self.assertEqual(m["MIME-Version"], "1.0")
        self.assertEqual(m.get_content_type(), "text/plain")
        self.assertEqual(m.get_content_charset(), "utf-8")
        self.assertEqual(m["Content-Transfer-Encoding"], "8bit")
        self.assertEqual(len(m.keys()), len(set(m.keys())))
        self.assertNotIn("Bcc", m)
        self.assertNotIn("Cc", m)
        text = m.get_content()
        self.assertIn("\n  account:     boss@example.com\n"
                      "  your role:   %s (" % role, text)
        self.assertIn("\n  invited by:  %s\n  for:         %s\n" %
                      (inviter, to), text)
        self.assertIn("until 20", text)
        urls = re.findall(r"https?://\S+", text)
        self.assertEqual(urls, [url])

    def accept(self, token):
        b = Browser(inst)
        r = b.req("POST", "/dashboard/api/invitation",
                  {"token": token, "password": PW})
        self.assertEqual(r.status, 200, r.body)
        return r.json()

    # ---- mailed ---------------------------------------------------------

    def test_1_dashboard(self):
        mails()
        j = self.invite("new@example.com")
        self.assertIs(j["mailed"], True)
        url, token = j["invitation_url"], token_of(j["invitation_url"])
        # Queued with the invitation, its text sealed.
        row, = self.outbox("new@example.com")
        self.assertEqual((row["state"], row["attempts"]), ("queued", 0))
        self.assertGreater(len(bytes(row["body_box"])), 100)
        self.assertNotStored(token)
        run_hooks()
        m, = mails()
        self.assertMessage(m, "new@example.com", url, "boss@example.com",
                           "member")
        row, = self.outbox("new@example.com")
        self.assertEqual((row["state"], row["attempts"], row["body_box"],
                          row["next_at"]), ("sent", 1, None, None))
        self.assertNotStored(token)
        # The URL mailed accepts the invitation.
        j = self.accept(token_of(re.findall(r"https?://\S+",
                                            m.get_content())[0]))
        self.assertEqual((j["role"], j["account"]["email"]),
                         ("member", "boss@example.com"))
        # Sent once.
        run_hooks()
        self.assertEqual(mails(), [])

    def test_2_lzctl(self):
        mails()
        rc, out, err = inst.ctl("member", "add", "boss@example.com",
                                "cli@example.com", "--role", "viewer")
        url = out.strip()
        self.assertIn("#invite/", url)
        self.assertIn("lz-hooks mails the invitation to cli@example.com",
                      err)
        self.assertNotStored(token_of(url))
        run_hooks()
        m, = mails()
        self.assertMessage(m, "cli@example.com", url, "an administrator",
                           "viewer")
        self.assertNotStored(token_of(url))
        self.assertEqual(self.accept(token_of(url))["role"], "viewer")
        # A member made with a password is not invited: nothing mailed.
        n = len(self.rows(""))
        inst.ctl("member", "add", "boss@example.com", "pw@example.com",
                 "--role", "member", "--password-stdin", input=PW + "\n")
        self.assertEqual(len(self.rows("")), n)

    # ---- failures ---------------------------------------------------------

    def test_3_retried_then_given_up(self):
        mails()
        configure(script("failing", FAILING))
        try:
            token = token_of(self.invite("later@example.com")[
                "invitation_url"])
            for attempt in range(1, 6):
                err = run_hooks()
                row, = self.outbox("later@example.com")
                self.assertEqual(row["attempts"], attempt)
                self.assertIn("exit status 1: 451 mailbox unavailable",
                              row["last_error"])
                if attempt < 5:
                    self.assertEqual(row["state"], "queued")
                    self.assertIsNotNone(row["body_box"])
                    self.assertIn("not sent", err)
                    # Not due before its time...
                    wait = row["next_at"] - int(time.time() * 1000)
                    self.assertGreater(wait, 50 * 1000)
                    run_hooks()
                    self.assertEqual(self.outbox("later@example.com")[0][
                        "attempts"], attempt)
                    # ...which the clock brings.
                    inst.sql("UPDATE mail_outbox SET next_at = 0 WHERE "
                             "rcpt = 'later@example.com'")
            self.assertEqual((row["state"], row["body_box"],
                              row["next_at"]), ("failed", None, None))
            self.assertIn("given up after 5 attempts", err)
            run_hooks()
            self.assertEqual(self.outbox("later@example.com")[0][
                "attempts"], 5)
            self.assertNotStored(token)
            # A command that asks for what it is not given fails the
            # same way (no shell: the words are its arguments).
            configure(inst.path("sendmail") + " -t")
            self.invite("words@example.com")
            run_hooks()
            row, = self.outbox("words@example.com")
            self.assertIn("exit status 64: usage:", row["last_error"])
        finally:
            configure(inst.path("sendmail") + " -t -i")
        self.assertEqual(mails(), [])
        # The next run sends it (the clock brought it).
        inst.sql("UPDATE mail_outbox SET next_at = 0 WHERE "
                 "rcpt = 'words@example.com'")
        run_hooks()
        m, = mails()
        self.assertEqual(m["To"], "words@example.com")

    def test_4_ended_and_purged(self):
        mails()
        token = token_of(self.invite("gone@example.com")["invitation_url"])
        inst.sql("UPDATE mail_outbox SET expires_at = 1 WHERE "
                 "rcpt = 'gone@example.com'")
        run_hooks()
        self.assertEqual(mails(), [])
        row, = self.outbox("gone@example.com")
        self.assertEqual((row["state"], row["body_box"]), ("failed", None))
        self.assertIn("the invitation ended", row["last_error"])
        self.assertNotStored(token)
        # Kept some days, then deleted.
        inst.sql("UPDATE mail_outbox SET finished_at = 1000 WHERE "
                 "rcpt = 'gone@example.com'")
        run_hooks()
        self.assertEqual(self.outbox("gone@example.com"), [])

    # ---- header injection -----------------------------------------------

    def test_5_header_injection(self):
        mails()
        n = len(self.rows(""))
        for bad in ("x@example.com\r\nBcc: victim@example.com",
                    "x@example.com\nBcc: victim@example.com",
                    "x@example.com\rBcc: victim@example.com",
                    "\"x\"@example.com", "x@example.com, victim@example.com",
                    "x\u0001@example.com", "<x@example.com>"):
            with self.subTest(email=bad):
                r = owner.req("POST", "/dashboard/api/members",
                              {"email": bad, "role": "viewer"})
                self.assertEqual(r.status, 400, r.body)
                self.assertEqual(r.json()["param"], "email")
                rc, _, _ = inst.ctl("member", "add", "boss@example.com", bad,
                                    "--role", "viewer", check=False)
                self.assertEqual(rc, 2)
        self.assertEqual(len(self.rows("")), n)
        # A row that holds one all the same, with a text sealed rightly
        # (written to the database behind lz's back): given up at once,
        # and never handed to the command.
        self.invite("fine@example.com")
        row, = self.outbox("fine@example.com")
        acct = inst.sql("SELECT id FROM accounts WHERE email = "
                        "'boss@example.com'")[0][0]
        now = int(time.time() * 1000)
        for rcpt, subject in (
                ("v@example.com\nBcc: victim@example.com", "Hello"),
                ("v@example.com", "Hello\r\nBcc: victim@example.com")):
            inst.execmany(
                "INSERT INTO mail_outbox (account_id, rcpt, subject, "
                "body_box, created_at, expires_at, next_at) VALUES "
                "(?, ?, ?, ?, ?, ?, ?)",
                [(acct, rcpt, subject, bytes(row["body_box"]), now,
                  now + 86400000, 0)])
        run_hooks()
        m, = mails()
        self.assertEqual(m["To"], "fine@example.com")
        self.assertNotIn("Bcc", m)
        bad = self.rows("WHERE rcpt LIKE 'v@example.com%'")
        self.assertEqual([(r["state"], r["attempts"], r["body_box"])
                          for r in bad], [("failed", 1, None)] * 2)
        self.assertEqual(bad[0]["last_error"],
                         "the recipient is not an address")
        self.assertEqual(bad[1]["last_error"],
                         "the subject is not one line of text")

    # ---- two runs at once -------------------------------------------------

    def test_6_runs_side_by_side(self):
        mails()
        configure(script("slow", SLOW % inst.path("out")))
        try:
            want = ["side%d@example.com" % i for i in range(4)]
            for who in want:
                self.invite(who, "viewer")
            runs = [threading.Thread(target=run_hooks) for _ in range(2)]
            for t in runs:
                t.start()
            for t in runs:
                t.join()
        finally:
            configure(inst.path("sendmail") + " -t -i")
        self.assertEqual(sorted(m["To"] for m in mails()), want)
        self.assertEqual({(r["state"], r["attempts"]) for r in self.rows(
            "WHERE rcpt LIKE 'side%'")}, {("sent", 1)})


if __name__ == "__main__":
    lzenv.main()
