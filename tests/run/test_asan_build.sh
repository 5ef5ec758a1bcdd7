#!/usr/bin/env bash
# The ASan/UBSan tree of the sanitizer tests (tests/run/asan_lib.sh), built once: the
# ctest fixture asan_tree, which test_asan_units, test_asan_runs and test_asan_bad_inputs
# require. Only what they run: feastc and the unit and MPI test programs of
# test_asan_units.sh (not the six it leaves out, ASAN_UNIT_SKIP; not the benchmarks, not
# the GPU emulator's second copy of the upper layers). -O2 -g1 (line tables only: the
# sanitizers' reports still name file:line). Alone on the 2-core VM, 2026-12-03: 103 s,
# 119 CPU-s, against 117 s, 136 CPU-s with -O2 -g and every test program; -O1 -g1
# built faster still but the instrumented tests ran up to 20 % slower (test_ns_inner on
# 2 ranks). ~1.5 min on 2 cores from scratch (FEAST_SANITIZE_JOBS=2 build jobs), seconds
# when built.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/asan_lib.sh"
stamp "configure + build $asan"
targets=(feastc $(asan_test_programs))
{ cmake -S "$src" -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DFEAST_SANITIZE=ON -DFEAST_ENABLE_CUDA=OFF -DFEAST_TEST_TIMEOUT=600 &&
  cmake --build "$asan" -j"$jobs" --target "${targets[@]}"; } >"$TMP/asan_build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -40 "$TMP/asan_build.log"
check "ASan/UBSan build (rc $rc)" "$rc == 0"
stamp "done"
finish
