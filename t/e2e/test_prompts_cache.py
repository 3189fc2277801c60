#!/usr/bin/env python3
"""The answer cache of lz-prompts (lz-prompts(8), "Answer cache").

- Cached and uncached answers are byte-identical, with the same ETag and
  304s, for every endpoint over a sweep of parameters: an instance with
  the cache answers each URL several times (rendered, then kept) and an
  instance with prompts_cache_bytes = 0 answers it once (errors
  differ only in their request_id).
- An import under load: once "lzctl prompts import" has returned, no
  request that starts after it is answered from the old data.
- Rate limits stay exact when the answers are cached.
"""

import json
import os
import re
import sys
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from promptlib import API, SAMPLE, PromptsInstance, fresh_ip  # noqa: E402

with open(SAMPLE, encoding="utf-8") as _f:
    DATA = json.load(_f)


def q(s):
    return urllib.parse.quote(s, safe="=&")


def sweep():
    """URL paths over every endpoint and a sweep of their parameters."""
    tag = DATA["tags"][0]
    tool = DATA["tools"][0]["key"]
    coll = DATA["collections"][0]["slug"]
    tut = DATA["tutorials"][0]["slug"]
    kw = DATA["keywords"][0]
    title = DATA["prompts"][0]["title"]
    lists = {
        "prompts": ["", "lang=en", "lang=zh", "limit=20&lang=zh",
                    "lang=zh&limit=20", "sort=updated", "sort=rating&free=1",
                    "free=0", "category=image", "category=video&limit=5"
                    "&offset=2", "q=" + title[:3], "q=cat", "q=portrait&lang"
                    "=en", "tag=" + tag["slug"], "tag=" + tag["label"],
                    "tool=" + tool, "tag=no-such-topic", "q=貓&tag=" +
                    tag["slug"] + "&sort=updated", "offset=100000",
                    "tool=no-such-tool", "limit=0"],
        "tags": ["", "lang=en", "q=a", "min_count=2", "limit=5&offset=3",
                 "min_count=1&limit=20"],
        "collections": ["", "lang=en", "limit=1&offset=1"],
        "collections/" + coll: ["", "lang=en", "limit=2&offset=1"],
        "collections/no-such-collection": [""],
        "models": ["", "lang=en", "q=gpt", "category=" +
                   DATA["models"][0]["category"]],
        "tools": ["", "lang=zh", "lang=en", "category=image", "q=mid"],
        "integrations": ["", "x=1"],
        "changelog": ["", "days=7", "days=365&limit=5"],
        "tutorials": ["", "q=" + DATA["tutorials"][0]["title"][:2],
                      "limit=1&offset=1"],
        "tutorials/" + tut: [""],
        "keywords": ["", "category=" + kw["category"], "q=" +
                     kw["term"][:2], "limit=3"],
        "keywords/" + kw["slug"]: [""],
        "prompts/" + DATA["prompts"][0]["slug"]: ["", "lang=en"],
    }
    out = []
    for path, qs in lists.items():
        for s in qs:
            out.append(API + "/" + path + ("?" + q(s) if s else ""))
    return out


def bare(r):
    """An error body without its request_id."""
    j = r.json()
    j.pop("request_id")
    return j


