"""promptlib -- what the prompt library's end-to-end tests share.

An lz-prompts instance behind real nginx with the sample data imported,
clients told apart by X-Forwarded-For (nginx's proxy is trusted), and the
answers the sample data implies, computed here from data/prompts.json
itself -- never written down by hand -- so the tests check the service
against the data file and the rules of the spec.
"""

import itertools
import json
import os
import threading
import time
from datetime import datetime, timezone

import lzenv

SAMPLE = os.path.join(lzenv.SRCDIR, "data", "prompts.json")
API = "/api/v1"

_ip_lock = threading.Lock()
_ip_seq = itertools.count(1)


def fresh_ip():
    """A client address no other request of this run used."""
    with _ip_lock:
        n = next(_ip_seq)
    return "10.%d.%d.%d" % ((n >> 16) & 255, (n >> 8) & 255, n & 255)


class PromptsInstance(lzenv.Instance):
    """lz-prompts and nginx, the sample data imported."""

    def __init__(self, name="prompts", data=SAMPLE, extra_conf="",
                 workers=2):
        super().__init__(name, prompts=True, links=False, workers=workers,
                         extra_conf="trusted_proxies = 127.0.0.1\n" +
                         extra_conf)
        if data:
            self.ctl("prompts", "import", data)

    def get(self, path, ip=None, headers=None, method="GET"):
        h = {"X-Forwarded-For": ip or fresh_ip()}
        h.update(headers or {})
        return self.request(method, path, headers=h, port=self.prompts_port)

    def ok(self, path, **kw):
        r = self.get(path, **kw)
        if r.status != 200:
            raise AssertionError("GET %s: %d %r" % (path, r.status, r.body))
        return r.json()


def parse_time(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


class Data:
    """The sample data and what the API must make of it."""

    def __init__(self, path=SAMPLE):
        with open(path, encoding="utf-8") as f:
            self.raw = json.load(f)
        self.tools = {t["key"]: t for t in self.raw["tools"]}
        self.tags = {t["slug"]: t for t in self.raw["tags"]}
        self.prompts = self.raw["prompts"]
        self.by_slug = {p["slug"]: p for p in self.prompts}

    # -- visibility and orders --------------------------------------------

    def visible(self, p, now=None):
        now = time.time() if now is None else now
        if p["status"] == "published":
            return True
        if p["status"] == "scheduled":
            return parse_time(p["publish_at"]) <= now
        return False

    def visible_prompts(self):
        return [p for p in self.prompts if self.visible(p)]

    def hidden_prompts(self):
        return [p for p in self.prompts if not self.visible(p)]

    def recommended(self, prompts):
        """Editorial rank, then most recently updated, then slug."""
        return sorted(prompts, key=lambda p: (-p.get("rank", 0),
                                              -parse_time(p["updated_at"]),
                                              p["slug"]))

    def ordered(self, prompts, sort):
        rec = self.recommended(prompts)
        pos = {p["slug"]: i for i, p in enumerate(rec)}
        if sort == "updated":
            return sorted(rec, key=lambda p: (-parse_time(p["updated_at"]),
                                              pos[p["slug"]]))
        if sort == "rating":
            def key(p):
                r = p.get("rating")
                if not r:
                    return (1, 0, 0, pos[p["slug"]])
                return (0, -r["avg"], -r["count"], pos[p["slug"]])
            return sorted(rec, key=key)
        return rec

    # -- search -----------------------------------------------------------

    @staticmethod
    def searchable(p):
        """The public text of p: metadata and examples; the body and
        variables of free entries only."""
        fields = [p.get(k) for k in ("title", "title_en", "summary",
                                     "summary_en", "context", "context_en",
                                     "sample_output", "sample_output_en")]
        if not p.get("is_pro"):
            fields += [p.get("full_prompt"), p.get("full_prompt_en")]
            for v in p.get("variables") or []:
                fields += [v.get("name"), v.get("description"),
                           v.get("description_en")]
        return [f for f in fields if f]

    def matches(self, p, q):
        q = q.lower()
        return any(q in f.lower() for f in self.searchable(p))

    def tag_names(self, slug):
        t = self.tags[slug]
        return [slug, t["label"], t.get("label_en") or ""] + \
            list(t.get("aliases") or [])

    def tool_names(self, key):
        return [key] + list(self.tools[key].get("aliases") or [])

    def expect(self, q=None, tag=None, tool=None, category=None, free=False,
               sort="recommended"):
        """The visible prompts a search must return, in order."""
        out = []
        for p in self.visible_prompts():
            if q is not None and not self.matches(p, q):
                continue
            if tag is not None and tag not in p.get("tags", []):
                continue
            if tool is not None and p["tool"] != tool:
                continue
            if category is not None and p["category"] != category:
                continue
            if free and p.get("is_pro"):
                continue
            out.append(p)
        return self.ordered(out, sort)

    def text(self, obj, field, lang):
        """field of obj in lang, with the source-text fallback."""
        if lang == "en" and obj.get(field + "_en"):
            return obj[field + "_en"]
        return obj[field]


def walk(inst, path, key, limit=7, **kw):
    """Follows next_offset from offset 0; returns the pages' answers."""
    pages, offset = [], 0
    sep = "&" if "?" in path else "?"
    for _ in range(1000):
        j = inst.ok("%s%slimit=%d&offset=%d" % (path, sep, limit, offset),
                    **kw)
        pages.append(j)
        assert j["offset"] == offset and j["limit"] == limit, j
        assert len(j[key]) <= limit
        if j["next_offset"] is None:
            return pages
        assert j["next_offset"] == offset + limit, j
        assert len(j[key]) == limit, "a short page that is not the last"
        offset = j["next_offset"]
    raise AssertionError("paging never ended")
