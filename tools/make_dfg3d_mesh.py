#!/usr/bin/env python3
"""Write the coarse mesh of the DFG 3D channel with a cylinder (Schaefer & Turek 1996,
3D-1Z/3D-2Z): the box [0, 2.5] x [0, 0.41] x [0, 0.41] minus the cylinder of radius 0.05
around the line x = 0.5, y = 0.2 along z, as hexahedral macros in feastc's native 3D
format: the 2D mesh grids/dfg24.feast (the channel 2.2 long, the cylinder at x = 0.2)
moved 0.3 downstream, a column of macros in front of it to the new inflow at x = 0, and
the whole extruded in z in NZ layers.

Parts: inflow (x = 0), outflow (x = 2.5), wall (y = 0, y = 0.41, z = 0, z = 0.41) and
cylinder (a cylinder part: the refined nodes on it are put on the surface).

usage: make_dfg3d_mesh.py [--nz NZ] [--mesh2d grids/dfg24.feast] [-o OUT.feast]
Standard library only."""
import argparse, os, sys

H = 0.41


def read_2d(path):
    """vertices, quads and parts (name -> (header tokens, edges)) of a native 2D mesh"""
    lines = [l.split("#")[0].split() for l in open(path)]
    lines = [l for l in lines if l]
    it = iter(lines)
    assert next(it) == ["feast-mesh", "1"]
    head = next(it)
    verts = [tuple(map(float, next(it))) for _ in range(int(head[1]))]
    head = next(it)
    quads = [tuple(map(int, next(it))) for _ in range(int(head[1]))]
    head = next(it)
    parts = {}
    for _ in range(int(head[1])):
        h = next(it)
        parts[h[1]] = (h[2:-1], [tuple(map(int, next(it))) for _ in range(int(h[-1]))])
    return verts, quads, parts


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nz", type=int, default=2, help="macro layers in z (default 2)")
    ap.add_argument("--mesh2d", default=os.path.join(here, "..", "grids", "dfg24.feast"))
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    if a.nz < 1:
        sys.exit("make_dfg3d_mesh.py: --nz must be >= 1")
    verts, quads, parts = read_2d(a.mesh2d)
    shift = 0.3
    verts = [(x + shift, y) for x, y in verts]
    # the column in front: every inflow edge (x = shift) gets a quad reaching x = 0
    inflow = parts["inflow"][1]
    front = {}
    for e in inflow:
        for v in e:
            if v not in front:
                front[v] = len(verts)
                verts.append((0.0, verts[v][1]))
    new_inflow = []
    for a_, b_ in inflow:
        # the 2D quad counter-clockwise: the inflow edge runs downwards (y falls) in dfg24
        fa, fb = front[a_], front[b_]
        quads.append((fa, fb, b_, a_) if verts[a_][1] > verts[b_][1] else (fb, fa, a_, b_))
        new_inflow.append((fa, fb))
    # the front column's top and bottom edges are walls
    ys = sorted(front, key=lambda v: verts[v][1])
    walls2d = list(parts["wall"][1]) + [(ys[0], front[ys[0]]), (ys[-1], front[ys[-1]])]
    nv2, nz = len(verts), a.nz
    vid = lambda v, k: k * nv2 + v
    out = [f"# the DFG 3D channel 2.5 x 0.41 x 0.41 with the cylinder r = 0.05 at x = 0.5, y = 0.2 along z: "
           f"{os.path.basename(a.mesh2d)} moved by {shift}, a front column, {nz} layers in z "
           "(tools/make_dfg3d_mesh.py)", "feast-mesh 1", "dimension 3", f"vertices {nv2 * (nz + 1)}"]
    for k in range(nz + 1):
        z = H * k / nz
        out += [f"{x!r} {y!r} {z!r}" for x, y in verts]
    out.append(f"hexahedra {len(quads) * nz}")
    for k in range(nz):
        for q in quads:
            out.append(" ".join(str(vid(v, k)) for v in q) + " " + " ".join(str(vid(v, k + 1)) for v in q))
    side = lambda edges: [(vid(p, k), vid(q, k), vid(q, k + 1), vid(p, k + 1)) for p, q in edges for k in range(nz)]
    caps = [tuple(vid(v, 0) for v in q) for q in quads] + [tuple(vid(v, nz) for v in q) for q in quads]
    cyl = parts["cylinder"][0]  # ['circle', cx, cy, r]
    cx, cy, r = float(cyl[1]) + shift, float(cyl[2]), float(cyl[3])
    plist = [("inflow", "flat", side(new_inflow)), ("outflow", "flat", side(parts["outflow"][1])),
             ("wall", "flat", side(walls2d) + caps),
             ("cylinder", f"cylinder {cx!r} {cy!r} 0.0 0 0 1 {r!r}", side(parts["cylinder"][1]))]
    out.append(f"parts {len(plist)}")
    for name, kind, faces in plist:
        out.append(f"part {name} {kind} {len(faces)}")
        out += [" ".join(map(str, f)) for f in faces]
    text = "\n".join(out) + "\n"
    if a.output:
        open(a.output, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