def cache_figures(log):
    """(hits, lookups) summed over the workers' last log lines."""
    last = {}
    for line in log.splitlines():
        m = re.search(r"\[(\d+)\].*answer cache: (\d+) hits of (\d+) "
                      r"lookups", line)
        if m:
            last[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return (sum(h for h, _ in last.values()),
            sum(n for _, n in last.values()))


class SameAnswers(unittest.TestCase):
    """Every answer the same with and without the cache."""

    def test_sweep(self):
        cached = PromptsInstance("prompts-cached")
        plain = PromptsInstance("prompts-plain",
                                extra_conf="prompts_cache_bytes = 0\n")
        urls = sweep()
        try:
            cached.start()
            plain.start()
            for url in urls:
                want = plain.get(url)
                self.assertLess(want.status, 500, url)
                # Four times, so that each of the two workers renders
                # it once and answers it from its cache at least once.
                for _ in range(4):
                    got = cached.get(url)
                    self.assertEqual(got.status, want.status, url)
                    if want.status == 200:
                        self.assertEqual(got.body, want.body, url)
                    else:	# errors name their request
                        self.assertEqual(bare(got), bare(want), url)
                    for h in ("etag", "cache-control", "content-type"):
                        self.assertEqual(got.header(h), want.header(h),
                                         (url, h))
                etag = want.header("etag")
                if want.status == 200:
                    self.assertIsNotNone(etag, url)
                    for _ in range(2):
                        r = cached.get(url, headers={"If-None-Match": etag})
                        self.assertEqual((r.status, r.body), (304, b""),
                                         url)
                        self.assertEqual(r.header("etag"), etag, url)
                    r = cached.get(url, headers={"If-None-Match": '"x"'})
                    self.assertEqual(r.status, 200, url)
                    self.assertEqual(r.body, want.body, url)
            # Parameters in another order and defaults spelt out: one
            # answer.
            a = cached.get(API + "/prompts?lang=zh&limit=20").body
            self.assertEqual(a, cached.get(API + "/prompts").body)
            self.assertEqual(a, cached.get(API + "/prompts?limit=20&"
                                           "sort=recommended").body)
        finally:
            cached.stop()
            plain.stop()
        hits, lookups = cache_figures(cached.saved_logs.get("lz-prompts",
                                                            ""))
        # Each kept URL went to the workers 7 times or more: most were
        # hits (the ones that can be kept: not the changelog, errors or
        # a prompt's detail).
        self.assertGreater(hits, 2 * len(urls), (hits, lookups))
        self.assertEqual(cache_figures(plain.saved_logs.get("lz-prompts",
                                                            ""))[0], 0)


class ImportUnderLoad(unittest.TestCase):
    """No answer from the old data once the import has returned."""

    def test_no_stale_answer(self):
        inst = PromptsInstance("prompts-swap", workers=4)
        # The new data: one more published prompt, so every count, the
        # tag's and tool's counts and a search of its title change.
        new = json.loads(json.dumps(DATA))
        p = dict(new["prompts"][0])
        p["slug"] = "added-by-the-second-import"
        new["prompts"].append(p)
        path = inst.path("new.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(new, f, ensure_ascii=False)
        urls = [API + "/prompts", API + "/prompts?lang=en&limit=5",
                API + "/prompts?q=" + q(p["title"][:4]),
                API + "/prompts?tag=" + p["tags"][0],
                API + "/tags?limit=50", API + "/tools?lang=en"]
        seen, lock = [], threading.Lock()
        stop = threading.Event()
        deadline = time.monotonic() + 30

        def load():
            i = 0
            while not stop.is_set() and time.monotonic() < deadline:
                url = urls[i % len(urls)]
                i += 1
                t0 = time.monotonic()
                r = inst.get(url)
                with lock:
                    seen.append((t0, url, r.status, r.body))
        try:
            inst.start()
            old = {u: inst.ok(u) for u in urls}
            threads = [threading.Thread(target=load) for _ in range(6)]
            for t in threads:
                t.start()
            time.sleep(1.0)
            inst.ctl("prompts", "import", path)
            done = time.monotonic()
            time.sleep(1.5)
            stop.set()
            for t in threads:
                t.join(30)
            new_bodies = {u: inst.get(u).body for u in urls}
        finally:
            stop.set()
            inst.stop()
        for u in urls:
            self.assertNotEqual(json.loads(new_bodies[u]), old[u], u)
        before = [s for s in seen if s[0] < done]
        after = [s for s in seen if s[0] > done]
        self.assertGreater(len(before), 20)
        self.assertGreater(len(after), 20)
        self.assertTrue(all(s[2] == 200 for s in seen),
                        [s[:3] for s in seen if s[2] != 200][:5])
        stale = [(round(t0 - done, 4), u) for t0, u, _, body in after
                 if body != new_bodies[u]]
        self.assertEqual(stale, [])
        # And the answers were being served from the cache meanwhile.
        hits, _ = cache_figures(inst.saved_logs.get("lz-prompts", ""))
        self.assertGreater(hits, len(seen) // 2)


class LimitsWithCache(unittest.TestCase):
    """The limit is taken before the cache: still exactly the quota."""

    def test_exact(self):
        inst = PromptsInstance("prompts-cache-rl", workers=4)
        try:
            inst.start()
            for url, quota in ((API + "/tags?limit=10", 30),
                               (API + "/collections/" +
                                DATA["collections"][0]["slug"], 60)):
                for _ in range(8):	# rendered and kept by each worker
                    inst.ok(url)
                ip = fresh_ip()
                out = lzenv.burst(lambda: inst.get(url, ip=ip), quota + 10)
                st = [r.status for r in out]
                self.assertEqual(st.count(200), quota, (url, st))
                self.assertEqual(st.count(429), 10, (url, st))
                bodies = {r.body for r in out if r.status == 200}
                self.assertEqual(len(bodies), 1)
                # Another address is not limited.
                self.assertEqual(inst.get(url).status, 200)
        finally:
            inst.stop()


if __name__ == "__main__":
    lzenv.main()
