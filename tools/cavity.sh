#!/usr/bin/env bash
# The main job: the lid-driven cavity of config/cavity.ini (Re = 100, level 6, 99,459
# unknowns), its centre-line extrema against the reference values (Botella & Peyret at
# Re = 100 and 1000, Ghia's tables at Re = 400; tools/compare_ghia.py) and a picture
# (velocity magnitude with streamlines, pressure, vorticity; tools/plot_flow.py).
#
#   tools/cavity.sh [section.key=value ...]      e.g. problem.re=400 linear.schur=pcd
#
# The arguments are feastc overrides of config/cavity.ini. Writes, in the working
# directory, out/cavity.pvtu (+ _r*.vtu), out/cavity_u.csv and _v.csv (centre lines),
# out/cavity.json (summary) and out/cavity.png; OUT=PREFIX writes PREFIX.* instead.
# FEASTC=PATH runs another feastc (default: build/bin/feastc next to this script).
# Exit status: feastc's (2 = not converged: the extrema and the picture still come).
set -uo pipefail
{ # read whole before it runs: editing this file during a run cannot change that run
here=$(cd "$(dirname "$0")" && pwd)
feastc=${FEASTC:-$here/../build/bin/feastc}
out=${OUT:-out/cavity}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
[ -x "$feastc" ] || { echo "cavity.sh: no feastc at $feastc (build first: cmake --build build -j2)" >&2; exit 1; }
mkdir -p "$(dirname "$out")" || exit 1
"$feastc" "$here/../config/cavity.ini" output.vtk="$out" output.centerlines="$out" output.summary="$out.json" "$@"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || exit "$rc"
read -r re level < <("$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["re"], d["level"])' "$out.json") \
  || exit 1
echo "centre-line extrema at Re = $re, level $level (relative error against the reference):"
"$py" "$here/compare_ghia.py" "$out" --re "$re" --extrema-only || exit 1
"$py" "$here/plot_flow.py" "$out.pvtu" "$out.png" --dpi 80 --title "lid-driven cavity, Re = $re, L = $level" || exit 1
exit "$rc"
}
