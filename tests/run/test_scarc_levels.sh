#!/usr/bin/env bash
# ScaRC iteration counts do not grow with the level (L=4..8: max - min <= 2), and a grid
# with more macros (4 x 4, dfg24) needs at most 2 more than unitsquare8 (the 4 x 2 grid).
# ScaRC as a preconditioner of CG (flexible) and BiCGStab on the same deep hierarchies
# (coarse level 1; with classical PCG this did not converge in 100 iterations, since the
# ScaRC V cycle is not a fixed symmetric operator), in double and single local precision:
# converged, level independent, and never more iterations than standalone MG.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/poisson.ini"
its=()
for L in 4 5 6 7 8; do
  feastc_np 1 "$cfg" grid.level=$L solver.coarse_max_dofs=100 || fail=$((fail+1))
  check "unitsquare8 L=$L converged" "'$(json converged)' == 'true'"
  its+=("$(json global_mg_iterations)")
  echo "unitsquare8 L=$L: $(json global_mg_iterations) iterations, coarse level $(json coarse_level)"
done
list=$(IFS=,; echo "${its[*]}")
check "level independence: max - min <= 2 over [$list]" "max([$list]) - min([$list]) <= 2"
for solver in cg bicgstab; do
  for prec in double single; do
    kits=()
    for L in 4 5 6 7; do
      feastc_np 1 "$cfg" grid.level=$L solver.coarse_max_dofs=100 solver.scarc_solver=$solver \
        solver.local_precision=$prec || fail=$((fail+1))
      n=$(json global_mg_iterations)
      kits+=("$n")
      check "$solver/$prec L=$L converged" "'$(json converged)' == 'true'"
      check "$solver/$prec L=$L: $n iterations <= mg's ${its[$((L - 4))]}" "$n <= ${its[$((L - 4))]}"
    done
    klist=$(IFS=,; echo "${kits[*]}")
    echo "$solver/$prec L=4..7: [$klist] iterations"
    check "$solver/$prec level independence over [$klist]" "max([$klist]) - min([$klist]) <= 2"
  done
done
ref=${its[2]}
for grid in square4x4 dfg24; do
  feastc_np 1 "$cfg" grid.file="$FEAST_SRC/grids/$grid.feast" grid.level=6 solver.coarse_max_dofs=100 || fail=$((fail+1))
  n=$(json global_mg_iterations)
  echo "$grid L=6: $n iterations (unitsquare8: $ref)"
  check "$grid converged" "'$(json converged)' == 'true'"
  check "$grid needs at most 2 more iterations than unitsquare8 ($n vs $ref)" "$n <= $ref + 2"
done
# Local hierarchies framed on the global levels (solver.local_framed_min_nodes) solve
# bitwise like whole ones: every level framed against none, Poisson in double and single
# local precision, and the cavity (nonsymmetric velocity blocks, refreshed every step;
# a coarse grid of level 0: levels 1..5 are smoothed by local hierarchies, level 4 of
# the finest one framed and swept) with plain Galerkin coarse levels (the default). With
# their upwind stabilisation a framed level's rows next to its frame keep the global
# level's stabilisation (feast/fem/transfer.h), so the cavity is then the same to solver
# tolerance: kinetic energy to 1e-8, linear iterations within 10 %.
for prec in double single; do
  res=()
  for framed in 0 1000000; do
    feastc_np 1 "$cfg" grid.level=6 solver.coarse_max_dofs=100 solver.local_precision=$prec \
      solver.local_framed_min_nodes=$framed || fail=$((fail+1))
    res+=("$(json global_mg_iterations) its, residual $(json final_residual)")
  done
  check "poisson/$prec, every level framed = none: ${res[0]} / ${res[1]}" "'${res[0]}' == '${res[1]}'"
done
for stab in none upwind; do
  its=() ke=()
  for framed in 0 1000000; do
    feastc_np 1 "$FEAST_SRC/config/cavity.ini" grid.level=5 solver.coarse_max_dofs=30 \
      solver.local_framed_min_nodes=$framed solver.coarse_stabilisation=$stab || fail=$((fail+1))
    its+=("$(json linear_iterations)") ke+=("$(json kinetic_energy)")
  done
  res=("${its[0]} its, kinetic energy ${ke[0]}" "${its[1]} its, kinetic energy ${ke[1]}")
  if [ $stab = none ]; then
    check "cavity ($stab), every level framed = none: ${res[0]} / ${res[1]}" "'${res[0]}' == '${res[1]}'"
  else
    check "cavity ($stab), every level framed = none to solver tolerance: ${res[0]} / ${res[1]}" \
      "abs(${ke[0]} - ${ke[1]}) <= 1e-8 * ${ke[1]} and abs(${its[0]} - ${its[1]}) <= 0.1 * ${its[1]}"
  fi
done
finish
