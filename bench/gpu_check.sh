#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# One non-interactive check of the CUDA backend on a lent device (issue #28), from the repo
# root, within ~3 minutes on an H200 with 16 cores (170 s at --test-lmax 8 --sanitize-lmax 3):
#   1. driver and device name (stops if there is no driver or it is too old for the nvcc)
#   2. build with -DCMAKE_CUDA_ARCHITECTURES=90 (feastc, test_coproc_gpu, bench_local_mg_gpu)
#   3. test_coproc_gpu up to L = 9
#   4. bench_local_mg_gpu L = 7..10
#   5. every config/*_gpu.ini against its CPU twin at one level whose macros are large
#      enough for the GPU (poisson L9, cavity L7, dfg L6, dfg2d2/dfg2d3 L5 to t = 0.2):
#      iterations, R_acc, T_loc, T_tot, S_loc = T_loc(cpu) / T_loc(gpu),
#      S_tot = T_tot(cpu) / T_tot(gpu)
#      and with solver.residency = device (every vector in device memory, issue #46): the
#      same iterations and results, T_tot, S_tot, what crossed per linear iteration, the
#      device memory estimate and peak (bench/gpu_check_residency.py)
#   5b. DFG 2D-1 at that level on every core as MPI ranks: the device mode against the
#      whole CPU node; and weak scaling on the cores (1, 4, 16 ranks at L - 2, L - 1, L)
#   6. compute-sanitizer memcheck, initcheck, synccheck, racecheck on test_coproc_gpu, L <= 4
# Everything goes to $OUT (or --out DIR): gpu_check.md (one Markdown file: environment,
# steps with status and seconds, the bench tables, the comparison table), json/ (the raw
# summaries of step 5), logs/. Exit status: 0 when every step passed.
# --deadline S: no step starts after S seconds from the start, and a running one is
# stopped then (a lent device's time is short: the cheap, telling steps come first).
# --emulate rehearses it end to end with the host-emulator build (no device: feastc_emu,
# test_coproc_gpu_emu, bench_local_mg_gpu_emu from an existing build, --build DIR, default
# build), skipping the device-only steps (driver, nvcc build, compute-sanitizer).
# usage: bench/gpu_check.sh [--emulate] [--out DIR] [--build DIR] [--test-lmax L]
#          [--sanitize-lmax L] [--bench "LMIN LMAX"] [--level L] [--arch SM]
#          [--deadline S] [--set "key=value ..."]   (overrides for step 5; --emulate: poisson with
#            solver.coarse_max_dofs=100 solver.local_gpu_min_nodes=0, so that its small
#            level runs the local multigrids, on the emulated GPU;
#            the Navier-Stokes configs there solve their small level on the coarse grid,
#            fibers of 256 emulated threads being too slow for their many local solves)
set -uo pipefail
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # step 5b's mpirun
emulate=0
out=${OUT:-gpu_check_out}
build=
test_lmax=9
san_lmax=4
bench_levels="7 10"
level=
arch=90
sets=
deadline=0
while [ $# -gt 0 ]; do
  case "$1" in
  --emulate) emulate=1 ;;
  --out) out=$2; shift ;;
  --build) build=$2; shift ;;
  --test-lmax) test_lmax=$2; shift ;;
  --sanitize-lmax) san_lmax=$2; shift ;;
  --bench) bench_levels=$2; shift ;;
  --level) level=$2; shift ;;
  --arch) arch=$2; shift ;;
  --set) sets=$2; shift ;;
  --deadline) deadline=$2; shift ;;
  -h | --help) sed -n 4,29p "$0"; exit 0 ;;
  *) echo "gpu_check: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
src=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$build" ] || { [ $emulate = 1 ] && build=$src/build || build=$src/build-gpu; }
mkdir -p "$out/json" "$out/logs" || exit 2
out=$(cd "$out" && pwd)
md=$out/gpu_check.md
PY=/usr/bin/python3; [ -x $PY ] || PY=$(command -v python3) # the GPU image has only a python3 on the PATH
failed=0
steps=()

# stop MESSAGE: before any step (no driver, too old): the report says why, exit 3
stop() {
  echo "gpu_check: $1" >&2
  printf '# GPU check (device)\n\n- date: %s UTC; host %s\n\nStopped before any step: %s\n' \
    "$(date -u '+%F %T')" "$(uname -n)" "$1" >"$md"
  exit 3
}

