#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# Outer Krylov variants (bicgstab, ibicgstab, pipebicgsafe): iterations, time per
# iteration, and the share of the linear solve spent waiting in global reductions and
# interface exchanges (timers comm_reduce, comm_exchange: all waits of the run's solve,
# the preconditioner's included), at 1, 2, 4 ranks, with and without an artificial
# reduction latency (debug.reduction_latency_us). The preconditioner is made linear
# (fixed Schwarz step, one local V cycle per local solve, one velocity cycle), which the
# recurrence variants need. Prints a Markdown table.
# usage: bench/krylov.sh [build dir] [latency_us]   (from the repository root)
set -euo pipefail
BUILD=${1:-build}
LAT=${2:-500}
FEASTC=$BUILD/bin/feastc
MPIEXEC=${MPIEXEC:-mpiexec}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
LINEAR="solver.smoother_step=fixed solver.local_rtol=1e-12 solver.local_max_cycles=1"
NSLIN="$LINEAR velocity.rtol=1e-12 velocity.max_iterations=1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| problem | ranks | latency (us) | method | its | s/it | reduce wait | exchange wait | red/it | exch/it | result |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
run() { # problem config extra-args
  local name=$1 cfg=$2 extra=$3 key=$4
  for np in 1 2 4; do
    for lat in 0 $LAT; do
      for m in bicgstab ibicgstab pipebicgsafe; do
        $MPIEXEC --oversubscribe --bind-to none -np $np $FEASTC $cfg $extra $key=$m \
          debug.reduction_latency_us=$lat output.summary=$tmp/s.json output.verbosity=0 >/dev/null 2>&1 || true
        python3 - "$tmp/s.json" "$name" $np $lat $m <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["timings"]
its = d.get("linear_iterations", d.get("global_mg_iterations"))
lin = t["linear_solve"]
res = d.get("kinetic_energy", d.get("l2_error"))
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {its} | {lin/its:.4f} | "
      f"{100*t.get('comm_reduce',0)/lin:.1f} % | {100*t.get('comm_exchange',0)/lin:.1f} % | "
      f"{d['reductions_per_iteration']:.2f} | {d['exchanges_per_iteration']:.2f} | {res:.10g} |")
PY
      done
    done
  done
}
run "poisson L=6" config/poisson.ini "grid.level=6 $LINEAR" solver.scarc_solver
run "stokes L=5" config/stokes.ini "grid.level=5 $NSLIN" linear.krylov
