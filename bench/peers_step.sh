#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# feastc against the expert deal.II peer on Gartling's backward-facing step (Int. J. Numer.
# Meth. Fluids 11 (1990) 953-967; config/step.ini): bench/peers/dealii-step/, the open-flow
# variant of ../shared/peers/dealii-cavity/ (step-57: Q2/Q1 Taylor-Hood, Newton with line
# search, FGMRES with the augmented-Lagrangian block preconditioner, UMFPACK velocity
# block, continuation in Re when Newton from the Stokes start fails; only geometry,
# boundary conditions and outputs changed), used as it is. One core each, in one run,
# levels interleaved: for every level the wall time of the whole program (start to exit:
# mesh, setup, assembly, solve, post-processing; both measured the same way, from outside)
# and the largest relative error of the three wall-shear sign changes (lower[0]: the
# reattachment on y = -0.5; upper[0], upper[1]: separation and reattachment on y = +0.5)
# against Gartling's 6.10, 4.85 and 10.48. A run that did not converge or has the wrong
# number of sign changes (not 1 on the lower wall and 2 on the upper one) reaches no
# threshold. Then per threshold the least wall time each code needs to get below it and
# the ratio peer / feastc (> 1: feastc faster).
#
#   bench/peers_step.sh [BUILD_DIR] [-- feastc key=value ...]     (BUILD_DIR: build)
#   RE=800 FEAST_LEVELS="3 4 5" PEER_LEVELS="1 2 3" TOLS="3 1 0.3" (in %)
#   CPU=1: the core both run on (pinned with taskset, one thread each)
#   PEER=bench/peers/dealii-step (needs libdeal.ii-dev: apt-get install libdeal.ii-dev;
#   its run.sh builds it into PEER_STEP_BUILD, /tmp/peer-step-build)
#   CONFIG=config/step.ini: feastc's config
#   END=0.05, CORNER_EDDY=0.5: which sign changes the table drops or sets apart (see
#   bench/peers_step_table.py: the lower wall's corner eddy; CORNER_EDDY=0: lower[0] as is)
# feastc runs CONFIG with problem.re, grid.level, output.summary, output.verbosity=0 and no
# other key but the ones given after "--" (its defaults are what a user gets).
# Costs (2026-12-02, 2-core AMD EPYC VM): the peer's levels 1 and 2 do not converge at
# Re = 800 (7 s, 23 s); its level 3 (71,603 unknowns) takes about 3 minutes and 1 GB, its
# level 4 (281,443) 15 minutes and 4 GB (bench/peers/dealii-step/README.md); feastc's
# level 5 is long too.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
feastc=$(cd "$build" && pwd)/bin/feastc
peer=${PEER:-$src/bench/peers/dealii-step}
re=${RE:-800}
feast_levels=${FEAST_LEVELS:-3 4 5}
peer_levels=${PEER_LEVELS:-1 2 3}
tols=${TOLS:-3 1 0.3}
cpu=${CPU:-1}
config=$(cd "$(dirname "${CONFIG:-$src/config/step.ini}")" && pwd)/$(basename "${CONFIG:-step.ini}")
[ -x "$feastc" ] || { echo "peers_step.sh: no feastc at $feastc" >&2; exit 1; }
[ -f "$config" ] || { echo "peers_step.sh: no config $config (CONFIG=...)" >&2; exit 1; }
[ -x "$peer/run.sh" ] || { echo "peers_step.sh: no peer at $peer (PEER=...)" >&2; exit 1; }
out=$(mktemp -d /tmp/feastc_peers_step.XXXXXX)
echo "# $(date -u '+%F %H:%M') UTC $(uname -n) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)," \
  "feastc $(git -C "$src" rev-parse --short HEAD), Re $re, CPU $cpu, outputs in $out, config $config, keys: $*" >&2
. "$src/bench/peers_lib.sh" # timed PREFIX COMMAND...
# the peer built (run.sh builds it when needed) and warm, then run directly as run.sh does:
# one thread, pinned, without run.sh's make in the time
"$peer/run.sh" 100 0 --quiet >/dev/null 2>"$out/peer_build.log" || { echo "peers_step.sh: the peer does not build/run (see $out/peer_build.log)" >&2; exit 1; }
peer_bin=${PEER_STEP_BUILD:-/tmp/peer-step-build}/step
export DEAL_II_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
# level by level, the two codes in turn, so that a drifting load biases neither
for L in $(printf '%s\n' $peer_levels $feast_levels | sort -n -u); do
  if [[ " $peer_levels " == *" $L "* ]]; then
    echo "# peer Re=$re L=$L" >&2
    timed "$out/peer_L$L" taskset -c "$cpu" "$peer_bin" "$re" "$L" --quiet
  fi
  if [[ " $feast_levels " == *" $L "* ]]; then
    echo "# feastc Re=$re L=$L" >&2
    p="$out/feast_L$L"
    timed "$p" taskset -c "$cpu" "$feastc" "$config" problem.re="$re" grid.level="$L" \
      output.summary="$p.json" output.verbosity=0 "$@"
  fi
done
END="${END:-0.05}" CORNER_EDDY="${CORNER_EDDY:-0.5}" RE="$re" FEAST_LEVELS="$feast_levels" PEER_LEVELS="$peer_levels" TOLS="$tols" \
  /usr/bin/python3 "$src/bench/peers_step_table.py" "$out"
