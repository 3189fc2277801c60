#!/usr/bin/env python3
"""Fails when modules of src/ include each other in a circle.

A module is a .c file and the .h of the same name beside it (or a header
alone).  Module A depends on module B when a file of A includes a file of
B, found as the compiler finds it: beside the including file, then in the
include directories of Makefile.am (src/core, src/links, src/prompts).
Every circle is printed with the includes that close it, and the test
fails; HACKING.md ("Dependencies") says which way they must run.
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
    n = len(edges)
    if found:
        print("FAIL: %d circle(s) among %d modules of src/" % (len(found), n))
        return 1
    print("ok: no include circle among %d modules of src/" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
