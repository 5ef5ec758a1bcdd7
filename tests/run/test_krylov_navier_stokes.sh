#!/usr/bin/env bash
# Issue #13's acceptance (tests/run/krylov_systems_lib.sh) on the Navier-Stokes cavity
# (Re 100): L5 from the zero start at 1 and 2 ranks and from a random start at 1 rank
# (the random start is a hash of the node coordinates, the same vector on any rank count:
# rank independence is what the zero start's runs check; the whole test took 260 s of
# the suite with the random start on 1, 2 and 4 ranks, 02ddb93), L6 from zero at 1 rank.
# Not on 4 ranks (test_krylov_systems.sh runs the variants bitwise on 4 ranks on
# convection-diffusion and Stokes): with one core busy this test took 178 s, the three
# 4-rank runs most of it (2026-12-03, 56a3745).
. "$(dirname "$0")/krylov_systems_lib.sh"
sweep ns "1 2" kinetic_energy linear_iterations linear.krylov "$NS" "1"
for k in bicgstab ibicgstab pipebicgsafe; do
  run "ns6-zero-$k-1" 1 kinetic_energy linear_iterations $NS6 linear.krylov=$k
done
compare ns6 zero 1
check_reductions
finish
