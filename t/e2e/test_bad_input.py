"""The bad-input catalog: a table of malformed requests across every
endpoint of both services and nginx in front of them, sent through real
nginx to the real pools.

Each case names the status it must get and, for JSON answers, the
DESIGN 3.1 error code (the body is checked whole: ok false, error, a
message, the request id of the X-Request-Id header).  Short links answer
visitors with HTML pages by design (404, 405, 410 and the password form's
400/403/413): for those the case says HTML.

After the run:
  - no answer was a 5xx, neither to the client nor in nginx's access log;
  - no worker died: the pools have the workers they had before, and their
    logs report no death;
  - no data changed: every table of links.db is as it was, except what
    the requests are meant to count even when refused -- the monthly API
    call counts (usage; DESIGN 3.3 counts every authenticated call), the
    keys' last use and sessions' last activity, and the tries at
    passwords (throttles: failed sign-ins, wrong link passwords) -- and
    prompts.db is byte for byte the same.

Cases come in families, one line each, so a new endpoint is a few more
lines.  The prompt library limits requests per client address; every
case comes from its own address (X-Forwarded-For from nginx, a trusted
proxy here) so the limiter never answers in place of the validation.
"""

import datetime
import hashlib
import json
import os
import re
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lzenv  # noqa: E402

CONF = """trusted_proxies = 127.0.0.1
plan.big.quota = 1000000
plan.big.links = 1000000
"""

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def well_formed_key(body):
    """An API key with a valid checksum (keys.c) that no account has."""
    s = "lk_live_" + body
    h = hashlib.blake2b(s.encode(), digest_size=16).digest()
    v = int.from_bytes(h[:4], "big")
    out = ""
    for _ in range(6):
        out = B62[v % 62] + out
        v //= 62
    return s + out


class Case:
    """One malformed request and the answer it must get.

    want is an error code (JSON answer), "HTML" (a visitor's page) or
    None (only the status is checked: a HEAD answer has no body)."""

    def __init__(self, name, service, method, path, status, want,
                 headers=None, body=None, raw=None):
        self.name = name
        self.service = service          # "links" or "prompts"
        self.method = method
        self.path = path
        self.status = status
        self.want = want
        self.headers = headers or {}
        self.body = body
        self.raw = raw                  # bytes sent as they are


HTML = "HTML"
CASES = []


def add(*args, **kw):
    CASES.append(Case(*args, **kw))


def jbody(obj):
    return json.dumps(obj).encode()


# ---- lz-links: /api/v1/links ------------------------------------------
#
# Headers name placeholders filled in at run time: {KEY} is account A's
# key, {REVOKED} a revoked key, {LINK_A} A's link, {LINK_B} B's link.

AUTH = {"Authorization": "Bearer {KEY}"}
JSON_CT = {"Content-Type": "application/json"}


def api(name, method, path, status, code, body=None, headers=None,
        auth=True, ctype=True):
    h = {}
    if auth:
        h.update(AUTH)
    if body is not None and ctype:
        h.update(JSON_CT)
    h.update(headers or {})
    if isinstance(body, (dict, list)):
        body = jbody(body)
    elif isinstance(body, str):
        body = body.encode()
    add(name, "links", method, path, status, code, headers=h, body=body)


def create(name, body, status, code, **kw):
    api("create: " + name, "POST", "/api/v1/links", status, code, body,
        **kw)


def field(name, value, code="invalid_field", status=400, base=None):
    """A create body with one field set to value."""
    b = dict(base or {"target_url": "https://example.com/"})
    b[name] = value
    create("%s=%s" % (name, json.dumps(value)[:40]), b, status, code)


# Authentication, on every route that takes a key.
KEY_ROUTES = [("POST", "/api/v1/links"), ("GET", "/api/v1/links"),
              ("GET", "/api/v1/links/{LINK_A}"),
              ("PATCH", "/api/v1/links/{LINK_A}"),
              ("DELETE", "/api/v1/links/{LINK_A}"),
              ("GET", "/api/v1/links/{LINK_A}/stats"),
              ("GET", "/api/v1/links/{LINK_A}/qr"),
              ("GET", "/api/v1/links/{LINK_A}/clicks"),
              ("GET", "/api/v1/domains"), ("POST", "/api/v1/domains"),
              ("GET", "/api/v1/domains/127.0.0.1"),
              ("PATCH", "/api/v1/domains/127.0.0.1"),
              ("DELETE", "/api/v1/domains/127.0.0.1"),
              ("POST", "/api/v1/domains/127.0.0.1/verify"),
              ("GET", "/api/v1/tags"), ("PATCH", "/api/v1/tags/x"),
              ("DELETE", "/api/v1/tags/x"), ("GET", "/api/v1/stats")]
BAD_AUTH = [
    ("no Authorization", None, "missing_api_key"),
    ("empty Authorization", "", "missing_api_key"),
    ("Basic scheme", "Basic dXNlcjpwYXNz", "invalid_api_key"),
    ("Bearer without key", "Bearer ", "invalid_api_key"),
    ("key without scheme", "{KEY}", "invalid_api_key"),
    ("wrong checksum", "Bearer lk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAA",
     "invalid_api_key"),
    ("test prefix", "Bearer lk_test_" + "A" * 28, "invalid_api_key"),
    ("key twice", "Bearer {KEY}{KEY}", "invalid_api_key"),
    ("SQL in key", "Bearer ' OR 1=1 --", "invalid_api_key"),
    ("unknown well-formed key", "Bearer " + well_formed_key("Z" * 22),
     "invalid_api_key"),
    ("revoked key", "Bearer {REVOKED}", "revoked_api_key"),
    ("Latin-1 bytes", "Bearer \xff\xfe", "invalid_api_key"),
]
for method, path in KEY_ROUTES:
    for what, value, code in BAD_AUTH:
        h = {} if value is None else {"Authorization": value}
        api("%s %s: %s" % (method, path, what), method, path, 401, code,
            body={"target_url": "https://example.com/"}
            if method in ("POST", "PATCH") else None, headers=h, auth=False)

# Methods the routes do not take.
for method, path in [("PUT", "/api/v1/links"), ("PATCH", "/api/v1/links"),
                     ("DELETE", "/api/v1/links"),
                     ("POST", "/api/v1/links/{LINK_A}"),
                     ("PUT", "/api/v1/links/{LINK_A}"),
                     ("POST", "/api/v1/links/{LINK_A}/stats"),
                     ("POST", "/api/v1/links/{LINK_A}/qr"),
                     ("PATCH", "/api/v1/links/{LINK_A}/qr"),
                     ("DELETE", "/api/v1/links/{LINK_A}/clicks"),
                     ("POST", "/api/v1/links/{LINK_A}/clicks"),
                     ("DELETE", "/api/v1/links/{LINK_A}/stats"),
                     ("FOO", "/api/v1/links"),
                     ("PROPFIND", "/api/v1/links/{LINK_A}")]:
    api("%s %s" % (method, path), method, path, 405, "method_not_allowed")

# Short domains (DESIGN 3.12): bodies, hosts, and the instance's domains
# that an account may not change.
for name, body, status, code in [
        ("no host", {}, 400, "missing_field"),
        ("host a number", {"host": 5}, 400, "invalid_field"),
        ("host empty", {"host": ""}, 400, "invalid_field"),
        ("host with a space", {"host": "a b"}, 400, "invalid_field"),
        ("host a URL", {"host": "https://x.test/"}, 400, "invalid_field"),
        ("host with a port", {"host": "x.test:80"}, 400, "invalid_field"),
        ("host 300 long", {"host": "a" * 300}, 400, "invalid_field"),
        ("host of bad IDN", {"host": "\u200dx.test"}, 400, "invalid_field"),
        ("unknown field", {"host": "x.test", "x": 1}, 400, "unknown_field"),
        ("the default domain", {"host": "127.0.0.1"}, 409, "domain_taken"),
        ("an array", [], 400, "invalid_json"),
        ("not JSON", "{", 400, "invalid_json")]:
    api("add domain: " + name, "POST", "/api/v1/domains", status, code, body)
for method, path, status, code, body in [
        ("GET", "/api/v1/domains/nope.test", 404, "not_found", None),
        ("GET", "/api/v1/domains/a%20b", 404, "not_found", None),
        ("GET", "/api/v1/domains/%FF", 400, "invalid_path", None),
        ("GET", "/api/v1/domains?x=1", 400, "unknown_parameter", None),
        ("GET", "/api/v1/domains/127.0.0.1?x=1", 400, "unknown_parameter",
         None),
        ("PATCH", "/api/v1/domains/127.0.0.1", 403, "forbidden",
         {"root_url": None}),
        ("PATCH", "/api/v1/domains/nope.test", 404, "not_found",
         {"root_url": None}),
        ("PATCH", "/api/v1/domains/127.0.0.1", 400, "unknown_field",
         {"host": "x.test"}),
        ("PATCH", "/api/v1/domains/127.0.0.1", 400, "invalid_field",
         {"assetlinks": {}}),
        ("DELETE", "/api/v1/domains/127.0.0.1", 403, "forbidden", None),
        ("POST", "/api/v1/domains/nope.test/verify", 404, "not_found", None),
        ("POST", "/api/v1/domains/127.0.0.1/verify", 403, "forbidden", None),
        ("PUT", "/api/v1/domains", 405, "method_not_allowed", None),
        ("GET", "/api/v1/domains/127.0.0.1/verify", 405,
         "method_not_allowed", None),
        ("GET", "/api/v1/links?domain=nope.test", 400, "invalid_parameter",
         None),
        ("GET", "/api/v1/links?domain=a%20b", 400, "invalid_parameter",
         None)]:
    api("domain: %s %s (%s)" % (method, path, code), method, path, status,
        code, body)
