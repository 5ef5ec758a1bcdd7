#!/usr/bin/env bash
# The linear solver is level-independent: the cavity at Re = 100 on levels 4..7 (6,435 to
# 395,523 unknowns), the first four nonlinear steps each; the mean Krylov iterations per
# step (steps 2-4, after the Stokes-like first one) may spread by at most 3 over the levels (FGMRES
# since linear.krylov = auto, issue #26; BiCGStab before).
. "$(dirname "$0")/lib.sh"
means=()
for L in 4 5 6 7; do
  feastc_np 2 "$FEAST_SRC/config/cavity.ini" grid.level=$L nonlinear.max_iterations=4 continuation.method=off 2>"$TMP/err"
  check "L=$L: stopped after 4 steps as asked (exit 2, reason max_iterations)" "'$(json reason)' == 'max_iterations'"
  per=$(json linear_iterations_per_step)
  m=$("$PY" -c "p = $per; print(sum(p[1:4]) / 3)")
  echo "L=$L: linear iterations per step $per, mean of steps 2-4: $m"
  means+=($m)
done
spread=$("$PY" -c "m = [$(IFS=,; echo "${means[*]}")]; print(max(m) - min(m))")
check "mean iterations per step ${means[*]}: spread $spread <= 3" "$spread <= 3"
finish
