#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# Strong scaling of the Poisson solve (ScaRC, standalone MG, local MG on the CPU in double)
# on unitsquare8: the same problem on 1 and more ranks, one after the other in one run,
# best of REPEAT runs each. Prints a Markdown table: linear-solve time, speedup and parallel
# efficiency against 1 rank, iterations (identical on every rank count by design).
# usage: bench/strong_scaling.sh [BUILD_DIR] [RANKS...]   (build, 1 2; run from the repo root)
# environment: LEVELS (default "7 8 9"), REPEAT (default 3), CONFIG (default config/poisson.ini)
set -euo pipefail
build=${1:-build}
shift || true
ranks=${*:-1 2}
levels=${LEVELS:-7 8 9}
repeat=${REPEAT:-3}
cfg=${CONFIG:-config/poisson.ini}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpiflags=(--bind-to core --map-by core)
[ "$(id -u)" = 0 ] && mpiflags+=(--allow-run-as-root)

# best linear-solve time of $repeat runs: prints "seconds iterations"
best_of() {
  local np=$1 L=$2 best="" it t
  for _ in $(seq "$repeat"); do
    mpirun "${mpiflags[@]}" -np "$np" "$build/bin/feastc" "$cfg" grid.level="$L" output.verbosity=0 \
      output.summary="$tmp/s.json" >/dev/null </dev/null
    read -r t it < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["timings"]["linear_solve"], d["global_mg_iterations"])' "$tmp/s.json")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $t < $best)"; then best=$t; fi
  done
  echo "$best $it"
}

echo "| L | unknowns | ranks | iterations | linear solve (s) | speedup | efficiency |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for L in $levels; do
  t1=""
  for np in $ranks; do
    read -r t it < <(best_of "$np" "$L")
    n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dofs"])' "$tmp/s.json")
    [ -n "$t1" ] || t1=$t
    python3 -c "import sys
L,n,np,it,t,t1=sys.argv[1:]; t=float(t); t1=float(t1); np=int(np)
print(f'| {L} | {int(n):,} | {np} | {it} | {t:.3f} | {t1/t:.2f} | {100*t1/t/np:.0f}% |')" "$L" "$n" "$np" "$it" "$t" "$t1"
  done
done
