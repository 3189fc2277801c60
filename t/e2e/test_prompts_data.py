#!/usr/bin/env python3
"""The prompt library's data: lzctl prompts import checks a file whole and
swaps the new database in atomically; running workers pick it up without
a restart and without a failed request; no data means 503."""

import copy
import json
import os
import shutil
import signal
import sqlite3
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from promptlib import API, SAMPLE, PromptsInstance  # noqa: E402


def load_sample():
    with open(SAMPLE, encoding="utf-8") as f:
        return json.load(f)


class Data(unittest.TestCase):

    def setUp(self):
        self.inst = PromptsInstance("prompts-data", data=None)
        self.sample = load_sample()

    def tearDown(self):
        self.inst.stop()

    def write(self, name, data):
        path = self.inst.path(name)
        with open(path, "w", encoding="utf-8") as f:
            if isinstance(data, str):
                f.write(data)
            else:
                json.dump(data, f, ensure_ascii=False)
        return path

    def db_inode(self):
        return os.stat(self.inst.path("data", "prompts.db")).st_ino

    # -- no data: 503 --------------------------------------------------------

    def test_unavailable_until_imported(self):
        self.inst.start()
        pids = sorted(self.inst.worker_pids("lz-prompts"))
        for path in ("/prompts", "/prompts/window-light-cat-portrait",
                     "/tags", "/tutorials", "/keywords/bokeh"):
            r = self.inst.get(API + path)
            self.assertEqual(r.status, 503, path)
            self.assertEqual(r.json()["error"], "data_unavailable")
            self.assertGreaterEqual(int(r.header("Retry-After")), 1)
        # The document needs no data.
        self.assertEqual(self.inst.get(API + "/openapi.json").status, 200)
        # Parameters are still checked first? No: the data decides, but
        # the rate limit counts every request.
        self.inst.ctl("prompts", "import", SAMPLE)
        self.assertEqual(self.inst.get(API + "/prompts").status, 200)
        self.assertEqual(sorted(self.inst.worker_pids("lz-prompts")), pids)

    def test_database_removed_and_broken(self):
        self.inst.ctl("prompts", "import", SAMPLE)
        self.inst.start()
        db = self.inst.path("data", "prompts.db")
        self.assertEqual(self.inst.get(API + "/prompts").status, 200)
        # A file moved by hand (not by lzctl, which tells the workers
        # through the import counter) is noticed within a second.
        os.rename(db, db + ".away")
        lzenv.wait_for(lambda: self.inst.get(API + "/prompts").status ==
                       503, timeout=3, what="503 after the move")
        # One worker noticed; each notices at its own tick, once a
        # second (a loaded machine showed a 200 from one that had not).
        time.sleep(1.2)
        self.assertEqual(self.inst.get(API + "/prompts").status, 503)
        # Not a database: still unavailable, and the pool keeps running.
        with open(db, "wb") as f:
            f.write(b"this is not a database" * 100)
        time.sleep(1.2)
        for _ in range(4):
            self.assertEqual(self.inst.get(API + "/tags").status, 503)
        os.rename(db + ".away", db)
        lzenv.wait_for(lambda: self.inst.get(API + "/tags").status == 200,
                       timeout=3, what="200 after the move back")
        time.sleep(1.2)                 # every worker's tick, as above
        self.assertEqual(self.inst.get(API + "/tags").status, 200)
        self.assertIn("is not a database", self.inst.log("lz-prompts"))

    def test_database_of_another_schema(self):
        """A database an older lzctl made is unavailable until the data is
        imported again (nothing migrates it), and the log says so."""
        self.inst.ctl("prompts", "import", SAMPLE)
        db = self.inst.path("data", "prompts.db")
        old = db + ".old"
        shutil.copy(db, old)
        con = sqlite3.connect(old)
        con.execute("PRAGMA user_version = 1")
        con.commit()
        con.close()
        os.rename(old, db)
        self.inst.start()
        self.assertEqual(self.inst.get(API + "/tags").status, 503)
        log = self.inst.log("lz-prompts")
        self.assertIn("(schema 1, this program's", log)
        self.assertIn("import the data again", log)
        self.inst.ctl("prompts", "import", SAMPLE)
        self.assertEqual(self.inst.get(API + "/tags").status, 200)

    def test_detail_url_follows_the_configuration(self):
        """Details are stored by the import without their url, which the
        worker adds from prompts_base_url: a new base URL needs a reload,
        not a new import."""
        self.inst.ctl("prompts", "import", SAMPLE)
        self.inst.start()
        slug = self.sample["prompts"][1]["slug"]
        path = API + "/prompts/" + slug
        before = {lang: self.inst.get(path + "?lang=" + lang)
                  for lang in ("zh", "en")}
        self.assertEqual(before["zh"].json()["prompt"]["url"],
                         "http://127.0.0.1:8081/prompts/" + slug)
        ino = self.db_inode()
        old = self.inst.worker_pids("lz-prompts")
        self.inst.write_conf("trusted_proxies = 127.0.0.1\n"
                             "prompts_base_url = https://p.example\n")
        self.inst.procs["lz-prompts"].send_signal(signal.SIGHUP)
        lzenv.wait_for(lambda: (len(self.inst.worker_pids("lz-prompts"))
                                == 2 and not set(old) &
                                set(self.inst.worker_pids("lz-prompts"))),
                       what="new workers after the reload")
        for lang, prefix in (("zh", "https://p.example/prompts/"),
                             ("en", "https://p.example/en/prompts/")):
            r = self.inst.get(path + "?lang=" + lang)
            want = before[lang].json()
            want["prompt"]["url"] = prefix + slug
            self.assertEqual(r.json(), want)
            self.assertNotEqual(r.header("ETag"),
                                before[lang].header("ETag"))
        self.assertEqual(self.db_inode(), ino)

    # -- the importer's checks ---------------------------------------------

    def test_import_rejects_bad_files_and_keeps_the_old(self):
        self.inst.ctl("prompts", "import", SAMPLE)
        self.inst.start()
        ino = self.db_inode()
        before = self.inst.ok(API + "/prompts")["count"]

        def bad(change, *expect):
            d = copy.deepcopy(self.sample)
            change(d)
            path = self.write("bad.json", d)
            rc, out, err = self.inst.ctl("prompts", "import", path,
                                         check=False)
            self.assertEqual(rc, 1, err)
            for e in expect:
                self.assertIn(e, err)
            self.assertIn("nothing imported", err)
            return err

        p0 = "prompts[0] (window-light-cat-portrait)"
        bad(lambda d: d.update(extra=1), "Unknown field 'extra'")
        bad(lambda d: d.update(format="lz-prompts/9"), "format")
        bad(lambda d: d["prompts"][1].update(slug=d["prompts"][0]["slug"]),
            "prompts: 'window-light-cat-portrait' is used by two entries")
        bad(lambda d: d["prompts"][0].update(tool="mj"),
            p0 + ": no tool has the key 'mj'")
        bad(lambda d: d["prompts"][0].update(tags=["nope"]),
            "no tag has the slug 'nope'")
        bad(lambda d: d["prompts"][0].update(category="photo"),
            "'category' must be one of image, video, music, tutorial")
        bad(lambda d: d["prompts"][0].update(title="a\u0007b"),
            "control characters")
        bad(lambda d: d["prompts"][0].update(title="x" * 201),
            "longer than 200 characters")
        bad(lambda d: d["prompts"][0].update(updated_at="2026-13-01"),
            "'updated_at' must be an ISO 8601 time")
        bad(lambda d: d["prompts"][0].update(status="scheduled"),
            "a scheduled prompt needs 'publish_at'")
        bad(lambda d: d["prompts"][0].update(rating={"avg": 6, "count": 1}),
            "'avg' must be from 1 to 5")
        bad(lambda d: d["prompts"][0].update(is_pro="yes"),
            "'prompts[0].is_pro' must be a boolean")
        bad(lambda d: d["prompts"][0]["variables"].append(
            dict(d["prompts"][0]["variables"][0])), "given twice")
        bad(lambda d: d["tags"][1].update(aliases=["Headshot"]),
            "the name 'headshot' stands for both")
        bad(lambda d: d["tools"][1]["aliases"].append("MJ"),
            "the name 'mj' stands for both")
        bad(lambda d: d["models"][0].update(source_url="ftp://x"),
            "must be an http or https URL")
        bad(lambda d: d["models"][0].update(verified_on=None),
            "a verified model needs 'verified_on'")
        bad(lambda d: d["models"][0].update(checked_on="2026-02-30"),
            "'checked_on' must be a date")
        bad(lambda d: d["collections"][0]["items"].append(
            {"prompt": "nope", "note": ""}), "no prompt has the slug 'nope'")
        bad(lambda d: d["integrations"][0].update(tool_key="nope"),
            "'tool_key' must be a tool key or alias")
        bad(lambda d: d["keywords"][0].update(related=["bokeh"]),
            "is not another keyword")
        bad(lambda d: d["keywords"][0].update(category="Camera"),
            "'category' must be one of technique")
        # A collection dropped for its slug, then a shorter one: its slot
        # once kept the first one's item count (lzctl wrote past the
        # second one's items and crashed).
        bad(lambda d: (d["collections"][0].update(slug="Not A Slug"),
                       d["collections"][1].update(
                           status="published",
                           items=d["collections"][1]["items"][:1])),
            "collections[0]: 'slug' must be")
        # Several problems: all reported in one run.
        err = bad(lambda d: (d["prompts"][0].update(tool="x"),
                             d["prompts"][3].update(difficulty="easy")),
                  "no tool has the key 'x'", "'difficulty' must be one of")
        self.assertIn("2 errors", err)
        # Not JSON at all, and duplicate keys.
        path = self.write("bad.json", "{\"format\": ")
        rc, _, err = self.inst.ctl("prompts", "import", path, check=False)
        self.assertEqual(rc, 1)
        path = self.write("bad.json", '{"format": "a", "format": "b"}')
        rc, _, err = self.inst.ctl("prompts", "import", path, check=False)
        self.assertEqual(rc, 1)
        self.assertIn("duplicate", err)
        rc, _, err = self.inst.ctl("prompts", "import", "/nonexistent.json",
                                   check=False)
        self.assertEqual(rc, 1)
        # Nothing changed, nothing left behind.
        self.assertEqual(self.db_inode(), ino)
        self.assertEqual(self.inst.ok(API + "/prompts")["count"], before)
        self.assertEqual([f for f in os.listdir(self.inst.path("data"))
                          if ".new-" in f], [])

    def test_dry_run(self):
        rc, out, err = self.inst.ctl("prompts", "import", "-n", SAMPLE)
        self.assertEqual(rc, 0, err)
        self.assertIn("ok:", out)
        self.assertFalse(os.path.exists(self.inst.path("data", "prompts.db")))
        rc, _, _ = self.inst.ctl("prompts", "import", check=False)
        self.assertEqual(rc, 2)
        rc, _, _ = self.inst.ctl("prompts", "frobnicate", check=False)
        self.assertEqual(rc, 2)

    # -- the swap ----------------------------------------------------------

    def variant(self, n):
        """The sample with a marker prompt and changed titles."""
        d = copy.deepcopy(self.sample)
        p = dict(d["prompts"][0])
        p.update(slug="swap-marker-%d" % n, title="交換標記 %d" % n,
                 rank=1000000)
        d["prompts"].append(p)
        d["prompts"][1]["title"] = "第 %d 版標題" % n
        return self.write("variant-%d.json" % n, d)

    def test_swap_under_load_without_failures(self):
        self.inst.ctl("prompts", "import", SAMPLE)
        self.inst.start()
        pids = sorted(self.inst.worker_pids("lz-prompts"))
        files = [self.variant(n) for n in range(1, 5)]
        stop = threading.Event()
        results, lock = [], threading.Lock()
        paths = [API + "/prompts?limit=5", API + "/prompts?q=" +
                 "%E5%A4%9C%E5%B8%82", API + "/prompts/" +
                 self.sample["prompts"][1]["slug"], API + "/tags",
                 API + "/collections/starter-kit", API + "/tools"]

        def hammer(k):
            i = 0
            while not stop.is_set():
                r = self.inst.get(paths[(i + k) % len(paths)])
                with lock:
                    results.append(r.status)
                i += 1
        threads = [threading.Thread(target=hammer, args=(k,))
                   for k in range(8)]
        for t in threads:
            t.start()
        try:
            time.sleep(0.3)
            for n, path in enumerate(files, 1):
                self.inst.ctl("prompts", "import", path)
                # The next request, on any worker, sees the new data.
                for _ in range(6):
                    j = self.inst.ok(API + "/prompts?limit=1")
                    self.assertEqual(j["prompts"][0]["slug"],
                                     "swap-marker-%d" % n)
                time.sleep(0.3)
        finally:
            stop.set()
            for t in threads:
                t.join(30)
        self.assertGreater(len(results), 100)
        failed = [s for s in results if s != 200]
        self.assertEqual(failed, [], "%d of %d requests failed" %
                         (len(failed), len(results)))
        self.assertEqual(sorted(self.inst.worker_pids("lz-prompts")), pids)
        j = self.inst.ok(API + "/prompts/" + self.sample["prompts"][1]["slug"])
        self.assertEqual(j["prompt"]["title"], "第 4 版標題")
        self.assertEqual(self.inst.get(API + "/prompts/swap-marker-1").status,
                         404)
        # What told the workers: the import counter beside the database.
        with open(self.inst.path("data", "prompts.db.gen"), "rb") as f:
            self.assertEqual(int.from_bytes(f.read(), "little"), 5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
