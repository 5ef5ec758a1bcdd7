#!/usr/bin/env bash
# The 3D lid-driven cavity (config/cavity3d.ini) at the Reynolds numbers and levels given:
# per run the wall time, steps, FGMRES iterations and the centre-line extrema (u_min on
# x = z = 0.5, v_max and v_min on y = z = 0.5, each from the parabola through the node of
# the extremum and its neighbours), and at Re = 1000 their errors against Albensoeder &
# Kuhlmann (2005), the spectral solution's extrema as Ben Beya & Lili (2008, Table 1)
# reprint them: u_min -0.2803833 at y = 0.12419, v_min -0.4350186 at x = 0.90957, v_max
# 0.2466511 at x = 0.10913 (their frame mapped to ours: the lid y = 1 moving along +x).
#
#   bench/cavity3d.sh BUILD "RE..." "LEVEL..." [feastc overrides...]
set -euo pipefail
build=${1:?build dir}; res=${2:?Reynolds numbers}; levels=${3:?levels}; shift 3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
printf '| Re | L | unknowns | wall (s) | steps | FGMRES | u_min (y) | v_max (x) | v_min (x) | errors vs A&K (u_min / v_max / v_min) |\n'
printf '|---:|---:|---:|---:|---:|---:|---|---|---|---|\n'
for re in $res; do
  for L in $levels; do
    t0=$(date +%s.%N)
    "$build/bin/feastc" "$src/config/cavity3d.ini" problem.re="$re" grid.level="$L" output.centerlines="$out/c" \
      output.summary="$out/s.json" output.verbosity=0 "$@" >"$out/log" 2>&1 || true
    t1=$(date +%s.%N)
    python3 - "$out" "$re" "$L" "$t0" "$t1" <<'PY'
import csv, json, sys
out, re, L, t0, t1 = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
s = json.load(open(out + "/s.json"))
def extremum(path, sign):
    p = [tuple(map(float, r)) for r in list(csv.reader(open(path)))[1:]]
    i = min(range(1, len(p) - 1), key=lambda k: sign * p[k][1])
    (x0, f0), (x1, f1), (x2, f2) = p[i - 1], p[i], p[i + 1]
    d = (x0 - x1) * (x0 - x2) * (x1 - x2)  # the parabola a x^2 + b x + c through the three, its vertex
    a = (x2 * (f1 - f0) + x1 * (f0 - f2) + x0 * (f2 - f1)) / d
    b = (x2 * x2 * (f0 - f1) + x1 * x1 * (f2 - f0) + x0 * x0 * (f1 - f2)) / d
    c = (x1 * x2 * (x1 - x2) * f0 + x2 * x0 * (x2 - x0) * f1 + x0 * x1 * (x0 - x1) * f2) / d
    xv = -b / (2 * a)
    return a * xv * xv + b * xv + c, xv
umin, vmax, vmin = extremum(out + "/c_u.csv", 1), extremum(out + "/c_v.csv", -1), extremum(out + "/c_v.csv", 1)
ref = {1000: (-0.2803833, 0.2466511, -0.4350186)}.get(int(re))
err = " / ".join("%+.2f %%" % (100 * (v[0] - r) / abs(r)) for v, r in zip((umin, vmax, vmin), ref)) if ref else "(no reference)"
conv = "" if s.get("converged") else " (NOT converged)"
print("| %g | %d | %s | %.1f | %d%s | %d | %.5f (%.4f) | %.5f (%.4f) | %.5f (%.4f) | %s |" % (
    re, L, s["dofs"], t1 - t0, s["nonlinear_iterations"], conv, s["linear_iterations"],
    umin[0], umin[1], vmax[0], vmax[1], vmin[0], vmin[1], err))
PY
  done
done
rm -rf "$out"
