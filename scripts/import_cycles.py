#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails (exit 1) when the source files of a crate import each other in a cycle (make test).

A file's module is its path under `crates/<crate>/src` (`mod.rs`, `lib.rs` and `main.rs` name
their folder). Every `crate::a::b` and `super::a` path in a file, doc links included, is an edge
to the deepest module file it names. Edges between a module and its ancestors are left out (a
parent declares and re-exports its children, a child uses its parent's items); any other cycle,
of two files or more, is reported with its files.

    scripts/import_cycles.py            check crates/*/src
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PATH = re.compile(r"\b(crate|super)((?:::\w+)+)")


def modules(src):
    """{module path: file} of one crate's src folder."""
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                parts = os.path.relpath(path, src)[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main"):
                    parts = parts[:-1]
                files["::".join(parts)] = path
    return files


def related(a, b):
    return a == "" or b == "" or a.startswith(b + "::") or b.startswith(a + "::")


def edges(files):
    out = {m: set() for m in files}
    for mod, path in files.items():
        cur = mod.split("::") if mod else []
        with open(path) as fh:
            text = fh.read()
        for m in PATH.finditer(text):
            base = [] if m.group(1) == "crate" else cur[:-1]
            segs = base + m.group(2).split("::")[1:]
            for k in range(len(segs), 0, -1):
                target = "::".join(segs[:k])
                if target in files:
                    if target != mod and not related(mod, target):
                        out[mod].add(target)
                    break
    return out


def cycles(graph):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    sys.setrecursionlimit(10_000)
    crates_dir = os.path.join(ROOT, "crates")
    bad = 0
    checked = 0
    for crate in sorted(os.listdir(crates_dir)):
        src = os.path.join(crates_dir, crate, "src")
        if not os.path.isdir(src):
            continue
        files = modules(src)
        checked += len(files)
        for group in cycles(edges(files)):
            bad += 1
            names = ", ".join(os.path.relpath(files[m], ROOT) for m in group)
            print(f"import cycle in {crate}: {names}", file=sys.stderr)
    if bad:
        return 1
    print(f"import-cycles: {checked} files, no file imports another that imports it back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
