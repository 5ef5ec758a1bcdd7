#!/usr/bin/env python3
"""Write a box of hexahedral macros in feastc's native 3D format (docs/mesh_format.md):
[0, LX] x [0, LY] x [0, LZ] cut into NX x NY x NZ macros, optionally distorted (every
inner vertex moved by a smooth displacement, so the macros are general trilinear
hexahedra with non-planar faces).

Parts, one per side: x0, x1, y0, y1, z0, z1 (or --one-part: the whole boundary as
"boundary"). Vertex (i, j, k) has id ((NY + 1) k + j) (NX + 1) + i, macro (i, j, k) id
(NY k + j) NX + i, its corners in VTK order. At level L the mesh has
(NX 2^L + 1) (NY 2^L + 1) (NZ 2^L + 1) nodes.

usage: make_box_mesh.py NX NY NZ [--size LX LY LZ] [--distort A] [--one-part] [-o OUT]
Standard library only."""
import argparse, math, sys


def fmt(v):
    return repr(float(v))


def vertex_id(i, j, k, nx, ny):
    return ((ny + 1) * k + j) * (nx + 1) + i


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs=3, metavar=("NX", "NY", "NZ"))
    ap.add_argument("--size", type=float, nargs=3, default=[1.0, 1.0, 1.0], metavar=("LX", "LY", "LZ"))
    ap.add_argument("--distort", type=float, default=0.0,
                    help="inner vertices move by A h sin(...) (h: the smallest macro width); 0: none")
    ap.add_argument("--one-part", action="store_true", help="one part 'boundary' instead of six")
    ap.add_argument("-o", "--output", help="file to write (default: standard output)")
    a = ap.parse_args()
    nx, ny, nz = a.n
    if min(nx, ny, nz) < 1:
        sys.exit("make_box_mesh.py: NX, NY, NZ must be >= 1")
    lx, ly, lz = a.size
    h = min(lx / nx, ly / ny, lz / nz)
    out = []
    out.append(f"# {nx} x {ny} x {nz} hexahedral macros on [0,{lx}] x [0,{ly}] x [0,{lz}]"
               f"{', distorted ' + str(a.distort) if a.distort else ''} (tools/make_box_mesh.py)")
    out.append("feast-mesh 1")
    out.append("dimension 3")
    out.append(f"vertices {(nx + 1) * (ny + 1) * (nz + 1)}")
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                x, y, z = lx * i / nx, ly * j / ny, lz * k / nz
                inner = 0 < i < nx and 0 < j < ny and 0 < k < nz
                if a.distort and inner:
                    s = a.distort * h
                    x += s * math.sin(2.1 * i + 0.7 * j + 1.3 * k)
                    y += s * math.sin(0.9 * i + 1.7 * j + 0.4 * k)
                    z += s * math.sin(1.1 * i + 0.3 * j + 2.3 * k)
                out.append(f"{fmt(x)} {fmt(y)} {fmt(z)}")
    out.append(f"hexahedra {nx * ny * nz}")
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                v = lambda di, dj, dk: vertex_id(i + di, j + dj, k + dk, nx, ny)
                c = [v(0, 0, 0), v(1, 0, 0), v(1, 1, 0), v(0, 1, 0), v(0, 0, 1), v(1, 0, 1), v(1, 1, 1), v(0, 1, 1)]
                out.append(" ".join(map(str, c)))
    sides = {}
    for j in range(ny):
        for k in range(nz):
            sides.setdefault("x0", []).append((vertex_id(0, j, k, nx, ny), vertex_id(0, j + 1, k, nx, ny),
                                               vertex_id(0, j + 1, k + 1, nx, ny), vertex_id(0, j, k + 1, nx, ny)))
            sides.setdefault("x1", []).append((vertex_id(nx, j, k, nx, ny), vertex_id(nx, j + 1, k, nx, ny),
                                               vertex_id(nx, j + 1, k + 1, nx, ny), vertex_id(nx, j, k + 1, nx, ny)))
    for i in range(nx):
        for k in range(nz):
            sides.setdefault("y0", []).append((vertex_id(i, 0, k, nx, ny), vertex_id(i + 1, 0, k, nx, ny),
                                               vertex_id(i + 1, 0, k + 1, nx, ny), vertex_id(i, 0, k + 1, nx, ny)))
            sides.setdefault("y1", []).append((vertex_id(i, ny, k, nx, ny), vertex_id(i + 1, ny, k, nx, ny),
                                               vertex_id(i + 1, ny, k + 1, nx, ny), vertex_id(i, ny, k + 1, nx, ny)))
    for i in range(nx):
        for j in range(ny):
            sides.setdefault("z0", []).append((vertex_id(i, j, 0, nx, ny), vertex_id(i + 1, j, 0, nx, ny),
                                               vertex_id(i + 1, j + 1, 0, nx, ny), vertex_id(i, j + 1, 0, nx, ny)))
            sides.setdefault("z1", []).append((vertex_id(i, j, nz, nx, ny), vertex_id(i + 1, j, nz, nx, ny),
                                               vertex_id(i + 1, j + 1, nz, nx, ny), vertex_id(i, j + 1, nz, nx, ny)))
    if a.one_part:
        sides = {"boundary": [f for name in ("x0", "x1", "y0", "y1", "z0", "z1") for f in sides[name]]}
    out.append(f"parts {len(sides)}")
    for name, faces in sides.items():
        out.append(f"part {name} flat {len(faces)}")
        out.extend(" ".join(map(str, f)) for f in faces)
    text = "\n".join(out) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