for name, value, code in [("domain", "nope.test", "invalid_field"),
                          ("domain", 5, "invalid_field"),
                          ("domain", "a b", "invalid_field"),
                          ("domain", "x" * 300, "invalid_field"),
                          ("expired_url", "ftp://x.test/",
                           "unsafe_destination"),
                          ("expired_url", "not a url", "invalid_url"),
                          ("expired_url", 5, "invalid_field")]:
    field(name, value, code)

# Tags, notes, the archive (DESIGN 3.13).
for name, value in [("tags", ["t%d" % i for i in range(21)]),
                    ("tags", ["x" * 65]), ("tags", ["a\u0001b"]),
                    ("tags", ["a/b"]), ("tags", [""]), ("tags", [5]),
                    ("tags", "x"), ("tags", {"a": 1}), ("tags", [["a"]]),
                    ("notes", "x" * 2001), ("notes", "a\u0007b"),
                    ("notes", 5), ("archived", "yes"), ("archived", 1)]:
    field(name, value)
for method, path, status, code, body in [
        ("GET", "/api/v1/links?tag=a%2Fb", 400, "invalid_parameter", None),
        ("GET", "/api/v1/links?tag=", 400, "invalid_parameter", None),
        ("GET", "/api/v1/links?" + "&".join("tag=t%d" % i
                                            for i in range(21)), 400,
         "invalid_parameter", None),
        ("GET", "/api/v1/links?archived=yes", 400, "invalid_parameter",
         None),
        ("GET", "/api/v1/links?archived=1&archived=2", 400,
         "duplicate_parameter", None),
        ("GET", "/api/v1/tags?x=1", 400, "unknown_parameter", None),
        ("PATCH", "/api/v1/tags/nothing", 404, "not_found", {"name": "x"}),
        ("PATCH", "/api/v1/tags/a%2Fb", 404, "not_found", {"name": "x"}),
        ("PATCH", "/api/v1/tags/x", 400, "missing_field", {}),
        ("PATCH", "/api/v1/tags/x", 400, "unknown_field",
         {"name": "y", "z": 1}),
        ("PATCH", "/api/v1/tags/x", 400, "invalid_json", "{"),
        ("DELETE", "/api/v1/tags/nothing", 404, "not_found", None),
        ("DELETE", "/api/v1/tags/x?y=1", 400, "unknown_parameter", None),
        ("PUT", "/api/v1/tags", 405, "method_not_allowed", None),
        ("GET", "/api/v1/tags/x", 405, "method_not_allowed", None)]:
    api("tags: %s %s (%s)" % (method, path[:60], code), method, path,
        status, code, body)

# The statistics across links (lz-links(8)): each parameter's bounds.
for query, param, code in (
        ("tag=" + "x" * 129, "tag", "invalid_parameter"),
        ("tag=" + "x" * 65, "tag", "invalid_parameter"),
        ("tag=a%01b", "tag", "invalid_query"),
        ("tag=a%2Fb", "tag", "invalid_parameter"),
        ("tag=", "tag", "invalid_parameter"),
        ("tag=a&tag=b", "tag", "duplicate_parameter"),
        ("domain=", "domain", "invalid_parameter"),
        ("domain=not-mine.example", "domain", "invalid_parameter"),
        ("domain=a%00b", "domain", "invalid_query"),
        ("interval=week", "interval", "invalid_parameter"),
        ("from=yesterday", "from", "invalid_parameter"),
        ("from=2030-01-02&to=2030-01-01", "from", "invalid_parameter"),
        ("from=2000-01-01&interval=hour", "from", "invalid_parameter"),
        ("link=1", "link", "unknown_parameter")):
    api("stats: %s [%d] (%s, %s)" % (query[:40], len(query), param, code),
        "GET",
        "/api/v1/stats?" + query, 400, code, None)
for method in ("POST", "PUT", "PATCH", "DELETE"):
    api("%s /api/v1/stats" % method, method, "/api/v1/stats", 405,
        "method_not_allowed", None)

# The API's OpenAPI document: no key needed, GET and HEAD only, no query.
for method in ("POST", "PUT", "DELETE", "PATCH"):
    api("%s /api/v1/openapi.json" % method, method, "/api/v1/openapi.json",
        405, "method_not_allowed", auth=False)
for query, code in (("v=2", "unknown_parameter"),
                    ("a=1&a=2", "duplicate_parameter"),
                    ("a=%FF", "invalid_query"), ("a=%01", "invalid_query")):
    api("openapi.json?" + query, "GET", "/api/v1/openapi.json?" + query, 400,
        code, auth=False)

# Paths that are no route.
for path in ["/api", "/api/", "/api/v2/links", "/api/v1/openapi.json/x",
             "/api/v1/openapi", "/api/v1", "/api/v1/",
             "/api/v1/link", "/api/v1/links/{LINK_A}/stats/x",
             "/api/v1/links/{LINK_A}/qr/x", "/api/v1/links/{LINK_A}/clicks/1",
             "/api/v1/links/{LINK_A}/qr.png",
             "/api/v1/links/{LINK_A}/x", "/api/v1/links//", "/api/v1/LINKS",
             "/api/v1/links/%2e%2e/links", "/api/conv/extra/deep"]:
    api("no route " + path, "GET", path, 404, "not_found")

# Malformed paths: percent-escapes, %00, overlong UTF-8, controls.
for path in ["/api/v1/links/%C0%AE%C0%AE",
             "/api/v1/links/%E0%80%AF", "/api/v1/links/%FF",
             "/api/v1/links/%ED%A0%80", "/api/v1/links/%01",
             "/api/v1/links/%7F", "/api/v1/links/%F4%90%80%80",
             "/api/v1/links/%C3", "/api/v1/links/%C3%28"]:
    api("bad path " + path, "GET", path, 400, "invalid_path")
# What nginx refuses before any pool sees it: escapes that are no
# escapes, %00, a space in the path.
for path in ["/api/v1/links/%zz", "/api/v1/links/%", "/api/v1/links/%0",
             "/api/v1/links/%00", "/api/v1/links/1 2", "/api/v1/links/a%00b"]:
    api("nginx refuses path " + path, "GET", path, 400, "bad_request")

# Link ids: not a positive integer, too big, someone else's, none.
for ident in ["0", "-1", "abc", "01", "1.0", "1e3", "0x10", "+1",
              "9223372036854775808", "99999999999999999999999",
              "1%20", "%201", "1;DROP%20TABLE%20links", "{LINK_B}",
              "9223372036854775807"]:
    api("get id " + ident, "GET", "/api/v1/links/" + ident, 404,
        "not_found")
for ident in ["0", "abc", "{LINK_B}", "9223372036854775807"]:
    api("delete id " + ident, "DELETE", "/api/v1/links/" + ident, 404,
        "not_found")
    api("stats id " + ident, "GET", "/api/v1/links/%s/stats" % ident, 404,
        "not_found")
    api("edit id " + ident, "PATCH", "/api/v1/links/" + ident, 404,
        "not_found", body={"title": "x"})
    api("qr id " + ident, "GET", "/api/v1/links/%s/qr" % ident, 404,
        "not_found")
    api("clicks id " + ident, "GET", "/api/v1/links/%s/clicks" % ident, 404,
        "not_found")
api("edit a deleted link", "PATCH", "/api/v1/links/{LINK_DELETED}", 404,
    "not_found", body={"title": "x"})
api("qr of a deleted link", "GET", "/api/v1/links/{LINK_DELETED}/qr", 404,
    "not_found")

# The list's query string.
for qs, code in [
        ("limit=0", "invalid_parameter"), ("limit=101", "invalid_parameter"),
        ("limit=-1", "invalid_parameter"), ("limit=abc", "invalid_parameter"),
        ("limit=", "invalid_parameter"), ("limit=1e2", "invalid_parameter"),
        ("limit=%2B5", "invalid_parameter"),
        ("limit=%205", "invalid_parameter"),
        ("limit=9223372036854775808", "invalid_parameter"),
        ("limit=1&limit=2", "duplicate_parameter"),
        ("Limit=1", "unknown_parameter"), ("foo=1", "unknown_parameter"),
        ("limit%00=1", "invalid_query"), ("limit=1%00", "invalid_query"),
        ("limit=%zz", "invalid_query"), ("limit=%C0%B1", "invalid_query"),
        ("limit=%FF", "invalid_query"), ("%E2%80=1", "invalid_query"),
        ("cursor=", "invalid_parameter"),
        ("cursor=!!!", "invalid_parameter"),
        ("cursor=MA", "invalid_parameter"),         # "0"
        ("cursor=LTE", "invalid_parameter"),        # "-1"
        ("cursor=YWJj", "invalid_parameter"),       # "abc"
        ("cursor=" + "A" * 65, "invalid_parameter"),
        ("cursor='+OR+1=1+--", "invalid_parameter"),
        ("cursor=%27%20OR%201%3D1%20--", "invalid_parameter"),
        ("limit=1;DROP+TABLE+links", "invalid_parameter"),
        ("limit=1%3BDROP%20TABLE%20links", "invalid_parameter"),
        # Searches and status filters (DESIGN 3.9).
        ("q=", "invalid_parameter"), ("q=" + "q" * 201, "invalid_parameter"),
        ("q=" + "%E6%96%87" * 201, "invalid_parameter"),
        ("q=a%00b", "invalid_query"), ("q=a%07b", "invalid_query"),
        ("q=%C0%AF", "invalid_query"), ("q=%ED%A0%80", "invalid_query"),
        ("q=a&q=b", "duplicate_parameter"), ("Q=a", "unknown_parameter"),
        ("status=", "invalid_parameter"),
        ("status=Active", "invalid_parameter"),
        ("status=deleted", "invalid_parameter"),
        ("status=active,expired", "invalid_parameter"),
        ("status=0", "invalid_parameter"),
        ("status=active&status=capped", "duplicate_parameter")]:
    api("list ?" + qs, "GET", "/api/v1/links?" + qs, 400, code)
