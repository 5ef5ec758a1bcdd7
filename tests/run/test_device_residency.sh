#!/usr/bin/env bash
# solver.residency = device (issue #46, first stage: the vectors in device memory, the la
# floor's BLAS-1 operations and dot products on the device, every other use staged through
# the host and counted) on the CUDA host emulator (feastc_emu, which keeps host and device
# memory apart and fills a host copy the device made stale with NaN): the cavity at Re =
# 100 (L3, 1 and 2 ranks), DFG 2D-1 (L2) and a window of 2D-3 (L2, three BDF2 steps with
# the nonlinear solves converged to 1e-10) give the host run's quantities to 1e-8
# relative, the same bits on 1 and 2 ranks, and the bytes that crossed in the summary;
# bad settings are one error each. The local multigrids run on the CPU backend
# (solver.local_gpu_min_nodes=1000) but in one case, where they solve in device memory.
# The device memory estimate against the peak, and a limit below it (exit 3).
. "$(dirname "$0")/lib.sh"
emu="$FEAST_BIN/feastc_emu"
[ -x "$emu" ] || { echo "feastc_emu not built (no C++ compiler): skipped"; exit 77; }
E="solver.local_gpu_min_nodes=1000"
close() { # close KEY HOSTFILE: the last summary's KEY within 1e-8 of HOSTFILE's
  echo "abs($(json "$1") - $(json "$1" "$2")) <= 1e-8 * abs($(json "$1" "$2"))"
}

# the cavity: host and device on 1 rank, device on 2
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity_gpu.ini" grid.level=3 $E || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/cavity_host.json"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity_gpu.ini" grid.level=3 $E solver.residency=device || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/cavity_dev1.json"
echo "cavity L3: host $(json kinetic_energy "$TMP/cavity_host.json"), device $(json kinetic_energy) ($(json nonlinear_iterations) steps, $(json linear_iterations) linear iterations); device_residency: $(json device_residency)"
check "cavity: converged on the device" "'$(json converged)' == 'true'"
check "cavity: kinetic energy as on the host to 1e-8" "$(close kinetic_energy "$TMP/cavity_host.json")"
check "cavity: the same steps and linear iterations as on the host" \
  "$(json nonlinear_iterations) == $(json nonlinear_iterations "$TMP/cavity_host.json") and $(json linear_iterations) == $(json linear_iterations "$TMP/cavity_host.json")"
check "cavity: the summary counts what crossed (bytes both ways, kernels, scalars)" \
  "$(json device_residency.bytes_to_device) > 0 and $(json device_residency.bytes_to_host) > 0 and $(json device_residency.launches) > 0 and $(json device_residency.scalars_to_host) > 0"
check "cavity: the emulator's device" "'$(json device_residency.device)' == 'cuda-emulator'"
FEASTC=$emu feastc_np 2 "$FEAST_SRC/config/cavity_gpu.ini" grid.level=3 $E solver.residency=device || fail=$((fail + 1))
check "cavity, 2 ranks: the same bits as 1 rank (kinetic energy $(json kinetic_energy), iterations)" \
  "'$(json kinetic_energy)' == '$(json kinetic_energy "$TMP/cavity_dev1.json")' and $(json linear_iterations) == $(json linear_iterations "$TMP/cavity_dev1.json")"

# DFG 2D-1
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/dfg_gpu.ini" grid.level=2 $E || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/dfg_host.json"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/dfg_gpu.ini" grid.level=2 $E solver.residency=device || fail=$((fail + 1))
echo "DFG 2D-1 L2: host c_D $(json drag_coefficient "$TMP/dfg_host.json") c_L $(json lift_coefficient "$TMP/dfg_host.json"), device $(json drag_coefficient) $(json lift_coefficient)"
check "DFG 2D-1: converged on the device" "'$(json converged)' == 'true'"
for q in drag_coefficient lift_coefficient pressure_difference; do
  check "DFG 2D-1: $q as on the host to 1e-8" "$(close $q "$TMP/dfg_host.json")"
done

# a window of 2D-3
W="grid.level=2 time.start=4 time.end=4.03 time.dt=0.01 nonlinear.rtol=1e-10 $E"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/dfg2d3_gpu.ini" $W || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/w_host.json"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/dfg2d3_gpu.ini" $W solver.residency=device || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/w_dev1.json"
echo "DFG 2D-3 window: host c_L $(json lift_coefficient "$TMP/w_host.json"), device $(json lift_coefficient), $(json time_steps) steps"
check "2D-3 window: three steps on the device" "'$(json converged)' == 'true' and $(json time_steps) == 3"
for q in drag_coefficient lift_coefficient pressure_difference kinetic_energy; do
  check "2D-3 window: $q as on the host to 1e-8" "$(close $q "$TMP/w_host.json")"
