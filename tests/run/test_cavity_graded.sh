#!/usr/bin/env bash
# The cavity on graded macros (config/cavity_graded.ini: grids/cavity4x4cos.feast with
# stabilisation.viscous_residual = on; docs/notes/cavity-accuracy.md "Coarse meshes for the cavity"):
# (a) tools/make_cavity_grid.py regenerates both shipped graded grids byte for byte;
# (b) Re = 100, L = 3 and 4: all three centre-line extrema on one side of Botella &
#     Peyret's values at both levels (u_min and v_min below, v_max above: the vortex
#     slightly too strong, no cancellation of errors of opposite sign), the largest error
#     at L = 4 below 0.15 % (measured 0.133 %) and 3x or more smaller than at L = 3
#     (second order: measured 3.6x);
# (c) Re = 1000, L = 4: the largest extremum error below 0.65 % (measured 0.575 %) and
#     below that of config/cavity.ini (the paper's 4 x 2 grid) at the same level (0.958 %).
. "$(dirname "$0")/lib.sh"
for g in "cos cavity4x4cos" "geom:4 cavity4x4geom4"; do
  read -r rule name <<<"$g"
  "$PY" "$FEAST_SRC/tools/make_cavity_grid.py" 4 4 --x "$rule" -o "$TMP/$name.feast" >/dev/null
  if cmp -s "$TMP/$name.feast" "$FEAST_SRC/grids/$name.feast"; then same=1; else same=0; fi
  check "make_cavity_grid.py 4 4 --x $rule regenerates grids/$name.feast" "$same == 1"
done

largest() { "$PY" -c 'import sys; print(max(abs(float(x)) for x in sys.argv[1:]))' "$@"; }
graded=(1 "$FEAST_SRC/config/cavity_graded.ini")
for L in 3 4; do
  feastc_np "${graded[@]}" grid.level=$L problem.re=100 output.centerlines="$TMP/re100_L$L" || fail=$((fail + 1))
  check "Re = 100, L = $L converged" "'$(json converged)' == 'true'"
  read -r -a e <<<"$(extrema_errors "$TMP/re100_L$L" 100)"
  echo "Re = 100, L = $L: relative errors of u_min, v_max, v_min: ${e[*]}"
  check "Re = 100, L = $L: u_min, v_min below, v_max above the reference (${e[*]})" \
    "${e[0]} < 0 and ${e[1]} > 0 and ${e[2]} < 0"
  eval "max_L$L=$(largest "${e[@]}")"
done
check "Re = 100: largest error at L = 4 below 0.15 % ($max_L4)" "$max_L4 < 1.5e-3"
check "Re = 100: it falls 3x or more from L = 3 to 4 ($max_L3 -> $max_L4)" "$max_L3 >= 3 * $max_L4"

feastc_np "${graded[@]}" grid.level=4 problem.re=1000 output.centerlines="$TMP/graded1000" || fail=$((fail + 1))
check "Re = 1000 graded converged" "'$(json converged)' == 'true'"
feastc_np 1 "$FEAST_SRC/config/cavity.ini" grid.level=4 problem.re=1000 output.centerlines="$TMP/plain1000" ||
  fail=$((fail + 1))
check "Re = 1000 on the 4 x 2 grid converged" "'$(json converged)' == 'true'"
read -r -a g <<<"$(extrema_errors "$TMP/graded1000" 1000)"
read -r -a p <<<"$(extrema_errors "$TMP/plain1000" 1000)"
mg=$(largest "${g[@]}") mp=$(largest "${p[@]}")
echo "Re = 1000, L = 4: graded ${g[*]}, 4 x 2 ${p[*]}"
check "Re = 1000, L = 4: largest error on the graded grid below 0.65 % ($mg)" "$mg < 6.5e-3"
check "Re = 1000, L = 4: below the 4 x 2 grid's ($mg < $mp)" "$mg < $mp"
finish
