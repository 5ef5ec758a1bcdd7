#!/usr/bin/env bash
# No performance regression (issue #45, "Done means"): the feastc side of the peer table
# (bench/peers_ns.sh: the cavity with defaults, Re 100/400/1000, L = 4/5/6, the wall time
# of the whole program) and of ScaRC against BoomerAMG (bench/peers.sh: Poisson, setup +
# solve of CG-ScaRC to 1e-8, and hypre's BoomerAMG-PCG with expert 2D settings on the same
# matrix) on an old and a new tree, in one run: every case runs on the two trees in turn,
# REPEAT times (best of), pinned to one core, so that a drifting load biases neither.
#
#   bench/regression.sh OLD_REF [NEW_REF]
#
# OLD_REF, NEW_REF: git revisions (NEW_REF default: the working tree as it is). Trees and
# builds under $REGRESSION_DIR (default /tmp/feastc-regression); BoomerAMG needs
# libhypre-dev (apt-get install libhypre-dev), built from the new tree. CPU=1 (the core),
# REPEAT=4, RES="100 400 1000", LEVELS="4 5 6", POISSON="unitsquare8:8 unitsquare8:9 dfg24:8".
# The table goes to stdout and to bench/results/regression.md. About 15 minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/trees_lib.sh" # tree_args, tree, build, old_names, revisions
tree_args bench/regression.sh "${REGRESSION_DIR:-/tmp/feastc-regression}" "$@" # old_ref, new_ref, work
cpu=${CPU:-1}
repeat=${REPEAT:-4}
res=${RES:-100 400 1000}
levels=${LEVELS:-4 5 6}
poisson=${POISSON:-unitsquare8:8 unitsquare8:9 dfg24:8}
export OMPI_MCA_mpi_yield_when_idle=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
. "$root/bench/peers_lib.sh" # timed PREFIX COMMAND...

old_src=$(tree "$old_ref" old)
new_src=$(tree "$new_ref" new)
echo "# building $old_ref and ${new_ref:-the working tree}" >&2
build "$old_src" "$work/build-old"
targets=(feastc)
[ -f /usr/include/hypre/HYPRE.h ] && targets+=(bench_boomeramg)
build "$new_src" "$work/build-new" "${targets[@]}"
amg=$work/build-new/bin/bench_boomeramg
[ -x "$amg" ] || amg=""
runs=$work/runs.txt
: >"$runs"

# wall NAME TREE CMD...: one line "NAME TREE seconds" in $runs (the whole program's time)
wall() {
  local name=$1 which=$2
  shift 2
  timed "$work/$which" "$@"
  echo "$name $which $(cat "$work/$which.wall")" >>"$runs"
}
# src_of TREE: the source folder of tree old or new
src_of() { if [ "$1" = new ]; then echo "$new_src"; else echo "$old_src"; fi; }
# scarc NAME TREE ARGS...: "NAME TREE setup+solve" from the summary (the assembly aside)
scarc() {
  local name=$1 which=$2
  shift 2
  taskset -c "$cpu" "$work/build-$which/bin/feastc" "$@" output.summary="$work/s.json" >"$work/$which.log" 2>&1
  python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["timings"]
print(sys.argv[2], sys.argv[3], t["solver_setup"] + t["linear_solve"])' "$work/s.json" "$name" "$which" >>"$runs"
}

for r in $(seq "$repeat"); do
  # the order of the two trees alternates: in this project's VMs the first run after a
  # process on another core pays page faults that the next one on the same core does
  # not (docs/notes/scarc-poisson.md, "First-touch stalls, explained")
  order="old new"
  [ $((r % 2)) -eq 0 ] && order="new old"
  for re in $res; do
    for L in $levels; do
      echo "# cavity Re=$re L=$L, run $r/$repeat" >&2
      for which in $order; do
        wall "cavity_re${re}_L$L" "$which" taskset -c "$cpu" "$work/build-$which/bin/feastc" \
          "$(src_of "$which")/config/cavity.ini" problem.re="$re" grid.level="$L" output.verbosity=0
      done
    done
  done
  for case in $poisson; do
    g=${case%:*} L=${case#*:}
    echo "# poisson $g L=$L, run $r/$repeat" >&2
    args=(config/poisson.ini grid.file="grids/$g.feast" grid.level="$L" output.verbosity=0 solver.scarc_solver=cg)
    for which in $order; do
      (cd "$(src_of "$which")" && scarc "poisson_${g}_L$L" "$which" "${args[@]}")
    done
    if [ -n "$amg" ]; then
      (cd "$new_src" && taskset -c "$cpu" "$work/build-new/bin/feastc" "${args[@]}" output.matrix_market="$work/A.mtx" >/dev/null 2>&1)
      out=$(taskset -c "$cpu" "$amg" "$work/A.mtx" "$work/A_rhs.mtx") || echo "# AMG-PCG did not converge" >&2
      setup=$(sed -n 's/.* setup=\([0-9.e+-]*\).*/\1/p' <<<"$out")
      solve=$(sed -n 's/.* solve=\([0-9.e+-]*\).*/\1/p' <<<"$out")
      echo "poisson_${g}_L$L amg $(awk -v a="$setup" -v b="$solve" 'BEGIN { print a + b }')" >>"$runs"
    fi
  done
done

mkdir -p "$root/bench/results"
result=$root/bench/results/regression.md
{
  echo "# bench/regression.sh $old_ref ${new_ref:-}: $(date -u +%Y-%m-%dT%H:%MZ), $(uname -n), $(nproc --all) cores, CPU $cpu, best of $repeat"
  revisions "$old_ref" "$new_ref"
  echo
  python3 - "$runs" <<'PY'
import sys
best = {}
for line in open(sys.argv[1]):
    name, which, t = line.split()
    best[(name, which)] = min(float(t), best.get((name, which), float("inf")))
names = list(dict.fromkeys(n for n, _ in best))
print("| case | old (s) | new (s) | new / old | BoomerAMG-PCG (s) | AMG / ScaRC old | AMG / ScaRC new |")
print("|---|---:|---:|---:|---:|---:|---:|")
for n in names:
    o, w, a = best.get((n, "old")), best.get((n, "new")), best.get((n, "amg"))
    amg = [f"{a:.3f}", f"{a / o:.2f}", f"{a / w:.2f}"] if a else ["-"] * 3
    print(f"| {n} | {o:.3f} | {w:.3f} | {w / o:.3f} | " + " | ".join(amg) + " |")
ratios = [best[(n, "new")] / best[(n, "old")] for n in names]
print(f"\nnew / old: geometric mean {__import__('math').prod(ratios) ** (1 / len(ratios)):.3f}, "
      f"min {min(ratios):.3f}, max {max(ratios):.3f} over {len(ratios)} cases")
PY
} >"$result"
cat "$result"
