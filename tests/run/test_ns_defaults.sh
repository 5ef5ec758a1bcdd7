#!/usr/bin/env bash
# Robust defaults (issue #26, item 4): the cavity at Re = 1000 converges with no key but
# problem.re and grid.level, and the choices made for it (linear.schur,
# linear.krylov, solver.coarse_stabilisation, nonlinear.method = auto, PCD's rotation term)
# are printed at verbosity 1:
# - Re = 1000, L = 4: pcd (enclosed flow, U D / nu = 1000) with the rotation term, fgmres,
#   upwind (coarse-mesh Peclet number U H / (2 nu) = 250 >= 150), fixed point then Newton;
#   converged;
# - Re = 3200, L = 4 and 3: converge too (L = 3 by continuation: the direct attempt
#   stalls). With the defaults before 2026-11-27 (the fixed point throughout, no rotation
#   term, no SUPG term in PCD's F_p, the block preconditioner throughout; OLD below), which exercise two more mechanisms: at L = 4 the linear solves stop at
#   linear.max_iterations = 100, which then grows to 200 and 400 (linear.restart to 100 and
#   200; both keys unset); at L = 3 the stall test stops the direct attempt and every stage
#   at the target (plateaus), and the continuation's last resort (the target from the
#   closest converged stage without the stall test) converges;
# - Re = 100, L = 4: mass (U D / nu = 100 < 200), fgmres, none (coarse-mesh Peclet number
#   25), the fixed point throughout (no rotation term without PCD);
# - stokes: the paper's mass / bicgstab / none, bitwise the run with those keys given;
# - velocity.max_iterations unset: 1 V cycle per velocity solve where the rotation term is
#   on (printed; the V cycles of 2 steps at Re = 1000, L = 4 with multigrid levels under the
#   coarse grid: at most 2 per FGMRES iteration, u and v), the key's 2 when given (about 4),
#   and not at Re = 100 (no rotation term);
# - a key given explicitly is not overridden and not printed as auto;
# - a run that cannot converge names a cause and a key to try (here FGMRES restarted
#   every 30 iterations, linear.restart; a key set explicitly: no growth; OLD keys).
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/cavity.ini"
# run1 OUT ARGS...: feastc on one rank at verbosity 1, stdout+stderr in $TMP/OUT, rc in $rc
run1() {
  local out=$1; shift
  rm -f "$TMP/last.json"
  (cd "$TMP" && "$FEASTC" "$@" output.summary="$TMP/last.json" output.verbosity=1) </dev/null >"$TMP/$out" 2>&1
  rc=$?
  grep -e "= auto" -e "^feastc:" "$TMP/$out" | sed 's/^/    /'
}
has() { grep -c -- "$2" "$TMP/$1"; }
OLD=(nonlinear.method=fixed-point linear.pcd_rotation=0 linear.pcd_supg=off linear.preconditioner=block)

run1 re1000 "$cfg" problem.re=1000 grid.level=4
check "Re=1000 L=4: exit 0 (got $rc), converged" "$rc == 0 and '$(json converged)' == 'true'"
check "Re=1000: linear.schur = auto: pcd printed" "$(has re1000 'linear.schur = auto: pcd (enclosed flow')  == 1"
check "Re=1000: linear.krylov = auto: fgmres printed" "$(has re1000 'linear.krylov = auto: fgmres') == 1"
check "Re=1000: solver.coarse_stabilisation = auto: upwind printed" \
  "$(has re1000 'solver.coarse_stabilisation = auto: upwind (coarse-mesh Peclet') == 1"
check "Re=1000: the rotation term on, nonlinear.method = auto: fixed point, then Newton printed" \
  "$(has re1000 'rotation term on (an enclosed flow)') == 1 and $(has re1000 'nonlinear.method = auto: fixed point, then Newton') == 1"

run1 re3200 "$cfg" problem.re=3200 grid.level=4
check "Re=3200 L=4 with no other key: exit 0 (got $rc), converged" "$rc == 0 and '$(json converged)' == 'true'"
run1 re3200old "$cfg" problem.re=3200 grid.level=4 "${OLD[@]}"
check "Re=3200 L=4, OLD: converged (got $rc)" "$rc == 0 and '$(json converged)' == 'true'"
check "Re=3200, OLD: the linear solves stopped at their cap, and the caps grew (logged)" \
  "$(has re3200old 'stopped at its cap: linear.max_iterations = 400, linear.restart = 200') == 1"

