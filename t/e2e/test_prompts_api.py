#!/usr/bin/env python3
"""The prompt library API end to end: every endpoint and parameter of spec
section 4 through real nginx, against the sample data (data/prompts.json)."""

import json
import os
import sys
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from promptlib import API, Data, PromptsInstance, walk  # noqa: E402

q = urllib.parse.quote


class PromptsAPI(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.data = Data()
        cls.inst = PromptsInstance("prompts-api")
        try:
            cls.inst.start()
        except Exception:
            cls.inst.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def ok(self, path, **kw):
        return self.inst.ok(path, **kw)

    def err(self, path, status=400, code=None, param=None):
        r = self.inst.get(path)
        self.assertEqual(r.status, status, "%s: %r" % (path, r.body))
        j = r.json()
        self.assertIs(j["ok"], False)
        self.assertEqual(j["request_id"], r.header("X-Request-Id"))
        self.assertTrue(j["message"])
        if code:
            self.assertEqual(j["error"], code, path)
        if param:
            self.assertEqual(j.get("param"), param, path)
        self.assertEqual(r.header("Cache-Control"), "no-store")
        self.assertEqual(r.header("Content-Type"),
                         "application/json; charset=utf-8")
        return j

    def slugs(self, path):
        return [p["slug"] for page in walk(self.inst, path, "prompts")
                for p in page["prompts"]]

    # -- /prompts ---------------------------------------------------------

    def test_list_default(self):
        j = self.ok(API + "/prompts")
        want = self.data.expect()
        self.assertEqual(j["count"], len(want))
        self.assertEqual((j["limit"], j["offset"], j["next_offset"]),
                         (20, 0, 20))
        self.assertEqual(j["sort"], "recommended")
        self.assertIsNone(j["tag"])
        self.assertEqual([p["slug"] for p in j["prompts"]],
                         [p["slug"] for p in want[:20]])
        first, src = j["prompts"][0], want[0]
        self.assertEqual(first, {
            "slug": src["slug"], "title": src["title"],
            "summary": src["summary"], "tool": src["tool"],
            "category": src["category"], "tags": src["tags"],
            "is_pro": src["is_pro"], "difficulty": src["difficulty"],
            "url": "http://127.0.0.1:8081/prompts/" + src["slug"]})

    def test_paging_walk_every_order(self):
        """Pages in every order visit each published prompt once, in
        exactly the order the spec's rules give."""
        for sort in ("recommended", "updated", "rating"):
            got = self.slugs(API + "/prompts?sort=" + sort)
            want = [p["slug"] for p in self.data.expect(sort=sort)]
            self.assertEqual(got, want, sort)
            self.assertEqual(len(set(got)), len(got))

    def test_paging_walk_filtered(self):
        for path, kw in (("tag=portrait", {"tag": "portrait"}),
                         ("q=" + q("光"), {"q": "光"}),
                         ("category=video&free=1",
                          {"category": "video", "free": True}),
                         ("tool=runway&sort=rating",
                          {"tool": "runway", "sort": "rating"})):
            got = self.slugs(API + "/prompts?" + path)
            want = [p["slug"] for p in self.data.expect(**kw)]
            self.assertTrue(want, path)
            self.assertEqual(got, want, path)

    def test_count_is_before_paging(self):
        want = self.data.expect(category="image")
        j = self.ok(API + "/prompts?category=image&limit=3&offset=5")
        self.assertEqual(j["count"], len(want))
        self.assertEqual([p["slug"] for p in j["prompts"]],
                         [p["slug"] for p in want[5:8]])
        j = self.ok(API + "/prompts?category=image&offset=100000")
        self.assertEqual((j["count"], j["prompts"], j["next_offset"]),
                         (len(want), [], None))
        j = self.ok(API + "/prompts?offset=9007199254740991")
        self.assertEqual(j["prompts"], [])

    def test_filters_each_and_combined(self):
        d = self.data
        for cat in ("image", "video", "music", "tutorial"):
            j = self.ok(API + "/prompts?category=" + cat + "&limit=50")
            self.assertEqual(j["count"], len(d.expect(category=cat)), cat)
            self.assertTrue(all(p["category"] == cat for p in j["prompts"]))
        j = self.ok(API + "/prompts?free=1&limit=50")
        self.assertEqual(j["count"], len(d.expect(free=True)))
        self.assertFalse(any(p["is_pro"] for p in j["prompts"]))
        j = self.ok(API + "/prompts?free=0")
        self.assertEqual(j["count"], len(d.expect()))
        j = self.ok(API + "/prompts?q=portrait&category=image&free=1"
                    "&tool=midjourney&tag=photography&sort=updated")
        want = d.expect(q="portrait", category="image", free=True,
                        tool="midjourney", tag="photography", sort="updated")
        self.assertEqual([p["slug"] for p in j["prompts"]],
                         [p["slug"] for p in want])
        self.assertEqual(j["tag"], "photography")
        self.assertEqual(j["sort"], "updated")

    def test_tag_names_and_aliases(self):
        """A tag filter takes the slug, labels in both languages and
        aliases, in any case and spacing; all mean the same topic."""
        want = [p["slug"] for p in self.data.expect(tag="product")]
        for name in self.data.tag_names("product") + [
                "PRODUCT", "Product  Photography", "product_shot"]:
            if not name:
                continue
            j = self.ok(API + "/prompts?limit=50&tag=" + q(name))
            self.assertEqual(j["tag"], "product", name)
            self.assertEqual([p["slug"] for p in j["prompts"]], want, name)

    def test_tag_unknown_and_invalid(self):
        j = self.ok(API + "/prompts?tag=" + q("no such topic"))
        self.assertEqual((j["count"], j["prompts"]), (0, []))
        self.assertEqual(j["tag"], "no-such-topic")
        for bad in ("", "a/b", "50%", "<script>", "x?y", "   "):
            self.err(API + "/prompts?tag=" + q(bad), 400,
                     "invalid_parameter", "tag")
        self.err(API + "/prompts?tag=" + "a" * 201, 400,
                 "invalid_parameter", "tag")

    def test_tool_keys_aliases_and_integration_keys(self):
        for key in self.data.tools:
            want = [p["slug"] for p in self.data.expect(tool=key)]
            for name in self.data.tool_names(key) + [key.upper()]:
                j = self.ok(API + "/prompts?limit=50&tool=" + q(name))
                self.assertEqual(j["count"], len(want), name)
                self.assertEqual([p["slug"] for p in j["prompts"]],
                                 want[:50], name)
        for integ in self.data.raw["integrations"]:
            self.ok(API + "/prompts?tool=" + q(integ["tool_key"]))
        for bad in ("nope", "midjourney v6", "mj%", "a" * 101):
            self.err(API + "/prompts?tool=" + q(bad), 400, None, "tool")
        self.err(API + "/prompts?tool=nope", 400, "unsupported_tool",
                 "tool")

    def test_parameter_errors(self):
        cases = [
            ("limit=0", "limit"), ("limit=51", "limit"),
            ("limit=abc", "limit"), ("limit=", "limit"),
            ("limit=05", "limit"), ("limit=1.5", "limit"),
            ("offset=-1", "offset"), ("offset=9007199254740992", "offset"),
            ("offset=x", "offset"), ("offset=+1", "offset"),
            ("sort=best", "sort"), ("sort=", "sort"),
            ("free=2", "free"), ("free=true", "free"), ("free=", "free"),
            ("category=photo", "category"), ("lang=fr", "lang"),
            ("lang=", "lang"), ("q=", "q"), ("q=" + "a" * 501, "q"),
            ("page=2", "page"), ("Limit=5", "Limit"),
        ]
        for query, param in cases:
            self.err(API + "/prompts?" + query, 400, None, param)
        self.err(API + "/prompts?limit=5&limit=6", 400,
                 "duplicate_parameter", "limit")
        self.err(API + "/prompts?x=1", 400, "unknown_parameter", "x")
        self.err(API + "/prompts?q=%ZZ", 400, "invalid_query")
        self.err(API + "/prompts?q=a%00b", 400, "invalid_query", "q")
        self.err(API + "/prompts?q=%0a", 400, "invalid_query", "q")
        self.err(API + "/prompts?q=%C3%28", 400, "invalid_query", "q")
        # 500 characters are fine, however many bytes they take.
        self.ok(API + "/prompts?q=" + q("貓" * 500))

    # -- literal search -----------------------------------------------------

    def check_search(self, term, **kw):
        extra = "".join("&%s=%s" % (k, q(str(v))) for k, v in kw.items())
        got = self.slugs(API + "/prompts?q=" + q(term) + extra)
        if "free" in kw:
            kw["free"] = kw["free"] == 1
        kw.pop("lang", None)
        if "tool" in kw:
            kw["tool"] = [k for k in self.data.tools
                          if kw["tool"] in self.data.tool_names(k)][0]
        want = [p["slug"] for p in self.data.expect(q=term, **kw)]
        self.assertEqual(got, want, "q=%r %r" % (term, kw))
        return got

    def test_search_literal_wildcards(self):
        """% and _ are ordinary characters, never wildcards."""
        self.assertTrue(self.check_search("100%"))
        self.assertTrue(self.check_search("%"))
        self.assertTrue(self.check_search("style_url"))
        self.assertTrue(self.check_search("_"))
        self.assertTrue(self.check_search("_url"))
        # Only in PRO bodies: not found.
        self.assertEqual(self.check_search("bad_hands"), [])
        # As LIKE patterns these would match nearly everything.
        self.assertEqual(self.check_search("%a%"), [])
        self.assertEqual(self.check_search("a_c"), [])
        self.assertEqual(self.check_search("__"), [])
        self.assertTrue(self.check_search('"{title}"'))

    def test_search_cjk_lengths(self):
        for term in ("貓", "夜市", "光", "咖啡", "台灣", "黃金時刻",
                     "一隻橘貓坐在木窗", "雨", "柔光", "電影感"):
            self.check_search(term)
        self.assertTrue(self.check_search("夜市"))
        self.assertTrue(self.check_search("一隻橘貓坐在木窗"))

    def test_search_mixed_case(self):
        for term, other in (("HDR", "hdr"), ("iPhone", "IPHONE"),
                            ("LoRA", "lora"), ("ComfyUI", "comfyui"),
                            ("Cinematic", "CINEMATIC")):
            a = self.check_search(term)
            b = self.check_search(other)
            self.assertEqual(a, b)
            self.assertTrue(a, term)

    def test_search_short_latin(self):
        for term in ("a", "e", "ai", "3d", "lo", "x", "Q"):
            self.check_search(term)

    def test_search_with_filters_and_orders(self):
        self.check_search("light", category="image", free=1)
        self.check_search("光", sort="rating")
        self.check_search("the", sort="updated", tag="cinematic")
        self.check_search("夜", tool="mj")

    def test_search_never_sees_pro_bodies(self):
        """Words found only in PRO bodies and variables find nothing."""
        d = self.data
        public = " ".join(f.lower() for p in d.prompts
                          for f in d.searchable(p))
        checked = 0
        for p in d.visible_prompts():
            if not p["is_pro"]:
                continue
            body = p["full_prompt"] + " " + " ".join(
                v["name"] for v in p.get("variables") or [])
            for word in body.replace("\n", " ").split(" "):
                w = word.strip(",.:;()<>{}\"'").lower()
                if len(w) >= 5 and w not in public:
                    j = self.ok(API + "/prompts?q=" + q(w))
                    self.assertEqual(j["count"], 0, w)
                    checked += 1
        self.assertGreater(checked, 5)

    def test_search_both_languages(self):
        """English text is found with lang=zh and Chinese with lang=en."""
        a = self.check_search("soft window light", lang="zh")
        b = self.check_search("窗邊", lang="en")
        self.assertTrue(a and b)

    # -- /prompts/{slug} --------------------------------------------------

    def test_detail_free(self):
        src = self.data.by_slug["window-light-cat-portrait"]
        j = self.ok(API + "/prompts/window-light-cat-portrait")["prompt"]
        self.assertEqual(j["access"], "full")
        self.assertIs(j["is_pro"], False)
        self.assertEqual(j["full_prompt"], src["full_prompt"])
        self.assertEqual(j["preview"], src["full_prompt"].split("\n")[0][:160])
        self.assertEqual(j["variables"], [{"name": v["name"],
                         "description": v["description"]}
                         for v in src["variables"]])
        self.assertEqual(j["rating"], src["rating"])
        self.assertEqual(j["context"], src["context"])
        self.assertEqual(j["sample_output"], src["sample_output"])
        self.assertEqual(j["updated_at"], time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime(
                lzenv_time(src["updated_at"]))))

    def test_detail_pro_is_redacted(self):
        pros = [p for p in self.data.visible_prompts() if p["is_pro"]]
        self.assertTrue(pros)
        for src in pros:
            for lang in ("zh", "en"):
                r = self.inst.get(API + "/prompts/%s?lang=%s" %
                                  (src["slug"], lang))
                j = r.json()["prompt"]
                self.assertEqual(j["access"], "preview")
                self.assertIs(j["is_pro"], True)
                self.assertNotIn("full_prompt", j)
                self.assertNotIn("variables", j)
                first = (src.get("full_prompt_en") if lang == "en" and
                         src.get("full_prompt_en") else src["full_prompt"])
                self.assertEqual(j["preview"], first.split("\n")[0][:160])
                # Nothing past the first line anywhere in the answer.
                rest = first.split("\n", 1)[1:] or [""]
                if rest[0].strip():
                    self.assertNotIn(rest[0].strip(), r.body.decode())
                public = " ".join(self.data.searchable(src))
                for v in src.get("variables") or []:
                    if v["description"] not in public:
                        self.assertNotIn(v["description"], r.body.decode())

    def test_detail_lang_fallback(self):
        d = self.data
        full = d.by_slug["chatgpt-lesson-plan"]
        j = self.ok(API + "/prompts/chatgpt-lesson-plan?lang=en")["prompt"]
        self.assertEqual(j["title"], full["title_en"])
        self.assertEqual(j["full_prompt"], full["full_prompt_en"])
        self.assertEqual(j["variables"][0]["description"],
                         full["variables"][0]["description_en"])
        self.assertTrue(j["url"].endswith("/en/prompts/chatgpt-lesson-plan"))
        # Missing translations fall back to the source text.
        none = [p for p in d.visible_prompts() if "title_en" not in p]
        self.assertTrue(none)
        for src in none:
            j = self.ok(API + "/prompts/%s?lang=en" % src["slug"])["prompt"]
            self.assertEqual(j["title"], src["title"])
            self.assertEqual(j["summary"], src["summary"])
        partial = d.by_slug["gemini-travel-itinerary"]
        j = self.ok(API + "/prompts/gemini-travel-itinerary?lang=en")
        j = j["prompt"]
        self.assertEqual(j["title"], partial["title_en"])
        self.assertEqual(j["full_prompt"], partial["full_prompt"])
        self.assertEqual(j["variables"][2]["description"],
                         partial["variables"][2]["description"])

    def test_detail_not_found(self):
        for p in self.data.hidden_prompts():
            self.err(API + "/prompts/" + p["slug"], 404, "not_found")
        for slug in ("no-such-prompt", "UPPER", "a%20b", "x" * 101,
                     "..", "%E8%B2%93"):
            self.err(API + "/prompts/" + slug, 404, "not_found")
        self.err(API + "/prompts/window-light-cat-portrait?x=1", 400,
                 "unknown_parameter", "x")
        self.err(API + "/prompts/window-light-cat-portrait?lang=jp", 400,
                 None, "lang")

    def test_hidden_never_listed_or_counted(self):
        hidden = {p["slug"] for p in self.data.hidden_prompts()}
        self.assertTrue(hidden)
        listed = set(self.slugs(API + "/prompts"))
        self.assertFalse(hidden & listed)
        for p in self.data.hidden_prompts():
            j = self.ok(API + "/prompts?q=" + q(p["title"]))
            self.assertNotIn(p["slug"], [x["slug"] for x in j["prompts"]])

    def test_scheduled_past_is_visible(self):
        due = [p for p in self.data.prompts if p["status"] == "scheduled" and
               self.data.visible(p)]
        self.assertTrue(due)
        for p in due:
            self.ok(API + "/prompts/" + p["slug"])

    # -- tags ---------------------------------------------------------------

    def tag_counts(self):
        counts = {}
        for p in self.data.visible_prompts():
            for t in p["tags"]:
                counts[t] = counts.get(t, 0) + 1
        return counts

    def test_tags(self):
        counts = self.tag_counts()
        want = sorted(((n, s) for s, n in counts.items()),
                      key=lambda x: (-x[0], x[1]))
        got = [(t["prompt_count"], t["slug"]) for page in
               walk(self.inst, API + "/tags", "tags") for t in page["tags"]]
        self.assertEqual(got, want)
        j = self.ok(API + "/tags?lang=en&limit=50")
        self.assertEqual(j["count"], len(want))
        for t in j["tags"]:
            self.assertEqual(t["label"], self.data.tags[t["slug"]]["label_en"])
            self.assertTrue(t["url"].endswith("/en/tags/" + t["slug"]))
        j = self.ok(API + "/tags?min_count=5&limit=50")
        self.assertEqual([t["slug"] for t in j["tags"]],
                         [s for n, s in want if n >= 5])
        self.assertEqual(j["count"], len([1 for n, s in want if n >= 5]))

    def test_tags_search_labels_and_aliases(self):
        for term, slug in (("headshot", "portrait"), ("肖像", "portrait"),
                           ("Photo", "photography"), ("賽博", "cyberpunk"),
                           ("LO-FI", "lofi")):
            j = self.ok(API + "/tags?limit=50&q=" + q(term))
            self.assertIn(slug, [t["slug"] for t in j["tags"]], term)
            for t in j["tags"]:
                names = " ".join(n for n in self.data.tag_names(t["slug"])[1:]
                                 if n).lower()
                self.assertIn(term.lower(), names)
        self.assertEqual(self.ok(API + "/tags?q=%25")["count"], 0)
        for bad in ("min_count=0", "min_count=101", "limit=51", "q=",
                    "offset=-1", "lang=de", "sort=x"):
            self.err(API + "/tags?" + bad, 400)

    # -- collections ----------------------------------------------------------

    def published_collections(self):
        return [c for c in self.data.raw["collections"]
                if c["status"] == "published"]

    def test_collections_list(self):
        cols = sorted(self.published_collections(),
                      key=lambda c: (-lzenv_time(c["updated_at"]), c["slug"]))
        j = self.ok(API + "/collections")
        self.assertEqual(j["count"], len(cols))
        self.assertEqual([c["slug"] for c in j["collections"]],
                         [c["slug"] for c in cols])
        got = {c["slug"]: c for c in j["collections"]}
        self.assertNotIn("holiday-2027", got)
        tv = got["taiwan-vibes"]
        self.assertEqual(tv["unlock_cost"], 120)
        self.assertIsNone(tv["kicker"])
        self.assertEqual(tv["translation_status"], "partial")
        self.assertEqual(got["starter-kit"]["translation_status"],
                         "complete")
        self.assertIsNone(got["starter-kit"]["unlock_cost"])
        j = self.ok(API + "/collections?lang=en")
        got = {c["slug"]: c for c in j["collections"]}
        self.assertEqual(got["taiwan-vibes"]["title"], "Taiwan vibes")
        self.assertEqual(got["taiwan-vibes"]["summary"],
                         [c for c in cols if c["slug"] ==
                          "taiwan-vibes"][0]["summary"])
        pages = walk(self.inst, API + "/collections", "collections", limit=1)
        self.assertEqual([p["collections"][0]["slug"] for p in pages],
                         [c["slug"] for c in cols])

    def test_collection_detail(self):
        d = self.data
        for col in self.published_collections():
            for lang in ("zh", "en"):
                items = [(i + 1, it) for i, it in enumerate(col["items"])
                         if d.visible(d.by_slug[it["prompt"]])]
                got, offset = [], 0
                while True:
                    j = self.ok(API + "/collections/%s?lang=%s&limit=3"
                                "&offset=%d" % (col["slug"], lang, offset))
                    c = j["collection"]
                    self.assertEqual(c["items_count"], len(items))
                    got += c["items"]
                    if j["next_offset"] is None:
                        break
                    offset = j["next_offset"]
                self.assertEqual([(i["position"], i["prompt"]["slug"])
                                  for i in got],
                                 [(n, it["prompt"]) for n, it in items])
                for item, (n, src) in zip(got, items):
                    note = src.get("note_en") if lang == "en" and \
                        src.get("note_en") else src["note"]
                    self.assertEqual(item["note"], note)
                    p = d.by_slug[src["prompt"]]
                    self.assertEqual(item["prompt"]["title"],
                                     d.text(p, "title", lang))
                    self.assertEqual(item["prompt"]["is_pro"], p["is_pro"])
        j = self.ok(API + "/collections/starter-kit")
        self.assertEqual(j["limit"], 25)
        self.err(API + "/collections/holiday-2027", 404, "not_found")
        self.err(API + "/collections/nope", 404, "not_found")
        self.err(API + "/collections/starter-kit?limit=51", 400, None,
                 "limit")

    # -- models, tools, integrations ----------------------------------------

    def test_models(self):
        models = self.data.raw["models"]
        j = self.ok(API + "/models?limit=50")
        self.assertEqual((j["total"], j["showing"]), (len(models),
                                                      len(models)))
        self.assertEqual([m["key"] for m in j["models"]],
                         [m["key"] for m in models])
        got = {m["key"]: m for m in j["models"]}
        self.assertEqual(got["kling-1-6"]["verification"], "unverified")
        self.assertEqual(got["kling-1-6"]["verified_on"], "")
        self.assertEqual(got["runway-gen-2"]["status"], "retired")
        self.assertEqual(got["musicgen"]["tool_key"], "")
        self.assertTrue(got["sora"]["search_url"].endswith(
            "/prompts?tool=sora"))
        self.assertIn("/search?q=MusicGen", got["musicgen"]["search_url"])
        j = self.ok(API + "/models?category=audio")
        self.assertEqual(j["total"], len([m for m in models
                                          if m["category"] == "audio"]))
        j = self.ok(API + "/models?q=" + q("未經驗證"))
        self.assertEqual([m["key"] for m in j["models"]], ["pika-2-0"])
        j = self.ok(API + "/models?lang=en&q=retired")
        self.assertTrue(all("retired" in m["notes"].lower() or "retired" in
                            m["name"].lower() for m in j["models"]))
        j = self.ok(API + "/models?limit=5&offset=5")
        self.assertEqual((j["showing"], j["next_offset"]), (5, 10))
        for bad in ("category=text", "limit=0", "q=", "lang=x"):
            self.err(API + "/models?" + bad, 400)

    def tool_counts(self):
        counts = {k: 0 for k in self.data.tools}
        for p in self.data.visible_prompts():
            counts[p["tool"]] += 1
        return counts

    def test_tools_legacy_and_paged(self):
        counts = self.tool_counts()
        j = self.ok(API + "/tools")
        self.assertEqual(set(j), {"ok", "tools"})
        self.assertEqual([t["key"] for t in j["tools"]],
                         [t["key"] for t in self.data.raw["tools"]])
        for t in j["tools"]:
            src = self.data.tools[t["key"]]
            self.assertEqual(t["label"], src["label"])
            self.assertEqual(t["description"], src["description"])
            self.assertEqual(t["prompt_count"], counts[t["key"]])
        # Any explicit parameter: a localised page.
        j = self.ok(API + "/tools?lang=en")
        self.assertEqual(j["count"], len(self.data.tools))
        self.assertEqual((j["limit"], j["offset"], j["lang"]), (20, 0, "en"))
        for t in j["tools"]:
            src = self.data.tools[t["key"]]
            self.assertEqual(t["description"], src.get("description_en") or
                             src["description"])
            self.assertTrue(t["url"].startswith("http://127.0.0.1:8081/en/"))
        j = self.ok(API + "/tools?category=video")
        self.assertEqual([t["key"] for t in j["tools"]],
                         [t["key"] for t in self.data.raw["tools"]
                          if t["medium"] == "video"])
        j = self.ok(API + "/tools?q=niji")
        self.assertEqual([t["key"] for t in j["tools"]], ["midjourney"])
        j = self.ok(API + "/tools?limit=4&offset=12")
        self.assertEqual((j["count"], len(j["tools"]), j["next_offset"]),
                         (15, 3, None))
        for bad in ("category=audio", "limit=0", "x=1", "q="):
            self.err(API + "/tools?" + bad, 400)

    def test_integrations(self):
        counts = self.tool_counts()
        names = {}
        for k in self.data.tools:
            for n in self.data.tool_names(k):
                names[n] = k
        integ = self.data.raw["integrations"]
        j = self.ok(API + "/integrations")
        self.assertEqual(j["total"], len(integ))
        cats = {c: 0 for c in ("image", "video", "music", "audio", "text")}
        for i in integ:
            cats[i["category"]] += 1
        self.assertEqual(j["categories"], cats)
        self.assertEqual(j["with_generator"],
                         len([i for i in integ if i.get("generator_url")]))
        self.assertEqual(j["with_prompts"],
                         len([i for i in integ
                              if counts[names[i["tool_key"]]] > 0]))
        got = {i["key"]: i for i in j["integrations"]}
        self.assertIs(got["elevenlabs-tts"]["has_prompts"], False)
        self.assertEqual(got["elevenlabs-tts"]["prompts_url"], "")
        self.assertIs(got["comfyui-sdxl"]["has_generator"], False)
        self.assertEqual(got["comfyui-sdxl"]["generator_url"], "")
        self.assertTrue(got["midjourney-discord"]["prompts_url"].endswith(
            "/tools/midjourney"))
        self.err(API + "/integrations?lang=en", 400, "unknown_parameter",
                 "lang")

    # -- changelog ----------------------------------------------------------

    def test_changelog(self):
        now = time.time()
        for days in (1, 7, 30, 365):
            want = [p for p in self.data.ordered(
                    self.data.visible_prompts(), "updated")
                    if lzenv_time(p["updated_at"]) >= now - days * 86400]
            j = self.ok(API + "/changelog?days=%d&limit=100" % days)
            self.assertEqual(j["days"], days)
            self.assertEqual(j["count"], len(want))
            self.assertEqual([p["slug"] for p in j["prompts"]],
                             [p["slug"] for p in want][:100])
        j = self.ok(API + "/changelog?days=365&limit=3")
        self.assertEqual(len(j["prompts"]), 3)
        item = j["prompts"][0]
        self.assertEqual(set(item), {"slug", "title", "tool", "category",
                                     "difficulty", "updated_at", "url"})
        j = self.ok(API + "/changelog")
        self.assertEqual((j["days"], j["limit"]), (30, 50))
        for bad in ("days=0", "days=366", "limit=101", "limit=0",
                    "lang=en", "offset=1"):
            self.err(API + "/changelog?" + bad, 400)

    # -- tutorials and keywords -----------------------------------------------

    def test_tutorials(self):
        tuts = sorted(self.data.raw["tutorials"],
                      key=lambda t: (-lzenv_time(t["published_at"]),
                                     t["slug"]))
        j = self.ok(API + "/tutorials")
        self.assertEqual((j["total"], j["showing"]), (len(tuts), len(tuts)))
        self.assertEqual([t["slug"] for t in j["tutorials"]],
                         [t["slug"] for t in tuts])
        self.assertNotIn("content", j["tutorials"][0])
        t = self.ok(API + "/tutorials/literal-search-tips")["tutorial"]
        src = [x for x in tuts if x["slug"] == "literal-search-tips"][0]
        self.assertEqual(t["content"], src["markdown"])
        self.assertEqual((t["content_language"], t["content_format"]),
                         ("zh-Hant", "markdown"))
        self.assertEqual(t["source_url"], src["source_url"])
        self.assertTrue(t["url"].endswith("/tutorials/literal-search-tips"))
        j = self.ok(API + "/tutorials?q=" + q("100%"))
        self.assertEqual([x["slug"] for x in j["tutorials"]],
                         ["literal-search-tips"])
        j = self.ok(API + "/tutorials?q=bad_hands")
        self.assertEqual([x["slug"] for x in j["tutorials"]],
                         ["negative-prompts"])
        self.assertEqual(self.ok(API + "/tutorials?q=zzzz")["total"], 0)
        j = self.ok(API + "/tutorials?limit=4&offset=4")
        self.assertEqual((j["showing"], j["next_offset"]), (2, None))
        self.err(API + "/tutorials/nope", 404, "not_found")
        self.err(API + "/tutorials?lang=en", 400, "unknown_parameter",
                 "lang")
        self.err(API + "/tutorials/prompt-basics?lang=zh", 400,
                 "unknown_parameter", "lang")

    def test_keywords(self):
        kws = self.data.raw["keywords"]
        j = self.ok(API + "/keywords?limit=50")
        self.assertEqual(j["total"], len(kws))
        self.assertEqual({k["slug"] for k in j["keywords"]},
                         {k["slug"] for k in kws})
        cats = {k["category"] for k in kws}
        for c in cats:
            j = self.ok(API + "/keywords?category=" + c)
            self.assertEqual(j["total"], len([k for k in kws
                                              if k["category"] == c]))
        self.err(API + "/keywords?category=Camera", 400, None, "category")
        self.err(API + "/keywords?category=cam", 400, None, "category")
        k = self.ok(API + "/keywords/bokeh")["keyword"]
        src = [x for x in kws if x["slug"] == "bokeh"][0]
        for f in ("term", "term_en", "definition", "when_to_use",
                  "how_to_ask", "gotcha", "related", "tags"):
            self.assertEqual(k[f], src[f], f)
        j = self.ok(API + "/keywords?q=" + q("景深"))
        self.assertEqual({x["slug"] for x in j["keywords"]},
                         {x["slug"] for x in kws if "景深" in x["term"] or
                          "景深" in x["definition"]})
        j = self.ok(API + "/keywords?q=BOKEH")
        self.assertIn("bokeh", [x["slug"] for x in j["keywords"]])
        self.err(API + "/keywords/nope", 404, "not_found")

    # -- HTTP ---------------------------------------------------------------

    def test_etag_304_cache_cors(self):
        r = self.inst.get(API + "/prompts?limit=3")
        etag = r.header("ETag")
        self.assertRegex(etag, r'^"[0-9a-f]{32}"$')
        self.assertEqual(r.header("Cache-Control"), "public, max-age=60")
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        self.assertTrue(r.header("X-Request-Id"))
        for inm in (etag, "W/" + etag, '"x", ' + etag, "*"):
            r2 = self.inst.get(API + "/prompts?limit=3",
                               headers={"If-None-Match": inm})
            self.assertEqual(r2.status, 304, inm)
            self.assertEqual(r2.body, b"")
            self.assertEqual(r2.header("ETag"), etag)
        r3 = self.inst.get(API + "/prompts?limit=3",
                           headers={"If-None-Match": '"other"'})
        self.assertEqual(r3.status, 200)
        r4 = self.inst.get(API + "/prompts?limit=4")
        self.assertNotEqual(r4.header("ETag"), etag)
        # Compressed by nginx: the weak form still matches.
        r5 = self.inst.get(API + "/prompts?limit=50",
                           headers={"Accept-Encoding": "gzip"})
        self.assertEqual(r5.header("Content-Encoding"), "gzip")
        r6 = self.inst.get(API + "/prompts?limit=50",
                           headers={"Accept-Encoding": "gzip",
                                    "If-None-Match": r5.header("ETag")})
        self.assertEqual(r6.status, 304)

    def test_head_options_methods(self):
        r = self.inst.get(API + "/prompts", method="HEAD")
        self.assertEqual((r.status, r.body), (200, b""))
        self.assertTrue(r.header("ETag"))
        r = self.inst.get(API + "/prompts", method="OPTIONS",
                          headers={"Origin": "https://x.example",
                                   "Access-Control-Request-Method": "GET"})
        self.assertEqual(r.status, 204)
        self.assertEqual(r.header("Access-Control-Allow-Origin"), "*")
        self.assertIn("GET", r.header("Access-Control-Allow-Methods"))
        for m in ("POST", "PUT", "DELETE"):
            r = self.inst.get(API + "/prompts", method=m)
            self.assertEqual(r.status, 405, m)
            self.assertEqual(r.json()["error"], "method_not_allowed")
            self.assertIn("GET", r.header("Allow"))
        r = self.inst.get(API + "/nothing")
        self.assertEqual(r.status, 404)
        self.assertEqual(r.json()["error"], "not_found")
        r = self.inst.get("/elsewhere")
        self.assertEqual(r.status, 404)
        self.assertIs(r.json()["ok"], False)


