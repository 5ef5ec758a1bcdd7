#!/usr/bin/env bash
# Fuzz the input readers (config parser, native mesh, Gmsh) with libFuzzer + ASan/UBSan:
# every input ever found to crash (tests/fuzz/regressions/<target>/) is re-run, then
# each target is fuzzed for FEAST_FUZZ_SECONDS (5; a longer search by hand, e.g.
# FEAST_FUZZ_SECONDS=600) from the seed corpus: in the suite a smoke test that the
# harnesses run and that the seeds' neighbourhood is clean (10 s a target until
# 2026-12-03; the crashes found so far are in regressions/, and every one re-runs). Any crash,
# leak, timeout or out-of-memory report fails the test; the input is kept in
# <build>/fuzz/artifacts/ (copy it to tests/fuzz/regressions/<target>/ once fixed).
# Skipped (77) without clang + libclang-rt. FEAST_FUZZ_SECONDS=0 runs the regressions only.
. "$(dirname "$0")/lib.sh"
src=${FEAST_SRC:?}
seconds=${FEAST_FUZZ_SECONDS:-5}
out=${FEAST_BIN:-$PWD/bin}/../fuzz
mkdir -p "$out"
out=$(cd "$out" && pwd)
t0=$(date +%s)
bash "$src/tests/fuzz/build.sh" "$src" "$out" >"$TMP/build.log" 2>&1
rc=$?
cat "$TMP/build.log"
[ $rc -eq 77 ] && { echo "skipped: no clang libFuzzer"; exit 77; }
check "fuzzers build (rc $rc, $(($(date +%s) - t0)) s)" "$rc == 0"
[ $rc -eq 0 ] || { finish; exit 1; }

export TMPDIR=$TMP # the harnesses' temp files
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
opts=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -close_fd_mask=1)
summary=""
for t in config mesh_native mesh_gmsh; do
  bin=$out/fuzz_$t
  dict=$src/tests/fuzz/$t.dict
  mkdir -p "$out/corpus/$t" "$out/artifacts"
  # 1. regressions: each input runs once and must pass
  regs=("$src"/tests/fuzz/regressions/$t/*)
  if [ -e "${regs[0]}" ]; then
    "$bin" "${opts[@]}" "${regs[@]}" >"$TMP/$t.reg.log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || tail -40 "$TMP/$t.reg.log"
    check "$t: ${#regs[@]} regression inputs pass (rc $rc)" "$rc == 0"
  else
    echo "$t: no regression inputs"
  fi
  # 2. bounded fuzzing from the seed corpus (new inputs kept in the build tree)
  [ "$seconds" -gt 0 ] || continue
  dopt=()
  [ -f "$dict" ] && dopt=(-dict="$dict")
  "$bin" "${opts[@]}" "${dopt[@]}" -max_total_time="$seconds" -print_final_stats=1 -max_len=8192 \
    -artifact_prefix="$out/artifacts/$t-" "$out/corpus/$t" "$src/tests/fuzz/corpus/$t" >"$TMP/$t.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/$t.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$TMP/$t.log" | tail -1)
  if [ $rc -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: ' "$TMP/$t.log"; then
    grep -nE 'ERROR:|runtime error:|SUMMARY:|Test unit written|^fuzz:' "$TMP/$t.log" | head -20
    tail -60 "$TMP/$t.log"
    rc=${rc/#0/1}
  fi
  summary+="$t: ${execs:-?} execs in ${seconds} s, ${cov:-cov ?}, corpus $(ls "$out/corpus/$t" | wc -l) files; "
  check "$t: no crash, leak, timeout or OOM in ${seconds} s of fuzzing (rc $rc)" "$rc == 0"
done
echo "$summary"
echo "fuzz total $(($(date +%s) - t0)) s"
finish
