#!/usr/bin/env bash
# Newton against fixed-point defect correction on the cavity at Re = 100 (level 5): Newton
# needs fewer nonlinear steps and reaches the same kinetic energy.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/cavity.ini"
feastc_np 2 "$cfg" grid.level=5 solver.coarse_max_dofs=1000 solver.nonlinear=fixed-point || fail=$((fail+1))
nf=$(json nonlinear_iterations); kf=$(json kinetic_energy)
check "fixed point converged" "'$(json converged)' == 'true'"
feastc_np 2 "$cfg" grid.level=5 solver.coarse_max_dofs=1000 solver.nonlinear=newton || fail=$((fail+1))
nn=$(json nonlinear_iterations); kn=$(json kinetic_energy)
echo "fixed point: $nf steps, kinetic energy $kf; Newton: $nn steps, kinetic energy $kn"
check "Newton converged" "'$(json converged)' == 'true'"
check "Newton needs fewer steps ($nn < $nf)" "$nn < $nf"
check "same kinetic energy to 1e-7" "abs($kn - $kf) <= 1e-7 * $kf"
# auto gives Newton up for the fixed point when two Newton solves in a row stop at the cap
# (here linear.max_iterations = 20, set, so it does not grow): Re = 400, level 3
feastc_np 1 "$cfg" grid.level=3 problem.re=400 solver.nonlinear=auto linear.max_iterations=20 \
  solver.continuation=off || fail=$((fail+1))
echo "auto with 20 linear iterations at most: $(json nonlinear_iterations) steps, Newton given up $(json newton_given_up) times"
check "auto converged after giving Newton up" "'$(json converged)' == 'true' and $(json newton_given_up) == 1"
finish
