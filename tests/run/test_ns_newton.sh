#!/usr/bin/env bash
# Newton against fixed-point defect correction on the cavity at Re = 100 (level 5): Newton
# needs fewer nonlinear steps and reaches the same kinetic energy.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/cavity.ini"
feastc_np 2 "$cfg" grid.level=5 solver.coarse_max_dofs=1000 nonlinear.method=fixed-point || fail=$((fail+1))
nf=$(json nonlinear_iterations); kf=$(json kinetic_energy)
check "fixed point converged" "'$(json converged)' == 'true'"
feastc_np 2 "$cfg" grid.level=5 solver.coarse_max_dofs=1000 nonlinear.method=newton || fail=$((fail+1))
nn=$(json nonlinear_iterations); kn=$(json kinetic_energy)
echo "fixed point: $nf steps, kinetic energy $kf; Newton: $nn steps, kinetic energy $kn"
check "Newton converged" "'$(json converged)' == 'true'"
check "Newton needs fewer steps ($nn < $nf)" "$nn < $nf"
check "same kinetic energy to 1e-7" "abs($kn - $kf) <= 1e-7 * $kf"
# auto gives Newton up for the fixed point when two Newton solves in a row stop at the cap
# (here linear.max_iterations = 20, set, so it does not grow): Re = 400, level 3
feastc_np 1 "$cfg" grid.level=3 problem.re=400 nonlinear.method=auto linear.max_iterations=20 \
  continuation.method=off || fail=$((fail+1))
echo "auto with 20 linear iterations at most: $(json nonlinear_iterations) steps, Newton given up $(json newton_given_up) times"
check "auto converged after giving Newton up" "'$(json converged)' == 'true' and $(json newton_given_up) == 1"
# the preconditioner's velocity blocks with and without Newton's reaction term
# (velocity.newton_reaction; off, the default, is what ScaRC converges on from L = 6 at
# Re = 1000, docs/notes/ns-nonlinear.md): the same solution, Re = 1000, level 4, at 2 ranks
for r in off on; do
  feastc_np 2 "$cfg" grid.level=4 problem.re=1000 nonlinear.method=auto velocity.newton_reaction=$r || fail=$((fail+1))
  check "auto with velocity.newton_reaction = $r converged" "'$(json converged)' == 'true'"
  eval "k_$r=$(json kinetic_energy) s_$r=$(json nonlinear_iterations)"
done
echo "velocity.newton_reaction = off: $s_off steps, kinetic energy $k_off; on: $s_on steps, kinetic energy $k_on"
check "the same kinetic energy to 1e-7" "abs($k_off - $k_on) <= 1e-7 * $k_on"
finish
