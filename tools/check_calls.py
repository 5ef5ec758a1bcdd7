#!/usr/bin/env python3
"""Check the calls between feastc's source files by the object files of a build (issue #45,
item 1: no call circle between files, no call upward between layers).

    tools/check_calls.py BUILD_DIR

Reads the object files of the layer libraries under BUILD_DIR/CMakeFiles/feast_*.dir (the
emulator's copies, *_emu, left out) with `nm`: a file calls another when it uses a
symbol the other defines. Reports

  - a circle: files that call each other, directly or through others (a.c -> b.c ->
    a.c), one line per circle with the symbols of each call;
  - an upward call: a file calling a file of a layer above its own (the layers of
    tools/check_layers.py: feast/base < ... < feast/io < solvers < coproc < scarc <
    navier_stokes; a call an #include would not show, e.g. through a declaration
    written by hand).

Prints one line per finding and exits 1 if there is any, else a one-line summary and 0.
tests/run/test_calls.sh runs it on the build and on planted objects.
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_layers import LAYERS, circles, layer_of  # noqa: E402


def objects(build):
    """{source path relative to the tree: object file} of the layer libraries"""
    found = {}
    for lib in sorted(glob.glob(os.path.join(build, "CMakeFiles", "feast_*.dir"))):
        if os.path.basename(lib).endswith("_emu.dir"):
            continue
        for obj in glob.glob(os.path.join(lib, "**", "*.o"), recursive=True):
            source = os.path.relpath(obj, lib)[: -len(".o")]
            found[source] = obj
    return found


def symbols(obj):
    """(defined, used) global symbols of an object file"""
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVW":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def call_graph(objs):
    """{file: {called file: [symbols]}}"""
    table = {src: symbols(obj) for src, obj in objs.items()}
    owner = {}
    for src, (defined, _) in table.items():
        for s in defined:
            owner.setdefault(s, src)
    graph = {src: {} for src in table}
    for src, (_, used) in table.items():
        for s in sorted(used):
            callee = owner.get(s)
            if callee and callee != src:
                graph[src].setdefault(callee, []).append(s)
    return graph


def main():
    if len(sys.argv) != 2:
        print("usage: tools/check_calls.py BUILD_DIR", file=sys.stderr)
        return 2
    objs = objects(sys.argv[1])
    if not objs:
        print(f"check_calls: no object files of the layer libraries under {sys.argv[1]}", file=sys.stderr)
        return 2
    graph = call_graph(objs)
    errors = []
    for comp in circles(graph):
        calls = "; ".join(f"{a} -> {b} ({', '.join(graph[a][b][:3])})"
                          for a in comp for b in comp if b in graph[a])
        errors.append(f"a call circle of {len(comp)} files: {calls}")
    for src in sorted(graph):
        mine = layer_of(src)
        for callee, syms in sorted(graph[src].items()):
            theirs = layer_of(callee)
            if mine and theirs and LAYERS.index(theirs) > LAYERS.index(mine):
                errors.append(f"{src}: calls {callee} ({', '.join(syms[:3])}): layer {theirs} is above {mine}")
    for e in errors:
        print(e)
    if errors:
        return 1
    ncalls = sum(len(c) for c in graph.values())
    print(f"check_calls: {len(graph)} files, {ncalls} calls between files: no call circle, no upward call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
