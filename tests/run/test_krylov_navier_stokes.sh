#!/usr/bin/env bash
# Issue #13's acceptance (tests/run/krylov_systems_lib.sh) on the Navier-Stokes cavity
# (Re 100): L5 from the zero and a random start at 1, 2 and 4 ranks, L6 from zero at 1 rank.
. "$(dirname "$0")/krylov_systems_lib.sh"
sweep ns "1 2 4" kinetic_energy linear_iterations linear.krylov "$NS"
for k in bicgstab ibicgstab pipebicgsafe; do
  run "ns6-zero-$k-1" 1 kinetic_energy linear_iterations $NS6 linear.krylov=$k
done
compare ns6 zero 1
check_reductions
finish
