#!/bin/bash
# VTK output read back by VTK itself: tests/mpi/test_vtk on 2 ranks writes a 2x2 macro
# grid on [0,2]^2 (level 2, f = x + 2y, vel = (y, -x)); VTK's parallel reader must see
# 100 points, 64 quads covering area 4, and the fields as written. And four hexahedral
# macros, the unit cubes at x = 0..3 (level 1, f = x + 2y + 3z, vel = (y, -x, z)):
# 108 points, 32 hexahedra of positive volume filling 4, the fields as written. One
# Python script reads both. Skipped (77) without Debian's python3-vtk (the python3 on
# PATH may be another one, so /usr/bin/python3).
set -eu
PY=/usr/bin/python3
"$PY" -c 'import vtk' 2>/dev/null || { echo "python3-vtk not available: skipped"; exit 77; }
dir=$(mktemp -d /tmp/feast_vtk_read_XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$MPIEXEC" --oversubscribe --bind-to none -np 2 "$FEAST_BIN/test_vtk" "$dir"
"$PY" - "$dir/field.pvtu" "$dir/hexfield.pvtu" <<'PYEOF'
import sys, vtk
fails = []
def check(ok, what):
    if not ok: fails.append(what)
def report(what, ok):
    """exit 1 naming the failed checks of `what`, else print ok"""
    if fails:
        print("test_vtk_read: FAILED (%s):" % what, "; ".join(fails[:10]))
        sys.exit(1)
    print("test_vtk_read: " + ok)
def read(path):
    r = vtk.vtkXMLPUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    return r, r.GetOutput()
def quads(path):
    r, g = read(path)
    check(r.GetNumberOfPieces() == 2, "2 pieces, got %d" % r.GetNumberOfPieces())
    check(g.GetNumberOfPoints() == 100, "100 points, got %d" % g.GetNumberOfPoints())
    check(g.GetNumberOfCells() == 64, "64 cells, got %d" % g.GetNumberOfCells())
    check(all(g.GetCellType(c) == vtk.VTK_QUAD for c in range(g.GetNumberOfCells())), "all quads")
    pd, cd = g.GetPointData(), g.GetCellData()
    f, vel = pd.GetArray("f"), pd.GetArray("vel")
    check(f is not None and vel is not None, "point fields f and vel")
    if f is not None and vel is not None:
        check(f.GetRange() == (0.0, 6.0), "range of f %s" % (f.GetRange(),))
        check(vel.GetNumberOfComponents() == 3, "vel has 3 components")
        for p in range(g.GetNumberOfPoints()):
            x, y, z = g.GetPoint(p)
            if abs(f.GetValue(p) - (x + 2 * y)) > 1e-14 or vel.GetTuple3(p) != (y, -x, 0.0):
                check(False, "point %d: f or vel does not match (x, y) = (%g, %g)" % (p, x, y))
                break
    check(cd.GetArray("macro").GetRange() == (0.0, 3.0), "macro ids 0..3")
    check(cd.GetArray("rank").GetRange() == (0.0, 1.0), "ranks 0..1")
    # counter-clockwise corners: positive signed areas summing to the domain's 4
    area = 0.0
    for c in range(g.GetNumberOfCells()):
        pts = [g.GetPoint(g.GetCell(c).GetPointId(k)) for k in range(4)]
        a = 0.5 * sum(pts[k][0] * pts[(k + 1) % 4][1] - pts[(k + 1) % 4][0] * pts[k][1] for k in range(4))
        check(a > 0, "cell %d is clockwise" % c)
        area += a
    check(abs(area - 4.0) < 1e-12, "total area %g != 4" % area)
    report("quads", "pvtu read by VTK %s: 100 points, 64 quads, fields match" % vtk.vtkVersion.GetVTKVersion())
def hexahedra(path):
    r, g = read(path)
    check(g.GetNumberOfPoints() == 108, "108 points, got %d" % g.GetNumberOfPoints())
    check(g.GetNumberOfCells() == 32, "32 cells, got %d" % g.GetNumberOfCells())
    check(all(g.GetCellType(c) == vtk.VTK_HEXAHEDRON for c in range(g.GetNumberOfCells())), "all hexahedra")
    pd = g.GetPointData()
    f, vel = pd.GetArray("f"), pd.GetArray("vel")
    check(f is not None and vel is not None, "point fields f and vel")
    if f is not None and vel is not None:
        for p in range(g.GetNumberOfPoints()):
            x, y, z = g.GetPoint(p)
            if abs(f.GetValue(p) - (x + 2 * y + 3 * z)) > 1e-14 or vel.GetTuple3(p) != (y, -x, z):
                check(False, "point %d: f or vel does not match (%g, %g, %g)" % (p, x, y, z))
                break
    # VTK's own volumes of the hexahedra (the corner order VTK expects gives positive ones)
    q = vtk.vtkMeshQuality()
    q.SetInputData(g)
    q.SetHexQualityMeasureToVolume()
    q.Update()
    vol = q.GetOutput().GetCellData().GetArray("Quality")
    vols = [vol.GetValue(c) for c in range(g.GetNumberOfCells())]
    check(min(vols) > 0, "a hexahedron of volume %g" % min(vols))
    check(abs(sum(vols) - 4.0) < 1e-12, "total volume %g != 4" % sum(vols))
    report("hexahedra", "hexahedra read by VTK: 108 points, 32 hexahedra of volume 4, fields match")
quads(sys.argv[1])
hexahedra(sys.argv[2])
PYEOF
