#!/usr/bin/env bash
# Memory and UB checks: a second build tree with -DFEAST_SANITIZE=ON (ASan + UBSan, no
# CUDA) in <build>/asan runs the unit tests and the MPI tests on 2 ranks (see below), a small Poisson
# solve on 1 and 2 ranks (double/single, mg/bicgstab), the cavity (fixed point, Newton, single),
# the DFG channel (PCD preconditioner, benchmark quantities, Gmsh mesh) and
# a Stokes manufactured solution, injected NaN and rank failure, a dry run, checkpoint/
# restart with kill -9, SIGTERM and damaged checkpoints (test_checkpoint.sh at L = 3),
# and every bad-input case (the suite's only run) of tests/run/bad_inputs.sh (a subset also with leak
# checking); a third tree (<build>/valgrind, Debug, feastc only) runs one small solve and
# one bad input under valgrind memcheck. Zero reports are allowed. ~4.5 min on 2 cores
# from scratch (FEAST_SANITIZE_JOBS=2 build jobs), ~3 min when the trees are built.
#
# Leaks: LeakSanitizer stays on (detect_leaks=1) for every run, MPI runs included; the
# allocations Open MPI / hwloc / libevent make in MPI_Init/MPI_Finalize and never free
# are suppressed by library name (suppression file written below; fast_unwind_on_malloc=0
# so that stacks through Open MPI's frame-pointer-less code reach the library), so a
# leak from feastc's own code is still reported. Valgrind uses Open MPI's suppression
# file plus leak suppressions for everything allocated under MPI_Init / MPI_Finalize.
# The solver runs use solver.coarse_max_dofs=100 so that the multigrid (global and
# local) runs, not only the direct coarse solver.
. "$(dirname "$0")/lib.sh"
src=${FEAST_SRC:?}
root=${FEAST_BIN:-$PWD/bin}/..
root=$(cd "$root" && pwd)
asan=$root/asan
vg=$root/valgrind
jobs=${FEAST_SANITIZE_JOBS:-2}
CFG=$src/config/poisson.ini
T0=$(date +%s)
stamp() { echo "[$(($(date +%s) - T0)) s] $*"; }

# ---- build (incremental after the first run) ----
stamp "configure + build $asan"
# only what runs below: feastc and the unit and MPI test programs (not the benchmarks and
# not the GPU emulator's second copy of the upper layers, which nothing here runs)
targets=(feastc)
for f in "$src"/tests/unit/test_*.c "$src"/tests/mpi/test_*.c; do [ -e "$f" ] && targets+=("$(basename "${f%.c}")"); done
{ cmake -S "$src" -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFEAST_SANITIZE=ON -DFEAST_ENABLE_CUDA=OFF \
    -DFEAST_TEST_TIMEOUT=600 &&
  cmake --build "$asan" -j"$jobs" --target "${targets[@]}"; } >"$TMP/asan_build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || tail -40 "$TMP/asan_build.log"
check "ASan/UBSan build (rc $rc)" "$rc == 0"
[ $rc -eq 0 ] || { finish; exit 1; }