for qs in ["x=1", "limit=1"]:
    api("get with ?" + qs, "GET", "/api/v1/links/{LINK_A}?" + qs, 400,
        "unknown_parameter")
    api("delete with ?" + qs, "DELETE", "/api/v1/links/{LINK_A}?" + qs,
        400, "unknown_parameter")
    api("edit with ?" + qs, "PATCH", "/api/v1/links/{LINK_A}?" + qs, 400,
        "unknown_parameter", body={"title": "x"})

# QR codes: formats, sizes, margins, levels, suffixes.
for qs, code in [
        ("format=gif", "invalid_parameter"),
        ("format=SVG", "invalid_parameter"),
        ("format=", "invalid_parameter"), ("size=63", "invalid_parameter"),
        ("size=2049", "invalid_parameter"), ("size=0", "invalid_parameter"),
        ("size=-64", "invalid_parameter"), ("size=512px", "invalid_parameter"),
        ("size=99999999999999999999", "invalid_parameter"),
        ("size=5e2", "invalid_parameter"), ("size=0512", "invalid_parameter"),
        ("margin=17", "invalid_parameter"), ("margin=-1", "invalid_parameter"),
        ("margin=", "invalid_parameter"), ("ecc=m", "invalid_parameter"),
        ("ecc=X", "invalid_parameter"), ("ecc=LM", "invalid_parameter"),
        ("suffix=", "invalid_parameter"),
        ("suffix=a%20b", "invalid_parameter"),
        ("suffix=a/b", "invalid_parameter"), ("suffix=" + "s" * 65,
                                               "invalid_parameter"),
        ("suffix=%3Cscript%3E", "invalid_parameter"),
        ("suffix=%E6%96%87", "invalid_parameter"),
        ("suffix=a%00", "invalid_query"), ("size=1&size=2",
                                           "duplicate_parameter"),
        ("width=100", "unknown_parameter")]:
    api("qr ?" + qs, "GET", "/api/v1/links/{LINK_A}/qr?" + qs, 400, code)

# Raw clicks: times, pages, formats.
for qs, code in [
        ("from=yesterday", "invalid_parameter"),
        ("from=2030-02-30", "invalid_parameter"),
        ("to=2020-01-01&from=2021-01-01", "invalid_parameter"),
        ("from=2020-01-01&to=2020-01-01", "invalid_parameter"),
        ("to=1969-12-31", "invalid_parameter"),
        ("limit=0", "invalid_parameter"), ("limit=1001", "invalid_parameter"),
        ("limit=x", "invalid_parameter"),
        ("cursor=", "invalid_parameter"), ("cursor=MA", "invalid_parameter"),
        ("cursor=MTIz", "invalid_parameter"),          # "123": one number
        ("cursor=MS4yLjM", "invalid_parameter"),       # "1.2.3"
        ("cursor=MC4x", "invalid_parameter"),          # "0.1"
        ("cursor=LTEuMQ", "invalid_parameter"),        # "-1.1"
        ("cursor=" + "A" * 65, "invalid_parameter"),
        ("format=xlsx", "invalid_parameter"), ("format=CSV",
                                               "invalid_parameter"),
        ("format=csv&limit=10", "invalid_parameter"),
        ("format=csv&cursor=MS4x", "invalid_parameter"),
        ("format=csv&format=json", "duplicate_parameter"),
        ("visitor=1", "unknown_parameter")]:
    api("clicks ?" + qs, "GET", "/api/v1/links/{LINK_A}/clicks?" + qs, 400,
        code)

# Edits: a JSON merge patch under the rules of create.
def edit(name, body, status, code, **kw):
    api("edit: " + name, "PATCH", "/api/v1/links/{LINK_A}", status, code,
        body, **kw)


edit("no content type", {"title": "x"}, 415, "unsupported_media_type",
     ctype=False)
for ct in ["text/plain", "application/merge-patch", "application/patch+json",
           "application/json-patch+json", "application/merge-patch+jsonx",
           "application/merge-patch+json; charset=latin-1"]:
    edit("Content-Type " + ct, {"title": "x"}, 415, "unsupported_media_type",
         headers={"Content-Type": ct})
for what, body in [
        ("empty body", ""), ("truncated", '{"title": "x"'),
        ("array", '[{"op": "replace", "path": "/title", "value": "x"}]'),
        ("null", "null"), ("string", '"x"'),
        ("duplicate key", '{"title": "a", "title": "b"}'),
        ("invalid UTF-8", b'{"title": "\xff"}'),
        ("depth bomb", "[" * 30000 + "]" * 30000)]:
    edit(what, body, 400, "invalid_json")
edit("body over 64 KiB", {"title": "x" * 70000}, 413, "body_too_large")
for name in ["slug", "id", "short_url", "has_password", "status",
             "created_at", "stats"]:
    for value in ["x", None, 1]:
        edit("read-only %s=%s" % (name, json.dumps(value)), {name: value},
             400, "read_only_field")
for what, body, code in [
        ("unknown key", {"foo": 1}, "unknown_field"),
        ("unknown key set to null", {"foo": None}, "unknown_field"),
        ("unknown key, upper case", {"Title": "x"}, "unknown_field"),
        ("target_url null", {"target_url": None}, "missing_field"),
        ("target_url number", {"target_url": 1}, "invalid_field"),
        ("target_url loopback", {"target_url": "http://127.0.0.1/"},
         "unsafe_destination"),
        ("target_url javascript", {"target_url": "javascript:alert(1)"},
         "unsafe_destination"),
        ("target_url shortener", {"target_url": "https://bit.ly/x"},
         "unsafe_destination"),
        ("mode ab without variants", {"mode": "ab"}, "missing_field"),
        ("variants without mode", {"variants": {"ios": "https://a.example/"}},
         "invalid_field"),
        ("mode device, variants an array", {"mode": "device", "variants":
                                            ["https://a.example/"]},
         "invalid_field"),
        ("ab: unsafe variant", {"mode": "ab", "variants": [
            {"url": "http://10.0.0.1/", "weight": 1},
            {"url": "https://b.example/", "weight": 1}]},
         "unsafe_destination"),
        ("redirect_type 303", {"redirect_type": 303}, "invalid_field"),
        ("max_clicks -1", {"max_clicks": -1}, "invalid_field"),
        ("max_clicks string", {"max_clicks": "5"}, "invalid_field"),
        ("pixel_ga script", {"pixel_ga": "G-</script>"}, "invalid_field"),
        ("og unknown key", {"og": {"titel": "x"}}, "unknown_field"),
        ("og.image javascript", {"og": {"image": "javascript:1"}},
         "invalid_url"),
        ("utm unknown key", {"utm": {"id": "x"}}, "unknown_field"),
        ("utm array", {"utm": []}, "invalid_field"),
        ("expires_at past", {"expires_at": "2001-01-01T00:00:00Z"},
         "invalid_field"),
        ("expires_at without zone", {"expires_at": "2099-01-01T00:00:00"},
         "invalid_field"),
        ("password short", {"password": "abc"}, "invalid_field"),
        ("password number", {"password": 1234}, "invalid_field"),
        ("title control character", {"title": "a\u0007b"}, "invalid_field"),
        ("escape_inapp string", {"escape_inapp": "yes"}, "invalid_field")]:
    edit(what, body, 400, code)

# Statistics: times out of range, bad intervals.
for qs, code in [
        ("interval=week", "invalid_parameter"),
        ("interval=", "invalid_parameter"),
        ("interval=HOUR", "invalid_parameter"),
        ("from=yesterday", "invalid_parameter"),
        ("from=2030-13-01", "invalid_parameter"),
        ("from=2030-02-30", "invalid_parameter"),
        ("from=2030-01-01T25:00:00Z", "invalid_parameter"),
        ("from=2030-01-01T00:60:00Z", "invalid_parameter"),
        ("from=2030-01-01T00:00:00", "invalid_parameter"),
        ("from=2030-01-01T00:00:00%2B24:00", "invalid_parameter"),
        ("from=1969-12-31T23:59:59Z", "invalid_parameter"),
        ("from=10000-01-01T00:00:00Z", "invalid_parameter"),
        ("from=-2020-01-01", "invalid_parameter"),
        ("from=%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%95-01-01",
         "invalid_parameter"),
        ("to=2020-01-01&from=2021-01-01", "invalid_parameter"),
        ("from=2020-01-01&to=2020-01-01", "invalid_parameter"),
        ("from=2000-01-01&interval=hour", "invalid_parameter"),
        ("to=0", "invalid_parameter"),
        ("to=" + "9" * 41, "invalid_parameter"),
        ("from=2030-01-01&from=2030-01-02", "duplicate_parameter"),
        ("from=2030-01-01%00", "invalid_query"),
        ("bucket=day", "unknown_parameter")]:
    api("stats ?" + qs, "GET", "/api/v1/links/{LINK_A}/stats?" + qs, 400,
        code)

# Create: content types, body sizes, JSON syntax.
create("no content type", {"target_url": "https://example.com/"}, 415,
       "unsupported_media_type", ctype=False)
