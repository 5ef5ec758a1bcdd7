#!/usr/bin/env bash
# The 3D flow solver from a config (config/cavity3d.ini: the lid-driven cube, stationary
# Navier-Stokes by the fixed point, FGMRES with ScaRC on hexahedra): at Re = 100, level 3
# on 1 and 3 ranks it converges in the same steps and linear iterations with the same
# kinetic energy and residual to the last bit; the FGMRES iterations per step stay within
# 1.5x of level 2's; the centre lines are written and their profiles have the cavity's
# shape (u = 1 at the lid, 0 at the bottom, a negative minimum below the centre; v
# positive near x = 0 and negative near x = 1); the VTK output of hexahedra is written; the
# Stokes problem on the same cube converges; SIGTERM stops the solve after a step (exit 6).
. "$(dirname "$0")/lib.sh"
CFG=$FEAST_SRC/config/cavity3d.ini
feastc_np 1 "$CFG" grid.level=2 || { echo "feastc failed at L=2"; fail=$((fail+1)); }
per2=$(python3 -c "print($(json linear_iterations) / $(json nonlinear_iterations))")
for np in 1 3; do
  feastc_np $np "$CFG" grid.level=3 output.centerlines="$TMP/c$np" output.vtk="$TMP/v$np" ||
    { echo "feastc failed on $np ranks"; fail=$((fail+1)); continue; }
  check "L=3 np=$np converged" "'$(json converged)' == 'true'"
  eval "r$np='$(json nonlinear_iterations) $(json linear_iterations) $(json kinetic_energy) $(json nonlinear_residual)'"
  per3=$(python3 -c "print($(json linear_iterations) / $(json nonlinear_iterations))")
done
echo "1 rank: ${r1:-}; 3 ranks: ${r3:-}; linear iterations per step: L2 $per2, L3 ${per3:-?}"
check "L=3: the same steps, iterations, kinetic energy and residual on 1 and 3 ranks" "'${r1:-a}' == '${r3:-b}'"
check "L=3: linear iterations per step ${per3:-?} within 1.5x of level 2's $per2" "${per3:-1e9} <= 1.5 * $per2"
check "VTK of hexahedra written" "__import__('os').path.exists('$TMP/v1.pvtu')"
check "centre lines the same on 1 and 3 ranks" "open('$TMP/c1_u.csv').read() == open('$TMP/c3_u.csv').read()"
python3 - "$TMP/c1_u.csv" "$TMP/c1_v.csv" >"$TMP/shape" <<'PY'
import csv, sys
u = [tuple(map(float, r)) for r in list(csv.reader(open(sys.argv[1])))[1:]]
v = [tuple(map(float, r)) for r in list(csv.reader(open(sys.argv[2])))[1:]]
umin = min(u, key=lambda p: p[1])
ok = len(u) == 17 and u[0] == (0.0, 0.0) and u[-1] == (1.0, 1.0) and umin[1] < -0.1 and 0.2 < umin[0] < 0.6
ok = ok and max(p[1] for p in v if p[0] < 0.5) > 0.1 and min(p[1] for p in v if p[0] > 0.5) < -0.1
print(ok, "u_min %.4f at y = %.4f" % (umin[1], umin[0]))
PY
echo "centre line: $(cat "$TMP/shape")"
check "centre-line profiles of the cavity's shape" "'$(cut -d' ' -f1 "$TMP/shape")' == 'True'"
feastc_np 1 "$CFG" grid.level=2 problem.type=stokes || { echo "feastc stokes failed"; fail=$((fail+1)); }
check "Stokes converged" "'$(json converged)' == 'true'"
# SIGTERM during the solve: it stops after the step it arrives in, exit 6, the summary says interrupted
"$FEASTC" "$CFG" grid.level=4 output.summary="$TMP/term.json" output.verbosity=0 >"$TMP/term.log" 2>&1 &
pid=$!
sleep 3
kill -TERM $pid
wait $pid
rc=$?
echo "SIGTERM: exit $rc, $(tail -1 "$TMP/term.log")"
check "SIGTERM: exit 6 (got $rc), reason interrupted" "$rc == 6 and '$(json reason "$TMP/term.json")' == 'interrupted'"
finish