def lzenv_time(s):
    from promptlib import parse_time
    return parse_time(s)


class ScheduledGoesLive(unittest.TestCase):
    """A scheduled prompt appears, and is counted, once its time passes,
    without a new import or a restart."""

    def test_goes_live(self):
        # The prompt goes live MARGIN seconds after the import; a slow
        # machine (a sanitizer build behind Prism) may take longer than
        # that to start and warm the workers: then again with twice the
        # margin.
        for margin in (4, 8, 16, 32):
            if self.goes_live(margin):
                return
        self.fail("the workers never warmed up within 32 s")

    def goes_live(self, margin):
        """False when the warming took until the prompt was live."""
        with open(os.path.join(lzenv.SRCDIR, "data", "prompts.json"),
                  encoding="utf-8") as f:
            data = json.load(f)
        p = dict(data["prompts"][0])
        p["slug"] = "goes-live-soon"
        p["status"] = "scheduled"
        p["tags"] = ["portrait"]
        when = int(time.time()) + margin
        p["publish_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                        time.gmtime(when))
        data["prompts"].append(p)
        inst = PromptsInstance("prompts-sched", data=None)
        try:
            path = inst.path("sched.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False)
            inst.ctl("prompts", "import", path)
            inst.start()
            # Asked often enough that every worker keeps both answers.
            for _ in range(6):
                before = inst.ok(API + "/prompts")["count"]
                tags0 = {t["slug"]: t["prompt_count"] for t in
                         inst.ok(API + "/tags?limit=50")["tags"]}
                tag = tags0["portrait"]
            status = inst.get(API + "/prompts/goes-live-soon").status
            if time.time() >= when - 0.5:
                return False            # too late to see it hidden
            self.assertEqual(status, 404)
            deadline = when + 10
            while time.time() < deadline:
                if inst.get(API + "/prompts/goes-live-soon").status == 200:
                    break
                time.sleep(0.25)
            self.assertEqual(inst.get(API + "/prompts/goes-live-soon").status,
                             200)
            self.assertGreaterEqual(time.time(), when)
            self.assertEqual(inst.ok(API + "/prompts")["count"], before + 1)
            j = inst.ok(API + "/tags?limit=50")
            self.assertLess(j["count"], 50)
            tags = {t["slug"]: t["prompt_count"] for t in j["tags"]}
            self.assertEqual(tags["portrait"], tag + 1)
            # The import's order until then, counted and sorted anew
            # since: most used first, then by slug.
            tags0["portrait"] += 1
            self.assertEqual([t["slug"] for t in j["tags"]],
                             sorted(tags0, key=lambda s: (-tags0[s], s)))
            return True
        finally:
            inst.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