run1 re3200l3 "$cfg" problem.re=3200 grid.level=3
check "Re=3200 L=3 with no other key: exit 0 (got $rc), converged" "$rc == 0 and '$(json converged)' == 'true'"
run1 re3200l3old "$cfg" problem.re=3200 grid.level=3 "${OLD[@]}"
check "Re=3200 L=3, OLD: exit 0 (got $rc), converged" "$rc == 0 and '$(json converged)' == 'true'"
check "Re=3200 L=3, OLD: by the continuation's last resort (logged)" \
  "$(has re3200l3old 'continuation: the last resort, Re = 3200') == 1"

run1 re100 "$cfg" problem.re=100 grid.level=4
check "Re=100 L=4: converged" "$rc == 0 and '$(json converged)' == 'true'"
check "Re=100: mass, fgmres, none" \
  "$(has re100 'linear.schur = auto: mass') == 1 and $(has re100 'krylov = auto: fgmres') == 1 and $(has re100 'stabilisation = auto: none') == 1"
check "Re=100: nonlinear.method = auto: the fixed point throughout" \
  "$(has re100 'nonlinear.method = auto: fixed point (no PCD rotation term') == 1 and $(has re100 'Newton from') == 0"

st="$FEAST_SRC/config/stokes.ini"
run1 stokes "$st" grid.level=4
ke=$(json kinetic_energy); li=$(json linear_iterations)
check "stokes: mass, bicgstab, none (a stokes problem)" \
  "$(has stokes 'linear.schur = auto: mass (a stokes problem)') == 1 and $(has stokes 'krylov = auto: bicgstab') == 1 and $(has stokes 'stabilisation = auto: none') == 1"
run1 stokes_explicit "$st" grid.level=4 linear.schur=mass linear.krylov=bicgstab solver.coarse_stabilisation=none
check "stokes: the same bits as with the paper's keys given" \
  "'$(json kinetic_energy)' == '$ke' and $(json linear_iterations) == $li"
check "explicit keys: nothing printed as auto" "$(has stokes_explicit '= auto') == 0"

run1 restart30 "$cfg" problem.re=1000 grid.level=4 linear.restart=30 nonlinear.max_iterations=20 continuation.method=off \
  "${OLD[@]}"
check "Re=1000 linear.restart=30: not converged (exit 2, got $rc)" "$rc == 2"
check "the message names the key to try (linear.restart)" "$(grep '^feastc:' "$TMP/restart30" | grep -c 'try linear.restart')  == 1"

# the velocity solves' V cycles: "(N linear iterations, M velocity V cycles)" of the last line
cycles() { sed -n 's/.*(\([0-9]*\) linear iterations, \([0-9]*\) velocity V cycles).*/\1 \2/p' "$TMP/$1" | tail -n 1; }
CYC=(problem.re=1000 grid.level=4 solver.coarse_max_dofs=300 nonlinear.max_iterations=2 continuation.method=off)
run1 cyc1 "$cfg" "${CYC[@]}"
read -r its1 vc1 <<<"$(cycles cyc1)"
run1 cyc2 "$cfg" "${CYC[@]}" velocity.max_iterations=2
read -r its2 vc2 <<<"$(cycles cyc2)"
echo "velocity V cycles: unset $vc1 in $its1 iterations, velocity.max_iterations=2 $vc2 in $its2"
check "Re=1000: velocity.max_iterations 1 printed" "$(has cyc1 'velocity.max_iterations: 1 (unset') == 1"
check "Re=1000: one V cycle per velocity solve ($vc1 <= 2 x $its1 + 2)" "${its1:-0} > 0 and ${vc1:-0} <= 2 * $its1 + 2"
check "velocity.max_iterations=2 given: not printed, up to two cycles ($vc2 > 3 x $its2)" \
  "$(has cyc2 'velocity.max_iterations: 1') == 0 and ${its2:-0} > 0 and ${vc2:-0} > 3 * $its2"
check "Re=100: velocity.max_iterations 1 not printed (no rotation term)" "$(has re100 'velocity.max_iterations: 1') == 0"
finish
