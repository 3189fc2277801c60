"""openapilib -- what the OpenAPI tests of both services share
(test_prompts_openapi.py, test_links_openapi.py).

- install_validators(): npm ci of t/openapi/ (the OpenAPI 3.1 validator
  @seriousme/openapi-schema-validator, Ajv and ajv-formats, @redocly/cli,
  openapi-typescript and typescript, pinned by the committed lockfile)
  into the build tree, once per lockfile.
- run_check(doc[, records]): t/openapi/check.mjs -- the document against
  OpenAPI 3.1, then each recorded answer against the schema and headers
  the document gives for it, and each recorded request body against the
  operation's request schema.
- lint(doc): @redocly/cli lint with its recommended rules; (errors,
  warnings, report).
- compile_client(doc, name, workdir): the types openapi-typescript makes
  of doc, and t/openapi/client-NAME.ts compiled against them by
  tsc --strict; (exit status, output).
- Recorder: collects those records while a test talks to the service,
  then checks them all in one run of check.mjs.
- routes(main_c, prefix): the (path template, method) pairs of a
  service's route table, to compare with the document's operations.
"""

import fcntl
import json
import os
import re
import shutil
import subprocess

import lzenv

TOOLDIR = os.path.join(lzenv.BUILDDIR, "t", "openapi")