for ct in ["text/plain", "application/x-www-form-urlencoded",
           "multipart/form-data; boundary=x", "application/jsonx",
           "application/json; charset=latin-1", "application/xml",
           "json", "application/json, text/plain", "*/*",
           "application/ld+json"]:
    create("Content-Type " + ct, {"target_url": "https://example.com/"},
           415, "unsupported_media_type",
           headers={"Content-Type": ct})
for what, body in [
        ("empty body", ""), ("whitespace", "   "),
        ("truncated", '{"target_url": "https://example.com/"'),
        ("trailing garbage", '{"target_url": "https://example.com/"} x'),
        ("two objects", '{"target_url": "https://a.example/"}{}'),
        ("single quotes", "{'target_url': 'https://example.com/'}"),
        ("unquoted key", '{target_url: "https://example.com/"}'),
        ("trailing comma", '{"target_url": "https://example.com/",}'),
        ("comment", '{"target_url": "https://example.com/" /* x */}'),
        ("NaN", '{"target_url": "https://example.com/", "max_clicks": NaN}'),
        ("Infinity", '{"target_url": "https://e.example/", '
         '"max_clicks": Infinity}'),
        ("duplicate key", '{"target_url": "https://a.example/", '
         '"target_url": "https://b.example/"}'),
        ("duplicate nested key", '{"target_url": "https://a.example/", '
         '"og": {"title": "a", "title": "b"}}'),
        ("array", '["https://example.com/"]'), ("string", '"x"'),
        ("number", "42"), ("null", "null"), ("true", "true"),
        ("invalid UTF-8", b'{"target_url": "https://example.com/\xff"}'),
        ("overlong UTF-8", b'{"target_url": "https://e.example/\xc0\xaf"}'),
        ("UTF-16 surrogate escape", '{"target_url": "https://e.example/",'
         ' "title": "\\ud800"}'),
        ("escaped NUL", '{"target_url": "https://e.example/\\u0000x"}'),
        ("raw NUL", b'{"target_url": "https://e.example/"}\x00'),
        ("raw control in string", '{"target_url": "https://e.example/",'
         ' "title": "a\x01b"}'),
        ("BOM", b'\xef\xbb\xbf{"target_url": "https://example.com/"}'),
        ("integer too big", '{"target_url": "https://e.example/", '
         '"max_clicks": 9223372036854775808}'),
        ("integer too small", '{"target_url": "https://e.example/", '
         '"max_clicks": -9223372036854775809}'),
        ("real overflow", '{"target_url": "https://e.example/", '
         '"max_clicks": 1e400}'),
        ("depth bomb", "[" * 30000 + "]" * 30000),
        ("depth bomb in a field", '{"target_url": "https://e.example/", '
         '"og": ' + '{"a":' * 5000 + "1" + "}" * 5000 + "}"),
        ("unterminated string", '{"target_url": "https://e.example/}'),
        ("bad escape", '{"target_url": "https:\\/\\/e.example\\q"}')]:
    create(what, body, 400, "invalid_json")
create("body over 64 KiB", {"target_url": "https://example.com/",
                            "title": "x" * 70000}, 413, "body_too_large")

# Create: types and values of every field.
create("empty object", {}, 400, "missing_field")
create("unknown key", {"target_url": "https://e.example/", "foo": 1}, 400,
       "unknown_field")
create("unknown key, upper case", {"target_url": "https://e.example/",
                                   "Slug": "x"}, 400, "unknown_field")
create("nested depth within limits",
       {"target_url": "https://e.example/", "variants":
        json.loads("[" * 500 + "]" * 500)}, 400, "invalid_field")
for value in [None, 42, True, [], {}, ["https://example.com/"]]:
    field("target_url", value)
for value in [42, []]:
    for name in ["slug", "title", "mode", "pixel_fb", "pixel_ga",
                 "pixel_gtm", "pixel_tiktok", "pixel_line", "expires_at",
                 "password"]:
        field(name, value)
for value in ["301", 301.0, 303, 0, -302, 3020, True,
              9223372036854775807]:
    field("redirect_type", value)
for value in [-1, "10", 1.5, True, 9223372036854775807, [1]]:
    field("max_clicks", value)
for value in ["true", 1, 0, "yes", {}]:
    field("escape_inapp", value)
# ("" and blanks are no slug: a random one is made, spec 2.1.)
for value in ["a b", "a/b", "a.b", "ü", "x" * 65, "%41",
              "'; DROP TABLE links; --", "<script>", "..", "\u202e",
              "a\tb", " a", "a\n"]:
    field("slug", value)
# \u0000 is refused by the JSON parser itself, wherever it is.
for name in ["slug", "mode", "title", "password"]:
    field(name, "a\u0000b", code="invalid_json")
for value in ["api", "dashboard", "static", "admin", "login",
              "favicon.ico", "robots.txt"]:
    field("slug", value, code="slug_reserved" if "." not in value else
          "invalid_field", status=409 if "." not in value else 400)
for value in ["SIMPLE", "foo", "", "simple ", "ab\t"]:
    field("mode", value)
for value in ["string", 1, True]:
    field("og", value)
for value in ["string", [], 1]:
    field("utm", value)
for what, body, code in [
        ("og unknown key", {"og": {"titel": "x"}}, "unknown_field"),
        ("og.title number", {"og": {"title": 1}}, "invalid_field"),
        ("og.image not a URL", {"og": {"image": "javascript:alert(1)"}},
         "invalid_url"),
        ("og.image relative", {"og": {"image": "/x.png"}}, "invalid_url"),
        ("utm unknown key", {"utm": {"id": "x"}}, "unknown_field"),
        ("utm.source 201 characters", {"utm": {"source": "s" * 201}},
         "invalid_field"),
        ("utm.medium object", {"utm": {"medium": {}}}, "invalid_field"),
        ("variants with mode simple", {"variants": []}, "invalid_field"),
        ("mode ab without variants", {"mode": "ab"}, "missing_field"),
        ("ab: one variant", {"mode": "ab", "variants": [
            {"url": "https://a.example/", "weight": 1}]}, "invalid_field"),
        ("ab: eleven variants", {"mode": "ab", "variants": [
            {"url": "https://a.example/", "weight": 1}] * 11},
         "invalid_field"),
        ("ab: weight 0", {"mode": "ab", "variants": [
            {"url": "https://a.example/", "weight": 0},
            {"url": "https://b.example/", "weight": 1}]}, "invalid_field"),
        ("ab: weight 101", {"mode": "ab", "variants": [
            {"url": "https://a.example/", "weight": 101},
            {"url": "https://b.example/", "weight": 1}]}, "invalid_field"),
        ("ab: weight string", {"mode": "ab", "variants": [
            {"url": "https://a.example/", "weight": "1"},
            {"url": "https://b.example/", "weight": 1}]}, "invalid_field"),
        ("ab: url missing", {"mode": "ab", "variants": [
            {"weight": 1}, {"url": "https://b.example/", "weight": 1}]},
         "missing_field"),
        ("ab: extra key", {"mode": "ab", "variants": [
            {"url": "https://a.example/", "weight": 1, "x": 1},
            {"url": "https://b.example/", "weight": 1}]}, "unknown_field"),
        ("ab: object", {"mode": "ab", "variants": {"a": 1}},
         "invalid_field"),
        ("ab: unsafe variant", {"mode": "ab", "variants": [
            {"url": "http://127.0.0.1/", "weight": 1},
            {"url": "https://b.example/", "weight": 1}]},
         "unsafe_destination"),
        ("device: unknown key", {"mode": "device",
                                 "variants": {"windows": "https://a.example/"}},
         "unknown_field"),
        ("device: array", {"mode": "device", "variants": []},
         "invalid_field"),
        ("device: empty", {"mode": "device", "variants": {}},
         "invalid_field"),
        ("device: url number", {"mode": "device", "variants": {"ios": 1}},
         "invalid_field"),
        ("geo: lower-case key", {"mode": "geo",
                                 "variants": {"tw": "https://a.example/"}},
         "invalid_field"),
        ("geo: three letters", {"mode": "geo",
                                "variants": {"TWN": "https://a.example/"}},
         "invalid_field"),
        ("geo: javascript URL", {"mode": "geo",
                                 "variants": {"TW": "javascript:alert(1)"}},
         "unsafe_destination"),
        ("pixel_fb letters", {"pixel_fb": "12ab34"}, "invalid_field"),
        ("pixel_fb too long", {"pixel_fb": "1" * 21}, "invalid_field"),
        ("pixel_ga script", {"pixel_ga": "G-</script><script>"},
         "invalid_field"),
        ("pixel_gtm quote", {"pixel_gtm": "GTM-\"x"}, "invalid_field"),
        ("pixel_tiktok short", {"pixel_tiktok": "ABC"}, "invalid_field"),
        ("pixel_line HTML", {"pixel_line": "<img src=x onerror=1>"},
         "invalid_field"),
        ("password too short", {"password": "abc"}, "invalid_field"),
        ("password too long", {"password": "p" * 129}, "invalid_field"),
        ("title too long", {"title": "t" * 5000}, "invalid_field"),
        ("title control character", {"title": "a\u0007b"},
         "invalid_field")]:
    b = {"target_url": "https://example.com/"}
    b.update(body)
    create(what, b, 400, code)
