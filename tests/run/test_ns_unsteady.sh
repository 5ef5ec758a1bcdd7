#!/usr/bin/env bash
# Time-dependent Navier-Stokes on DFG 2D-3 (config/dfg2d3.ini), short and coarse: level 2,
# BDF2 with dt = 0.05 from rest to t = 0.6 (12 steps, the inflow rising to U = 0.35),
# with solver.coarse_max_dofs = 300 and solver.local_coarse_max_dofs = 9, so that ScaRC's
# smoother runs the local multigrids (one level above their 3 x 3 coarse grid per macro)
# instead of solving everything on the global coarse grid.
# (a) the time series (every CSV column but the wall time) and the summary's quantities are
#     bitwise identical on 1, 2 and 4 ranks;
# (b) they match stored values (relative 1e-8; the code is deterministic) of a longer run
#     of the same config (to t = 2): the steps of a run do not depend on time.end (bit for
#     bit, but for the last one: its end is time.end = 0.6 where the longer run's 12th step
#     ends at 0.05 + ... = 0.6000000000000001, which changes the values at 1e-13);
# (c) output.vtk with output.vtk_every = 5 writes the ParaView collection .pvd with the
#     snapshots of steps 5, 10 and the last, 12, and their times, each a readable .pvtu
#     with u, p (python3-vtk; parsed as XML without it);
# (d) single-precision local multigrids agree with double ones in c_D,max to 1e-6.
. "$(dirname "$0")/lib.sh"
CFG="$FEAST_SRC/config/dfg2d3.ini"
# double local multigrids: the stored values of (b) are theirs ((d) runs single)
common=(grid.level=2 time.dt=0.05 time.end=0.6 solver.coarse_max_dofs=300 solver.local_coarse_max_dofs=9
  solver.local_precision=double)
QUANTITIES="drag_coefficient_max drag_coefficient_max_time drag_coefficient_min lift_coefficient_max
lift_coefficient_max_time lift_coefficient_min pressure_difference_final kinetic_energy time_steps time
nonlinear_iterations linear_iterations global_mg_iterations"

for np in 1 2 4; do
  extra=()
  [ "$np" = 2 ] && extra=(output.vtk="$TMP/snap" output.vtk_every=5)
  feastc_np $np "$CFG" "${common[@]}" output.timeseries="$TMP/np$np.csv" "${extra[@]}" || fail=$((fail + 1))
  cp "$TMP/last.json" "$TMP/np$np.json" 2>/dev/null
  check "np=$np converged" "'$(json converged)' == 'true'"
  check "np=$np: 12 time steps to t = 0.6" "$(json time_steps) == 12 and $(json time) == 0.6"
done

# (a) bitwise: the CSV without its last column (seconds), and every quantity of the summary
for np in 2 4; do
  if cmp -s <(cut -d, -f1-7 "$TMP/np1.csv") <(cut -d, -f1-7 "$TMP/np$np.csv"); then same=1; else same=0; fi
  check "time series np=1 and np=$np identical (t,dt,c_D,c_L,dp,nonlinear,linear)" "$same == 1"
  for k in $QUANTITIES; do
    a=$(json $k "$TMP/np1.json") b=$(json $k "$TMP/np$np.json")
    check "$k np=1 == np=$np ($a, $b)" "'$a' == '$b'"
  done
done
check "the CSV has a header and 12 lines" "$(wc -l <"$TMP/np1.csv") == 13"
# the phases of each step (np = 4, max over the ranks): assembly and local multigrids
# within the step's wall time, and both present in every step
phases=$(awk -F, 'NR > 1 { ok += ($9 > 0 && $10 > 0 && $9 + $10 <= $8 + 1e-3) } END { print ok }' "$TMP/np4.csv")
check "every step's assembly_seconds and local_mg_seconds > 0 and within its seconds ($phases of 12)" "$phases == 12"

