#!/usr/bin/env bash
# Not converging is a result: converged false with the reason, and exit status 2.
. "$(dirname "$0")/lib.sh"
feastc_np 1 "$FEAST_SRC/config/poisson.ini" grid.level=7 solver.max_iterations=1 2>"$TMP/err"
rc=$?
check "exit status 2 when not converged (got $rc)" "$rc == 2"
check "converged false" "'$(json converged)' == 'false'"
check "reason max_iterations" "'$(json reason)' == 'max_iterations'"
check "one feastc message on stderr" "$(grep -c '^feastc:' "$TMP/err") == 1"
cat "$TMP/err"
finish
