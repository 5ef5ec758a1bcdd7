#!/usr/bin/env python3
"""Check the layering of feastc's sources by their #include lines (issue #45, item 1).

The layers, lowest first, are folders, each one static library (CMakeLists.txt):

    the core's floors  feast/base < feast/config < feast/mesh < feast/parallel < feast/la
                       < feast/fem < feast/io
    then               solvers (Krylov methods, sparse direct solves) < coproc (local
                       multigrid backends) < scarc < navier_stokes (the flow solver)
                       < apps (the feastc program)

and a file may include headers of its own layer and of the layers below it, never of a
layer above (tests/, bench/, examples/ and tools/ stand above them all and are not
checked). The header include graph must have no circle either (a.h includes b.h, which
includes a.h, directly or through others).

The storage of vectors (FeastVec.host, FeastVecSingle.host: issue #45, item 4) is
touched only in feast/la: the layers above it, examples/ and bench/ reach the values
through the host accessors feast_vec_block, feast_vec_block_read, feast_vec_blocks and
feast_vec_blocks_read (feast/la/vector.h) or a function of feast/la, so that a
device-resident implementation has one interface to provide. Any member access `.host`
or `->host` there (outside comments and strings) is a violation; tests/ may look (white
box).

    tools/check_layers.py [ROOT]     (ROOT: the source tree, default the current folder)

Prints one line per violation, "FILE:LINE: ..." and exits 1 if there is any, else prints
a one-line summary and exits 0. Standard library only; tests/run/test_layers.sh runs it
on the tree and on copies with a planted upward include, a planted circle and planted
uses of the vector storage.
"""
import os
import re
import sys

LAYERS = ["feast/base", "feast/config", "feast/mesh", "feast/parallel", "feast/la", "feast/fem", "feast/io",
          "solvers", "coproc", "scarc", "navier_stokes", "apps"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SUFFIXES = (".c", ".h", ".cu", ".cuh", ".cpp")
STORAGE_FLOOR = "feast/la"              # the one layer that touches FeastVec.host
STORAGE_USERS = ["examples", "bench"]   # checked for it too, besides the layers
STORAGE = re.compile(r"(->|\.)\s*host\b")
ACCESSOR = re.compile(r"\bfeast_vec_blocks?(_read)?\s*\(")


def sources(root):
    """(layer, path relative to root) of every source file of the layers"""
    for layer in LAYERS:
        top = os.path.join(root, layer)
        for folder, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield layer, os.path.relpath(os.path.join(folder, name), root)


def strays(root):
    """the source files in a layer's parent folder (feast/) that lie in no layer (floor)"""
    errors = []
    for parent in sorted({layer.split("/")[0] for layer in LAYERS if "/" in layer}):
        for folder, _, names in os.walk(os.path.join(root, parent)):
            for name in sorted(names):
                path = os.path.relpath(os.path.join(folder, name), root)
                if name.endswith(SUFFIXES) and layer_of(path) is None:
                    errors.append(f"{path}: in no layer (the floors of {parent}/: "
                                  f"{', '.join(l for l in LAYERS if l.startswith(parent + '/'))})")
    return errors


def includes(root, path):
    """(line number, included path) of the file's quoted includes"""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def layer_of(path):
    """the layer a path (relative to the root) lies in, or None"""
    for layer in LAYERS:
        if path.startswith(layer + "/"):
            return layer
    return None


def upward_includes(root, files):
    errors = []
    for layer, path in files:
        for number, target in includes(root, path):
            top = layer_of(target)
            if top is not None and LAYERS.index(top) > LAYERS.index(layer):
                errors.append(f"{path}:{number}: includes {target}: layer {top} is above {layer} "
                              f"(order: {' < '.join(LAYERS)})")
    return errors


def circles(graph):
    """the strongly connected components of more than one node (Tarjan) of graph (node ->
    its successors; every successor a node), each sorted, sorted: the include circles
    here, the call circles of tools/check_calls.py"""
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(comps)


def code_lines(root, path):
    """(line number, text) of the file with its comments and string and character
    literals blanked (so that prose may name FeastVec.host)"""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r'/\*.*?\*/|//[^\n]*|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'', blank, text, flags=re.S)
    return enumerate(text.split("\n"), 1)


def storage_files(root, files):
    """the source files outside the storage floor that the storage rule covers"""
    paths = [path for layer, path in files if layer != STORAGE_FLOOR]
    for top in STORAGE_USERS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            paths += [os.path.relpath(os.path.join(folder, n), root) for n in sorted(names) if n.endswith(SUFFIXES)]
    return paths


def storage_uses(root, files):
    """(errors: one line per direct use of the vector storage outside feast/la, the number
    of accessor calls, the number of files with any)"""
    errors, calls, users = [], 0, 0
    for path in storage_files(root, files):
        found = 0
        for number, line in code_lines(root, path):
            if STORAGE.search(line):
                errors.append(f"{path}:{number}: uses the vector storage (.host) outside {STORAGE_FLOOR}: "
                              "through feast_vec_block* (feast/la/vector.h) or a function of feast/la")
            found += len(ACCESSOR.findall(line))
        calls += found
        users += found > 0
    return errors, calls, users


def include_circles(root, files):
    """one line per circle of the graph header -> the headers it includes (paths from
    root), naming each include of the circle with its line"""
    headers = {path for _, path in files if path.endswith((".h", ".cuh"))}
    lines = {h: {} for h in sorted(headers)}  # header -> {included header: line number}
    for h in lines:
        for number, t in includes(root, h):
            if t in headers:
                lines[h].setdefault(t, number)
    errors = []
    for comp in circles(lines):
        edges = "; ".join(f"{h}:{lines[h][t]} includes {t}" for h in comp for t in comp if t in lines[h])
        errors.append(f"an include circle: {' -> '.join(comp)}: {edges}")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = list(sources(root))
    if not files:
        print(f"check_layers: no sources of {', '.join(LAYERS)} under {root}", file=sys.stderr)
        return 2
    storage, calls, users = storage_uses(root, files)
    errors = strays(root) + upward_includes(root, files) + include_circles(root, files) + storage
    for e in errors:
        print(e)
    if errors:
        return 1
    print(f"check_layers: {len(files)} files of {len(LAYERS)} layers ({' < '.join(LAYERS)}): "
          f"no upward include, no include circle; vector storage only in {STORAGE_FLOOR} "
          f"(outside it {calls} host accessor calls in {users} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
