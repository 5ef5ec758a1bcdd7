#!/usr/bin/env bash
# Q1 on unitsquare8: the L2 error against sin(pi x) sin(pi y) converges with order 2.
. "$(dirname "$0")/lib.sh"
prev=""
for L in 3 4 5 6 7; do
  feastc_np 1 "$FEAST_SRC/config/poisson.ini" grid.level=$L || { echo "feastc failed at L=$L"; fail=$((fail+1)); continue; }
  err=$(json l2_error)
  check "L=$L converged" "'$(json converged)' == 'true'"
  echo "L=$L l2_error=$err iterations=$(json global_mg_iterations)"
  if [ -n "$prev" ]; then
    check "EOC L=$((L-1))->$L >= 1.9" "__import__('math').log2($prev/$err) >= 1.9"
  fi
  prev=$err
done
finish
