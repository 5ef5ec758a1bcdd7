#!/usr/bin/env python3
"""Picture of a computed 2D flow from feastc's VTK output (output.vtk = P): the velocity
magnitude with streamlines, the pressure and the vorticity, one panel each (one above
the other for a long domain such as the DFG channel, side by side for a box such as the
cavity).

    tools/plot_flow.py P.pvtu OUT.png [--title TEXT] [--xlim X0 X1] [--ylim Y0 Y1] [--dpi N]

Reads the .pvtu (all rank pieces) with VTK's Python module (Debian: python3-vtk9, which
tools/deps.sh installs) and draws with matplotlib (Debian: python3-matplotlib, not
needed by the tests: apt-get install python3-matplotlib). The quads are split into two
triangles each and the nodal values shaded bilinearly (Gouraud), so what is drawn is the
finite element solution, holes (the cylinder) included.
"""
import argparse
import sys

import numpy as np

try:
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError:
    sys.exit("plot_flow.py needs VTK's Python module (Debian: apt-get install python3-vtk9)")
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.tri as mtri
except ImportError:
    sys.exit("plot_flow.py needs matplotlib (Debian: apt-get install python3-matplotlib)")


def read_grid(path):
    """the unstructured grid of a .pvtu (all rank pieces) or one .vtu"""
    reader = vtk.vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu") else vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfPoints() == 0:
        sys.exit("%s: no points (not a feastc VTK file?)" % path)
    return grid


def read(path):
    """-> points (n x 2), triangles (m x 3), point fields {name: array}"""
    grid = read_grid(path)
    pts = vtk_to_numpy(grid.GetPoints().GetData())[:, :2]
    conn = vtk_to_numpy(grid.GetCells().GetConnectivityArray()).reshape(-1, 4)
    tris = np.vstack([conn[:, [0, 1, 2]], conn[:, [0, 2, 3]]])
    pd = grid.GetPointData()
    fields = {pd.GetArrayName(i): vtk_to_numpy(pd.GetArray(i)) for i in range(pd.GetNumberOfArrays())}
    for need in ("u", "p", "vorticity"):
        if need not in fields:
            sys.exit("%s: no point field '%s' (feastc navier-stokes output has u, p, vorticity)" % (path, need))
    # a node shared by several macros is written once per macro: keep one copy, so that
    # the triangles form one valid triangulation
    scale = np.abs(pts).max()
    key = np.round(pts / scale, 12)
    _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    return pts[first], inverse.reshape(-1)[tris], {k: v[first] for k, v in fields.items()}


def streamlines(ax, tri, u, v, xlim, ylim):
    """streamlines of the velocity interpolated onto a regular grid (outside: masked)"""
    nx = 440
    ny = max(8, int(nx * (ylim[1] - ylim[0]) / (xlim[1] - xlim[0])))
    gx, gy = np.meshgrid(np.linspace(xlim[0], xlim[1], nx), np.linspace(ylim[0], ylim[1], ny))
    iu = mtri.LinearTriInterpolator(tri, u)(gx, gy)
    iv = mtri.LinearTriInterpolator(tri, v)(gx, gy)
    # a channel (long domain) gets more lines along it than across; a box, as many each way
    aspect = (xlim[1] - xlim[0]) / (ylim[1] - ylim[0])
    density = (4.0, 0.8) if aspect >= 2 else (1.6, 1.6)
    ax.streamplot(gx, gy, iu, iv, density=density, color="white", linewidth=0.4 if aspect >= 2 else 0.6,
                  arrowsize=0.4 if aspect >= 2 else 0.7)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vtk", help="feastc VTK output: P.pvtu (or one P_rN.vtu)")
    ap.add_argument("png", help="picture to write")
    ap.add_argument("--title", default="", help="title above the panels")
    ap.add_argument("--xlim", type=float, nargs=2, help="x range to show (default: all)")
    ap.add_argument("--ylim", type=float, nargs=2, help="y range to show (default: all)")
    ap.add_argument("--dpi", type=int, default=150)
    a = ap.parse_args()
    pts, tris, f = read(a.vtk)
    u, v = f["u"][:, 0], f["u"][:, 1]
    tri = mtri.Triangulation(pts[:, 0], pts[:, 1], tris)
    xlim = a.xlim or (pts[:, 0].min(), pts[:, 0].max())
    ylim = a.ylim or (pts[:, 1].min(), pts[:, 1].max())
    aspect = (xlim[1] - xlim[0]) / (ylim[1] - ylim[0])
    if aspect >= 2:  # a channel: the panels one above the other
        fig, axes = plt.subplots(3, 1, figsize=(11, 3 * 11 / aspect + 1.6), constrained_layout=True)
    else:  # a box (the cavity): side by side
        fig, axes = plt.subplots(1, 3, figsize=(15, 15 / 3 / aspect + 0.8), constrained_layout=True)
    w = f["vorticity"]
    wmax = np.percentile(np.abs(w), 99)
    plo, phi = np.percentile(f["p"], [1, 99])  # the cavity's lid corners are singular
    panels = [
        ("velocity magnitude |u|", np.hypot(u, v), "viridis", None),
        ("pressure p (clipped at the 1st and 99th percentiles)", np.clip(f["p"], plo, phi), "coolwarm", (plo, phi)),
        ("vorticity dv/dx - du/dy (clipped at the 99th percentile)", np.clip(w, -wmax, wmax), "RdBu_r", (-wmax, wmax)),
    ]
    for ax, (name, val, cmap, lim) in zip(axes, panels):
        im = ax.tripcolor(tri, val, shading="gouraud", cmap=cmap, vmin=lim[0] if lim else None,
                          vmax=lim[1] if lim else None)
        if ax is axes[0]:
            streamlines(ax, tri, u, v, xlim, ylim)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_aspect("equal")
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
        fig.colorbar(im, ax=ax, shrink=0.9, pad=0.01).ax.tick_params(labelsize=7)
    if a.title:
        fig.suptitle(a.title, fontsize=10)
    fig.savefig(a.png, dpi=a.dpi)
    print("%s: %d nodes, %d cells -> %s" % (a.vtk, len(pts), len(tris) // 2, a.png))


if __name__ == "__main__":
    main()