# step NAME LOG CMD...: run, record status and seconds (skipped, or stopped, at the deadline)
step() {
  local name=$1 log=$2; shift 2
  local t0=$SECONDS rc
  if [ "$deadline" -gt 0 ]; then
    local left=$((deadline - SECONDS))
    [ $left -ge 10 ] || { skip "$name" "deadline ($deadline s)"; failed=1; return 124; } # not passed: exit 1
    set -- timeout "$left" "$@"
  fi
  echo "== $name" >&2
  "$@" >"$log" 2>&1
  rc=$?
  local st=passed
  [ $rc = 0 ] || { st="FAILED (exit $rc, see logs/$(basename "$log"))"; failed=1; }
  steps+=("| $name | $st | $((SECONDS - t0)) |")
  echo "   $st ($((SECONDS - t0)) s)" >&2
  return $rc
}
skip() { steps+=("| $1 | skipped: $2 | 0 |"); echo "== $1: skipped ($2)" >&2; }

# ------------------------------------------------------------ 1. the device
if [ $emulate = 1 ]; then
  driver="none (host emulator)"; device="host emulator"
  echo "gpu_check: --emulate: host emulator build in $build, device-only steps skipped" >&2
else
  if ! command -v nvidia-smi >/dev/null || ! q=$(nvidia-smi --query-gpu=driver_version,name --format=csv,noheader 2>&1); then
    stop "no NVIDIA driver here (nvidia-smi: ${q:-not found}); nothing to check"
  fi
  q=$(echo "$q" | head -1)
  driver=${q%%,*}; device=${q#*, }
  echo "gpu_check: driver $driver, device $device" >&2
  [ -d /usr/local/cuda/bin ] && PATH=$PATH:/usr/local/cuda/bin # nvcc, compute-sanitizer
  cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
  [ -n "$cuda" ] || stop "driver $driver, device $device: nvcc not found (PATH or /usr/local/cuda/bin)"
  # minimum driver of a CUDA major version (minor-version compatibility)
  case ${cuda%%.*} in 11) need=450 ;; 12) need=525 ;; 13) need=580 ;; *) need=0 ;; esac
  if [ "${driver%%.*}" -lt "$need" ]; then
    stop "driver $driver ($device) is too old for CUDA $cuda (needs >= $need)"
  fi
fi
ncpu=$(nproc)

# ------------------------------------------------------------ 2. build
if [ $emulate = 1 ]; then
  feastc=$build/bin/feastc_emu
  test_bin=$build/bin/test_coproc_gpu_emu
  bench_bin=$build/bin/bench_local_mg_gpu_emu
  for b in "$feastc" "$test_bin" "$bench_bin"; do
    [ -x "$b" ] || { echo "gpu_check: $b missing: cmake --build $build --target $(basename "$b")" >&2; exit 2; }
  done
  skip "build (sm_$arch)" "device only"
else
  feastc=$build/bin/feastc
  test_bin=$build/bin/test_coproc_gpu
  bench_bin=$build/bin/bench_local_mg_gpu
  step "build (sm_$arch)" "$out/logs/build.log" bash -c "cmake -S '$src' -B '$build' -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=$arch && cmake --build '$build' -j$ncpu --target feastc test_coproc_gpu bench_local_mg_gpu" ||
    { echo "gpu_check: build failed (logs/build.log)" >&2; }
  grep -q 'CUDA backend ON' "$out/logs/build.log" || { echo "gpu_check: the build has no CUDA backend (logs/build.log)" >&2; failed=1; }
fi

# ------------------------------------------------------------ 3. test_coproc_gpu
# exit 77 (skip: no usable device) is a failure here; FEAST_CUDA_LAUNCH_CHECK=1 waits after
# every launch (outside graph captures), so a kernel fault names its kernel
step "test_coproc_gpu L <= $test_lmax" "$out/logs/test_coproc_gpu.log" \
  env FEAST_TEST_MAX_LEVEL="$test_lmax" FEAST_CUDA_LAUNCH_CHECK=1 timeout 300 "$test_bin"

# ------------------------------------------------------------ 4. bench_local_mg_gpu
read -r blo bhi <<<"$bench_levels"
step "bench_local_mg_gpu L = $blo..$bhi" "$out/bench_local_mg_gpu.md" \
  timeout 240 "$bench_bin" "$blo" "$bhi"
if grep -q 'no CUDA device' "$out/bench_local_mg_gpu.md"; then # it exits 0 then
  steps+=("| bench_local_mg_gpu | FAILED: no CUDA device | 0 |"); failed=1
fi

