#!/usr/bin/env bash
# The Poisson problem on meshes of hexahedra from a config (config/poisson3d.ini: CG
# with the hexahedral ScaRC's V(1,1) cycle): order 2 in L2 on the 2 x 2 x 2 cube, levels
# 3-5 (level 2 is the coarse grid, solved directly), with the same iteration count at every level (within one); the distorted box at
# level 3 from a random start on 1 and 3 ranks with the same iterations, residual and
# error to the last bit; the DFG 3D channel (a cylinder part, Dirichlet values lifted)
# with order 2 on 2 ranks; the 2D problem's default solver (standalone multigrid V(1,0),
# the adaptive step) converges too; the VTK output of hexahedra is written.
. "$(dirname "$0")/lib.sh"
prev="" its0=""
for L in 3 4 5; do
  feastc_np 1 "$FEAST_SRC/config/poisson3d.ini" grid.level=$L || { echo "feastc failed at L=$L"; fail=$((fail+1)); continue; }
  err=$(json l2_error) its=$(json global_mg_iterations)
  check "L=$L converged" "'$(json converged)' == 'true'"
  echo "L=$L l2_error=$err iterations=$its"
  [ -n "$its0" ] || its0=$its
  check "L=$L: $its iterations, within one of level 3's $its0" "$its <= $its0 + 1 and $its <= 9"
  [ -n "$prev" ] && check "EOC L=$((L-1))->$L >= 1.9" "__import__('math').log2($prev/$err) >= 1.9"
  prev=$err
done
# the distorted box from a random start (a nonzero initial guess)
for np in 1 3; do
  feastc_np $np "$FEAST_SRC/config/poisson3d.ini" grid.file="$FEAST_SRC/grids/box3x2x2_distorted.feast" grid.level=3 \
    solver.initial_guess=random || { echo "feastc failed on $np ranks"; fail=$((fail+1)); continue; }
  eval "r$np='$(json global_mg_iterations) $(json final_residual) $(json l2_error)'"
done
echo "1 rank: ${r1:-}; 3 ranks: ${r3:-}"
check "distorted box L3: the same iterations, residual and error on 1 and 3 ranks" "'${r1:-a}' == '${r3:-b}'"
# the DFG 3D channel with its cylinder part (grids/dfg3d.feast): Dirichlet values that are
# not zero (lifted), curved boundary faces; order 2, levels 2-3, on 2 ranks
prev=""
for L in 2 3; do
  feastc_np 2 "$FEAST_SRC/config/poisson3d.ini" grid.file="$FEAST_SRC/grids/dfg3d.feast" grid.level=$L ||
    { echo "feastc failed on dfg3d L=$L"; fail=$((fail+1)); continue; }
  err=$(json l2_error); its=$(json global_mg_iterations)
  echo "dfg3d L=$L l2_error=$err iterations=$its"
  check "dfg3d L=$L converged in $its <= 16 iterations" "'$(json converged)' == 'true' and $its <= 16"
  [ -n "$prev" ] && check "dfg3d EOC L=$((L-1))->$L >= 1.9" "__import__('math').log2($prev/$err) >= 1.9"
  prev=$err
done
feastc_np 1 "$FEAST_SRC/config/poisson3d.ini" grid.level=3 solver.scarc_solver=mg solver.mg_post_smooth=0 \
  solver.smoother_step=auto solver.smoother_damping=1 output.vtk="$TMP/u" || { echo "feastc mg failed"; fail=$((fail+1)); }
check "standalone multigrid converged ($(json global_mg_iterations) cycles)" "'$(json converged)' == 'true' and $(json global_mg_iterations) <= 20"
check "VTK of hexahedra written" "__import__('os').path.exists('$TMP/u.pvtu')"
finish
