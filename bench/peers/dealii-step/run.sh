#!/bin/bash
# run.sh RE LEVEL [extra step options, e.g. --quiet --samples N --al graddiv]
# Builds (Release) into /tmp/peer-step-build when needed, then runs one case
# single-threaded on CPU 1 and prints the JSON line on stdout.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 RE LEVEL [--al discrete|graddiv] [--gamma G] [--tol T] [--samples N] [--quiet]" >&2
  exit 2
fi
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="${PEER_STEP_BUILD:-/tmp/peer-step-build}"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >&2
fi
# make is a no-op when step.cc is unchanged
make -C "$BUILD" step >&2
export DEAL_II_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
exec taskset -c "${CPU:-1}" "$BUILD/step" "$@"