# Times: out of range, without a zone, in the past.
for value in ["tomorrow", "2030-13-01T00:00:00Z", "2030-02-29T00:00:00Z",
              "2030-01-32T00:00:00Z", "2030-01-01T24:00:00Z",
              "2030-01-01T23:60:00Z", "2030-01-01T23:59:61Z",
              "2030-01-01T00:00:00", "2030-01-01", "2030-01-01T00:00:00+25:00",
              "2030-01-01T00:00:00+05:60", "10000-01-01T00:00:00Z",
              "0000-01-01T00:00:00Z", "2000-01-01T00:00:00Z",
              "1970-01-01T00:00:00Z", "2030-01-01T00:00:00ZZ",
              "2030-01-01T00:00:00.Z", "２０３０-01-01T00:00:00Z",
              "2030-1-1T0:0:0Z", "9999-12-31T23:59:59-23:59",
              " 2030-01-01T00:00:00Z", "2030-01-01T00:00:00Z\n", "",
              "2030-01-01T00:00:00." + "1" * 100 + "Z"]:
    field("expires_at", value)
# Destinations the safety scan and the URL checks refuse.
for value, code in [
        ("", "invalid_url"), ("example.com", "invalid_url"),
        ("/relative", "invalid_url"), ("https://", "invalid_url"),
        ("https://exa mple.com/", "invalid_url"),
        ("javascript:alert(1)", "unsafe_destination"),
        ("data:text/html,<script>alert(1)</script>", "unsafe_destination"),
        ("file:///etc/passwd", "unsafe_destination"),
        ("ftp://example.com/", "unsafe_destination"),
        ("http://127.0.0.1/", "unsafe_destination"),
        ("http://2130706433/", "unsafe_destination"),
        ("http://0x7f.1/", "unsafe_destination"),
        ("http://0177.0.0.1/", "unsafe_destination"),
        ("http://[::1]/", "unsafe_destination"),
        ("http://[::ffff:127.0.0.1]/", "unsafe_destination"),
        ("http://user:pw@example.com/", "unsafe_destination"),
        ("https://example.com@evil.example/", "unsafe_destination"),
        ("https://\u0430pple.com/", "unsafe_destination"),   # Cyrillic a
        ("https://bit.ly/x", "unsafe_destination"),
        ("https://example.com/" + "a" * 2100, "unsafe_destination")]:
    field("target_url", value, code=code)

# ---- lz-links: the dashboard's API ------------------------------------
#
# {COOKIE} is account A's session cookie, {CSRF} its token, {ORIGIN} the
# service's own origin.

SESSION = {"Cookie": "lz_session={COOKIE}"}
WRITE = {"Cookie": "lz_session={COOKIE}", "X-CSRF-Token": "{CSRF}",
         "Origin": "{ORIGIN}"}


def dash(name, method, path, status, code, body=None, headers=None,
         ctype=True):
    h = dict(headers if headers is not None else
             (SESSION if method == "GET" else WRITE))
    if body is not None and ctype:
        h.setdefault("Content-Type", "application/json")
    if isinstance(body, (dict, list)):
        body = jbody(body)
    elif isinstance(body, str):
        body = body.encode()
    add("dashboard: " + name, "links", method, path, status, code,
        headers=h, body=body)


SESSION_ROUTES = [
    ("GET", "/dashboard/api/account"), ("GET", "/dashboard/api/links"),
    ("GET", "/dashboard/api/links/{LINK_A}"),
    ("GET", "/dashboard/api/links/{LINK_A}/stats"),
    ("GET", "/dashboard/api/links/{LINK_A}/qr"),
    ("GET", "/dashboard/api/links/{LINK_A}/clicks"),
    ("GET", "/dashboard/api/keys"), ("GET", "/dashboard/api/webhooks"),
    ("GET", "/dashboard/api/webhooks/{HOOK_A}/deliveries"),
    ("POST", "/dashboard/api/signout"), ("POST", "/dashboard/api/password"),
    ("POST", "/dashboard/api/links"), ("POST", "/dashboard/api/keys"),
    ("DELETE", "/dashboard/api/keys/{KEY_A_ID}"),
    ("DELETE", "/dashboard/api/links/{LINK_A}"),
    ("PATCH", "/dashboard/api/links/{LINK_A}"),
    ("POST", "/dashboard/api/webhooks"),
    ("POST", "/dashboard/api/webhooks/{HOOK_A}/rotate"),
    ("POST", "/dashboard/api/webhooks/{HOOK_A}/disable"),
    ("POST", "/dashboard/api/webhooks/{HOOK_A}/test")]
BAD_COOKIES = [
    ("no cookie", None),
    ("unknown token", "lz_session=" + "A" * 43),
    ("short token", "lz_session=abc"),
    ("token with quote", 'lz_session="' + "A" * 42 + '\\"'),
    ("cookie twice", "lz_session={COOKIE}; lz_session={COOKIE}"),
    ("SQL in token", "lz_session=' OR 1=1 --"),
    ("token 4 KiB", "lz_session=" + "A" * 4096),
]
for method, path in SESSION_ROUTES:
    for what, cookie in BAD_COOKIES[:4] if method != "GET" else BAD_COOKIES:
        h = {"Origin": "{ORIGIN}"} if method != "GET" else {}
        if cookie is not None:
            h["Cookie"] = cookie
        dash("%s %s: %s" % (method, path, what), method, path, 401,
             "not_signed_in", headers=h, body={} if method in ("POST",
                                                            "PATCH")
             else None)
# Writes from another site, or without the session's CSRF token.
for method, path in [r for r in SESSION_ROUTES if r[0] != "GET"]:
    dash("%s %s from another origin" % (method, path), method, path, 403,
         "cross_origin", body={} if method in ("POST", "PATCH") else None,
         headers=dict(WRITE, Origin="https://evil.example"))
    dash("%s %s without CSRF token" % (method, path), method, path, 403,
         "csrf_token_invalid", body={} if method in ("POST", "PATCH")
         else None,
         headers={"Cookie": "lz_session={COOKIE}", "Origin": "{ORIGIN}"})
for origin in ["null", "http://127.0.0.1.evil.example", "{ORIGIN}.evil",
               "file://", "{ORIGIN}/"]:
    dash("sign-in from origin " + origin, "POST", "/dashboard/api/signin",
         403, "cross_origin", {"email": "a@example.com", "password": "x"},
         headers={"Origin": origin})
dash("sign-in cross-site fetch", "POST", "/dashboard/api/signin", 403,
     "cross_origin", {"email": "a@example.com", "password": "x"},
     headers={"Sec-Fetch-Site": "cross-site"})
dash("wrong CSRF token", "POST", "/dashboard/api/keys", 403,
     "csrf_token_invalid", {}, headers=dict(WRITE,
                                            **{"X-CSRF-Token": "A" * 43}))
# Sign-in and sign-up bodies.
SIGNIN = {"Origin": "{ORIGIN}"}
for what, body, status, code in [
        ("not JSON", "email=a&password=b", 400, "invalid_json"),
        ("array", [], 400, "invalid_json"),
        ("missing password", {"email": "a@example.com"}, 400,
         "missing_field"),
        ("missing email", {"password": "x" * 12}, 400, "missing_field"),
        ("email number", {"email": 1, "password": "x" * 12}, 400,
         "invalid_field"),
        ("password array", {"email": "a@example.com", "password": []}, 400,
         "invalid_field"),
        ("unknown key", {"email": "a@example.com", "password": "x",
                         "remember": True}, 400, "unknown_field"),
        ("wrong password", {"email": "dash@example.com",
                            "password": "wrong password 1"}, 401,
         "invalid_credentials"),
        ("unknown account", {"email": "nobody@example.com",
                             "password": "whatever it is"}, 401,
         "invalid_credentials"),
        ("SQL in email", {"email": "' OR 1=1 --", "password": "x" * 12},
         401, "invalid_credentials"),
        ("password of 1 MiB", "x" * (1 << 20), 413, "body_too_large")]:
    dash("sign-in: " + what, "POST", "/dashboard/api/signin", status, code,
         body, headers=SIGNIN)
dash("sign-in: form content type", "POST", "/dashboard/api/signin", 415,
     "unsupported_media_type", "email=a&password=b",
     headers=dict(SIGNIN, **{"Content-Type":
                             "application/x-www-form-urlencoded"}))
dash("sign-up: closed", "POST", "/dashboard/api/signup", 403,
     "signup_closed", {"email": "new@example.com",
                       "password": "a good password"}, headers=SIGNIN)
for what, body, code in [
        ("password: missing new", {"current_password": "x"},
         "missing_field"),
        ("password: too short", {"current_password": "dash password 1",
                                 "new_password": "short"}, "invalid_field"),
        ("password: number", {"current_password": "dash password 1",
                              "new_password": 12345678901}, "invalid_field")]:
    dash(what, "POST", "/dashboard/api/password", 400, code, body)
dash("password: wrong current", "POST", "/dashboard/api/password", 403,
     "wrong_password", {"current_password": "not it at all",
                        "new_password": "a new password here"})
# Keys, webhooks: bodies and ids.
for what, body, code in [
        ("name number", {"name": 5}, "invalid_field"),
        ("name too long", {"name": "n" * 500}, "invalid_field"),
        ("unknown key", {"nam": "x"}, "unknown_field")]:
    dash("keys: " + what, "POST", "/dashboard/api/keys", 400, code, body)
for ident in ["0", "abc", "999999", "-1", "9223372036854775808"]:
    dash("revoke key " + ident, "DELETE", "/dashboard/api/keys/" + ident,
         404, "not_found")
    for action in ["rotate", "disable", "test"]:
        dash("webhook %s %s" % (action, ident), "POST",
             "/dashboard/api/webhooks/%s/%s" % (ident, action), 404,
             "not_found", {})
    dash("webhook deliveries " + ident, "GET",
         "/dashboard/api/webhooks/%s/deliveries" % ident, 404, "not_found")
