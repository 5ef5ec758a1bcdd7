#!/usr/bin/env python3
"""Slices through a computed 3D flow from feastc's VTK output (output.vtk = P on a mesh
of hexahedra): one panel per plane, coloured by the speed in the plane with its
streamlines, e.g. the lid-driven cube's mid-plane z = 0.5 (the primary vortex) and x = 0.5
(the secondary flow across the lid's direction).

    tools/plot_slice3d.py P.pvtu OUT.png [--plane AXIS=VALUE ...] [--title TEXT] [--dpi N]

Planes default to z=0.5 and x=0.5. Reads the .pvtu (all rank pieces) with VTK's Python
module (python3-vtk9), cuts the trilinear hexahedra with vtkCutter (the values on the
plane interpolated as the elements do), merges the nodes that macros share, and draws
with matplotlib (python3-matplotlib); the streamlines come from tools/plot_flow.py.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_flow  # noqa: E402  (its imports check for VTK and matplotlib)

vtk = plot_flow.vtk
vtk_to_numpy = plot_flow.vtk_to_numpy
plt = plot_flow.plt
mtri = plot_flow.mtri

AXES = "xyz"


def read_grid(path):
    grid = plot_flow.read_grid(path)
    velocity = grid.GetPointData().GetArray("velocity")
    if not velocity or velocity.GetNumberOfComponents() != 3:
        sys.exit("%s: no 3-component point field 'velocity' (a 3D flow's output has velocity, pressure)" % path)
    return grid


def cut(grid, axis, value):
    """-> in-plane coordinates (n x 2), triangles, in-plane velocity (n x 2), and the axis names"""
    k = AXES.index(axis)
    plane = vtk.vtkPlane()
    origin, normal = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    origin[k], normal[k] = value, 1.0
    plane.SetOrigin(*origin)
    plane.SetNormal(*normal)
    cutter = vtk.vtkCutter()
    cutter.SetInputData(grid)
    cutter.SetCutFunction(plane)
    clean = vtk.vtkCleanPolyData()  # the nodes that macros share, once
    clean.SetInputConnection(cutter.GetOutputPort())
    tri = vtk.vtkTriangleFilter()
    tri.SetInputConnection(clean.GetOutputPort())
    tri.Update()
    out = tri.GetOutput()
    if out.GetNumberOfPoints() == 0:
        sys.exit("the plane %s = %g does not cut the mesh" % (axis, value))
    pts = vtk_to_numpy(out.GetPoints().GetData())
    tris = vtk_to_numpy(out.GetPolys().GetConnectivityArray()).reshape(-1, 3)
    vel = vtk_to_numpy(out.GetPointData().GetArray("velocity"))
    keep = [i for i in range(3) if i != k]
    return pts[:, keep], tris, vel[:, keep], [AXES[i] for i in keep]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vtk", help="feastc VTK output of a 3D flow: P.pvtu (or one P_rN.vtu)")
    ap.add_argument("png", help="picture to write")
    ap.add_argument("--plane", action="append", help="AXIS=VALUE (default: z=0.5 and x=0.5)")
    ap.add_argument("--title", default="", help="title above the panels")
    ap.add_argument("--dpi", type=int, default=150)
    a = ap.parse_args()
    planes = []
    for text in a.plane or ["z=0.5", "x=0.5"]:
        axis, _, value = text.partition("=")
        if axis not in AXES or not value:
            sys.exit("--plane %s: expected AXIS=VALUE with AXIS one of x, y, z" % text)
        planes.append((axis, float(value)))
    grid = read_grid(a.vtk)
    fig, axes = plt.subplots(1, len(planes), figsize=(5.2 * len(planes), 4.6), constrained_layout=True, squeeze=False)
    for ax, (axis, value) in zip(axes[0], planes):
        xy, tris, vel, names = cut(grid, axis, value)
        tri = mtri.Triangulation(xy[:, 0], xy[:, 1], tris)
        xlim = (xy[:, 0].min(), xy[:, 0].max())
        ylim = (xy[:, 1].min(), xy[:, 1].max())
        im = ax.tripcolor(tri, np.hypot(vel[:, 0], vel[:, 1]), shading="gouraud", cmap="viridis")
        plot_flow.streamlines(ax, tri, vel[:, 0], vel[:, 1], xlim, ylim)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_aspect("equal")
        ax.set_xlabel(names[0], fontsize=8)
        ax.set_ylabel(names[1], fontsize=8)
        ax.set_title("plane %s = %g: speed in the plane (%s, %s) and its streamlines" % (axis, value,
                     "uvw"[AXES.index(names[0])], "uvw"[AXES.index(names[1])]), fontsize=9)
        ax.tick_params(labelsize=7)
        fig.colorbar(im, ax=ax, shrink=0.9, pad=0.01).ax.tick_params(labelsize=7)
        print("plane %s = %g: %d nodes, %d triangles" % (axis, value, len(xy), len(tris)))
    if a.title:
        fig.suptitle(a.title, fontsize=10)
    fig.savefig(a.png, dpi=a.dpi)
    print("%s -> %s" % (a.vtk, a.png))


if __name__ == "__main__":
    main()
