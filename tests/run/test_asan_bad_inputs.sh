#!/usr/bin/env bash
# Every bad input of tests/run/bad_inputs.sh (the suite's only run of the corpus) in the
# ASan/UBSan tree (test_asan_build): the exit codes and messages, and no sanitizer report.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/asan_lib.sh"
require_asan_tree
# ---- every bad input under ASan/UBSan (the script fails on any sanitizer line); leak
# checking with full stacks costs ~2 s per MPI start, so the whole table runs with
# detect_leaks=0 and a representative subset (each exit code and each reader, errors
# before and after the input phase, 2 ranks) runs again with leak checking. The readers'
# error paths are leak-checked input by input by the fuzzers (test_fuzz.sh).
stamp "bad inputs under ASan/UBSan (no leak check)"
ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1:fast_unwind_on_malloc=0/detect_leaks=0} FEASTC=$SFEASTC \
  bash "$src/tests/run/bad_inputs.sh" >"$TMP/bad.log" 2>&1
rc=$?
grep -E '^FAILED|bad inputs|passed' "$TMP/bad.log" | sed 's/^/    /'
check "bad inputs under ASan/UBSan (rc $rc)" "$rc == 0"
stamp "bad inputs subset under ASan/UBSan + LeakSanitizer"
subset='^(cfg_unknown_key.ini|cfg_level_huge.ini|cfg_missing_mesh.ini|cfg_unknown_dirichlet_part.ini\|1|cfg_max_memory.ini|cfg_problem_stokes.ini|ns_bad_expression.ini\|1|ns_corner_conflict.ini|ns_nonfinite_value.ini|mesh_nonconforming.feast|mesh_truncated_padded.feast|msh_no_quads.msh|msh41_node_oob.msh|mesh_one_macro.feast)\||--frobnicate|grid.levle'
FEAST_BAD_ONLY=$subset FEASTC=$SFEASTC bash "$src/tests/run/bad_inputs.sh" >"$TMP/bad_leaks.log" 2>&1
rc=$?
grep -E '^FAILED|bad inputs|passed' "$TMP/bad_leaks.log" | sed 's/^/    /'
check "bad inputs subset with leak checking (rc $rc, $(grep -c '^ok' "$TMP/bad_leaks.log") cases)" "$rc == 0 and $(grep -c '^ok' "$TMP/bad_leaks.log") >= 10"

stamp "done"
finish
