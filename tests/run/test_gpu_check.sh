#!/usr/bin/env bash
# bench/gpu_check.sh rehearsed on the host emulator (--emulate, small levels): every step
# that does not need a device passes, the device-only steps are listed as skipped, and the
# report has the bench tables and one row per config/*_gpu.ini with both runs converged
# and the raw JSON summaries next to it (~15 s on a loaded 2-core machine).
. "$(dirname "$0")/lib.sh"
build=$(dirname "$FEAST_BIN")
for b in feastc_emu test_coproc_gpu_emu bench_local_mg_gpu_emu; do
  [ -x "$FEAST_BIN/$b" ] || { echo "no $b in this build (no C++ compiler): skipped"; exit 77; }
done
bash "$FEAST_SRC/bench/gpu_check.sh" --emulate --build "$build" --out "$TMP/gc" --test-lmax 3 --bench "3 3" 2>"$TMP/err"
rc=$?
cat "$TMP/err"
md=$TMP/gc/gpu_check.md
check "gpu_check --emulate exits 0 (got $rc)" "$rc == 0"
check "the report exists" "$([ -s "$md" ] && echo 1 || echo 0) == 1"
check "four compute-sanitizer steps skipped as device only" "$(grep -c '^| compute-sanitizer .* | skipped: device only |' "$md") == 4"
check "test_coproc_gpu passed" "$(grep -c '^| test_coproc_gpu L <= 3 | passed |' "$md") == 1"
check "no step failed" "$(grep -c 'FAILED' "$md") == 0"
check "the bench tables (timings and host side; single, double)" "$(grep -c '^|  3 | [18] |' "$md") == 8"
n=$(ls "$FEAST_SRC"/config/*_gpu.ini | wc -l)
check "one converged row per config/*_gpu.ini ($n)" "$(grep -c '^| [a-z_0-9]* | 3 | .* | yes / yes |' "$md") == $n"
check "two JSON summaries per config" "$(ls "$TMP/gc/json/"*.json | wc -l) == 2 * $n"
check "the gpu runs ran on the gpu target" "$(for f in "$TMP/gc/json/"*_gpu.json; do json target "$f"; done | grep -c '^gpu$') == $n"
check "poisson's local multigrids ran on the emulated GPU (T_loc > 0)" "$(json amdahl.T_loc "$TMP/gc/json/poisson_L3_gpu.json") > 0"
finish
