#!/usr/bin/env python3
"""The OpenAPI document of the prompt library against a real validator and
against the running service.

- The served document is src/prompts/openapi.json, and it is valid OpenAPI
  3.1 (@seriousme/openapi-schema-validator, installed from the npm
  registry into the build tree with the committed lockfile, t/openapi/).
- Live answers of every path -- successes, 304, 400, 404, 429 and 503 --
  validate against the schemas the document gives (Ajv, JSON Schema
  2020-12), and carry the headers it documents.
- The document and the service agree on every parameter: each enum value
  is accepted and others refused, bounds are exactly the document's,
  defaults are the ones the service applies, and the paths are exactly
  the routes of src/prompts/main.c.
"""

import json
import os
import sys
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
from openapilib import (Recorder, assert_served_document,  # noqa: E402
                        assert_tools_pass, compile_client, lint,
                        load_document, routes, run_check)
from promptlib import API, Data, PromptsInstance, fresh_ip  # noqa: E402

DOC = os.path.join(lzenv.SRCDIR, "src", "prompts", "openapi.json")
q = urllib.parse.quote


class OpenAPI(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.doc = load_document(DOC)
        cls.data = Data()
        cls.inst = PromptsInstance("prompts-openapi")
        try:
            cls.inst.start()
        except Exception:
            cls.inst.stop()
            raise
        cls.recorder = Recorder()

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    def record(self, template, r, url):
        self.recorder.answer(template, r, url)

    def fetch(self, template, url, ip=None, headers=None):
        r = self.inst.get(url, ip=ip, headers=headers)
        self.record(template, r, url)
        return r

    def check_recorded(self):
        self.recorder.check(self, DOC, self.inst.path("responses.json"))

    # -- the document itself ------------------------------------------------

    def test_served_document_is_the_source_and_valid(self):
        r = self.inst.get(API + "/openapi.json")
        self.assertEqual(r.status, 200)
        assert_served_document(self, self.inst, r.body, DOC)

    def test_lint_and_typed_client(self):
        """No error or warning of @redocly/cli lint (recommended rules),
        and t/openapi/client-prompts.ts, calling every endpoint, compiles
        (tsc --strict) against the types openapi-typescript generates."""
        assert_tools_pass(self, self.inst, DOC, "prompts")

    def test_lint_and_typed_client_can_fail(self):
        """Operations without security are lint errors; a document that
        drops a field the client reads fails its compilation."""
        broken = json.loads(json.dumps(self.doc))
        del broken["security"]
        path = self.inst.path("no-security.json")
        with open(path, "w") as f:
            json.dump(broken, f)
        errors, warnings, text = lint(path)
        unsecured = sum(1 for item in self.doc["paths"].values()
                        for op in item.values()
                        if isinstance(op, dict) and "security" not in op)
        self.assertEqual(errors, unsecured, text)
        self.assertIn("security-defined", text)
        broken = json.loads(json.dumps(self.doc))
        del broken["components"]["schemas"]["PromptSummary"]["properties"][
            "slug"]
        broken["components"]["schemas"]["PromptSummary"]["required"].remove(
            "slug")
        path = self.inst.path("no-slug.json")
        with open(path, "w") as f:
            json.dump(broken, f)
        rc, out = compile_client(path, "prompts", self.inst.path("no-slug"))
        self.assertNotEqual(rc, 0)
        self.assertIn("client-prompts.ts", out)

    def test_validator_catches_a_broken_document(self):
        """The check can fail: a document missing a required part, and a
        response that breaks a schema, are both reported."""
        broken = json.loads(json.dumps(self.doc))
        del broken["paths"][API + "/tags"]["get"]["parameters"][0]["in"]
        path = self.inst.path("broken.json")
        with open(path, "w") as f:
            json.dump(broken, f)
        rc, out = run_check(path)
        self.assertNotEqual(rc, 0)
        resp = self.inst.path("bad-responses.json")
        with open(resp, "w") as f:
            json.dump([{"path": API + "/prompts/{slug}", "status": 200,
                        "body": {"ok": True, "prompt": {"slug": "x"}},
                        "headers": {}},
                       {"path": API + "/tags", "status": 200,
                        "body": {"ok": True, "count": 1, "limit": 20,
                                 "offset": 0, "next_offset": None,
                                 "tags": [], "extra": 1}, "headers": {}}],
                      f)
        rc, out = run_check(DOC, resp)
        self.assertNotEqual(rc, 0)
        fails = [x.split(":")[0] for x in out.splitlines()
                 if '"instancePath"' in x]
        self.assertEqual(fails, [API + "/prompts/{slug} 200",
                                 API + "/tags 200"], out)
        self.assertIn("documented header ETag missing", out)

    def test_paths_are_the_routes(self):
        main_c = os.path.join(lzenv.SRCDIR, "src", "prompts", "main.c")
        found = routes(main_c, "/api/v1/") | routes(main_c, "/healthz")
        self.assertEqual({p for p, _ in found}, set(self.doc["paths"]))
        self.assertEqual({m for _, m in found}, {"get"})
        for path, item in self.doc["paths"].items():
            self.assertEqual(set(item), {"get"}, path)

    # -- live answers against the schemas -----------------------------------

    def test_live_responses_match_schemas(self):
        d = self.data
        P = API + "/prompts"
        for url in ("", "?lang=en", "?limit=50", "?sort=rating&limit=50",
                    "?sort=updated&offset=40", "?q=" + q("光") + "&lang=en",
                    "?tag=portrait", "?tag=unknown-topic", "?tool=mj",
                    "?category=music&free=1", "?offset=10000"):
            self.fetch(P, P + url)
        for p in d.visible_prompts():
            for lang in ("zh", "en"):
                self.fetch(P + "/{slug}", "%s/%s?lang=%s" % (P, p["slug"],
                                                               lang))
        for url in ("", "?lang=en&min_count=2", "?q=photo", "?limit=50"):
            self.fetch(API + "/tags", API + "/tags" + url)
        for url in ("", "?lang=en", "?limit=1&offset=1"):
            self.fetch(API + "/collections", API + "/collections" + url)
        for c in d.raw["collections"]:
            if c["status"] == "published":
                for url in ("", "?lang=en", "?limit=2&offset=2"):
                    self.fetch(API + "/collections/{slug}", "%s/%s%s" % (
                        API + "/collections", c["slug"], url))
        for url in ("", "?lang=en&limit=50", "?category=audio", "?q=sora"):
            self.fetch(API + "/models", API + "/models" + url)
        for url in ("", "?lang=zh", "?lang=en&category=music", "?q=niji"):
            self.fetch(API + "/tools", API + "/tools" + url)
        self.fetch(API + "/integrations", API + "/integrations")
        for url in ("", "?days=365&limit=100", "?days=1"):
            self.fetch(API + "/changelog", API + "/changelog" + url)
        for url in ("", "?q=" + q("提示"), "?limit=2&offset=2"):
            self.fetch(API + "/tutorials", API + "/tutorials" + url)
        for t in d.raw["tutorials"]:
            self.fetch(API + "/tutorials/{slug}", API + "/tutorials/" +
                       t["slug"])
        for url in ("", "?category=camera", "?q=bokeh", "?limit=50"):
            self.fetch(API + "/keywords", API + "/keywords" + url)
        for k in d.raw["keywords"]:
            self.fetch(API + "/keywords/{slug}", API + "/keywords/" +
                       k["slug"])
        self.fetch(API + "/openapi.json", API + "/openapi.json")
        # Errors: 400 and 404 on every path that has them.
        for template in self.doc["paths"]:
            url = template.replace("{slug}", "nope")
            self.fetch(template, url + "?zz_unknown=1")
            if "{slug}" in template:
                self.fetch(template, url)
        # 304 with the validator of a 200.
        r = self.inst.get(P + "?limit=2")
        self.fetch(P, P + "?limit=2",
                   headers={"If-None-Match": r.header("ETag")})
        # 429: one address past its list quota.
        ip = fresh_ip()
        for _ in range(30):
            self.inst.get(API + "/integrations", ip=ip)
        r = self.fetch(API + "/integrations", API + "/integrations", ip=ip)
        self.assertEqual(r.status, 429)
        # 503: an instance without data.
        bare = PromptsInstance("prompts-openapi-bare", data=None)
        try:
            bare.start()
            for template in ("/prompts", "/tutorials/{slug}"):
                url = API + template.replace("{slug}", "x")
                r = bare.get(url)
                self.assertEqual(r.status, 503)
                self.record(API + template, r, url)
        finally:
            bare.stop()
        statuses = {x["status"] for x in self.recorder.records}
        self.assertEqual(statuses, {200, 304, 400, 404, 429, 503})
        self.check_recorded()

    # -- parameters: the document and the service agree ---------------------

    def params(self):
        """(path template, parameter object) of every query parameter."""
        comps = self.doc["components"]["parameters"]
        for template, item in self.doc["paths"].items():
            for p in item["get"].get("parameters", []):
                if "$ref" in p:
                    p = comps[p["$ref"].split("/")[-1]]
                if p["in"] == "query":
                    yield template, p

    def schema(self, p):
        s = p["schema"]
        if "$ref" in s:
            s = self.doc["components"]["schemas"][s["$ref"].split("/")[-1]]
        return s

    def url(self, template, query):
        return template.replace("{slug}", self.sample_slug(template)) + \
            "?" + query

    def sample_slug(self, template):
        return {API + "/prompts/{slug}": "window-light-cat-portrait",
                API + "/collections/{slug}": "starter-kit",
                API + "/tutorials/{slug}": "prompt-basics",
                API + "/keywords/{slug}": "bokeh"}.get(template, "")

    def expect(self, template, query, status, param=None):
        r = self.inst.get(self.url(template, query))
        self.assertEqual(r.status, status, "%s?%s: %r" % (template, query,
                                                           r.body[:200]))
        if param:
            self.assertEqual(r.json().get("param"), param, query)
        return r

    def test_parameters_agree_with_the_service(self):
        checked = 0
        for template, p in self.params():
            name, s = p["name"], self.schema(p)
            if "enum" in s:
                for v in s["enum"]:
                    self.expect(template, "%s=%s" % (name, q(v)), 200)
                for v in ("zz", "", s["enum"][0].upper() + "x"):
                    self.expect(template, "%s=%s" % (name, q(v)), 400, name)
            elif s["type"] == "integer":
                lo, hi = s["minimum"], s["maximum"]
                self.expect(template, "%s=%d" % (name, lo), 200)
                self.expect(template, "%s=%d" % (name, hi), 200)
                self.expect(template, "%s=%d" % (name, lo - 1), 400, name)
                self.expect(template, "%s=%d" % (name, hi + 1), 400, name)
                self.expect(template, "%s=1.0" % name, 400, name)
                self.expect(template, "%s=" % name, 400, name)
            else:
                self.assertEqual(s["type"], "string")
                hi = s["maxLength"]
                if name != "tool":	# any unknown tool is refused
                    self.expect(template, "%s=%s" % (name, q("貓" * hi)),
                                200)
                self.expect(template, "%s=%s" % (name, "a" * (hi + 1)), 400,
                            name)
                self.expect(template, "%s=" % name, 400, name)
            self.expect(template, "%s=1&%s=1" % (name, name), 400, name)
            checked += 1
        self.assertGreater(checked, 30)
        # Every path refuses what it does not document.
        for template in self.doc["paths"]:
            self.expect(template, "zz_unknown=1", 400, "zz_unknown")

    def test_defaults_are_applied(self):
        for template, p in self.params():
            s = self.schema(p)
            if "default" not in s or "{slug}" in template:
                continue
            if template == API + "/tools":
                continue	# no parameter at all is the legacy list
            j = self.inst.ok(self.url(template, ""))
            field = {"limit": "limit", "offset": "offset", "sort": "sort",
                     "days": "days"}.get(p["name"])
            if field and field in j:
                self.assertEqual(j[field], s["default"], (template, field))
            # The default given explicitly changes nothing.
            j2 = self.inst.ok(self.url(template, "%s=%s" % (
                p["name"], q(str(s["default"])))))
            self.assertEqual(j, j2, (template, p["name"]))
        # Tools: the default page is the page of the defaults.
        a = self.inst.ok(API + "/tools?lang=zh")
        b = self.inst.ok(API + "/tools?limit=20&offset=0")
        self.assertEqual(a, b)


if __name__ == "__main__":
    unittest.main(verbosity=2)
