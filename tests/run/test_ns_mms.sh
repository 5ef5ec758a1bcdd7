#!/usr/bin/env bash
# Stokes and Navier-Stokes (Re = 10) with a manufactured solution (tests/data/ns/mms_*.ini)
# on unitsquare8 (rectangular cells) and distorted4x4 (no macro a parallelogram): the L2
# errors must fall with the orders of Q1/Q1 SUPG/PSPG between each pair of the levels
# 3, 4, 5: velocity >= 1.9, pressure >= 1.4 (about 2 and 1.5 on the distorted grid, where
# the residual-based terms miss -nu Laplace u_h). solver.coarse_max_dofs = 300 makes the
# velocity solves run through ScaRC's local multigrids, not only the coarse LU.
. "$(dirname "$0")/lib.sh"
for problem in stokes navier_stokes; do
  for grid in unitsquare8 distorted4x4; do
    eu=(); ep=()
    for L in 3 4 5; do
      feastc_np 1 "$FEAST_SRC/tests/data/ns/mms_$problem.ini" grid.file="$FEAST_SRC/grids/$grid.feast" \
        grid.level=$L solver.coarse_max_dofs=300 || fail=$((fail+1))
      check "$problem $grid L=$L converged" "'$(json converged)' == 'true'"
      eu+=($(json velocity_l2_error)); ep+=($(json pressure_l2_error))
    done
    echo "$problem on $grid: velocity errors ${eu[*]}, pressure errors ${ep[*]}"
    for k in 0 1; do
      ou=$("$PY" -c "import math; print(math.log2(${eu[$k]} / ${eu[$((k+1))]}))")
      op=$("$PY" -c "import math; print(math.log2(${ep[$k]} / ${ep[$((k+1))]}))")
      check "$problem $grid velocity order L$((k+3))->L$((k+4)) = $ou >= 1.9" "$ou >= 1.9"
      check "$problem $grid pressure order L$((k+3))->L$((k+4)) = $op >= 1.4" "$op >= 1.4"
    done
  done
done
finish
