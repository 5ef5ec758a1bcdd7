#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# feastc against the expert deal.II peer (step-57-based Q2/Q1 Newton with an
# augmented-Lagrangian block preconditioner and UMFPACK, ../shared/peers/dealii-cavity/,
# used as it is, in its default expert form: plain Galerkin Q2/Q1, watertight lid) on the
# lid-driven cavity, one core each, in one run: for every Reynolds number and level, the
# wall time of the whole program (start to exit: mesh, setup, assembly, solve; both
# measured the same way, from outside) and the largest relative error of the three
# centre-line extrema (u_min on x = 0.5, v_max and v_min on y = 0.5). Then, per Reynolds
# number and accuracy, the least wall time each code needs to get below it and the ratio.
#
# References: Botella & Peyret (1998) at Re = 100 and 1000. Elsewhere (Re = 400) the
# extrapolation of the peer's two finest levels with its measured third order
# (f_L + (f_L - f_{L-1}) / 7): run the peer at two levels at least there.
#
#   bench/peers_ns.sh BUILD_DIR [-- feastc key=value ...]
#   RES="100 400 1000" FEAST_LEVELS="4 5 6" PEER_LEVELS="4 5 6" TOLS="1 0.3 0.1" (in %)
#   CPU=1: the core both run on (pinned with taskset, one thread each)
#   PEER=../shared/peers/dealii-cavity (needs libdeal.ii-dev: apt-get install libdeal.ii-dev)
#   CONFIG=config/cavity.ini: feastc's config (config/cavity_graded.ini: the graded
#   4 x 4 macros with the consistent stabilisation, docs/notes/cavity-accuracy.md)
# feastc runs CONFIG with problem.re and grid.level and no other key but the ones given
# after "--" (its defaults are what a user gets).
set -euo pipefail
build=${1:?usage: bench/peers_ns.sh BUILD_DIR [-- key=value ...]}
shift
[ "${1:-}" = "--" ] && shift
src=$(cd "$(dirname "$0")/.." && pwd)
feastc=$(cd "$build" && pwd)/bin/feastc
peer=${PEER:-$src/../shared/peers/dealii-cavity}
res=${RES:-100 400 1000}
feast_levels=${FEAST_LEVELS:-4 5 6}
peer_levels=${PEER_LEVELS:-4 5 6}
tols=${TOLS:-1 0.3 0.1}
cpu=${CPU:-1}
config=$(cd "$(dirname "${CONFIG:-$src/config/cavity.ini}")" && pwd)/$(basename "${CONFIG:-cavity.ini}")
[ -x "$feastc" ] || { echo "peers_ns.sh: no feastc at $feastc" >&2; exit 1; }
[ -f "$config" ] || { echo "peers_ns.sh: no config $config (CONFIG=...)" >&2; exit 1; }
[ -x "$peer/run.sh" ] || { echo "peers_ns.sh: no peer at $peer (PEER=...)" >&2; exit 1; }
out=$(mktemp -d /tmp/feastc_peers_ns.XXXXXX)
echo "# $(date -u '+%F %H:%M') UTC $(uname -n) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
  "feastc $(git -C "$src" rev-parse --short HEAD), CPU $cpu, outputs in $out, config $config, keys: $*" >&2
. "$src/bench/peers_lib.sh" # timed PREFIX COMMAND...
# the peer built (run.sh builds it when needed) and warm, then run directly as run.sh does:
# one thread, pinned, without run.sh's make in the time
"$peer/run.sh" 100 2 --quiet >/dev/null 2>"$out/peer_build.log" || { echo "peers_ns.sh: the peer does not build/run (see $out/peer_build.log)" >&2; exit 1; }
peer_bin=${PEER_NS_BUILD:-/tmp/peer-ns-build}/cavity
export DEAL_II_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
for re in $res; do
  # level by level, the two codes in turn, so that a drifting load biases neither
  for L in $(printf '%s\n' $peer_levels $feast_levels | sort -n -u); do
    if [[ " $peer_levels " == *" $L "* ]]; then
      echo "# peer Re=$re L=$L" >&2
      timed "$out/peer_re${re}_L$L" taskset -c "$cpu" "$peer_bin" "$re" "$L" --quiet
    fi
    if [[ " $feast_levels " == *" $L "* ]]; then
      echo "# feastc Re=$re L=$L" >&2
      p="$out/feast_re${re}_L$L"
      timed "$p" taskset -c "$cpu" "$feastc" "$config" problem.re="$re" grid.level="$L" \
        output.centerlines="$p" output.summary="$p.json" output.verbosity=0 "$@"
    fi
  done
done
RES="$res" FEAST_LEVELS="$feast_levels" PEER_LEVELS="$peer_levels" TOLS="$tols" \
  /usr/bin/python3 "$src/bench/peers_ns_table.py" "$out"