# (b) stored values. Provenance: feastc on main after PCD's F_p got the SUPG term
#   (linear.pcd_supg = on, 2026-12-02: the values moved by up to 2e-6 relative, the lift's,
#   within the time steps' nonlinear tolerance; 358 linear iterations before, 349 now;
#   before that FGMRES's basis became single precision, 2026-11-27), one rank,
#   feastc config/dfg2d3.ini grid.level=2 time.dt=0.05 time.end=2 solver.coarse_max_dofs=300 \
#     solver.local_coarse_max_dofs=9 solver.local_precision=double output.timeseries=r2.csv
# rows t = 0.3 and t = 0.6 of r2.csv (the run to t = 2 goes on to c_D 1.9424843926546442,
# c_L -0.0086947864654045998, dp 1.2617427488726709 at t = 2), and the summary of the run
# to t = 0.6 (the same command with time.end=0.6).
row() { awk -F, -v t="$1" -v c="$2" 'NR > 1 && ($1 - t) ^ 2 < 1e-18 { print $c }' "$TMP/np1.csv"; }
ref() { # name got want
  check "$1 = $2 (reference $3, rel. 1e-8)" "abs($2 - ($3)) <= 1e-8 * abs($3)"
}
ref "c_D(0.3)" "$(row 0.3 3)" 0.28732881178143332
ref "c_L(0.3)" "$(row 0.3 4)" 0.00014848603303491831
ref "dp(0.3)" "$(row 0.3 5)" 0.14023770077057596
ref "c_D(0.6)" "$(row 0.6 3)" 0.4204375261830019
ref "c_L(0.6)" "$(row 0.6 4)" 0.0010641946144488573
ref "dp(0.6)" "$(row 0.6 5)" 0.20975480634352106
J="$TMP/np1.json"
ref drag_coefficient_max "$(json drag_coefficient_max $J)" 0.42043752618293084
ref drag_coefficient_min "$(json drag_coefficient_min $J)" 0.17282714571672317
ref lift_coefficient_max "$(json lift_coefficient_max $J)" 0.0010641946142546377
ref lift_coefficient_min "$(json lift_coefficient_min $J)" -3.86905302714527e-05
ref pressure_difference_final "$(json pressure_difference_final $J)" 0.20975480634351196
ref kinetic_energy "$(json kinetic_energy $J)" 0.026233488532458514
check "nonlinear_iterations $(json nonlinear_iterations $J) == 36" "$(json nonlinear_iterations $J) == 36"
check "linear_iterations $(json linear_iterations $J) == 349" "$(json linear_iterations $J) == 349"

# (c) the snapshots of the np = 2 run
"$PY" - "$TMP/snap.pvd" <<'PYEOF' || fail=$((fail + 1))
import os, sys, xml.etree.ElementTree as ET
pvd = sys.argv[1]
root = ET.parse(pvd).getroot()
ds = root.findall("./Collection/DataSet")
times = [float(d.get("timestep")) for d in ds]
files = [os.path.join(os.path.dirname(pvd), d.get("file")) for d in ds]
print("pvd:", list(zip(times, [os.path.basename(f) for f in files])))
ok = root.get("type") == "Collection" and len(ds) == 3
ok = ok and all(abs(t - w) < 1e-12 for t, w in zip(times, [0.25, 0.5, 0.6]))
ok = ok and [os.path.basename(f) for f in files] == ["snap_%06d.pvtu" % k for k in (5, 10, 12)]
ok = ok and all(os.path.isfile(f) for f in files)
try:
    import vtk
except ImportError:
    print("python3-vtk not available: the .pvtu files are not read")
    vtk = None
if ok and vtk:
    for f in files:
        r = vtk.vtkXMLPUnstructuredGridReader()
        r.SetFileName(f)
        r.Update()
        g = r.GetOutput()
        pd = g.GetPointData()
        print(f"{os.path.basename(f)}: {g.GetNumberOfPoints()} points, {g.GetNumberOfCells()} cells")
        ok = ok and g.GetNumberOfCells() == 24 * 16 and pd.GetArray("u") is not None and pd.GetArray("p") is not None
print("ok: .pvd with 3 snapshots at t = 0.25, 0.5, 0.6" if ok else "FAILED: the .pvd or its snapshots")
sys.exit(0 if ok else 1)
PYEOF
checks=$((checks + 1))

# (d) single-precision local multigrids
feastc_np 1 "$CFG" "${common[@]}" solver.local_precision=single || fail=$((fail + 1))
check "single precision converged" "'$(json converged)' == 'true'"
cd1=$(json drag_coefficient_max "$TMP/np1.json") cds=$(json drag_coefficient_max)
check "c_D,max double $cd1 vs single $cds: relative 1e-6" "abs($cd1 - $cds) <= 1e-6 * abs($cd1)"

# (e) output.series_from: the summary's extrema from the steps at t >= 0.3 only. c_D grows
# with the inflow here, so the window's minimum is the step at t = 0.3 and its maximum
# that of all steps.
feastc_np 1 "$CFG" "${common[@]}" output.series_from=0.3 || fail=$((fail + 1))
c03=$(row 0.3 3)
check "series_from 0.3: c_D,min $(json drag_coefficient_min) at t = $(json drag_coefficient_min_time) is the step at 0.3 ($c03)" \
  "$(json drag_coefficient_min) == $c03 and $(json drag_coefficient_min_time) == 0.3"
check "series_from 0.3: c_D,max the same as over all steps" \
  "$(json drag_coefficient_max) == $(json drag_coefficient_max "$TMP/np1.json")"
finish
