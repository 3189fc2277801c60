"""The API checked against its own OpenAPI documents by a validator we did
not write (issue 31): the end-to-end API tests of both services run again
with LZ_PRISM=1 (t/e2e/lzenv.py), their requests under /api/ going
through Stoplight Prism's validation proxy (@stoplight/prism-cli, pinned
in t/openapi) in front of nginx.  Any violation Prism reports of an
*answer* -- a status the document does not give for the operation, a
header or body that breaks its schema -- fails the module; the tests'
deliberately bad requests are request violations, expected.

  - the proxy can fail: with a document whose created-link answer
    requires a field the service never sends, one create is reported;
  - each module passes through it, and Prism saw its answers (a count
    of them, so that a module that bypassed the proxy is noticed).

Prism does not pass every answer on as it is (images, the document
itself, compressed answers, integers beyond JavaScript's, %-escapes it
rewrites): lzenv.prism_can sends those requests to nginx directly, and
the modules' own checks (test_*_openapi.py) cover them.
"""

import json
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402
import openapilib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# A line of a service's or nginx's log, as a failed test prints them.
LOG_LINE = re.compile(r"\d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d:\d\d")

LINKS = ["test_links_api.py", "test_links_edit.py", "test_links_openapi.py",
         "test_conversions.py", "test_stats.py", "test_health_metrics.py",
         "test_exports.py", "test_bad_input.py", "test_domains.py",
         "test_organise.py", "test_account_stats.py", "test_bulk.py",
         "test_keys_scopes.py"]
# The prompt library has no PostgreSQL engine: its modules run on SQLite.
PROMPTS = ["test_prompts_api.py", "test_prompts_search.py",
           "test_prompts_openapi.py", "test_prompts_ratelimit.py"]


def setUpModule():
    openapilib.install_validators()


class Prism(unittest.TestCase):

    def test_0_the_proxy_can_fail(self):
        with open(os.path.join(lzenv.SRCDIR, "src", "links",
                               "openapi.json")) as f:
            doc = json.load(f)
        schema = doc["paths"]["/api/v1/links"]["post"]["responses"]["201"][
            "content"]["application/json"]["schema"]
        doc["paths"]["/api/v1/links"]["post"]["responses"]["201"][
            "content"]["application/json"]["schema"] = {
                "allOf": [schema, {"required": ["never_sent"]}]}
        inst = lzenv.Instance("prism-broken", workers=1)
        try:
            broken = inst.path("broken.json")
            with open(broken, "w") as f:
                json.dump(doc, f)
            inst.prism_docs["links"] = broken
            inst.start()
            key = inst.key(inst.account("b@example.com", "pro"))
            r = inst.api("POST", "/api/v1/links", key,
                         {"target_url": "https://example.com/"})
            self.assertEqual(r.status, 201, r)
            self.assertEqual(inst.prism_checked, 1)
            self.assertEqual(len(inst.violations), 1, inst.violations)
            self.assertIn("never_sent", inst.violations[0][3])
            self.assertTrue(inst.violations[0][3].startswith(
                "response.body"), inst.violations)
            # A request violation is not the answer's: not counted.
            r = inst.api("GET", "/api/v1/links?limit=0", key)
            self.assertEqual(r.status, 400, r)
            self.assertEqual(len(inst.violations), 1, inst.violations)
        finally:
            inst.violations = []
            inst.stop()

    def run_module(self, name, engine):
        env = dict(os.environ, LZ_PRISM="1", LZ_DB=engine)
        p = subprocess.run([sys.executable, os.path.join(HERE, name)],
                           env=env, capture_output=True, text=True,
                           timeout=900)
        # The test's own lines, not the services' logs it prints after
        # a failure.
        tail = "\n".join(line for line in (p.stdout + p.stderr).splitlines()
                         if not LOG_LINE.match(line))[-6000:]
        self.assertEqual(p.returncode, 0, "%s under Prism:\n%s" % (name,
                                                                   tail))
        checked = sum(int(n) for n in re.findall(
            r"prism: (\d+) answers checked$", p.stderr, re.M))
        self.assertGreater(checked, 0, "%s: nothing went through Prism"
                           % name)
        return checked

    def test_1_links(self):
        n = 0
        for name in LINKS:
            with self.subTest(module=name):
                n += self.run_module(name, lzenv.ENGINE)
        sys.stderr.write("\nlink service: %d answers checked by Prism\n" %
                         n)

    def test_2_prompts(self):
        if lzenv.PG:
            self.skipTest("the prompt library runs on SQLite alone")
        n = 0
        for name in PROMPTS:
            with self.subTest(module=name):
                n += self.run_module(name, "sqlite")
        sys.stderr.write("\nprompt library: %d answers checked by Prism\n"
                         % n)


if __name__ == "__main__":
    unittest.main(verbosity=2)
