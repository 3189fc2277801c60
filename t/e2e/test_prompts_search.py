#!/usr/bin/env python3
"""Literal search on a generated library (bench/gen-prompts, a few thousand
prompts with the benchmark's skewed vocabulary): hundreds of queries --
substrings of every length of the prompts' own text, strings that join
two fields or two distant words, every filter and order -- each checked
against a substring scan of the data file: count, order and pages."""

import os
import random
import subprocess
import sys
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from promptlib import API, Data, PromptsInstance, walk  # noqa: E402

PROMPTS = 2500
SORTS = ("recommended", "updated", "rating")


class Search(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.inst = PromptsInstance("prompts-search", data=None)
        try:
            path = cls.inst.path("generated.json")
            subprocess.run([sys.executable, os.path.join(
                lzenv.SRCDIR, "bench", "gen-prompts"), "-n", str(PROMPTS),
                "-s", "11", "-o", path], check=True)
            cls.inst.ctl("prompts", "import", path)
            cls.data = Data(path)
            cls.inst.start()
        except Exception:
            cls.inst.stop()
            raise
        cls.rnd = random.Random(11)
        cls.visible = cls.data.visible_prompts()

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def query(self, q, sort="recommended", limit=50, offset=0, **kw):
        args = {"q": q, "sort": sort, "limit": limit, "offset": offset}
        args.update(kw)
        return self.inst.ok(API + "/prompts?" + urllib.parse.urlencode(args))

    def expect(self, q, sort="recommended", **kw):
        want = dict(kw)
        if "free" in want:
            want["free"] = want["free"] == 1
        return [p["slug"] for p in self.data.expect(q=q, sort=sort, **want)]

    def check(self, q, sort="recommended", **kw):
        """count, the first page and the last page of q."""
        want = self.expect(q, sort, **kw)
        j = self.query(q, sort, **kw)
        msg = "q=%r sort=%s %r" % (q, sort, kw)
        self.assertEqual(j["count"], len(want), msg)
        self.assertEqual([p["slug"] for p in j["prompts"]], want[:50], msg)
        if len(want) > 50:
            last = (len(want) - 1) // 50 * 50
            j = self.query(q, sort, offset=last, **kw)
            self.assertEqual([p["slug"] for p in j["prompts"]],
                             want[last:], msg)
            self.assertIsNone(j["next_offset"], msg)
        return len(want)

    def pick_text(self):
        """A line of a field of a visible prompt (queries hold no
        control characters)."""
        p = self.rnd.choice(self.visible)
        return self.rnd.choice(self.rnd.choice(
            self.data.searchable(p)).split("\n"))

    def substring(self, n):
        while True:
            text = self.pick_text()
            if len(text) >= n:
                i = self.rnd.randrange(len(text) - n + 1)
                return text[i:i + n]

    # -- the tests ------------------------------------------------------------

    def test_substrings_of_every_length(self):
        """Pieces of the prompts' own text, 1 to 60 characters, in
        every order: common and rare, found in one prompt or in most."""
        found = 0
        for n in list(range(1, 13)) * 6 + [16, 20, 25, 30, 40, 60] * 3:
            q = self.substring(n)
            found += self.check(q, self.rnd.choice(SORTS)) > 0
        self.assertGreater(found, 80)

    def test_case_is_folded(self):
        for _ in range(20):
            q = self.substring(self.rnd.randrange(3, 12))
            self.check(q.upper())
            self.check(q.swapcase(), "rating")

    def test_near_misses(self):
        """Strings whose every trigram is common but which are not in the
        text -- two pieces of different prompts or fields joined, a piece
        with one character changed -- are not found unless a prompt does
        hold them."""
        zero = 0
        for _ in range(60):
            a = self.substring(self.rnd.randrange(3, 7))
            b = self.substring(self.rnd.randrange(3, 7))
            zero += self.check(a + b) == 0
        for _ in range(30):
            q = list(self.substring(self.rnd.randrange(5, 12)))
            i = self.rnd.randrange(len(q))
            q[i] = self.rnd.choice("aeiou 的貓光")
            self.check("".join(q))
        self.assertGreater(zero, 10)

    def test_never_across_fields(self):
        """The end of one field and the start of the next are not one
        string, though both are in the prompt."""
        checked = 0
        for p in self.rnd.sample(self.visible, 40):
            f = self.data.searchable(p)
            if len(f) < 2 or len(f[0]) < 3 or len(f[1]) < 3:
                continue
            if "\n" in f[0][-3:] + f[1][:3]:
                continue
            q = f[0][-3:] + f[1][:3]
            n = self.check(q)
            if not any(q.lower() in x.lower() for x in f):
                checked += 1
                j = self.query(q, limit=50)
                self.assertNotIn(p["slug"], [x["slug"] for x in
                                             j["prompts"]], q)
            self.assertLessEqual(n, len(self.visible))
        self.assertGreater(checked, 20)

    def test_filters_and_orders_combined(self):
        tools = sorted(self.data.tools)
        tags = sorted(self.data.tags)
        for _ in range(60):
            kw = {}
            if self.rnd.random() < 0.5:
                kw["category"] = self.rnd.choice(
                    ["image", "video", "music", "tutorial"])
            if self.rnd.random() < 0.3:
                kw["tool"] = self.rnd.choice(tools)
            if self.rnd.random() < 0.4:
                kw["free"] = 1
            if self.rnd.random() < 0.3:
                kw["tag"] = self.rnd.choice(tags)
            q = self.substring(self.rnd.randrange(1, 10))
            self.check(q, self.rnd.choice(SORTS), **kw)

    def test_tag_lists_without_query(self):
        for tag in self.rnd.sample(sorted(self.data.tags), 10):
            sort = self.rnd.choice(SORTS)
            want = [p["slug"] for p in self.data.expect(tag=tag, sort=sort)]
            got = [p["slug"] for page in walk(
                self.inst, API + "/prompts?tag=%s&sort=%s" % (tag, sort),
                "prompts", limit=50) for p in page["prompts"]]
            self.assertEqual(got, want, tag)

    def test_long_queries(self):
        """Whole fields, and 500 characters that repeat a piece."""
        for _ in range(10):
            text = self.pick_text()
            self.assertGreater(self.check(text[:500]), 0, text)
        piece = self.substring(5)
        self.check((piece * 100)[:500])
        self.check("貓" * 500)

    def test_every_page_of_a_common_term(self):
        q = self.substring(2)
        for sort in SORTS:
            want = self.expect(q, sort)
            got = [p["slug"] for page in walk(
                self.inst, API + "/prompts?" + urllib.parse.urlencode(
                    {"q": q, "sort": sort}), "prompts", limit=50)
                for p in page["prompts"]]
            self.assertEqual(got, want, (q, sort))


if __name__ == "__main__":
    unittest.main(verbosity=2)
