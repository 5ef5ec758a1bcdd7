#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# feastc against the expert deal.II peer on the DFG benchmark 2D-1 (Schaefer & Turek 1996:
# stationary flow around a cylinder at Re = 20; config/dfg.ini): bench/peers/dealii-dfg/,
# the open-flow variant of ../shared/peers/dealii-cavity/ made from
# bench/peers/dealii-step/ (step-57: Q2/Q1 Taylor-Hood, Newton with line search, FGMRES
# with the augmented-Lagrangian block preconditioner, UMFPACK velocity block,
# continuation in Re when Newton from the Stokes start fails; only geometry, boundary
# conditions and outputs changed), used as it is. One core each, in one run, levels
# interleaved: for every level the wall time of the whole program (start to exit: mesh,
# setup, assembly, solve, post-processing; both measured the same way, from outside) and
# the largest relative error of c_D, c_L and delta p = p(0.15,0.2) - p(0.25,0.2) against
# 5.57953523384, 0.010618948146 and 0.11752016697. A run that did not converge reaches no
# threshold. Then per threshold the least wall time each code needs to get below it and
# the ratio peer / feastc (> 1: feastc faster); a second table, labelled, leaves c_L out.
#
#   bench/peers_dfg.sh [BUILD_DIR] [-- feastc key=value ...]     (BUILD_DIR: build)
#   FEAST_LEVELS="2 3 4 5 6 7 8" PEER_LEVELS="0 1 2 3 4" TOLS="3 1 0.3" (in %)
#   CPU=1: the core both run on (pinned with taskset, one thread each)
#   PEER=bench/peers/dealii-dfg (needs libdeal.ii-dev: apt-get install libdeal.ii-dev;
#   its run.sh builds it into PEER_DFG_BUILD, /tmp/peer-dfg-build)
#   CONFIG=config/dfg.ini: feastc's config
#   PEER_OPTS="": extra peer options, e.g. "--mapping 2" (curved cells: MappingQ(2) in
#   place of step-57's default linear mapping; not the peer's default)
# feastc runs CONFIG with grid.level, output.summary, output.verbosity=0 and no other key
# but the ones given after "--" (its defaults are what a user gets); the peer runs at
# RE = 20 (nu = 1e-3), the benchmark's.
# Costs (2026-12-03, 2-core AMD EPYC VM, one core; bench/results/peers_dfg.md): the peer's
# level 3 (63,408 unknowns) 21 s and 1.1 GB, level 4 (251,232) 130 s and 4.3 GB (its
# memory grows about 4x a level: level 5 was not run); feastc's level 8 (4.7 million)
# 55-61 s and 4.9 GB. The default levels took 4 minutes in all.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
feastc=$(cd "$build" && pwd)/bin/feastc
peer=${PEER:-$src/bench/peers/dealii-dfg}
re=20
feast_levels=${FEAST_LEVELS:-2 3 4 5 6 7 8}
peer_levels=${PEER_LEVELS:-0 1 2 3 4}
tols=${TOLS:-3 1 0.3}
peer_opts=${PEER_OPTS:-}
cpu=${CPU:-1}
config=$(cd "$(dirname "${CONFIG:-$src/config/dfg.ini}")" && pwd)/$(basename "${CONFIG:-dfg.ini}")
[ -x "$feastc" ] || { echo "peers_dfg.sh: no feastc at $feastc" >&2; exit 1; }
[ -f "$config" ] || { echo "peers_dfg.sh: no config $config (CONFIG=...)" >&2; exit 1; }
[ -x "$peer/run.sh" ] || { echo "peers_dfg.sh: no peer at $peer (PEER=...)" >&2; exit 1; }
out=$(mktemp -d /tmp/feastc_peers_dfg.XXXXXX)
echo "# $(date -u '+%F %H:%M') UTC $(uname -n) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
  "feastc $(git -C "$src" rev-parse --short HEAD), Re $re, CPU $cpu, outputs in $out, config $config, peer options: ${peer_opts:-none}, keys: $*" >&2
. "$src/bench/peers_lib.sh" # timed PREFIX COMMAND...
# the peer built (run.sh builds it when needed) and warm, then run directly as run.sh does:
# one thread, pinned, without run.sh's make in the time
"$peer/run.sh" "$re" 0 --quiet >/dev/null 2>"$out/peer_build.log" || { echo "peers_dfg.sh: the peer does not build/run (see $out/peer_build.log)" >&2; exit 1; }
peer_bin=${PEER_DFG_BUILD:-/tmp/peer-dfg-build}/dfg
export DEAL_II_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
# level by level, the two codes in turn, so that a drifting load biases neither
for L in $(printf '%s\n' $peer_levels $feast_levels | sort -n -u); do
  if [[ " $peer_levels " == *" $L "* ]]; then
    echo "# peer Re=$re L=$L" >&2
    timed "$out/peer_L$L" taskset -c "$cpu" "$peer_bin" "$re" "$L" --quiet $peer_opts
  fi
  if [[ " $feast_levels " == *" $L "* ]]; then
    echo "# feastc L=$L" >&2
    p="$out/feast_L$L"
    timed "$p" taskset -c "$cpu" "$feastc" "$config" grid.level="$L" \
      output.summary="$p.json" output.verbosity=0 "$@"
  fi
done
echo "# $(date -u '+%F %H:%M') UTC done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
FEAST_LEVELS="$feast_levels" PEER_LEVELS="$peer_levels" TOLS="$tols" PEER_OPTS="$peer_opts" \
  /usr/bin/python3 "$src/bench/peers_dfg_table.py" "$out"
