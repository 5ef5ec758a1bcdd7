#!/usr/bin/env bash
# Open flows against the cavity (issue #44): wall time, nonlinear steps, FGMRES iterations
# and time per unknown of the backward-facing step (config/step.ini, Gartling, Re = 800),
# the DFG channel at Re = 100 (config/dfg_re100.ini) and the cavity at Re = 1000 (the
# enclosed flow of comparable size: level 6, 99,459 unknowns), each with the defaults, one
# rank; with OLD=path/to/an/older/feastc the same runs with it, interleaved (new, old) so
# that both see the same machine. The step's separation and reattachment points against
# Gartling's 6.10 (lower wall), 4.85 and 10.48 (upper wall); the cylinder in a wide domain
# (config/cylinder.ini, Re = 40, level 4) with its recirculation length (Fornberg 2.24).
# usage: bench/open_flows.sh [BUILD_DIR] ["STEP_LEVELS"]   (from the repo root)
#   e.g. OLD=/tmp/old/build/bin/feastc bench/open_flows.sh build "3 4"
set -euo pipefail
export OMPI_MCA_mpi_yield_when_idle=1
build=${1:-build}
levels=${2:-3 4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=("$build/bin/feastc")
[ -z "${OLD:-}" ] || bins+=("$OLD")
row() { # name binary config overrides...
  local name=$1 bin=$2; shift 2
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" "$@" output.summary="$tmp/s.json" output.verbosity=0 >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  python3 - "$tmp/s.json" "$name" "$bin" "$t0" "$t1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = float(sys.argv[5]) - float(sys.argv[4])
dofs = s.get("dofs") or s.get("unknowns") or 0
zl, zu = s.get("wall_shear_zeros_lower"), s.get("wall_shear_zeros_upper")
walls = ""
if zl and zu and len(zu) == 2:
    walls = "%.3f / %.3f / %.3f" % (zl[0], zu[0], zu[1])
if "recirculation_length" in s:
    walls = "L_w %.4f, c_D %.4f" % (s["recirculation_length"], s.get("drag_coefficient", float("nan")))
print("| %s | %s | %s | %s | %d | %d | %.1f | %.3f | %.12g | %s |" % (
    sys.argv[2], sys.argv[3], dofs, s.get("converged"), s.get("nonlinear_iterations", 0),
    s.get("linear_iterations", 0), t, 1e3 * t / dofs if dofs else float("nan"), s.get("kinetic_energy", 0.0), walls))
PY
}
echo "| case | feastc | unknowns | converged | nonlinear steps | FGMRES its | wall (s) | ms / unknown | kinetic energy | step: lower / upper sep. / upper reatt. (6.10 / 4.85 / 10.48); cylinder: L_w, c_D |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---|"
for L in $levels; do
  for b in "${bins[@]}"; do row "step Re 800 L$L" "$b" config/step.ini grid.level="$L"; done
done
for b in "${bins[@]}"; do row "DFG channel Re 100 L5" "$b" config/dfg_re100.ini; done
for b in "${bins[@]}"; do row "cylinder Re 40 L4" "$b" config/cylinder.ini grid.level=4; done
for b in "${bins[@]}"; do row "cavity Re 1000 L6" "$b" config/cavity.ini problem.re=1000 grid.level=6; done
