#!/usr/bin/env bash
# linear.preconditioner = auto (the block preconditioner on the level asked for, direct on
# grid sequencing's coarser levels) against direct (every level) (issue #44): wall time,
# nonlinear steps and Krylov iterations of each case, the two runs of a pair one after the
# other on the same core. One rank, defaults otherwise.
# usage: bench/direct_prec.sh [BUILD_DIR]   (from the repo root; e.g. taskset -c 1 ...)
set -euo pipefail
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # preconditioner config overrides... -> "steps its seconds kinetic-energy"
  local pc=$1 t0 t1; shift
  t0=$(date +%s.%N)
  "$build/bin/feastc" "$@" linear.preconditioner="$pc" output.summary="$tmp/s.json" output.verbosity=0 \
    >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["nonlinear_iterations"], s["linear_iterations"], "%.1f" % (float(sys.argv[3]) - float(sys.argv[2])), "%.10g" % s["kinetic_energy"], s["dofs"], s["converged"])' \
    "$tmp/s.json" "$t0" "$t1"
}
echo "# bench/direct_prec.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc --all) cores, feastc $(git rev-parse --short HEAD)"
echo "| case | unknowns | auto (block): steps / its / wall (s) | direct: steps / its / wall (s) | auto / direct | kinetic energy (auto, direct) |"
echo "| --- | ---: | --- | --- | ---: | --- |"
pair() { # name config overrides...
  local name=$1; shift
  read -r bs bi bt bk dofs bc < <(run auto "$@")
  read -r ds di dt dk _ dc < <(run direct "$@")
  echo "| $name | $dofs | $bs / $bi / $bt${bc/True/} | $ds / $di / $dt${dc/True/} | $(python3 -c "print('%.2f' % ($bt / $dt))") | $bk, $dk |"
}
pair "step, Re 800, L4" config/step.ini grid.level=4
pair "cylinder, Re 40, L3" config/cylinder.ini grid.level=3
pair "cavity, Re 1000, L5" config/cavity.ini problem.re=1000 grid.level=5
pair "cavity, Re 1000, L6" config/cavity.ini problem.re=1000 grid.level=6
pair "DFG 2D-1, L5" config/dfg.ini grid.level=5
pair "DFG channel, Re 100, L5" config/dfg_re100.ini grid.level=5
