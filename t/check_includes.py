#!/usr/bin/env python3
"""Fails when modules of src/ include each other in a circle, or when
the link service's layers are included upwards.

A module is a .c file and the .h of the same name beside it (or a header
alone).  Module A depends on module B when a file of A includes a file of
B, found as the compiler finds it: beside the including file, then in the
include directories of Makefile.am (src/core, src/links, src/prompts).
Every circle is printed with the includes that close it.

The layers of src/links (HACKING.md, "Dependencies"), each of which may
include only itself and the layers under it:

  handlers    main.c, ctx.*, api.*, api_*.c, page_*.c: the root
  subsystems  the folders (link/, auth/, webhook/, stats/, visit/,
              safety/, domain/), and lzctl and lz-hooks beside them
  store       store/: the SQL
  types       the types the stores read and write, and the pure
              functions over them (TYPES below): core and each other only
  core        src/core/
"""
import os
import re
import sys

INCLUDE_DIRS = ("src/core", "src/links", "src/prompts")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def modules(top):
    files = []
    for d, _, names in os.walk(os.path.join(top, "src")):
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(d, n), top))
    return sorted(files)


def resolve(top, src, inc, known):
    for d in (os.path.dirname(src),) + INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, inc))
        if p in known:
            return p
    return None


def graph(top):
    files = modules(top)
    known = set(files)
    edges, why = {}, {}
    for f in files:
        m = os.path.splitext(f)[0]
        edges.setdefault(m, set())
        with open(os.path.join(top, f), encoding="utf-8",
                  errors="replace") as fh:
            for line in fh:
                hit = INCLUDE.match(line)
                if not hit:
                    continue
                p = resolve(top, f, hit.group(1), known)
                if p is None:
                    continue
                t = os.path.splitext(p)[0]
                if t != m:
                    edges[m].add(t)
                    why.setdefault((m, t), "%s includes %s" % (f, p))
    return edges, why


# The link service's type modules: what store/ may include besides core.
TYPES = {"src/links/sizes", "src/links/link/link", "src/links/visit/click",
         "src/links/webhook/webhook", "src/links/auth/keys",
         "src/links/stats/amount", "src/links/safety/dest",
         "src/links/safety/idn", "src/links/domain/host",
         "src/links/link/tag"}


def layer(m):
    """0 core, 1 types, 2 store, 3 subsystems, 4 handlers; None: not the
    link service's (the prompt library keeps its own order)."""
    if m.startswith("src/core/"):
        return 0
    if m in TYPES:
        return 1
    if m.startswith("src/links/store/"):
        return 2
    if m.startswith(("src/lzctl/", "src/hooks/")):
        return 3
    if m.startswith("src/links/"):
        return 4 if m.count("/") == 2 else 3
    return None


NAMES = ("core", "types", "store", "subsystems", "handlers")


def upwards(edges, why):
    """Includes of a higher layer than the includer's."""
    out = []
    for a in sorted(edges):
        la = layer(a)
        for b in sorted(edges[a]):
            lb = layer(b)
            if la is not None and lb is not None and lb > la:
                out.append("%s (%s) -> %s (%s): %s" % (
                    a, NAMES[la], b, NAMES[lb], why[(a, b)]))
    return out


def circles(edges):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    top = os.environ.get("LZ_SRCDIR") or os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    edges, why = graph(top)
    found = circles(edges)
    for comp in found:
        members = set(comp)
        print("circle of %d modules: %s" % (len(comp), ", ".join(comp)))
        for a in comp:
            for b in sorted(edges[a] & members):
                print("    %s" % why[(a, b)])
    up = upwards(edges, why)
    for line in up:
        print("upwards: " + line)
    n = len(edges)
    if found or up:
        print("FAIL: %d circle(s), %d upward include(s) among %d modules "
              "of src/" % (len(found), len(up), n))
        return 1
    print("ok: no include circle among %d modules of src/, and the link "
          "service's layers run one way" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
