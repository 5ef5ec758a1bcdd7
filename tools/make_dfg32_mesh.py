#!/usr/bin/env python3
"""Write grids/dfg32.feast: the DFG channel of grids/dfg24.feast with its ring of 8 macros
at the cylinder split at mid-depth, 32 macros.

Each ring macro C_k S_k S_k+1 C_k+1 (cylinder vertex C_k, ring vertex S_k; the layout in
dfg24.feast's header) becomes C_k M_k M_k+1 C_k+1 and M_k S_k S_k+1 M_k+1 with M_k the
midpoint of C_k S_k: every level then has twice the cells across the layer at the
cylinder and the same cells along it, so a level's cells there are about twice as long
as deep. The other 16 macros, the vertices' numbers 0-34 and the parts are dfg24's; the
new vertices are 35-42. Conforming: only the ring's radial edges are split, and each of
them is shared by two ring macros only.

Why: the lift coefficient of DFG 2D-1 converges at order 2 on both meshes, with a 3x
smaller constant on this one (+9.6 / +2.4 / +0.61 % at levels 4-6 on dfg24, -3.0 / -0.82
/ -0.21 % here), for 1.33x the unknowns per level; drag and pressure difference stay
within 0.5 % from level 5 on both (docs/notes/dfg-stationary.md). The split is at the
mid-depth, not tuned: nearer the cylinder (0.3 of the depth) the lift came closer to the
reference at levels 4-5 but the cells grew flat enough (3:1) to cost the first Newton step
400 FGMRES iterations at level 5.

usage: make_dfg32_mesh.py [-i grids/dfg24.feast] [-o grids/dfg32.feast]
Standard library only; the input is read (and checked) by tools/feast2msh.py's reader."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from feast2msh import read_feast  # noqa: E402  (the native reader, with its checks)

RING = 8  # macros 0-7 of dfg24: C_k S_k S_k+1 C_k+1


def split_ring(verts, quads):
    """the ring macros split at the midpoints of their radial edges"""
    verts = list(verts)
    mid = []
    for k in range(RING):
        c, s = verts[quads[k][0]], verts[quads[k][1]]
        mid.append(len(verts))
        verts.append((0.5 * (c[0] + s[0]), 0.5 * (c[1] + s[1])))
    ring = []
    for k in range(RING):
        c0, s0, s1, c1 = quads[k]
        m0, m1 = mid[k], mid[(k + 1) % RING]
        ring += [[c0, m0, m1, c1], [m0, s0, s1, m1]]
    return verts, ring + quads[RING:]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-i', default=os.path.join(root, 'grids', 'dfg24.feast'))
    ap.add_argument('-o', default=os.path.join(root, 'grids', 'dfg32.feast'))
    a = ap.parse_args()
    verts, quads, parts = read_feast(a.i)
    verts, quads = split_ring(verts, [list(q) for q in quads])
    head = ["# DFG benchmark channel [0,2.2] x [0,0.41] minus the cylinder of centre (0.2,0.2) and",
            "# radius 0.05: grids/dfg24.feast with its ring of 8 macros at the cylinder split at",
            "# mid-depth (macros 0-15: C_k M_k M_k+1 C_k+1 and M_k S_k S_k+1 M_k+1, M_k = vertex 35 + k",
            "# the midpoint of C_k S_k; macros 16-31 are dfg24's 8-23). Written by",
            "# tools/make_dfg32_mesh.py (why this mesh: its header). Native format: docs/mesh_format.md.",
            "feast-mesh 1", "", "vertices %d" % len(verts)]
    body = ["%.17g %.17g" % v for v in verts] + ["", "quads %d" % len(quads)]
    body += [" ".join(map(str, q)) for q in quads] + ["", "parts %d" % len(parts)]
    for name, kind, params, edges in parts:
        body.append(" ".join(["part", name, kind] + [repr(v) for v in params] + [str(len(edges))]))
        body += ["%d %d" % e for e in edges]
    with open(a.o, 'w') as f:
        f.write("\n".join(head + body) + '\n')


if __name__ == '__main__':
    main()
