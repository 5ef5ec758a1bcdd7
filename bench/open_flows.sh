#!/usr/bin/env bash
# Open flows against the cavity (issue #44): wall time, nonlinear steps, FGMRES iterations
# and time per unknown of the backward-facing step (config/step.ini, Gartling, Re = 800),
# the DFG channel at Re = 100 (config/dfg_re100.ini), the cylinder in a wide domain
# (config/cylinder.ini, Re = 40, level 4, its recirculation length against Fornberg's
# 2.24) and the cavity at Re = 1000, the enclosed flow of comparable size (level L + 2 for
# the step's level L: 99,459 unknowns against 95,139 at L = 4, 395,523 against 374,595 at
# L = 5) and at the same level L (the same macro size), each with the defaults, one rank. Grid sequencing (continuation.grid_sequencing,
# on by default in open flows): "coarse steps / its" are the coarser levels' nonlinear
# steps and FGMRES iterations, "steps" and "FGMRES its" the finest level's; the wall time
# is the whole run's (every level). The step's separation and reattachment points against
# Gartling's 6.10 (lower wall), 4.85 and 10.48 (upper wall).
# With OLD=path/to/an/older/feastc the same runs with it, interleaved (new, old), and with
# OFF=1 every open-flow run also with continuation.grid_sequencing=off, so that both see
# the same machine.
# usage: bench/open_flows.sh [BUILD_DIR] ["STEP_LEVELS"]   (from the repo root)
#   e.g. OFF=1 taskset -c 1 bench/open_flows.sh build "4 5"
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
  case " $* " in *" continuation.grid_sequencing=off "*) name="$name, sequencing off" ;; esac
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
zl = [x for x in zl or [] if x > 0.5]  # the lower wall's corner eddy at the step (x < 0.5) apart
if zl and zu and len(zu) == 2:
    walls = "%.3f / %.3f / %.3f" % (zl[0], zu[0], zu[1])
if "recirculation_length" in s:
    walls = "L_w %.4f, c_D %.4f" % (s["recirculation_length"], s.get("drag_coefficient", float("nan")))
coarse = "%d / %d" % (s["coarse_nonlinear_iterations"], s["coarse_linear_iterations"]) if s.get("coarse_levels") else "-"
print("| %s | %s | %s | %s | %s | %d | %d | %.1f | %.3f | %.12g | %s |" % (
    sys.argv[2], sys.argv[3], dofs, s.get("converged"), coarse, s.get("nonlinear_iterations", 0),
    s.get("linear_iterations", 0), t, 1e3 * t / dofs if dofs else float("nan"), s.get("kinetic_energy", 0.0), walls))
PY
}
echo "| case | feastc | unknowns | converged | coarse steps / its | steps | FGMRES its | wall (s) | ms / unknown | kinetic energy | step: lower / upper sep. / upper reatt. (6.10 / 4.85 / 10.48); cylinder: L_w, c_D |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|"
open_row() { # name config overrides...: with each binary, and with OFF=1 without sequencing too
  local name=$1; shift
  for b in "${bins[@]}"; do
    row "$name" "$b" "$@"
    [ -z "${OFF:-}" ] || row "$name" "$b" "$@" continuation.grid_sequencing=off
  done
}
for L in $levels; do
  open_row "step Re 800 L$L" config/step.ini grid.level="$L"
  for b in "${bins[@]}"; do row "cavity Re 1000 L$((L + 2))" "$b" config/cavity.ini problem.re=1000 grid.level=$((L + 2)); done
  for b in "${bins[@]}"; do row "cavity Re 1000 L$L" "$b" config/cavity.ini problem.re=1000 grid.level="$L"; done
done
open_row "DFG channel Re 100 L5" config/dfg_re100.ini
open_row "cylinder Re 40 L4" config/cylinder.ini grid.level=4
