#!/usr/bin/env bash
# Bit for bit: run the reference cases on two trees and compare their summaries
# (issue #45, "Done means"). Everything but the timings must be identical: iterations,
# residuals, kinetic energy, forces, errors, to the last bit.
#
#   bench/bitwise.sh OLD_REF [NEW_REF]
#
# OLD_REF, NEW_REF: git revisions of this repository (NEW_REF default: the working tree as
# it is, uncommitted changes included). Each revision other than the working tree is
# checked out into a git worktree under $BITWISE_DIR (default /tmp/feastc-bitwise) and
# built there (Release, no CUDA: the CPU paths). The summaries go to
# $BITWISE_DIR/{old,new}/CASE.json, the comparison (tools/summary_diff.py) to stdout and
# to bench/results/bitwise.txt. Exit 0 when every case agrees, 1 otherwise.
#
# About 5 minutes per tree on a 2-core machine (build included).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/trees_lib.sh" # tree_args, tree, build, old_names, revisions
tree_args bench/bitwise.sh "${BITWISE_DIR:-/tmp/feastc-bitwise}" "$@" # old_ref, new_ref, work
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1

# the cases: NAME|RANKS|CONFIG|OVERRIDES (CONFIG relative to the tree; RESTART: the case
# runs twice, the second time from the checkpoint of the first)
cases=(
  "poisson_single|1|config/poisson.ini|"
  "poisson_double|1|config/poisson.ini|solver.local_precision=double"
  "poisson_np3|3|config/poisson.ini|"
  "stokes|1|config/stokes.ini|"
  "cavity_re100|1|config/cavity.ini|grid.level=5"
  "cavity_re100_np2|2|config/cavity.ini|grid.level=5"
  "cavity_re1000|1|config/cavity.ini|grid.level=5 problem.re=1000"
  "cavity_re3200|1|config/cavity.ini|grid.level=5 problem.re=3200"
  "cavity_re1000_double|1|config/cavity.ini|grid.level=4 problem.re=1000 solver.local_precision=double"
  "cavity_graded|1|config/cavity_graded.ini|grid.level=4 problem.re=1000"
  "dfg2d1|1|config/dfg.ini|grid.level=4"
  "dfg2d1_np3|3|config/dfg.ini|grid.level=4"
  "dfg2d2_window|1|config/dfg2d2.ini|grid.level=2 time.end=0.05 output.series_from=0"
  "dfg2d3_window|2|config/dfg2d3.ini|grid.level=2 time.end=0.2 output.series_from=0"
  "step_re200|1|config/step.ini|grid.level=2 problem.re=200"
  "cylinder|1|config/cylinder.ini|grid.level=2"
  "restart|1|config/cavity.ini|grid.level=4 problem.re=400 nonlinear.max_iterations=3|RESTART"
)

run_case() {
  local bin=$1 src=$2 out=$3 spec=$4
  IFS='|' read -r name ranks config overrides restart <<<"$spec"
  overrides=$(old_names "$bin" "$overrides")
  local json="$out/$name.json" log="$out/$name.log"
  local launch=()
  [ "$ranks" -gt 1 ] && launch=(mpirun -np "$ranks")
  # shellcheck disable=SC2086
  if [ "$restart" = RESTART ]; then
    local ckpt="$out/$name.ckpt"
    rm -f "$ckpt"
    (cd "$src" && "${launch[@]}" "$bin" "$config" $overrides output.checkpoint="$ckpt" \
       output.summary="$out/$name.first.json" >"$log" 2>&1) || true
    overrides=$(sed 's/[a-z_.]*max_iterations=[0-9]*//' <<<"$overrides")
    (cd "$src" && "${launch[@]}" "$bin" "$config" $overrides --restart "$ckpt" \
       output.summary="$json" >>"$log" 2>&1) || true
  else
    (cd "$src" && "${launch[@]}" "$bin" "$config" $overrides output.summary="$json" >"$log" 2>&1) || true
  fi
}

run_tree() {
  local ref=$1 name=$2
  local src bld out
  src=$(tree "$ref" "$name")
  bld="$work/build-$name"
  out="$work/$name"
  rm -rf "$out" && mkdir -p "$out"
  echo "== $name: ${ref:-working tree} ($src)" >&2
  build "$src" "$bld"
  for spec in "${cases[@]}"; do
    local t0=$SECONDS
    run_case "$bld/bin/feastc" "$src" "$out" "$spec"
    echo "   ${spec%%|*}: $((SECONDS - t0)) s" >&2
  done
}

run_tree "$old_ref" old
run_tree "$new_ref" new
mkdir -p "$root/bench/results"
result="$root/bench/results/bitwise.txt"
{
  echo "# bench/bitwise.sh $old_ref ${new_ref:-}: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m)"
  revisions "$old_ref" "$new_ref"
} >"$result"
status=0
python3 "$root/tools/summary_diff.py" "$work/old" "$work/new" "${cases[@]%%|*}" >>"$result" || status=$?
cat "$result"
exit "$status"
