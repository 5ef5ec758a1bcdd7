#!/usr/bin/env bash
# The ASan/UBSan tree of the sanitizer tests (tests/run/asan_lib.sh), built once: the
# ctest fixture asan_tree, which test_asan_units, test_asan_runs and test_asan_bad_inputs
# require. Only what they run: feastc and the unit and MPI test programs (not the
# benchmarks, not the GPU emulator's second copy of the upper layers). ~2.5 min on 2
# cores from scratch (FEAST_SANITIZE_JOBS=2 build jobs), seconds when built.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/asan_lib.sh"
stamp "configure + build $asan"
targets=(feastc)
for f in "$src"/tests/unit/test_*.c "$src"/tests/mpi/test_*.c; do [ -e "$f" ] && targets+=("$(basename "${f%.c}")"); done
{ cmake -S "$src" -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFEAST_SANITIZE=ON -DFEAST_ENABLE_CUDA=OFF \
    -DFEAST_TEST_TIMEOUT=600 &&
  cmake --build "$asan" -j"$jobs" --target "${targets[@]}"; } >"$TMP/asan_build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -40 "$TMP/asan_build.log"
check "ASan/UBSan build (rc $rc)" "$rc == 0"
stamp "done"
finish
