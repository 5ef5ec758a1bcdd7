#!/usr/bin/env bash
# feastc runs in the ASan/UBSan tree (test_asan_build), no sanitizer report allowed: a
# small Poisson solve on 1 and 2 ranks (double/single, mg/bicgstab), the cavity (fixed
# point, Newton, single; continuation in Re; the mass Schur approximation), the DFG
# channel (PCD, benchmark quantities, Gmsh mesh), the step (pseudo-time steps, grid
# sequencing), a Stokes manufactured solution, injected NaN and rank failure, a dry run,
# and checkpoint/restart with kill -9, SIGTERM and damaged checkpoints
# (test_checkpoint.sh at L = 3). The solver runs use solver.coarse_max_dofs=100 so that
# the multigrid (global and local) runs, not only the direct coarse solver. On 2 ranks
# the runs whose paths cross ranks (the exchanges, the gathers of the coarse and direct
# solves, the coarser views of grid sequencing, failures on one rank), the others on 1
# (with one core busy a run on 2 ranks waits for time slices: test_ns_direct_np2 took 21 s
# against 5.2 s quiet, its 1-rank run 8.3 s against 8.7 s, 2026-12-03).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/asan_lib.sh"
require_asan_tree
CFG=$src/config/poisson.ini
# ---- feastc runs ----
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
for spec in "1|fixed-point|" "2|newton|" "1|fixed-point|solver.local_precision=single"; do
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
# the paths of the MPI tests that test_asan_units.sh leaves out: continuation in Re (the
# fixed point stalls twice at Re 3200: 2 stages), pseudo-time steps and grid sequencing
# on the step (its coarser level with the direct preconditioner), the direct preconditioner
# on an enclosed flow, the mass Schur approximation
srun 1 "cavity L3 Re 3200 continuation" "$NS" grid.level=3 problem.re=3200 nonlinear.method=fixed-point \
  continuation.stall_steps=4 output.summary="$TMP/s.json"
check "ASan cavity L3 Re 3200: exit 0 (got $rc), continuation stages, no report" \
  "$rc == 0 and $(json continuation_stages "$TMP/s.json") >= 2 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 1 "step L2 Re 200 pseudo-time" "$src/config/step.ini" grid.level=2 problem.re=200 continuation.method=pseudo-time \
  output.summary="$TMP/s.json"
check "ASan step L2 pseudo-time: exit 0 (got $rc), no report" "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 2 "step L3 Re 200 grid sequencing" "$src/config/step.ini" grid.level=3 problem.re=200 \
  continuation.grid_sequencing=on nonlinear.rtol=1e-6 output.summary="$TMP/s.json"
check "ASan step L3 grid sequencing: exit 0 (got $rc), a coarser level, no report" \
  "$rc == 0 and $(json coarse_levels "$TMP/s.json") >= 1 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 2 "cavity L3 direct preconditioner" "$NS" grid.level=3 problem.re=400 linear.preconditioner=direct \
  output.summary="$TMP/s.json"
check "ASan cavity L3 direct preconditioner (the pinned pressure row; the step above: direct coarser level): exit 0 (got $rc), no report" \
  "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"
srun 1 "cavity L3 mass Schur, upper factorisation" "$NS" grid.level=3 problem.re=400 linear.schur=mass \
  linear.factorisation=upper output.summary="$TMP/s.json"
check "ASan cavity L3 mass Schur: exit 0 (got $rc), no report" "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"

srun 1 "dry run L12" "$CFG" --dry-run grid.level=12
check "ASan dry run L12: exit 0 (got $rc), no report" "$rc == 0 and $(sanitizer_reports "$TMP/s.log") == 0"

# ---- checkpoint/restart under ASan/UBSan: kill -9, SIGTERM, restart on 2 and 1 ranks,
# damaged and foreign checkpoints (tests/run/test_checkpoint.sh at L = 3) ----
stamp "checkpoint/restart under ASan/UBSan"
FEAST_CKPT_QUICK=1 FEASTC=$SFEASTC bash "$src/tests/run/test_checkpoint.sh" >"$TMP/ckpt.log" 2>&1
rc=$?
grep -E '^FAILED|passed' "$TMP/ckpt.log" | sed 's/^/    /'
check "checkpoint/restart under ASan/UBSan (rc $rc, $(grep -c '^ok' "$TMP/ckpt.log") checks)" "$rc == 0 and $(sanitizer_reports "$TMP/ckpt.log") == 0"

stamp "done"
finish