for what, body, code in [
        ("url missing", {"events": ["click"]}, "missing_field"),
        ("events missing", {"url": "https://hooks.example/"},
         "missing_field"),
        ("events string", {"url": "https://hooks.example/",
                           "events": "click"}, "invalid_field"),
        ("events empty", {"url": "https://hooks.example/", "events": []},
         "invalid_events"),
        ("events unknown", {"url": "https://hooks.example/",
                            "events": ["link.renamed"]}, "invalid_events"),
        ("events number", {"url": "https://hooks.example/", "events": [1]},
         "invalid_events"),
        ("http URL", {"url": "http://hooks.example/", "events": ["click"]},
         "invalid_url"),
        ("URL with user", {"url": "https://u:p@hooks.example/",
                           "events": ["click"]}, "invalid_url"),
        ("not a URL", {"url": "hooks", "events": ["click"]}, "invalid_url"),
        ("loopback", {"url": "https://127.0.0.1/", "events": ["click"]},
         "unsafe_url"),
        ("private", {"url": "https://10.1.2.3/", "events": ["click"]},
         "unsafe_url"),
        ("link-local", {"url": "https://169.254.169.254/latest/",
                        "events": ["click"]}, "unsafe_url"),
        ("IPv6 loopback", {"url": "https://[::1]/", "events": ["click"]},
         "unsafe_url"),
        ("unknown key", {"url": "https://hooks.example/",
                         "events": ["click"], "secret": "x"},
         "unknown_field")]:
    dash("webhooks: " + what, "POST", "/dashboard/api/webhooks", 400, code,
         body)
for qs, code in [("limit=0", "invalid_parameter"),
                 ("limit=101", "invalid_parameter"),
                 ("limit=x", "invalid_parameter"),
                 ("page=2", "unknown_parameter"),
                 ("limit=1&limit=1", "duplicate_parameter")]:
    dash("deliveries ?" + qs, "GET",
         "/dashboard/api/webhooks/{HOOK_A}/deliveries?" + qs, 400, code)
    dash("links ?" + qs.replace("limit=101", "limit=1000"), "GET",
         "/dashboard/api/links?" + qs.replace("limit=101", "limit=1000"),
         400, code)
for method, path in [("GET", "/dashboard/api/signin"),
                     ("PUT", "/dashboard/api/account"),
                     ("DELETE", "/dashboard/api/webhooks"),
                     ("GET", "/dashboard/api/webhooks/{HOOK_A}/rotate")]:
    dash("%s %s" % (method, path), method, path, 405,
         "method_not_allowed")
for path in ["/dashboard/api/", "/dashboard/api/nothing",
             "/dashboard/api/keys/1/2"]:
    dash("no route " + path, "GET", path, 404, "not_found")

# ---- lz-links: short links (HTML pages for visitors) ------------------

UA = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"}


def visit(name, method, path, status, want=HTML, headers=None,
          body=None):
    h = dict(UA)
    h.update(headers or {})
    add("short link: " + name, "links", method, path, status, want,
        headers=h, body=body)


for path in ["/nothing-here", "/a", "/" + "x" * 64, "/" + "x" * 65,
             "/a.b", "/a%20b", "/%E2%82%AC", "/'%20OR%201=1", "/%3Cscript%3E",
             "/{SLUG_A}/bad%20suffix", "/{SLUG_A}/" + "s" * 65,
             "/{SLUG_A}/%3C", "/{SLUG_A}/a/b", "/{SLUG_DELETED}",
             "/nothing-here/x", "/{SLUG_A}x"]:
    visit("GET " + path, "GET", path, 404)
visit("HEAD unknown", "HEAD", "/nothing-here", 404, None)
for path in ["/%C0%AF", "/{SLUG_A}/%FF", "/%0a", "/a%0d%0ab", "/%1b"]:
    visit("bad path " + path, "GET", path, 400, "invalid_path")
visit("bad path /%00", "GET", "/%00", 400, "bad_request")      # nginx
visit("expired", "GET", "/{SLUG_EXPIRED}", 410)
visit("capped", "GET", "/{SLUG_CAPPED}", 410)
visit("expired with suffix", "GET", "/{SLUG_EXPIRED}/news", 410)
visit("POST to a link without password", "POST", "/{SLUG_A}", 405,
      headers={"Content-Type": "application/x-www-form-urlencoded"},
      body=b"password=x")
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
for what, ctype, body, status in [
        ("JSON body", "application/json", b'{"password": "x"}', 400),
        ("no content type", None, b"password=x", 400),
        ("empty form", FORM["Content-Type"], b"", 400),
        ("no password field", FORM["Content-Type"], b"pw=x", 400),
        ("empty password", FORM["Content-Type"], b"password=", 400),
        ("bad escape", FORM["Content-Type"], b"password=%zz", 400),
        ("password twice", FORM["Content-Type"],
         b"password=a&password=b", 400),
        ("form over 4 KiB", FORM["Content-Type"],
         b"password=" + b"x" * 5000, 413),
        ("wrong password", FORM["Content-Type"], b"password=wrong+one", 403),
        ("SQL password", FORM["Content-Type"],
         b"password=%27+OR+1%3D1+--", 403)]:
    visit("password form: " + what, "POST", "/{SLUG_PW}", status,
          headers={"Content-Type": ctype} if ctype else {}, body=body)
for method in ["PUT", "DELETE", "PATCH"]:
    visit(method + " a short link", method, "/{SLUG_A}", 405,
          "method_not_allowed")

# ---- lz-prompts: every endpoint ---------------------------------------

PROMPT_LISTS = ["/api/v1/prompts", "/api/v1/tags", "/api/v1/collections",
                "/api/v1/models", "/api/v1/tools", "/api/v1/tutorials",
                "/api/v1/keywords"]
PROMPT_DETAILS = ["/api/v1/prompts/{P_SLUG}", "/api/v1/collections/{C_SLUG}",
                  "/api/v1/tutorials/{T_SLUG}", "/api/v1/keywords/{K_SLUG}"]


def prm(name, path, status, code, method="GET", headers=None, body=None):
    add("prompts: " + name, "prompts", method, path, status, code,
        headers=headers, body=body)


# Paging, on every list that pages.
for path in PROMPT_LISTS:
    for qs, code in [
            ("limit=0", "invalid_parameter"),
            ("limit=51", "invalid_parameter"),
            ("limit=abc", "invalid_parameter"),
            ("limit=", "invalid_parameter"),
            ("limit=-5", "invalid_parameter"),
            ("offset=-1", "invalid_parameter"),
            ("offset=1.5", "invalid_parameter"),
            ("offset=9007199254740992", "invalid_parameter"),
            ("offset=99999999999999999999", "invalid_parameter"),
            ("limit=1&limit=1", "duplicate_parameter"),
            ("nope=1", "unknown_parameter"),
            ("limit=%00", "invalid_query"),
            ("limit=%C0%B1", "invalid_query")]:
        prm("%s?%s" % (path, qs), path + "?" + qs, 400, code)
# Languages, search strings, categories.
for path in ["/api/v1/prompts", "/api/v1/tags", "/api/v1/collections",
             "/api/v1/models", "/api/v1/tools"]:
    for qs in ["lang=fr", "lang=ZH", "lang=", "lang=zh-TW"]:
        prm("%s?%s" % (path, qs), path + "?" + qs, 400,
            "invalid_parameter")
for path in ["/api/v1/tutorials", "/api/v1/keywords", "/api/v1/changelog",
             "/api/v1/integrations"]:
    prm(path + " takes no lang", path + "?lang=zh", 400,
        "unknown_parameter")
for path, limit in [("/api/v1/prompts", 500), ("/api/v1/tags", 200),
                    ("/api/v1/models", 200), ("/api/v1/tools", 200),
                    ("/api/v1/tutorials", 200), ("/api/v1/keywords", 200)]:
    prm(path + " q too long", "%s?q=%s" % (path, "q" * (limit + 1)), 400,
        "invalid_parameter")
    prm(path + " q of wide characters", "%s?q=%s" % (
        path, "%E6%96%87" * (limit + 1)), 400, "invalid_parameter")
    prm(path + " q empty", path + "?q=", 400, "invalid_parameter")
    prm(path + " q with NUL", path + "?q=a%00b", 400, "invalid_query")
    prm(path + " q with control", path + "?q=a%07b", 400, "invalid_query")
    prm(path + " q overlong UTF-8", path + "?q=%C0%AF", 400,
        "invalid_query")
    prm(path + " q lone surrogate", path + "?q=%ED%A0%80", 400,
        "invalid_query")
    prm(path + " q twice", path + "?q=a&q=b", 400, "duplicate_parameter")
for path, values in [("/api/v1/prompts", ["audio", "IMAGE", "x"]),
                     ("/api/v1/models", ["text", "x"]),
                     ("/api/v1/tools", ["audio", "x"]),
                     ("/api/v1/keywords", ["nonexistent-category"])]:
    for v in values:
        prm("%s category=%s" % (path, v), "%s?category=%s" % (path, v), 400,
            "invalid_parameter")
for qs, code in [
        ("free=2", "invalid_parameter"), ("free=true", "invalid_parameter"),
        ("free=", "invalid_parameter"), ("sort=price", "invalid_parameter"),
        ("sort=RATING", "invalid_parameter"),
        ("sort=rating;DROP+TABLE+prompts", "invalid_parameter"),
        ("tag=", "invalid_parameter"), ("tag=" + "t" * 201,
                                        "invalid_parameter"),
        ("tag=%20", "invalid_parameter"),
        ("tool=nonexistent-tool", "unsupported_tool"),
        ("tool=" + "x" * 101, "invalid_parameter"),
        ("tool=midjourney'--", "unsupported_tool"),
        ("tool=", "invalid_parameter")]:
    prm("prompts ?" + qs, "/api/v1/prompts?" + qs, 400, code)
