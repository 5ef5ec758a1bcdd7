#!/usr/bin/env bash
# A device fault with solver.residency = device (issue #46) on the CUDA host emulator
# (FEAST_EMU_FAULT=KERNEL:N: the N-th launch of KERNEL faults, as a GPU kernel that traps
# or reads an illegal address): the cavity at Re = 100, L3, a checkpoint after every step.
#  - with the launch check (FEAST_CUDA_LAUNCH_CHECK=1) the error names the kernel, without
#    it the launch or call that met the fault later; exit 4 and one line either way;
#  - the checkpoint written before the fault is complete: it passes --restart --dry-run,
#    and the run continued from it on the host ends where the uninterrupted run does
#    (kinetic energy to 1e-8, the device's results being the host's to that).
. "$(dirname "$0")/lib.sh"
emu="$FEAST_BIN/feastc_emu"
[ -x "$emu" ] || { echo "feastc_emu not built (no C++ compiler): skipped"; exit 77; }
CAV=("$FEAST_SRC/config/cavity_gpu.ini" grid.level=3 solver.local_gpu_min_nodes=1000)

FEASTC=$emu feastc_np 1 "${CAV[@]}" || fail=$((fail + 1))
cp "$TMP/last.json" "$TMP/host.json"
echo "uninterrupted on the host: kinetic energy $(json kinetic_energy "$TMP/host.json"), $(json nonlinear_iterations "$TMP/host.json") steps"

for check_launch in 1 0; do
  rm -f "$TMP/ck.bin"
  FEAST_EMU_FAULT=k_axpby:1500 FEAST_CUDA_LAUNCH_CHECK=$check_launch FEASTC=$emu \
    feastc_np 1 "${CAV[@]}" solver.residency=device output.checkpoint="$TMP/ck.bin" 2>"$TMP/err"
  rc=$?
  head -1 "$TMP/err"
  if [ "$check_launch" = 1 ]; then names="'in kernel k_axpby' in open('$TMP/err').read()"
  else names="'CUDA error 719' in open('$TMP/err').read()"; fi
  check "fault, launch check $check_launch: exit 4 (got $rc), one line naming the $([ "$check_launch" = 1 ] && echo kernel || echo "CUDA error")" \
    "$rc == 4 and $(grep -c '^feastc:' "$TMP/err") == 1 and $names"
  FEASTC=$emu feastc_np 1 "${CAV[@]}" solver.residency=device --restart "$TMP/ck.bin" --dry-run >/dev/null 2>"$TMP/err2"
  rc=$?
  check "fault, launch check $check_launch: the checkpoint written before it is complete (--dry-run: exit $rc)" "$rc == 0"
done

FEASTC=$emu feastc_np 1 "${CAV[@]}" --restart "$TMP/ck.bin" 2>>"$TMP/err2" || fail=$((fail + 1))
echo "continued on the host from the checkpoint: kinetic energy $(json kinetic_energy)"
check "continued on the host: the uninterrupted run's kinetic energy to 1e-8" \
  "abs($(json kinetic_energy) - $(json kinetic_energy "$TMP/host.json")) <= 1e-8 * $(json kinetic_energy "$TMP/host.json")"
finish