# ------------------------------------------------------------ 5. configs against their CPU twins
rows=()
devrows=()
for gcfg in "$src"/config/*_gpu.ini; do
  name=$(basename "$gcfg" _gpu.ini)
  ccfg=$src/config/$name.ini
  [ -f "$ccfg" ] || continue
  L=$level
  if [ -z "$L" ]; then # one level each that runs in seconds to ~half a minute on the CPU,
    # with macros of 33 x 33 nodes or more, so that most of the local work is on the GPU
    # (solver.local_gpu_min_nodes keeps the small levels on the CPU)
    case $name in poisson) L=9 ;; cavity) L=7 ;; dfg) L=6 ;; *) L=5 ;; esac
    [ $emulate = 0 ] || L=3
  fi
  set_c=$sets
  [ -n "$set_c" ] || [ $emulate = 0 ] || [ $name != poisson ] ||
    set_c="solver.coarse_max_dofs=100 solver.local_gpu_min_nodes=0"
  # time-dependent configs: the first 20 steps (the stationary start and the steps' solves)
  ! grep -q '^\[time\]' "$ccfg" || set_c="time.end=0.2 output.series_from=0 $set_c"
  targets="cpu gpu device"
  # the emulator is slow for device-resident time runs of many steps (dfg2d2: 20 steps, 84 s)
  [ $emulate = 0 ] || [ $name != dfg2d2 ] || targets="cpu gpu"
  for t in $targets; do
    cfg=$ccfg; [ $t = cpu ] || cfg=$gcfg
    res=; [ $t = device ] && res=solver.residency=device
    step "$name $t L = $L" "$out/logs/${name}_$t.log" timeout 240 "$feastc" "$cfg" grid.level="$L" \
      $set_c $res output.verbosity=0 output.summary="$out/json/${name}_L${L}_$t.json"
  done
  rows+=("$($PY - "$name" "$L" "$out/json/${name}_L${L}_cpu.json" "$out/json/${name}_L${L}_gpu.json" <<'PY'
import json, sys
name, L, fc, fg = sys.argv[1:5]
def load(f):
    try: return json.load(open(f))
    except Exception: return None
c, g = load(fc), load(fg)
def its(d):
    if d is None: return "-"
    if "nonlinear_iterations" in d: return f"{d['nonlinear_iterations']}/{d.get('linear_iterations', '-')}"
    return str(d.get("global_mg_iterations", "-"))
def a(d, k):
    try: return d["amdahl"][k]
    except Exception: return None
f = lambda v, p=3: "-" if v is None else f"{v:.{p}f}"
ratio = lambda x, y: None if x is None or not y else x / y
prec = g.get("local_precision", "?") if g else "?"
conv = lambda d: "-" if d is None else ("yes" if d.get("converged") else f"no ({d.get('reason')})")
def result(c, g):  # one result quantity, and the GPU's relative difference from the CPU's
    for k in ("drag_coefficient", "kinetic_energy", "l2_error"):
        if c and g and k in c and k in g and c[k]:
            return f"{k} {c[k]:.10g}, {abs(g[k] - c[k]) / abs(c[k]):.1e}"
    return "-"
print(f"| {name} | {L} | {its(c)} | {its(g)} ({prec}) | {conv(c)} / {conv(g)} | {result(c, g)} | "
      f"{f(a(c, 'R_acc'))} | {f(a(g, 'R_acc'))} | "
      f"{f(a(c, 'T_loc'))} | {f(a(g, 'T_loc'))} | {f(a(c, 'T_tot'))} | {f(a(g, 'T_tot'))} | "
      f"{f(ratio(a(c, 'T_loc'), a(g, 'T_loc')), 2)} | {f(ratio(a(c, 'T_tot'), a(g, 'T_tot')), 2)} |")
PY
)")
  [[ " $targets " = *" device "* ]] &&
    devrows+=("$($PY "$src/bench/gpu_check_residency.py" row "$name" "$L" "$out/json/${name}_L${L}_cpu.json" \
      "$out/json/${name}_L${L}_gpu.json" "$out/json/${name}_L${L}_device.json")")
done

# ------------------------------------------------------------ 5b. the device mode against all the host's cores
# DFG 2D-1 (24 macros) at step 5's level on every core as MPI ranks, against the device
# mode's run of step 5 (the node the GPU sits in, issue #46)
Ld=$level; [ -n "$Ld" ] || { Ld=6; [ $emulate = 0 ] || Ld=3; }
mpiexec=$(command -v mpirun || command -v mpiexec)
if [ -n "$mpiexec" ] && [ -f "$out/json/dfg_L${Ld}_device.json" ]; then
  step "dfg cpu L = $Ld, $ncpu ranks" "$out/logs/dfg_cpu_np$ncpu.log" timeout 240 "$mpiexec" --oversubscribe \
    --bind-to core -np "$ncpu" "$feastc" "$src/config/dfg.ini" grid.level="$Ld" $sets output.verbosity=0 \
    output.summary="$out/json/dfg_L${Ld}_cpu_np$ncpu.json"
else
  skip "dfg cpu L = $Ld, $ncpu ranks" "no mpirun or no device-mode run of dfg at L = $Ld"
fi
# weak scaling on the host's cores: DFG 2D-1 with 4x the unknowns on 4x the ranks (1 rank
# at L - 2, 4 at L - 1, 16 at L; those with at most the host's cores; 16 on 16 cores is
# the run above)
weak=()
for point in "1 $((Ld - 2))" "4 $((Ld - 1))" "16 $Ld"; do
  read -r np Lw <<<"$point"
  [ "$np" -le "$ncpu" ] && [ -n "$mpiexec" ] || continue
  f=$out/json/dfg_L${Lw}_cpu_np$np.json
  [ -f "$f" ] || step "dfg cpu L = $Lw, $np ranks (weak scaling)" "$out/logs/dfg_cpu_np${np}_L$Lw.log" timeout 240 \
    "$mpiexec" --oversubscribe --bind-to core -np "$np" "$feastc" "$src/config/dfg.ini" grid.level="$Lw" $sets \
    output.verbosity=0 output.summary="$f"
  weak+=("$f")
done

# ------------------------------------------------------------ 6. compute-sanitizer
for tool in memcheck initcheck synccheck racecheck; do
  if [ $emulate = 1 ]; then
    skip "compute-sanitizer $tool L <= $san_lmax" "device only"
  elif ! command -v compute-sanitizer >/dev/null; then
    steps+=("| compute-sanitizer $tool | FAILED: compute-sanitizer not found | 0 |"); failed=1
  else
    step "compute-sanitizer $tool L <= $san_lmax" "$out/logs/sanitizer_$tool.log" \
      env FEAST_TEST_MAX_LEVEL="$san_lmax" FEAST_CUDA_LAUNCH_CHECK=1 timeout 180 compute-sanitizer --tool "$tool" \
      --error-exitcode 1 "$test_bin"
  fi
done

# ------------------------------------------------------------ the report
{
  echo "# GPU check ($( [ $emulate = 1 ] && echo "host emulator rehearsal" || echo device))"
  echo
  echo "- date: $(date -u '+%F %T') UTC; host $(uname -n), $ncpu cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1))"
  echo "- driver: $driver; device: $device"
  echo "- feastc: $(git -C "$src" rev-parse --short HEAD 2>/dev/null)$(git -C "$src" diff --quiet 2>/dev/null || echo ' (modified)'); build: $build"
  echo
  echo "## Steps"
  echo
  echo "| step | status | s |"
  echo "|---|---|---:|"
  printf '%s\n' "${steps[@]}"
  echo
  echo "## bench_local_mg_gpu"
  echo
  [ ! -f "$out/bench_local_mg_gpu.md" ] || sed 's/^#/###/' "$out/bench_local_mg_gpu.md"
  echo
  echo "## Configurations: GPU against the CPU twin"
  echo
  echo "iterations: global MG (Poisson) or nonlinear/linear; S_loc = T_loc(cpu)/T_loc(gpu),"
  echo "S_tot = T_tot(cpu)/T_tot(gpu), from the summaries' amdahl section (json/); 1 rank; time-dependent configs to t = 0.2 (time.end=0.2 output.series_from=0)${sets:+; overrides: $sets}$( [ $emulate = 0 ] || echo "; poisson: solver.coarse_max_dofs=100 solver.local_gpu_min_nodes=0")."
  echo
  echo "| config | L | its cpu | its gpu | converged cpu / gpu | result cpu, rel. diff. gpu | R_acc cpu | R_acc gpu | T_loc cpu (s) | T_loc gpu (s) | T_tot cpu (s) | T_tot gpu (s) | S_loc | S_tot |"
  echo "|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "## solver.residency = device: every vector in device memory"
  echo
  $PY "$src/bench/gpu_check_residency.py" header
  printf '%s\n' "${devrows[@]}"
  echo
  $PY "$src/bench/gpu_check_residency.py" allcores "$ncpu" "$out/json/dfg_L${Ld}_cpu_np$ncpu.json" \
    "$out/json/dfg_L${Ld}_device.json"
  echo
  echo "## Weak scaling on the host's cores (CPU ranks)"
  echo
  $PY "$src/bench/gpu_check_residency.py" weak ${weak[@]+"${weak[@]}"}
} >"$md"
echo "gpu_check: $md ($( [ $failed = 0 ] && echo "all steps passed" || echo "some steps FAILED"))" >&2
exit $failed