for qs in ["min_count=0", "min_count=101", "min_count=x"]:
    prm("tags ?" + qs, "/api/v1/tags?" + qs, 400, "invalid_parameter")
for qs, code in [("days=0", "invalid_parameter"),
                 ("days=366", "invalid_parameter"),
                 ("days=x", "invalid_parameter"),
                 ("limit=101", "invalid_parameter"),
                 ("limit=0", "invalid_parameter"),
                 ("offset=1", "unknown_parameter"),
                 ("days=1&days=2", "duplicate_parameter")]:
    prm("changelog ?" + qs, "/api/v1/changelog?" + qs, 400, code)
for qs in ["limit=1", "x=", "%zz=1"]:
    prm("integrations ?" + qs, "/api/v1/integrations?" + qs, 400,
        "invalid_query" if "%" in qs else "unknown_parameter")
    prm("openapi.json ?" + qs, "/api/v1/openapi.json?" + qs, 400,
        "invalid_query" if "%" in qs else "unknown_parameter")
# Details: slugs that are not there, drafts, bad characters.
for path in ["/api/v1/prompts/", "/api/v1/collections/",
             "/api/v1/tutorials/", "/api/v1/keywords/"]:
    for slug in ["does-not-exist", "x" * 300, "%27%20OR%201%3D1%20--",
                 "%3Cscript%3E", "..%2F..%2Fetc%2Fpasswd", "%E2%80%AE",
                 "UPPER"]:
        prm("%s%s" % (path, slug[:20]), path + slug, 404, "not_found")
    prm(path + " with unknown parameter", path.rstrip("/") + "/x?x=1", 400,
        "unknown_parameter")
for slug in ["{P_DRAFT}", "{P_SCHEDULED}"]:
    prm("prompt " + slug, "/api/v1/prompts/" + slug, 404, "not_found")
prm("unpublished collection", "/api/v1/collections/{C_UNPUBLISHED}", 404,
    "not_found")
for path in PROMPT_DETAILS:
    prm(path + " lang=xx", path + "?lang=xx", 400,
        "invalid_parameter" if "prompts/" in path or "collections/" in path
        else "unknown_parameter")
prm("collection limit=0", "/api/v1/collections/{C_SLUG}?limit=0", 400,
    "invalid_parameter")
prm("collection offset=-1", "/api/v1/collections/{C_SLUG}?offset=-1", 400,
    "invalid_parameter")
# Methods and paths.
for method in ["POST", "PUT", "DELETE", "PATCH", "FOO"]:
    prm(method + " prompts", "/api/v1/prompts", 405, "method_not_allowed",
        method=method, body=b"{}" if method in ("POST", "PUT") else None,
        headers=JSON_CT if method in ("POST", "PUT") else None)
prm("DELETE a prompt", "/api/v1/prompts/{P_SLUG}", 405,
    "method_not_allowed", method="DELETE")
for path in ["/api/v1/nothing", "/api/v1/prompts/a/b", "/api/v2/prompts",
             "/api/v1/", "/", "/index.html", "/api/v1/prompts/x/../../y"]:
    prm("no route " + path, path, 404, "not_found")
for path in ["/api/v1/prompts/%00", "/api/v1/%C0%AE", "/api/v1/tags/%FF"]:
    prm("bad path " + path, path, 400, "bad_request"
        if "%00" in path else "invalid_path")

# ---- nginx: what it answers itself (nginx/lz-errors.conf) -------------


def raw(name, service, data, status, code):
    add("nginx: " + name, service, "RAW", "", status, code, raw=data)


HOST = b"Host: 127.0.0.1\r\nConnection: close\r\n"
for service, path in [("links", b"/api/v1/links"),
                      ("prompts", b"/api/v1/prompts")]:
    for what, data, status, code in [
            ("garbage request line", b"GARBAGE\r\n\r\n", 400,
             "bad_request"),
            ("no Host", b"GET " + path + b" HTTP/1.1\r\n\r\n", 400,
             "bad_request"),
            ("two Hosts", b"GET " + path + b" HTTP/1.1\r\n" + HOST +
             b"Host: b\r\n\r\n", 400, "bad_request"),
            ("lower-case method", b"get " + path + b" HTTP/1.1\r\n" + HOST +
             b"\r\n", 400, "bad_request"),
            ("NUL in a header name", b"GET " + path + b" HTTP/1.1\r\n" +
             HOST + b"X-A\x00: 1\r\n\r\n", 400, "bad_request"),
            ("space in a header name", b"GET " + path + b" HTTP/1.1\r\n" +
             HOST + b"X A: 1\r\n\r\n", 400, "bad_request"),
            ("%00 in the path", b"GET " + path + b"/%00 HTTP/1.1\r\n" +
             HOST + b"\r\n", 400, "bad_request"),
            ("above the root", b"GET /../../etc/passwd HTTP/1.1\r\n" +
             HOST + b"\r\n", 400, "bad_request"),
            ("URI of 9 KiB", b"GET " + path + b"?q=" + b"a" * 9000 +
             b" HTTP/1.1\r\n" + HOST + b"\r\n", 414, "uri_too_long"),
            ("header of 9 KiB", b"GET " + path + b" HTTP/1.1\r\n" + HOST +
             b"Cookie: " + b"c" * 9000 + b"\r\n\r\n", 431,
             "headers_too_large"),
            ("40 KiB of headers", b"GET " + path + b" HTTP/1.1\r\n" + HOST +
             b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 1000)
                      for i in range(40)) + b"\r\n", 431,
             "headers_too_large"),
            ("negative Content-Length", b"POST " + path +
             b" HTTP/1.1\r\n" + HOST + b"Content-Length: -1\r\n\r\n", 400,
             "bad_request"),
            ("huge Content-Length", b"POST " + path + b" HTTP/1.1\r\n" +
             HOST + b"Content-Length: 99999999999999999999\r\n\r\n", 400,
             "bad_request"),
            ("two Content-Lengths", b"POST " + path + b" HTTP/1.1\r\n" +
             HOST + b"Content-Length: 1\r\nContent-Length: 2\r\n\r\nab",
             400, "bad_request"),
            ("bad chunk", b"POST " + path + b" HTTP/1.1\r\n" + HOST +
             b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400,
             "bad_request"),
            ("unknown transfer coding", b"POST " + path + b" HTTP/1.1\r\n" +
             HOST + b"Transfer-Encoding: gzip\r\n\r\n", 400,
             "unsupported_transfer_coding"),
            ("HTTP/2.0 request line", b"GET " + path + b" HTTP/2.0\r\n" +
             HOST + b"\r\n", 400, "unsupported_http_version"),
            ("HTTP/3.0 request line", b"GET " + path + b" HTTP/3.0\r\n" +
             HOST + b"\r\n", 400, "unsupported_http_version"),
            ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400,
             "bad_request"),
            ("TRACE", b"TRACE " + path + b" HTTP/1.1\r\n" + HOST + b"\r\n",
             405, "method_not_allowed"),
            ("CONNECT", b"CONNECT example.com:443 HTTP/1.1\r\n"
             b"Host: example.com:443\r\n\r\n", 400, "bad_request"),
            ("OPTIONS *", b"OPTIONS * HTTP/1.1\r\n" + HOST + b"\r\n", 400,
             "bad_request")]:
        raw("%s: %s" % (service, what), service, data, status, code)
raw("links: body over 1 MiB", "links", b"POST /api/v1/links HTTP/1.1\r\n" +
    HOST + b"Content-Type: application/json\r\nContent-Length: 2000000"
    b"\r\n\r\n" + b"x" * 2000000, 413, "body_too_large")
raw("prompts: body over 16 KiB", "prompts", b"POST /api/v1/prompts "
    b"HTTP/1.1\r\n" + HOST + b"Content-Length: 20000\r\n\r\n" +
    b"x" * 20000, 413, "body_too_large")
raw("links: POST to a static page", "links", b"POST /dashboard/index.html "
    b"HTTP/1.1\r\n" + HOST + b"Content-Length: 0\r\n\r\n", 405,
    "method_not_allowed")
raw("links: missing static file", "links", b"GET /static/nothing.css "
    b"HTTP/1.1\r\n" + HOST + b"\r\n", 404, "not_found")
raw("links: missing dashboard file", "links", b"GET /dashboard/nothing.js "
    b"HTTP/1.1\r\n" + HOST + b"\r\n", 404, "not_found")
raw("links: static directory", "links", b"GET /static/ HTTP/1.1\r\n" +
    HOST + b"\r\n", 403, "forbidden")
raw("links: /.lz-error/ from outside", "links", b"GET /.lz-error/400 "
    b"HTTP/1.1\r\n" + HOST + b"\r\n", 404, "not_found")


# ---- running them -------------------------------------------------------