cat >"$TMP/lsan.supp" <<'SUPP'
# Open MPI and its runtime allocate at MPI_Init/MPI_Finalize and never free
leak:libmpi.so
leak:libopen-pal.so
leak:libopen-rte.so
leak:libpmix.so
leak:libhwloc.so
leak:libevent
leak:mca_
leak:libucp.so
leak:libucs.so
leak:libfabric.so
SUPP
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1
export LSAN_OPTIONS=suppressions=$TMP/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitizer_reports() { grep -cE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer' "$@" 2>/dev/null | awk -F: '{s+=$NF} END {print s+0}'; }

# ---- unit and MPI tests of the sanitized tree (the MPI tests on 2 ranks) ----
names=()
# The MPI tests run on 2 ranks only: a test's np1 run takes the same code paths but the
# exchanges and reductions across ranks, which np2 runs besides (and the plain tree runs
# every test on 1, 2 and 4 ranks). Measured on the 2-core VM (2026-12-02, 02ddb93, the
# suite beside it): 418 s for the np1 + np2 set, test_ns_continuation_np2 137 s and
# test_ns_sequencing_np1 50 s the longest. test_ns_continuation runs on 1 rank instead
# (99 s there): on 2 ranks it solves its continuation case twice (distributed, then on
# rank 0 alone to compare), the same paths. Left out: test_ns_schur_spectrum (23 s of
# dense LAPACK eigenvalue problems on operators that test_ns_schur builds and checks
# under ASan too).
skip=" test_ns_continuation_np2 test_ns_schur_spectrum "
for f in "$src"/tests/unit/test_*.c; do [ -e "$f" ] && names+=("$(basename "${f%.c}")"); done
for f in "$src"/tests/mpi/test_*.c; do
  [ -e "$f" ] || continue
  n=$(basename "${f%.c}")
  if [ "$n" = test_ns_continuation ]; then names+=("${n}_np1"); else names+=("${n}_np2"); fi
done
kept=()
for n in "${names[@]}"; do [[ $skip == *" $n "* ]] || kept+=("$n"); done
names=("${kept[@]}")
regex="^($(IFS='|'; echo "${names[*]}"))\$"
stamp "ctest ${#names[@]} unit/MPI tests under ASan/UBSan"
# 600 s a test (FEAST_TEST_TIMEOUT above): instrumented tests run several times slower
# (test_ns_continuation_np2 passed 300 s on this 2-core VM with one core busy, 2026-11-27,
# when its Newton solve took 16,720 FGMRES iterations instead of today's 5,920)
(cd "$asan" && ctest -R "$regex" -j"$jobs" --output-on-failure) </dev/null >"$TMP/ctest.log" 2>&1
rc=$?
grep -E 'tests passed|Test +#|Failed|\*\*\*' "$TMP/ctest.log" | sed 's/^/    /'
[ $rc -eq 0 ] || grep -E -B2 -A25 'ERROR: |runtime error:' "$TMP/ctest.log" | head -80
check "unit + MPI tests pass under ASan/UBSan (rc $rc)" "$rc == 0"
check "no sanitizer report in the unit/MPI tests" "$(sanitizer_reports "$TMP/ctest.log") == 0"

# ---- feastc runs ----
SFEASTC=$asan/bin/feastc
srun() { # srun NP LABEL ARGS...: run the sanitized feastc, rc in $rc, all output in $TMP/s.log
  local np=$1 label=$2; shift 2
  if [ "$np" -gt 1 ]; then
    (cd "$TMP" && timeout 300 "$MPIEXEC" --oversubscribe --bind-to none -np "$np" "$SFEASTC" "$@") </dev/null >"$TMP/s.log" 2>&1
  else
    (cd "$TMP" && timeout 300 "$SFEASTC" "$@") </dev/null >"$TMP/s.log" 2>&1
  fi
  rc=$?
  stamp "$label: exit $rc, $(sanitizer_reports "$TMP/s.log") sanitizer reports"
  [ "$(sanitizer_reports "$TMP/s.log")" -eq 0 ] || head -60 "$TMP/s.log"
}
for np in 1 2; do
  srun $np "poisson L4 np=$np" "$CFG" grid.level=4 solver.coarse_max_dofs=100 output.summary="$TMP/s.json" output.vtk="$TMP/p" \
    output.matrix_market="$TMP/A.mtx"
  check "ASan poisson L4 np=$np: exit 0 (got $rc)" "$rc == 0"
  check "ASan poisson L4 np=$np: converged" "'$(json converged "$TMP/s.json")' == 'true'"
  check "ASan poisson L4 np=$np: no sanitizer report" "$(sanitizer_reports "$TMP/s.log") == 0"
done
for solver in mg bicgstab; do
  srun 2 "poisson L4 np=2 $solver single" "$CFG" grid.level=4 solver.coarse_max_dofs=100 solver.scarc_solver=$solver solver.local_precision=single
  check "ASan poisson L4 np=2 $solver single: exit 0 (got $rc), no report" "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"
done
srun 1 "poisson L3 nan injected" "$CFG" grid.level=3 solver.coarse_max_dofs=100 debug.inject=nan output.summary="$TMP/s.json"
check "ASan nan injection: exit 2 (got $rc), no report" "$rc == 2 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 2 "poisson L3 fail injected on rank 1" "$CFG" grid.level=3 solver.coarse_max_dofs=100 debug.inject=fail debug.inject_rank=1
check "ASan fail injection np=2: non-zero exit (got $rc), no report" "$rc != 0 and $rc < 124 and $(sanitizer_reports "$TMP/s.log") == 0"
NS=$src/config/cavity.ini
for spec in "1|fixed-point|" "2|newton|" "2|fixed-point|solver.local_precision=single"; do
  IFS='|' read -r np method extra <<<"$spec"
  # shellcheck disable=SC2086
  srun $np "cavity L4 np=$np $method $extra" "$NS" grid.level=4 solver.coarse_max_dofs=300 nonlinear.method=$method \
    nonlinear.rtol=1e-6 output.summary="$TMP/s.json" output.vtk="$TMP/c" output.centerlines="$TMP/c" $extra
  check "ASan cavity L4 np=$np $method $extra: exit 0 (got $rc), converged, no report" \
    "$rc == 0 and '$(json converged "$TMP/s.json")' == 'true' and $(sanitizer_reports "$TMP/s.log") == 0"
done
srun 2 "stokes MMS L3 np=2" "$src/tests/data/ns/mms_stokes.ini" grid.level=3 grid.file="$src/grids/distorted4x4.feast" \
  solver.coarse_max_dofs=100 output.summary="$TMP/s.json"
check "ASan stokes MMS L3 np=2: exit 0 (got $rc), no report" "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 2 "dfg L3 np=2 (Gmsh mesh)" "$src/config/dfg.ini" grid.level=3 solver.coarse_max_dofs=100 nonlinear.rtol=1e-4 \
  grid.file="$src/tests/data/mesh/dfg24_gmsh_v41.msh" output.summary="$TMP/s.json" output.vtk="$TMP/d"
check "ASan dfg L3 np=2 (PCD, forces, point pressure, recirculation, Gmsh mesh): exit 0 (got $rc), no report" \
  "$rc == 0 and '$(json drag_coefficient "$TMP/s.json")' != 'None' and $(sanitizer_reports "$TMP/s.log") == 0"
srun 2 "cavity L3 nan injected" "$NS" grid.level=3 debug.inject=nan debug.inject_rank=1 continuation.method=off output.summary="$TMP/s.json"
check "ASan cavity nan injection: exit 2 (got $rc), no report" "$rc == 2 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 1 "dry run L12" "$CFG" --dry-run grid.level=12
check "ASan dry run L12: exit 0 (got $rc), no report" "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"

# ---- checkpoint/restart under ASan/UBSan: kill -9, SIGTERM, restart on 2 and 1 ranks,
# damaged and foreign checkpoints (tests/run/test_checkpoint.sh at L = 3) ----
stamp "checkpoint/restart under ASan/UBSan"
FEAST_CKPT_QUICK=1 FEASTC=$SFEASTC bash "$src/tests/run/test_checkpoint.sh" >"$TMP/ckpt.log" 2>&1
rc=$?
grep -E '^FAILED|passed' "$TMP/ckpt.log" | sed 's/^/    /'
check "checkpoint/restart under ASan/UBSan (rc $rc, $(grep -c '^ok' "$TMP/ckpt.log") checks)" "$rc == 0 and $(sanitizer_reports "$TMP/ckpt.log") == 0"

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

# ---- valgrind memcheck on the plain (uninstrumented, no -march=native) build ----
if command -v valgrind >/dev/null; then
  stamp "configure + build $vg (Debug, feastc only)"
  { cmake -S "$src" -B "$vg" -DCMAKE_BUILD_TYPE=Debug -DFEAST_ENABLE_CUDA=OFF -DBUILD_TESTING=OFF &&
    cmake --build "$vg" -j"$jobs" --target feastc; } >"$TMP/vg_build.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || tail -30 "$TMP/vg_build.log"
  check "valgrind build (rc $rc)" "$rc == 0"
  cat >"$TMP/vg.supp" <<'SUPP'
{
   openmpi_init_leaks
   Memcheck:Leak
   ...
   fun:ompi_mpi_init
}
{
   openmpi_finalize_leaks
   Memcheck:Leak
   ...
   fun:ompi_mpi_finalize
}
SUPP
  vgopts=(--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite
          --track-origins=yes --num-callers=50 --suppressions=/usr/share/openmpi/openmpi-valgrind.supp
          --suppressions="$TMP/vg.supp")
  unset ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
  for spec in "ok|0|$CFG grid.level=4 solver.coarse_max_dofs=100 output.summary=$TMP/vg.json" \
              "ns|0|$src/config/cavity.ini grid.level=3 solver.coarse_max_dofs=100 nonlinear.rtol=1e-4" \
              "bad|1|$src/tests/data/bad/cfg_unknown_key.ini"; do
    IFS='|' read -r label want args <<<"$spec"
    # shellcheck disable=SC2086
    (cd "$TMP" && timeout 300 valgrind "${vgopts[@]}" "$vg/bin/feastc" $args) </dev/null >"$TMP/vg.log" 2>&1
    rc=$?
    errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$TMP/vg.log" | tail -1)
    stamp "valgrind $label: exit $rc, ${errs:-?} errors"
    [ "$rc" -eq "$want" ] || grep -E '==[0-9]+==' "$TMP/vg.log" | head -60
    check "valgrind memcheck $label run: exit $want (got $rc), 0 errors (got ${errs:-?})" "$rc == $want and '${errs:-x}' == '0'"
  done
else
  check "valgrind installed (tools/deps.sh)" "False"
fi
stamp "done"
finish
