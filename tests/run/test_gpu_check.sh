#!/usr/bin/env bash
# bench/gpu_check.sh rehearsed on the host emulator (--emulate, small levels): every step
# that does not need a device passes, the device-only steps are listed as skipped, and the
# report has the bench tables and one row per config/*_gpu.ini with both runs converged
# and the raw JSON summaries next to it, the device mode's rows (solver.residency =
# device: the CPU's iterations and results to 1e-8), its ratio against all cores and the
# weak-scaling table (~40 s on a loaded 2-core machine).
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
check "three JSON summaries per config (dfg2d2: no device run in the emulator), one of all cores, one weak-scaling run" \
  "$(ls "$TMP/gc/json/"*.json | wc -l) == 3 * $n + 1"
check "the weak-scaling table: the one-rank row (2 cores here)" "$(grep -cE '^\| 1 \| 1 \| 354 \| 354 \|' "$md") == 1"
check "one device-mode row per config but dfg2d2, its iterations those of the CPU" \
  "$(grep -cE '^\| [a-z_0-9]+ \| 3 \| ([0-9/]+) / \1 / \1 \|' "$md") == $n - 1"
worst=$("$PY" - "$TMP/gc/json" <<'PYEOF'
import glob, json, sys
worst = 0.0
for f in glob.glob(sys.argv[1] + "/*_device.json"):
    d, c = json.load(open(f)), json.load(open(f.replace("_device", "_cpu")))
    for k in ("drag_coefficient", "lift_coefficient", "kinetic_energy", "l2_error"):
        if k in c and c[k]:  # relative; absolute below 1e-3 (2D-3's lift at t = 0.2: 1.4e-4)
            worst = max(worst, abs(d[k] - c[k]) / max(abs(c[k]), 1e-3))
print(worst)
PYEOF
)
check "the device mode's results are the CPU's to 1e-8 (relative, below 1e-3 in magnitude 1e-11 absolute; worst $worst)" "$worst <= 1e-8"
check "the device mode against all cores: a ratio" "$(grep -c 'S_tot against all cores [0-9]' "$md") == 1"
check "the gpu runs ran on the gpu target" "$(for f in "$TMP/gc/json/"*_gpu.json; do json target "$f"; done | grep -c '^gpu$') == $n"
check "poisson's local multigrids ran on the emulated GPU (T_loc > 0)" "$(json amdahl.T_loc "$TMP/gc/json/poisson_L3_gpu.json") > 0"
finish
