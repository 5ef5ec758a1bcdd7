#!/bin/bash
# run.sh RE LEVEL [extra dfg options, e.g. --quiet --al graddiv --gamma G --tol T]
# Builds (Release) into ${PEER_DFG_BUILD:-/tmp/peer-dfg-build} when needed, then runs
# one case single-threaded on CPU ${CPU:-1} and prints the JSON line on stdout.
# RE = 20 is the benchmark (nu = 0.02 / RE).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 RE LEVEL [--al discrete|graddiv] [--gamma G] [--tol T] [--quiet]" >&2
  exit 2
fi
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="${PEER_DFG_BUILD:-/tmp/peer-dfg-build}"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >&2
fi
# make is a no-op when dfg.cc is unchanged
make -C "$BUILD" dfg >&2
export DEAL_II_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
exec taskset -c "${CPU:-1}" "$BUILD/dfg" "$@"
