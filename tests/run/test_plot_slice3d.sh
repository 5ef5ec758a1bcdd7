#!/usr/bin/env bash
# tools/plot_slice3d.py on the lid-driven cube (config/cavity3d.ini, level 2: 2 x 2 x 2
# macros of 5^3 nodes): the planes z = 0.5 and x = 0.5 cut into 9 x 9 nodes and 128
# triangles each (the nodes macros share merged), a PNG written; a plane outside the mesh
# and a 2D flow's output are one error each. Skipped (77) without VTK's module or matplotlib.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import vtk, matplotlib' 2>/dev/null || { echo "VTK's Python module or matplotlib not available: skipped"; exit 77; }
TOOL="$FEAST_SRC/tools/plot_slice3d.py"
feastc_np 2 "$FEAST_SRC/config/cavity3d.ini" grid.level=2 output.vtk="$TMP/c3d" || fail=$((fail + 1))
out=$("$PY" "$TOOL" "$TMP/c3d.pvtu" "$TMP/slice.png" --dpi 40 --title "cube L2" 2>&1); rc=$?
echo "$out"
check "two planes: exit 0 (got $rc), 81 nodes and 128 triangles each" \
  "$rc == 0 and $(echo "$out" | grep -c ': 81 nodes, 128 triangles') == 2"
check "the PNG written (signature)" "$(head -c 8 "$TMP/slice.png" | od -An -tx1 | tr -d ' \n' | grep -c '^89504e470d0a1a0a$') == 1"
out=$("$PY" "$TOOL" "$TMP/c3d.pvtu" "$TMP/bad.png" --plane z=2 2>&1); rc=$?
check "a plane outside the mesh: exit 1 naming it (got $rc: $out)" "$rc == 1 and 'z = 2' in '''$out'''"
feastc_np 1 "$FEAST_SRC/config/cavity.ini" grid.level=2 output.vtk="$TMP/c2d" || fail=$((fail + 1))
out=$("$PY" "$TOOL" "$TMP/c2d.pvtu" "$TMP/bad.png" 2>&1); rc=$?
check "a 2D flow's output: exit 1 naming the field (got $rc: $out)" "$rc == 1 and 'velocity' in '''$out'''"
finish