def parse_response(data):
    """(status, headers, body) of a raw HTTP/1.1 response."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for ln in lines[1:]:
        k, _, v = ln.partition(b":")
        headers[k.strip().lower().decode("latin-1")] = \
            v.strip().decode("latin-1")
    if headers.get("transfer-encoding", "").lower() == "chunked":
        out, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size.split(b";")[0], 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return status, headers, body


class BadInput(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.inst = lzenv.Instance("bad-input", prompts=True,
                                  extra_conf=CONF)
        inst = cls.inst
        inst.ctl("prompts", "import",
                 os.path.join(lzenv.SRCDIR, "data", "prompts.json"))
        try:
            inst.start()
            cls.fixtures()
        except Exception:
            inst.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.inst.stop()

    @classmethod
    def fixtures(cls):
        """Accounts, keys, links, a webhook and a session the cases name."""
        inst = cls.inst
        a = inst.account("dash@example.com", plan="big")
        b = inst.account("other@example.com", plan="big")
        key_a, key_b = inst.key(a), inst.key(b)
        revoked = inst.key(a)
        rid = inst.sql("SELECT max(id) FROM api_keys")[0][0]
        inst.ctl("key", "revoke", str(rid))
        inst.ctl("account", "password", str(a), input="dash password 1\n")

        def link(key, **kw):
            body = {"target_url": "https://example.com/"}
            body.update(kw)
            r = inst.api("POST", "/api/v1/links", key, body)
            assert r.status == 201, r
            return r.json()

        la, lb = link(key_a), link(key_b)
        pw = link(key_a, password="open sesame")
        exp = link(key_a, expires_at="2099-01-01T00:00:00Z")
        cap = link(key_a, max_clicks=1)
        gone = link(key_a)
        assert inst.api("DELETE", "/api/v1/links/%d" % gone["id"],
                        key_a).status == 200
        # Expired and capped as time and visitors would make them.
        inst.sql("UPDATE links SET expires_at = 1000 WHERE id = %d" %
                 exp["id"])
        r = inst.request("GET", "/" + cap["slug"], headers=UA)
        assert r.status == 302, r
        # Added under a copy of lz.conf that allows loopback receivers
        # (nothing is ever sent to it); the pools keep refusing them.
        loose = inst.path("loose.conf")
        with open(inst.conf) as f, open(loose, "w") as g:
            g.write(f.read() + "webhook_allow_loopback = yes\n")
        hook = int(lzenv.subprocess.run(
            [lzenv.prog("lzctl"), "-f", loose, "webhook", "add", str(a),
             "https://127.0.0.1:9/in"], capture_output=True, text=True,
            check=True).stdout.split()[0])
        key_a_id = inst.sql("SELECT min(id) FROM api_keys WHERE "
                            "account_id = %d" % a)[0][0]

        origin = "http://127.0.0.1:%d" % inst.links_port
        r = inst.request("POST", "/dashboard/api/signin",
                         body={"email": "dash@example.com",
                               "password": "dash password 1"},
                         headers={"Origin": origin})
        assert r.status == 200, r
        cookie = r.header("set-cookie").split(";")[0].split("=", 1)[1]
        csrf = r.json()["csrf_token"]

        with open(os.path.join(lzenv.SRCDIR, "data", "prompts.json")) as f:
            data = json.load(f)
        def first(rows, pred):
            return next(x["slug"] for x in rows if pred(x))

        def later(iso):         # still to come, a day from now
            t = datetime.datetime.fromisoformat(iso)
            return t.timestamp() > time.time() + 86400
        cls.values = {
            "KEY": key_a, "REVOKED": revoked, "LINK_A": str(la["id"]),
            "LINK_B": str(lb["id"]), "SLUG_A": la["slug"],
            "SLUG_PW": pw["slug"], "SLUG_EXPIRED": exp["slug"],
            "SLUG_CAPPED": cap["slug"], "SLUG_DELETED": gone["slug"],
            "LINK_DELETED": str(gone["id"]),
            "HOOK_A": str(hook), "KEY_A_ID": str(key_a_id),
            "COOKIE": cookie, "CSRF": csrf, "ORIGIN": origin,
            "P_SLUG": first(data["prompts"],
                            lambda p: p["status"] == "published"),
            "P_DRAFT": first(data["prompts"],
                             lambda p: p["status"] == "draft"),
            "P_SCHEDULED": first(data["prompts"],
                                 lambda p: p["status"] == "scheduled" and
                                 later(p["publish_at"])),
            "C_SLUG": first(data["collections"],
                            lambda c: c["status"] == "published"),
            "C_UNPUBLISHED": first(data["collections"],
                                   lambda c: c["status"] != "published"),
            "T_SLUG": data["tutorials"][0]["slug"],
            "K_SLUG": data["keywords"][0]["slug"],
        }
        for k, v in cls.values.items():
            assert re.fullmatch(r"[^{}]*", v), k

    def fill(self, s):
        for k, v in self.values.items():
            s = s.replace("{%s}" % k, v)
        return s

    # -- state before and after --------------------------------------------

    # What a refused request still counts, by design (see the docstring).
    COUNTED = {"usage": None, "throttles": None,
               "api_keys": ["last_used_at"], "sessions": ["seen_at"]}

    def snapshot(self):
        out = {}
        for t in self.inst.tables():
            if t in self.COUNTED and self.COUNTED[t] is None:
                continue
            keep = [x for x in self.inst.columns(t) if x not in
                    (self.COUNTED.get(t) or [])]
            out[t] = self.inst.sql(
                "SELECT %s FROM %s ORDER BY 1, 2" % (", ".join(keep), t)
                if len(keep) > 1 else
                "SELECT %s FROM %s ORDER BY 1" % (keep[0], t))
        return out

    def prompts_digest(self):
        with open(self.inst.path("data", "prompts.db"), "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    # -- one case ------------------------------------------------------------

    def send(self, case, n):
        port = (self.inst.links_port if case.service == "links" else
                self.inst.prompts_port)
        # Its own client address: the prompt library's limiter counts
        # per address (198.18.0.0/15 is for benchmarks, never routed).
        xff = "198.18.%d.%d" % (n // 250, n % 250 + 1)
        if case.raw is not None:
            data = case.raw
            if b"\r\nHost:" in data:
                data = data.replace(b"\r\nHost:", ("\r\nX-Forwarded-For: "
                                    "%s\r\nHost:" % xff).encode(), 1)
        else:
            lines = ["%s %s HTTP/1.1" % (case.method, self.fill(case.path)),
                     "Host: 127.0.0.1:%d" % port, "Connection: close",
                     "X-Forwarded-For: " + xff]
            for k, v in case.headers.items():
                lines.append("%s: %s" % (k, self.fill(v)))
            body = case.body or b""
            if case.body is not None or case.method in ("POST", "PUT"):
                lines.append("Content-Length: %d" % len(body))
            data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        try:
            try:
                s.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                pass            # nginx answered before reading it all
            chunks = []
            while True:
                try:
                    b = s.recv(65536)
                except ConnectionResetError:
                    break
                if not b:
                    break
                chunks.append(b)
        finally:
            s.close()
        return parse_response(b"".join(chunks))

    def check(self, case, status, headers, body):
        """A list of what is wrong with the answer ([] when right)."""
        bad = []
        if status != case.status:
            bad.append("status %d, want %d" % (status, case.status))
        if case.want is None:
            return bad
        ctype = headers.get("content-type", "")
        if case.want == HTML:
            if not ctype.startswith("text/html") or b"<html" not in body:
                bad.append("not an HTML page: %r %r" % (ctype, body[:80]))
            return bad
        if not ctype.startswith("application/json"):
            bad.append("content type %r" % ctype)
            return bad
        try:
            j = json.loads(body)
        except ValueError:
            return bad + ["body is not JSON: %r" % body[:100]]
        if j.get("ok") is not False or j.get("error") != case.want:
            bad.append("error %r, want %r" % (j.get("error"), case.want))
        if not isinstance(j.get("message"), str) or not j["message"]:
            bad.append("no message")
        if j.get("request_id") != headers.get("x-request-id") or \
                not j.get("request_id"):
            bad.append("request_id %r, X-Request-Id %r" % (
                j.get("request_id"), headers.get("x-request-id")))
        return bad

    def test_catalog(self):
        inst = self.inst
        self.assertGreaterEqual(len(CASES), 300)
        names = [c.name for c in CASES]
        self.assertEqual(len(names), len(set(names)),
                         [n for n in names if names.count(n) > 1][:5])
        before = self.snapshot()
        pdigest = self.prompts_digest()
        workers = {p: sorted(inst.worker_pids(p))
                   for p in ("lz-links", "lz-prompts")}

        wrong, fivexx = [], []
        for n, case in enumerate(CASES):
            status, headers, body = self.send(case, n)
            if status >= 500:
                fivexx.append("%s: %d %r" % (case.name, status, body[:200]))
            bad = self.check(case, status, headers, body)
            if bad:
                wrong.append("%s: %s" % (case.name, "; ".join(bad)))
        sys.stderr.write("bad-input catalog: %d cases, %d wrong, %d 5xx\n" %
                         (len(CASES), len(wrong), len(fivexx)))
        self.assertEqual(wrong + fivexx, [], "\n".join(wrong + fivexx))

        # No worker died, and the pools say none did.
        for p, pids in workers.items():
            self.assertEqual(sorted(inst.worker_pids(p)), pids, p)
            log = inst.log(p)
            for mark in ("killed by signal", "exited with status",
                         "second answer"):
                self.assertNotIn(mark, log, p)
        # nginx answered no 5xx either, to anything.
        with open(inst.path("nginx", "access.log"), errors="replace") as f:
            codes = [int(m.group(1)) for m in
                     (re.search(r'" (\d{3}) ', ln) for ln in f) if m]
        self.assertGreaterEqual(len(codes), len(CASES))
        self.assertEqual([c for c in codes if c >= 500], [])
        # No data changed.
        after = self.snapshot()
        for t in before:
            self.assertEqual(after[t], before[t], "table %s changed" % t)
        self.assertEqual(set(after), set(before))
        self.assertEqual(self.prompts_digest(), pdigest)
        self.assertTrue(inst.integrity_ok())


if __name__ == "__main__":
    lzenv.main()