done
FEASTC=$emu feastc_np 2 "$FEAST_SRC/config/dfg2d3_gpu.ini" $W solver.residency=device || fail=$((fail + 1))
check "2D-3 window, 2 ranks: the same bits as 1 rank" \
  "'$(json lift_coefficient)' == '$(json lift_coefficient "$TMP/w_dev1.json")' and '$(json kinetic_energy)' == '$(json kinetic_energy "$TMP/w_dev1.json")'"

# ScaRC's global layer over three levels (solver.coarse_max_dofs=30) with the local
# multigrids on the emulated GPU, solving in device memory: the products, interface sums,
# transfers and Schwarz steps stay on the device; what still crosses per linear iteration
# is the coarse grid's solve, below half of one 3-field vector of the finest level
G="grid.level=3 solver.coarse_max_dofs=30 solver.local_gpu_min_nodes=1"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity_gpu.ini" $G || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/ml_host.json"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity_gpu.ini" $G solver.residency=device || fail=$((fail + 1))
echo "cavity L3, 3 ScaRC levels, local multigrids on the device: host $(json kinetic_energy "$TMP/ml_host.json"), device $(json kinetic_energy); per linear iteration: $(json device_residency.per_linear_iteration)"
check "3 levels: kinetic energy as on the host to 1e-8, the same iterations" \
  "$(close kinetic_energy "$TMP/ml_host.json") and $(json linear_iterations) == $(json linear_iterations "$TMP/ml_host.json")"
check "3 levels: under half a vector (7,776 bytes) to the host per linear iteration" \
  "$(json device_residency.per_linear_iteration.bytes_to_host) < 7776 and $(json device_residency.per_linear_iteration.bytes_to_device) < 7776"
out=$(python3 "$FEAST_SRC/bench/predict_residency.py" --cpu-gbs 20 "$TMP/ml_host.json" "$TMP/last.json")
echo "$out" | tail -1
check "bench/predict_residency.py: a prediction with 0 < S_tot <= S_max" \
  "0 < float('$(echo "$out" | tail -1 | awk -F'|' '{print $(NF-2)}')') <= float('$(echo "$out" | tail -1 | awk -F'|' '{print $(NF-1)}')')"

# device memory: the estimate made before the solve bounds the peak the device saw (the
# emulator's cudaMemGetInfo: its arena less its allocations), an upper estimate within 6x
# (the FGMRES basis at its largest restart); a limit below it: exit 3 before any solve,
# one line naming the ranks on the device and the key, no summary
peak=$(json device_residency.device_memory_peak_gib)
est=$(json device_memory_estimate_gib)
check "device memory: the estimate ($est GiB) bounds the peak ($peak GiB) within 6x" "0 < $peak <= $est <= 6 * $peak"
rm -f "$TMP/last.json"
FEASTC=$emu feastc_np 2 "$FEAST_SRC/config/cavity_gpu.ini" grid.level=3 solver.residency=device run.max_device_memory=0.001 2>"$TMP/err"
rc=$?
check "device memory short (run.max_device_memory = 0.001): exit 3, one line naming the 2 ranks and the key, no summary (got $rc)" \
  "$rc == 3 and $(grep -c '^feastc:' "$TMP/err") == 1 and '2 ranks on it' in open('$TMP/err').read() and 'run.max_device_memory' in open('$TMP/err').read() and not $(test -e "$TMP/last.json" && echo True || echo False)"
head -1 "$TMP/err"

# bad settings: one error each
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity.ini" grid.level=2 solver.residency=device 2>"$TMP/err"
rc=$?
check "residency = device with target = cpu: exit 1 naming both keys (got $rc)" \
  "$rc == 1 and 'solver.residency' in open('$TMP/err').read() and 'solver.target = gpu' in open('$TMP/err').read()"
FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity3d.ini" grid.level=1 solver.target=gpu solver.residency=device 2>"$TMP/err"
rc=$?
check "residency = device on a 3D mesh (target = gpu refused there first): exit 5, one line (got $rc)" \
  "$rc == 5 and $(grep -c '^feastc:' "$TMP/err") == 1"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  feastc_np 1 "$FEAST_SRC/config/cavity_gpu.ini" grid.level=2 solver.residency=device solver.gpu_fallback=none 2>"$TMP/err"
  rc=$?
  check "feastc without a GPU: exit 5 (got $rc)" "$rc == 5"
fi
finish
