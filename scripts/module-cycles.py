#!/usr/bin/env python3
"""Import cycles between the files of each crate under crates/ (run from the project root;
.ci/run runs it, and fails on a cycle).

A file uses another when it names it through `crate::`, `super::` or `self::` paths, including
names that lib.rs re-exports (`crate::Plan` counts as a use of the file that defines `Plan`).
`mod x;` declarations are structure, not uses. Prints every cycle (strongly connected set of
files) and exits 1 when there is one. Rough by design: it reads text, not the compiler's view.
"""
import os, re, sys
from collections import defaultdict

def modpath(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("lib", "main", "mod"):
        rel = rel[:-1]
    return tuple(rel)

def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+tests", text)
    return text[: cut.start()] if cut else text

def expand(prefix, body):
    """use-tree text after `crate::` -> list of paths (tuples)"""
    out = []
    def rec(pre, s):
        s = s.strip()
        if not s:
            return
        if s.startswith("{") and s.endswith("}"):
            depth, cur = 0, ""
            for ch in s[1:-1]:
                if ch == "," and depth == 0:
                    rec(pre, cur); cur = ""; continue
                depth += ch == "{"; depth -= ch == "}"; cur += ch
            rec(pre, cur); return
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)\s*(::\s*(.*))?$", s, re.S)
        if not m:
            return
        if m.group(3) is None:
            out.append(pre + (m.group(1),))
        else:
            rec(pre + (m.group(1),), m.group(3))
    rec(prefix, body)
    return out

def crate_graph(src):
    files = {}
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                p = os.path.join(root, n)
                files[modpath(src, p)] = p
    texts = {m: strip(open(p, encoding="utf-8").read()) for m, p in files.items()}
    # names re-exported at the crate root -> the module they come from
    reexp = {}
    for path in expand((), "{" + ",".join(re.findall(r"pub\s+use\s+([^;]+);", texts.get((), ""))) + "}"):
        path = tuple(x for x in path if x not in ("self", "crate"))
        for k in range(len(path) - 1, 0, -1):
            if path[:k] in files:
                reexp[path[-1]] = path[:k]; break
    def resolve(path):
        for k in range(len(path), 0, -1):
            if path[:k] in files:
                return path[:k]
        if path and path[0] in reexp:
            return reexp[path[0]]
        return None
    edges = defaultdict(set)
    for m, t in texts.items():
        here = m if files[m].endswith(("mod.rs", "lib.rs", "main.rs")) else m[:-1]
        uses = []
        for body in re.findall(r"\buse\s+([^;]+);", t):
            body = body.strip()
            if body.startswith("crate::"):
                uses += expand((), body[7:])
            elif body.startswith("super::"):
                uses += [here[:-1] + p for p in expand((), body[7:])]
            elif body.startswith("self::"):
                uses += [here + p for p in expand((), body[6:])]
        for p in re.findall(r"(?<![A-Za-z0-9_:])crate((?:::[A-Za-z_][A-Za-z0-9_]*)+)", t):
            uses.append(tuple(p.split("::")[1:]))
        for p in re.findall(r"(?<![A-Za-z0-9_:])super((?:::[A-Za-z_][A-Za-z0-9_]*)+)", t):
            uses.append(here[:-1] + tuple(p.split("::")[1:]))
        for u in uses:
            r = resolve(tuple(x for x in u if x != "self"))
            if r is not None and r != m and r != ():
                edges[m].add(r)
    return files, edges

def sccs(nodes, edges):
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            out.append(comp)
    for v in nodes:
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]

bad = 0
for crate in sorted(os.listdir("crates")):
    src = os.path.join("crates", crate, "src")
    if not os.path.isdir(src):
        continue
    files, edges = crate_graph(src)
    for comp in sccs(sorted(files), edges):
        bad += 1
        names = sorted(os.path.relpath(files[m]) for m in comp)
        print(f"{crate}: a cycle of {len(comp)} files: " + ", ".join(names))
print(f"{bad} cycle(s)")
sys.exit(1 if bad else 0)
