#!/usr/bin/env bash
# Time-dependent Navier-Stokes: a forced Taylor-Green flow on distorted macros
# (tests/data/ns/taylor_green_time.ini, nu = 0.1, t in [0, 0.5]).
# - The order in time of every scheme from the solutions at t = 0.5 for dt = dt0 / 2^k,
#   k = 0..3, on one grid (level 3): the differences d_k = |u_k - u_k+1| (RMS over the
#   nodes, VTK output read back with python3-vtk) fall by 2^order, so the spatial error
#   (the same in every run) does not pollute the orders: backward-euler >= 0.9,
#   crank-nicolson, fs-theta and bdf2 >= 1.8 (the last pair of each scheme). dt0 = 0.1,
#   0.05 for bdf2, whose backward-Euler first step leaves it pre-asymptotic longer (orders
#   0.74, 1.72, 1.90 from dt0 = 0.1). time.tau_dt = off keeps the discretisation in space
#   the same for every dt (with the dt term in tau, fs-theta's short substeps change tau
#   and its differences stall at 3e-5: orders 1.99, 0.95).
# - The order in space of the velocity (L2 error against the exact solution at t = 0.5)
#   with fs-theta at dt = 0.05 (its time error is far below the space error) on levels
#   2, 3, 4: >= 1.8 per level, as the stationary solver.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import vtk' 2>/dev/null || { echo "python3-vtk not available: skipped"; exit 77; }
CFG="$FEAST_SRC/tests/data/ns/taylor_green_time.ini"
common=(time.end=0.5 nonlinear.rtol=1e-9 time.tau_dt=off)

# u at every node of output.vtk=$1 as one list
rms_difference() {
  "$PY" - "$1" "$2" <<'PYEOF'
import sys, math, vtk
def read(base):
    r = vtk.vtkXMLPUnstructuredGridReader()
    r.SetFileName(base + ".pvtu")
    r.Update()
    a = r.GetOutput().GetPointData().GetArray("u")
    return [a.GetTuple3(i)[:2] for i in range(a.GetNumberOfTuples())]
a, b = read(sys.argv[1]), read(sys.argv[2])
assert len(a) == len(b) and len(a) > 0
print(math.sqrt(sum((p[0]-q[0])**2 + (p[1]-q[1])**2 for p, q in zip(a, b)) / len(a)))
PYEOF
}

for scheme in backward-euler crank-nicolson bdf2 fs-theta; do
  bases=()
  for k in 0 1 2 3; do
    dt0=0.1; [ $scheme = bdf2 ] && dt0=0.05
    dt=$("$PY" -c "print($dt0 / 2**$k)")
    feastc_np 1 "$CFG" "${common[@]}" grid.level=3 time.scheme=$scheme time.dt=$dt output.vtk="$TMP/$scheme$k" \
      || fail=$((fail+1))
    check "$scheme dt=$dt converged" "'$(json converged)' == 'true'"
    bases+=("$TMP/$scheme$k")
  done
  d=()
  for k in 0 1 2; do d+=($(rms_difference "${bases[$k]}" "${bases[$((k+1))]}")); done
  want=1.8; [ $scheme = backward-euler ] && want=0.9
  o1=$("$PY" -c "import math; print(math.log2(${d[0]} / ${d[1]}))")
  o2=$("$PY" -c "import math; print(math.log2(${d[1]} / ${d[2]}))")
  echo "$scheme: differences ${d[*]}, orders $o1 $o2"
  check "$scheme order in time $o2 >= $want" "$o2 >= $want and $o2 <= 2.5"
done

eu=()
for L in 2 3 4; do
  feastc_np 1 "$CFG" "${common[@]}" grid.level=$L time.scheme=fs-theta time.dt=0.05 || fail=$((fail+1))
  check "fs-theta L=$L converged" "'$(json converged)' == 'true'"
  eu+=($(json velocity_l2_error))
done
echo "fs-theta dt = 0.05, velocity errors at L = 2, 3, 4: ${eu[*]}"
for k in 0 1; do
  o=$("$PY" -c "import math; print(math.log2(${eu[$k]} / ${eu[$((k+1))]}))")
  check "velocity order in space L$((k+2))->L$((k+3)) = $o >= 1.8" "$o >= 1.8"
done
finish
