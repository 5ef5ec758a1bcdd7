#!/usr/bin/env bash
# The same solve on 1, 2 and 4 MPI ranks: identical iteration counts and L2 errors.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/poisson.ini"
for solver in mg cg bicgstab; do
  feastc_np 1 "$cfg" grid.level=6 solver.scarc_solver=$solver || fail=$((fail+1))
  it1=$(json global_mg_iterations); e1=$(json l2_error)
  for np in 2 4; do
    feastc_np $np "$cfg" grid.level=6 solver.scarc_solver=$solver || fail=$((fail+1))
    echo "$solver np=$np: $(json global_mg_iterations) iterations (np=1: $it1), l2_error $(json l2_error) (np=1: $e1)"
    check "$solver np=$np converged" "'$(json converged)' == 'true'"
    check "$solver np=$np same iterations as np=1" "$(json global_mg_iterations) == $it1"
    check "$solver np=$np l2_error equal to 1e-10" "abs($(json l2_error) - $e1) <= 1e-10 * $e1"
  done
done
finish
