#!/usr/bin/env bash
# Open flows (issue #44) on the backward-facing step (config/step.ini, Gartling's channel,
# level 2: 2,169 nodes):
# - PCD's Robin variant (linear.pcd_boundary = robin, the default: A_p zero on the outflow,
#   N_p with the inflow's Robin term, Blechta's BRM2 order) against Kay-Loghin-Wathen's
#   (inflow-dirichlet), Newton with exact inner solves at Re = 100 to a defect of 1e-10:
#   the same solution, and at most half the FGMRES iterations (136 against 739 here, both
#   with PCD's SUPG term, linear.pcd_supg = on; at L = 3 without it 154 against 612);
# - pseudo-time stepping (continuation.method = pseudo-time) at Re = 400 reaches the
#   steady state Newton reaches from the pseudo-time iterate with the default tolerance
#   (kinetic energy to 1e-7), and gives the same steps, iterations and bits on 1 and 3 ranks;
# - continuation.method = auto at Re = 800, level 3: the direct attempt fails, pseudo-time
#   steps from the zero start (logged), converged, no continuation stages (at level 2, a
#   cell Reynolds number of 100, the fixed point after the pseudo-time steps stalls);
# - output.wall_shear_zeros_on: the step's lower wall reattaches once, the upper wall has
#   a separation zone (two sign changes) in the summary, at x within the channel: 5.79,
#   4.59 and 10.33 at level 3 (Gartling 6.10, 4.85, 10.48; 5.59, 5.08, 9.79 with the
#   first-order wall shear of before 2026-12-02, night);
# - the cylinder in a wide domain (config/cylinder.ini) at Re = 40, level 3 (10,464 nodes)
#   with the defaults (grid sequencing: level 2 first, with the direct preconditioner):
#   converged, level 2 in one Krylov iteration per Newton step, level 3 in at most 4
#   Newton steps of at most 60 FGMRES iterations (19, 47, 46 measured), the
#   recirculation length behind it 2.1745 D (2.2434 at level 4, 2.2602 at
#   level 5; Fornberg 2.24), c_D 1.5711 (blockage 1/30; unbounded 1.50-1.52), no lift.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/step.ini"
log="$TMP/run.log"
# one rank with the log at verbosity 1 in $log, summary in $TMP/last.json
feastc_log() { rm -f "$TMP/last.json"; "$FEASTC" "$@" output.summary="$TMP/last.json" output.verbosity=1 >"$log" 2>&1; }
# (the block preconditioner throughout: auto's switch to the direct one would end the comparison)
exact=(grid.level=2 problem.re=100 nonlinear.method=newton nonlinear.rtol=1e-10 velocity.solver=direct pressure.solver=direct
       continuation.method=off linear.max_iterations=400 linear.restart=200 linear.preconditioner=block)
feastc_np 1 "$cfg" "${exact[@]}" || fail=$((fail+1))
lr=$(json linear_iterations); kr=$(json kinetic_energy)
check "robin: converged" "'$(json converged)' == 'true'"
feastc_np 1 "$cfg" "${exact[@]}" linear.pcd_boundary=inflow-dirichlet || fail=$((fail+1))
ld=$(json linear_iterations); kd=$(json kinetic_energy)
echo "Newton, exact inner solves: robin $lr FGMRES iterations, inflow-dirichlet $ld"
check "inflow-dirichlet: converged" "'$(json converged)' == 'true'"
check "the same solution (kinetic energy to 1e-8)" "abs($kr - $kd) <= 1e-8 * $kr"
check "robin takes at most half the iterations ($lr vs $ld)" "$lr <= 0.5 * $ld"

pt=(grid.level=2 problem.re=400 continuation.method=pseudo-time)
feastc_log "$cfg" "${pt[@]}" || fail=$((fail+1))
k1=$(json kinetic_energy); n1=$(json nonlinear_iterations); l1=$(json linear_iterations)
check "pseudo-time: converged" "'$(json converged)' == 'true'"
check "pseudo-time steps logged" "$(grep -c 'pseudo-time step' "$log") >= 3"
feastc_np 3 "$cfg" "${pt[@]}" || fail=$((fail+1))
check "pseudo-time, 3 ranks: the same steps, iterations and kinetic energy" \
  "$(json nonlinear_iterations) == $n1 and $(json linear_iterations) == $l1 and '$(json kinetic_energy)' == '$k1'"
feastc_np 1 "$cfg" grid.level=2 problem.re=400 nonlinear.method=newton nonlinear.rtol=1e-11 || fail=$((fail+1))
kn=$(json kinetic_energy)
echo "kinetic energy: pseudo-time $k1, Newton $kn"
check "Newton: converged" "'$(json converged)' == 'true'"
check "pseudo-time reaches Newton's steady state (kinetic energy to 1e-7)" "abs($k1 - $kn) <= 1e-7 * $kn"

feastc_log "$cfg" grid.level=3 || fail=$((fail+1))
check "Re = 800, auto: converged" "'$(json converged)' == 'true'"
check "no continuation stages" "$(json continuation_stages) == 0"
check "the direct attempt failed, then pseudo-time steps" \
  "$(grep -c 'the direct attempt at Re = 800 stopped' "$log") == 1 and $(grep -c 'pseudo-time steps from the zero start' "$log") == 1"
lower=$(json wall_shear_zeros_lower); upper=$(json wall_shear_zeros_upper)
echo "wall shear zeros: lower $lower, upper $upper"
check "lower wall: one reattachment, 5.79 at level 3 (Gartling: 6.10)" "len($lower) == 1 and abs($lower[0] - 5.79) < 0.02"
check "upper wall: separation and reattachment, 4.59 and 10.33 (4.85, 10.48)" \
  "len($upper) == 2 and abs($upper[0] - 4.59) < 0.02 and abs($upper[1] - 10.33) < 0.02"
feastc_np 1 "$FEAST_SRC/config/cylinder.ini" grid.level=3 || fail=$((fail+1))
lw=$(json recirculation_length); cd_=$(json drag_coefficient); cl=$(json lift_coefficient)
its=$(json linear_iterations); steps=$(json nonlinear_iterations); per=$(json linear_iterations_per_step)
cits=$(json coarse_linear_iterations); csteps=$(json coarse_nonlinear_iterations)
echo "cylinder, Re = 40, level 3: recirculation length $lw, c_D $cd_, c_L $cl; level 2 $csteps steps, $cits FGMRES iterations; level 3 $steps steps, $its ($per)"
check "cylinder: converged, one coarser level" "'$(json converged)' == 'true' and $(json coarse_levels) == 1"
check "cylinder: level 2 direct, one iteration per step ($cits in $csteps)" "$cits == $csteps"
check "cylinder: level 3, at most 4 Newton steps of at most 60 ($per)" "$steps <= 4 and max($per) <= 60"
check "cylinder: recirculation length 2.1745 (Fornberg 2.24)" "abs($lw - 2.1745) < 0.005"
check "cylinder: c_D 1.5711, no lift" "abs($cd_ - 1.5711) < 0.002 and abs($cl) < 1e-6"
finish
