#!/usr/bin/env bash
# The cavity (Re = 100, level 5, global coarse level 3 so that the velocity solves run
# through the local multigrids) on 1, 2 and 4 MPI ranks: the same nonlinear and linear
# iteration counts and the kinetic energy to 1e-8 relative; and the local multigrids in
# single precision give the kinetic energy of the all-double run to 1e-6 (mixed precision
# loses nothing, the FEAST paper's claim), Stokes and Navier-Stokes. With upwind-stabilised
# coarse levels (solver.coarse_stabilisation = upwind, a change of the preconditioner
# only): the kinetic energy of the plain run to 1e-7, and the same counts on 1 and 2 ranks.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/cavity.ini"
common="grid.level=5 solver.coarse_max_dofs=1000"
feastc_np 1 "$cfg" $common || fail=$((fail+1))
ke1=$(json kinetic_energy); nl1=$(json nonlinear_iterations); li1=$(json linear_iterations)
check "np=1 converged" "'$(json converged)' == 'true'"
for np in 2 4; do
  feastc_np $np "$cfg" $common || fail=$((fail+1))
  echo "np=$np: kinetic energy $(json kinetic_energy) (np=1: $ke1), steps $(json nonlinear_iterations), linear $(json linear_iterations) (np=1: $nl1, $li1)"
  check "np=$np converged" "'$(json converged)' == 'true'"
  check "np=$np same nonlinear steps" "$(json nonlinear_iterations) == $nl1"
  check "np=$np same linear iterations" "$(json linear_iterations) == $li1"
  check "np=$np kinetic energy to 1e-8" "abs($(json kinetic_energy) - $ke1) <= 1e-8 * $ke1"
done
for np in 1 2; do
  feastc_np $np "$cfg" $common solver.coarse_stabilisation=upwind || fail=$((fail+1))
  echo "upwind np=$np: kinetic energy $(json kinetic_energy), steps $(json nonlinear_iterations), linear $(json linear_iterations)"
  check "upwind np=$np converged, kinetic energy of the plain run to 1e-7" \
    "'$(json converged)' == 'true' and abs($(json kinetic_energy) - $ke1) <= 1e-7 * $ke1"
  [ $np = 1 ] && { nlu=$(json nonlinear_iterations); liu=$(json linear_iterations); keu=$(json kinetic_energy); }
done
check "upwind: the same counts on 2 ranks as on 1, kinetic energy to 1e-8" \
  "$(json nonlinear_iterations) == $nlu and $(json linear_iterations) == $liu and abs($(json kinetic_energy) - $keu) <= 1e-8 * $keu"
for type in navier-stokes stokes; do
  feastc_np 2 "$cfg" $common problem.type=$type solver.local_precision=double || fail=$((fail+1))
  ked=$(json kinetic_energy)
  feastc_np 2 "$cfg" $common problem.type=$type solver.local_precision=single || fail=$((fail+1))
  echo "$type: kinetic energy double $ked, single $(json kinetic_energy)"
  check "$type single converged" "'$(json converged)' == 'true'"
  check "$type single vs double kinetic energy to 1e-6" "abs($(json kinetic_energy) - $ked) <= 1e-6 * $ked"
done
finish
