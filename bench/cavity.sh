#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# The lid-driven cavity (config/cavity.ini) at several Reynolds numbers and levels, with
# fixed-point defect correction and Newton: nonlinear steps, linear (BiCGStab) iterations,
# global ScaRC V cycles, kinetic energy, and where the time goes (seconds and shares of
# the run: assembly, solver setup, linear solve and its local multigrid part, the rest).
# One run per line, one core (np 1) unless NP is set.
# usage: bench/cavity.sh [BUILD_DIR] ["RE..."] ["LEVELS..."] ["METHODS..."]   (from the repo root)
#   e.g. bench/cavity.sh build "100 250" "6 7 8" "fixed-point newton"
#   SCHUR="mass pcd" runs every case with each Schur approximation (linear.schur; default
#   mass), CPU=1 pins every run to that CPU (taskset).
set -euo pipefail
build=${1:-build}
res=${2:-100 250}
levels=${3:-6 7 8}
methods=${4:-fixed-point newton}
np=${NP:-1}
schurs=${SCHUR:-mass}
pin=()
[ -z "${CPU:-}" ] || pin=(taskset -c "$CPU")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| Re | L | dofs | method | steps | linear its | its/step | V cycles | kinetic energy | total (s) | assembly | solver setup | linear solve | local MG | other | assembly + setup share |"
echo "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for re in $res; do
  for L in $levels; do
    for m in $methods; do
      for schur in $schurs; do
      "${pin[@]}" mpiexec --allow-run-as-root --oversubscribe -np "$np" "$build/bin/feastc" config/cavity.ini \
        problem.re="$re" grid.level="$L" nonlinear.method="$m" linear.schur="$schur" linear.preconditioner=block output.verbosity=0 \
        output.summary="$tmp/s.json" >/dev/null || true
      label=$m; [ "$schur" = mass ] || label="$m, $schur"
      /usr/bin/python3 - "$tmp/s.json" "$re" "$L" "$label" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["timings"]
tot = t["total"]; a = t.get("assembly", 0); s = t.get("solver_setup", 0); l = t.get("linear_solve", 0)
loc = t.get("local_mg", 0); other = tot - a - s - l
n = d["nonlinear_iterations"]; li = d["linear_iterations"]
pct = lambda x: f"{x:.2f} ({100 * x / tot:.0f}%)"
conv = "" if d["converged"] else f" (not converged: {d['reason']})"
print(f"| {sys.argv[2]} | {sys.argv[3]} | {d['dofs']} | {sys.argv[4]}{conv} | {n} | {li} | {li / max(n, 1):.1f} | "
      f"{d['global_mg_iterations']} | {d['kinetic_energy']:.8f} | {tot:.2f} | {pct(a)} | {pct(s)} | {pct(l)} | "
      f"{pct(loc)} | {pct(other)} | {100 * (a + s) / tot:.0f}% |")
PY
      done
    done
  done
done