def install_validators():
    """npm ci of t/openapi into the build tree (once per lockfile)."""
    src = os.path.join(lzenv.SRCDIR, "t", "openapi")
    for exe in ("node", "npm"):
        if shutil.which(exe) is None:
            raise RuntimeError("%s is needed (tools/setup-debian installs "
                               "nodejs and npm)" % exe)
    os.makedirs(TOOLDIR, exist_ok=True)
    lock = os.path.join(src, "package-lock.json")
    stamp = os.path.join(TOOLDIR, "node_modules", ".lz-lock")
    with open(lock, "rb") as f:
        want = f.read()
    # Both OpenAPI tests may start at once (make -j): one installs, the
    # other waits for it.
    with open(os.path.join(TOOLDIR, ".lz-install"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        for name in ("package.json", "package-lock.json", "check.mjs"):
            shutil.copy(os.path.join(src, name), TOOLDIR)
        try:
            with open(stamp, "rb") as f:
                if f.read() == want:
                    return
        except FileNotFoundError:
            pass
        p = subprocess.run(["npm", "ci", "--no-audit", "--no-fund",
                            "--loglevel=error"], cwd=TOOLDIR,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError("npm ci failed:\n" + p.stdout + p.stderr)
        with open(stamp, "wb") as f:
            f.write(want)


def run_check(*args):
    """Runs check.mjs; returns (exit status, its output)."""
    p = subprocess.run(["node", os.path.join(TOOLDIR, "check.mjs")] +
                       list(args), capture_output=True, text=True,
                       timeout=120, cwd=TOOLDIR)
    return p.returncode, p.stdout + p.stderr


def tool(name):
    return os.path.join(TOOLDIR, "node_modules", ".bin", name)


# No telemetry, no update check: the tests talk to nobody.
QUIET = dict(os.environ, REDOCLY_TELEMETRY="off",
             REDOCLY_SUPPRESS_UPDATE_NOTICE="true", NO_UPDATE_NOTIFIER="1")


def lint(doc):
    """@redocly/cli lint of doc with the recommended rules: (errors,
    warnings, the problems as text)."""
    p = subprocess.run([tool("redocly"), "lint", "--extends=recommended",
                        "--format=json", doc], capture_output=True,
                       text=True, timeout=120, cwd=TOOLDIR, env=QUIET)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        raise RuntimeError("redocly lint: %d\n%s%s" % (p.returncode,
                                                        p.stdout, p.stderr))
    text = "\n".join("%s %s: %s %s" % (x["severity"], x["ruleId"],
                                        x["message"], [loc.get("pointer")
                                                       for loc in
                                                       x["location"]])
                     for x in report["problems"])
    return report["totals"]["errors"], report["totals"]["warnings"], text


def compile_client(doc, name, workdir):
    """t/openapi/client-NAME.ts, compiled by tsc --strict in workdir
    against NAME.d.ts, the types openapi-typescript generates from doc:
    (exit status, output)."""
    os.makedirs(workdir, exist_ok=True)
    client = "client-%s.ts" % name
    shutil.copy(os.path.join(lzenv.SRCDIR, "t", "openapi", client), workdir)
    p = subprocess.run([tool("openapi-typescript"), doc, "-o",
                        os.path.join(workdir, name + ".d.ts")],
                       capture_output=True, text=True, timeout=120,
                       cwd=workdir, env=QUIET)
    if p.returncode != 0:
        return p.returncode, p.stdout + p.stderr
    p = subprocess.run([tool("tsc"), "--strict", "--noEmit",
                        "--target", "ES2022", "--module", "ES2022",
                        "--moduleResolution", "bundler",
                        "--lib", "ES2022,DOM", client],
                       capture_output=True, text=True, timeout=300,
                       cwd=workdir, env=QUIET)
    return p.returncode, p.stdout + p.stderr


def assert_tools_pass(test, inst, doc, name):
    """doc has no lint error or warning, and client-NAME.ts compiles
    against its generated types."""
    errors, warnings, text = lint(doc)
    test.assertEqual((errors, warnings), (0, 0), text)
    rc, out = compile_client(doc, name, inst.path("client"))
    test.assertEqual(rc, 0, out)


def load_document(path):
    """The validators installed, and the OpenAPI document at path."""
    install_validators()
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def assert_served_document(test, inst, body, doc):
    """body (a served document) is the file doc, and valid OpenAPI 3.1."""
    with open(doc, "rb") as f:
        test.assertEqual(body, f.read())
    path = inst.path("served.json")
    with open(path, "wb") as f:
        f.write(body)
    rc, out = run_check(path)
    test.assertEqual(rc, 0, out)
    test.assertIn("document valid", out)


class Recorder:
    """Live answers and request bodies, checked together by check.mjs."""

    def __init__(self):
        self.records = []

    def answer(self, template, r, url=None, method=None, component=None,
               schema=None):
        """Records lzenv.Response r as the answer of the operation
        (template, method: None is GET), or of the response component
        named component, or as a body of the schema component named
        schema.  A body that is not JSON is recorded as null."""
        body = None
        if r.body and r.header("content-type", "").startswith(
                "application/json"):
            body = r.json()
        rec = {"path": template, "status": r.status, "body": body,
               "headers": r.headers}
        if url is not None:
            rec["url"] = url
        if method is not None:
            rec["method"] = method.lower()
        if component is not None:
            rec["component"] = component
        if schema is not None:
            rec["schema"] = "#/components/schemas/" + schema
        self.records.append(rec)
        return r

    def request(self, template, method, body, valid):
        """Records a request body the service accepted (valid) or
        refused; the document's request schema must agree."""
        self.records.append({"request": True, "path": template,
                             "method": method.lower(), "body": body,
                             "valid": bool(valid)})

    def check(self, test, doc, where):
        """Writes the records to the file where and checks them against
        the document doc; fails test on any mismatch."""
        with open(where, "w", encoding="utf-8") as f:
            json.dump(self.records, f, ensure_ascii=False)
        rc, out = run_check(doc, where)
        test.assertEqual(rc, 0, out)
        n = sum(1 for x in self.records if not x.get("request"))
        test.assertIn("%d responses checked" % n, out)
        n = sum(1 for x in self.records if x.get("request"))
        if n:
            test.assertIn("%d request bodies checked" % n, out)
        return out


ROUTE = re.compile(r'\{\s*((?:LZ_M_[A-Z]+\s*\|?\s*)+),\s*"([^"]+)"')


def routes(main_c, prefix):
    """(path template, method) of every row of the routes[] table in
    main_c whose pattern starts with prefix; ":name" becomes "{name}",
    methods lower-case as in OpenAPI."""
    with open(main_c, encoding="utf-8") as f:
        text = f.read()
    out = set()
    for methods, pattern in ROUTE.findall(text):
        if not pattern.startswith(prefix):
            continue
        path = re.sub(r":(\w+)", r"{\1}", pattern)
        for m in re.findall(r"LZ_M_([A-Z]+)", methods):
            out.add((path, m.lower()))
    return out


def operations(doc):
    """(path template, method) of every operation of an OpenAPI doc."""
    verbs = {"get", "put", "post", "delete", "options", "head", "patch",
             "trace"}
    return {(p, m) for p, item in doc["paths"].items() for m in item
            if m in verbs}
