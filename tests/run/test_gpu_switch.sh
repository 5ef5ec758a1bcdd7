#!/usr/bin/env bash
# The GPU switch is one config line: config/*_gpu.ini include their CPU twins and set
# "target = gpu", and read the same values as the twin with solver.target=gpu; the application layer includes nothing from coproc/; and target = gpu
# where no GPU can run is one clear error (exit 5), or with gpu_fallback = cpu a warning
# and a CPU run whose summary says what ran. Then the switch end to end on the emulated GPU
# (feastc_emu: the CUDA backend built for the host emulator, see tests/CMakeLists.txt):
# the same application, target = gpu in single precision, against the all-double CPU run:
# iterations at most 20% more, l2_error equal to 1e-6 relative, on 1 and 2 ranks (every
# local level on the emulated GPU: solver.local_gpu_min_nodes=0).
. "$(dirname "$0")/lib.sh"
for gpu in "$FEAST_SRC"/config/*_gpu.ini; do
  cpu=${gpu%_gpu.ini}.ini
  d=$(grep -vE '^[[:space:]]*([#;]|$)' "$gpu" | tr '\n' '|')
  check "$(basename "$gpu") is its twin plus the target line ($d)" "'$d' == 'include = $(basename "$cpu")|[solver]|target = gpu|'"
  # the values in force (origins cut off): the twin with solver.target=gpu on the command line
  "$FEASTC" "$gpu" --dry-run output.verbosity=2 | grep -E '^[a-z_.]+ = ' | sed 's/  (.*)$//' | sort >"$TMP/gpu.values"
  "$FEASTC" "$cpu" --dry-run output.verbosity=2 solver.target=gpu | grep -E '^[a-z_.]+ = ' | sed 's/  (.*)$//' | sort >"$TMP/cpu.values"
  d=$(diff "$TMP/cpu.values" "$TMP/gpu.values" | tr '\n' '|')
  check "$(basename "$gpu") reads the values of its twin ($(grep -c '' "$TMP/gpu.values") set; diff: $d)" "'$d' == '' and $(grep -c '' "$TMP/gpu.values") > 5"
done
# the application includes nothing from coproc/, directly or through another header
reach=$("$PY" - "$FEAST_SRC" <<'PYEOF'
import glob, os, re, sys
src = sys.argv[1]
todo = [os.path.relpath(f, src) for f in glob.glob(f"{src}/navier_stokes/*.[ch]")]
todo += ["apps/poisson.c", "apps/navier_stokes.c", "apps/problem.h"]
seen, bad = set(), []
while todo:
    f = todo.pop()
    if f in seen: continue
    seen.add(f)
    if f.startswith("coproc/"): bad.append(f); continue
    for inc in re.findall(r'#include\s*"([^"]+)"', open(os.path.join(src, f)).read()):
        if os.path.exists(os.path.join(src, inc)): todo.append(inc)
print(len(seen), " ".join(sorted(bad)))
PYEOF
)
echo "headers reached from the application: $reach"
check "navier_stokes/ and the problems reach no coproc/ header (${reach#* })" "'${reach#* }'.strip() == ''"

if "$FEASTC" --version | grep -q 'gpu('; then
  echo "CUDA backend compiled; no-device checks need a machine without a GPU"
fi
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  feastc_np 1 "$FEAST_SRC/config/poisson_gpu.ini" grid.level=4 2>"$TMP/err"
  rc=$?
  check "target = gpu without a GPU: exit 5 (got $rc)" "$rc == 5"
  check "one feastc line on stderr" "$(grep -c '^feastc:' "$TMP/err") == 1"
  check "message names both remedies" "'solver.target = cpu' in open('$TMP/err').read() and 'gpu_fallback' in open('$TMP/err').read()"
  cat "$TMP/err"
  feastc_np 1 "$FEAST_SRC/config/poisson_gpu.ini" grid.level=4 solver.gpu_fallback=cpu 2>"$TMP/err"
  rc=$?
  check "gpu_fallback = cpu runs (exit $rc)" "$rc == 0"
  check "a warning says so" "'warning' in open('$TMP/err').read()"
  check "summary: target cpu" "'$(json target)' == 'cpu'"
  check "summary: target_requested gpu" "'$(json target_requested)' == 'gpu'"
fi

emu="$FEAST_BIN/feastc_emu"
if [ -x "$emu" ]; then
  for run in "1 5" "2 4"; do
    read -r np L <<<"$run"
    feastc_np "$np" "$FEAST_SRC/config/poisson.ini" grid.level=$L solver.coarse_max_dofs=100 \
      solver.local_precision=double || fail=$((fail + 1))
    cpu_its=$(json global_mg_iterations) cpu_err=$(json l2_error)
    FEASTC=$emu feastc_np "$np" "$FEAST_SRC/config/poisson_gpu.ini" grid.level=$L solver.coarse_max_dofs=100 \
      solver.local_gpu_min_nodes=0 ||
      fail=$((fail + 1))
    its=$(json global_mg_iterations) err=$(json l2_error)
    echo "np=$np L=$L: cpu double $cpu_its iterations, l2 $cpu_err; emulated gpu $(json local_precision) $its, l2 $err"
    check "emulated gpu np=$np: summary target gpu, single" "'$(json target)/$(json local_precision)' == 'gpu/single'"
    check "emulated gpu np=$np: converged" "'$(json converged)' == 'true'"
    check "emulated gpu np=$np: iterations $its <= 1.2 x $cpu_its" "$its <= 1.2 * $cpu_its"
    check "emulated gpu np=$np: l2_error equal to 1e-6" "abs($err - $cpu_err) <= 1e-6 * $cpu_err"
  done
  # the Stokes/Navier-Stokes application: cavity_gpu.ini (emulated gpu, single) against
  # cavity.ini (cpu, double), as Stokes at level 3 (the emulator runs every CUDA thread of
  # the thousands of local solves of a nonlinear run as a host thread: ~30 s for this one)
  ns="problem.type=stokes grid.level=3 solver.coarse_max_dofs=100"
  feastc_np 1 "$FEAST_SRC/config/cavity.ini" $ns solver.local_precision=double || fail=$((fail + 1))
  cpu_ke=$(json kinetic_energy) cpu_steps=$(json nonlinear_iterations)
  FEASTC=$emu feastc_np 1 "$FEAST_SRC/config/cavity_gpu.ini" $ns solver.local_gpu_min_nodes=0 || fail=$((fail + 1))
  echo "cavity (stokes) L=3: cpu double $cpu_steps steps, kinetic energy $cpu_ke; emulated gpu $(json nonlinear_iterations) steps, $(json kinetic_energy)"
  check "emulated gpu cavity: converged, target gpu" "'$(json converged)/$(json target)' == 'true/gpu'"
  check "emulated gpu cavity: kinetic energy equal to 1e-6" "abs($(json kinetic_energy) - $cpu_ke) <= 1e-6 * $cpu_ke"
else
  echo "feastc_emu not built (no C++ compiler): emulated GPU runs skipped"
fi
finish
