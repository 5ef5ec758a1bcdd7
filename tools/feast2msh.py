#!/usr/bin/env python3
"""Convert a native feastc mesh (docs/mesh_format.md) into Gmsh ASCII .msh 4.1 or 2.2.

    tools/feast2msh.py grids/dfg24.feast grids/dfg24.msh            # 4.1
    tools/feast2msh.py --format 2.2 grids/dfg24.feast dfg24_v22.msh

Layout of the output (both versions, node and element tags 1-based and consecutive):
  - node k+1 = vertex k, all nodes in one block of the surface (4.1); z = 0;
  - boundary part p (native order) = physical curve group p+1 named after the part,
    its edges = 2-node lines (type 1) on curve entity p+1;
  - the macros = 4-node quadrangles (type 3), counter-clockwise as in the input, on
    surface entity 1 in physical surface group nparts+1 named "domain".
Circle parameters cannot be stored in a .msh file: a circle part needs a config section
[boundary.NAME] with type = circle, center and radius when the .msh is read (the
script prints the section). Standard library only; no Gmsh needed.
"""
import argparse
import sys


def fail(path, line, msg):
    sys.exit("%s:%d: %s" % (path, line, msg))


def read_feast(path):
    """-> (vertices [(x, y)], quads [(a, b, c, d)], parts [(name, type, params, edges)])"""
    with open(path) as f:
        lines = [(n + 1, l.split("#", 1)[0].split()) for n, l in enumerate(f)]
    lines = [(n, t) for n, t in lines if t]
    pos = 0

    def take(count=None):
        nonlocal pos
        if pos >= len(lines):
            fail(path, lines[-1][0] if lines else 1, "unexpected end of file")
        n, t = lines[pos]
        pos += 1
        if count is not None and len(t) != count:
            fail(path, n, "expected %d fields, found %d" % (count, len(t)))
        return n, t

    def counted(keyword):
        n, t = take(2)
        if t[0] != keyword:
            fail(path, n, "expected '%s COUNT'" % keyword)
        return int(t[1])

    n, t = take(2)
    if t != ["feast-mesh", "1"]:
        fail(path, n, "expected 'feast-mesh 1'")
    verts = [tuple(float(v) for v in take(2)[1]) for _ in range(counted("vertices"))]
    quads = [tuple(int(v) for v in take(4)[1]) for _ in range(counted("quads"))]
    parts = []
    for _ in range(counted("parts")):
        n, t = take()
        if t[0] != "part" or len(t) not in (4, 7):
            fail(path, n, "expected 'part NAME TYPE ... COUNT'")
        params = [float(v) for v in t[3:-1]]
        edges = [tuple(int(v) for v in take(2)[1]) for _ in range(int(t[-1]))]
        parts.append((t[1], t[2], params, edges))
    if pos != len(lines):
        fail(path, lines[pos][0], "unexpected content after the last part")
    return verts, quads, parts


def num(x):
    return repr(float(x))


def write_msh41(out, verts, quads, parts):
    np_, nq = len(parts), len(quads)
    out.append("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
    out.append("$PhysicalNames\n%d\n" % (np_ + 1))
    for p, part in enumerate(parts):
        out.append('1 %d "%s"\n' % (p + 1, part[0]))
    out.append('2 %d "domain"\n$EndPhysicalNames\n' % (np_ + 1))
    xs, ys = [v[0] for v in verts], [v[1] for v in verts]
    out.append("$Entities\n0 %d 1 0\n" % np_)
    for p, part in enumerate(parts):
        px = [verts[v][0] for e in part[3] for v in e]
        py = [verts[v][1] for e in part[3] for v in e]
        out.append("%d %s %s 0 %s %s 0 1 %d 0\n" % (p + 1, num(min(px)), num(min(py)), num(max(px)),
                                                   num(max(py)), p + 1))
    out.append("1 %s %s 0 %s %s 0 1 %d %d %s\n$EndEntities\n" % (
        num(min(xs)), num(min(ys)), num(max(xs)), num(max(ys)), np_ + 1, np_,
        " ".join(str(p + 1) for p in range(np_))))
    nv = len(verts)
    out.append("$Nodes\n1 %d 1 %d\n2 1 0 %d\n" % (nv, nv, nv))
    out.extend("%d\n" % (k + 1) for k in range(nv))
    out.extend("%s %s 0\n" % (num(x), num(y)) for x, y in verts)
    out.append("$EndNodes\n")
    nlines = sum(len(p[3]) for p in parts)
    out.append("$Elements\n%d %d 1 %d\n" % (np_ + 1, nlines + nq, nlines + nq))
    tag = 1
    for p, part in enumerate(parts):
        out.append("1 %d 1 %d\n" % (p + 1, len(part[3])))
        for a, b in part[3]:
            out.append("%d %d %d\n" % (tag, a + 1, b + 1))
            tag += 1
    out.append("2 1 3 %d\n" % nq)
    for q in quads:
        out.append("%d %s\n" % (tag, " ".join(str(v + 1) for v in q)))
        tag += 1
    out.append("$EndElements\n")


def write_msh22(out, verts, quads, parts):
    np_ = len(parts)
    out.append("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
    out.append("$PhysicalNames\n%d\n" % (np_ + 1))
    for p, part in enumerate(parts):
        out.append('1 %d "%s"\n' % (p + 1, part[0]))
    out.append('2 %d "domain"\n$EndPhysicalNames\n' % (np_ + 1))
    out.append("$Nodes\n%d\n" % len(verts))
    out.extend("%d %s %s 0\n" % (k + 1, num(x), num(y)) for k, (x, y) in enumerate(verts))
    out.append("$EndNodes\n")
    nlines = sum(len(p[3]) for p in parts)
    out.append("$Elements\n%d\n" % (nlines + len(quads)))
    tag = 1
    for p, part in enumerate(parts):
        for a, b in part[3]:
            out.append("%d 1 2 %d %d %d %d\n" % (tag, p + 1, p + 1, a + 1, b + 1))
            tag += 1
    for q in quads:
        out.append("%d 3 2 %d 1 %s\n" % (tag, np_ + 1, " ".join(str(v + 1) for v in q)))
        tag += 1
    out.append("$EndElements\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", help="native feastc mesh")
    ap.add_argument("output", help=".msh file to write")
    ap.add_argument("--format", choices=("4.1", "2.2"), default="4.1")
    args = ap.parse_args()
    verts, quads, parts = read_feast(args.input)
    out = []
    (write_msh41 if args.format == "4.1" else write_msh22)(out, verts, quads, parts)
    with open(args.output, "w") as f:
        f.write("".join(out))
    for name, typ, params, _ in parts:
        if typ == "circle":
            print("%s: part '%s' is a circle; read the .msh with this config section:\n"
                  "[boundary.%s]\ntype = circle\ncenter = %s %s\nradius = %s"
                  % (args.output, name, name, num(params[0]), num(params[1]), num(params[2])))


if __name__ == "__main__":
    main()
