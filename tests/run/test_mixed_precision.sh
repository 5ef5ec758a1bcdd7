#!/usr/bin/env bash
# Mixed precision loses nothing: the local multigrids in single precision inside the
# double outer ScaRC give the same L2 error (1e-6 relative) as all-double, and at most
# 20% more global iterations (the FEAST paper's claim). Poisson, unitsquare8, L = 7.
. "$(dirname "$0")/lib.sh"
cfg="$FEAST_SRC/config/poisson.ini"
feastc_np 2 "$cfg" grid.level=7 solver.local_precision=double || fail=$((fail+1))
itd=$(json global_mg_iterations); ed=$(json l2_error)
feastc_np 2 "$cfg" grid.level=7 solver.local_precision=single || fail=$((fail+1))
its=$(json global_mg_iterations); es=$(json l2_error)
echo "double: $itd iterations, l2_error $ed; single: $its iterations, l2_error $es"
check "single converged" "'$(json converged)' == 'true'"
check "summary says single" "'$(json local_precision)' == 'single'"
check "l2_error equal to 1e-6 relative" "abs($es - $ed) <= 1e-6 * $ed"
check "iterations grow by at most 20% ($itd -> $its)" "$its <= 1.2 * $itd"
finish
