#!/usr/bin/env bash
# Navier-Stokes runs that cannot converge say so: exit 2, "converged": false with the
# reason, the last residuals in the summary (strict JSON), one line on stderr, and the
# last iterate still written (VTK); a NaN anywhere is reported as such, never "converged".
. "$(dirname "$0")/lib.sh"
CFG=${FEAST_SRC:?}/config/cavity.ini

run() { # run NP LABEL [overrides...]: rc in $rc, stderr in $TMP/err
  local np=$1 label=$2; shift 2
  rm -f "$TMP/last.json" "$TMP"/last*.vtu "$TMP"/last.pvtu
  (cd "$TMP" && timeout 300 "$MPIEXEC" -q --oversubscribe --bind-to none -np "$np" "$FEASTC" "$CFG" "$@" \
    output.summary="$TMP/last.json" output.vtk="$TMP/last" output.verbosity=0) </dev/null >"$TMP/out" 2>"$TMP/err"
  rc=$?
  echo "--- $label: exit $rc; stderr:"
  sed 's/^/    /' "$TMP/err"
}

strict_json() {
  "$PY" -c 'import json,sys
def bad(c): raise ValueError("non-JSON constant " + c)
json.load(open(sys.argv[1]), parse_constant=bad)' "$1" 2>&1
}

not_converged() { # LABEL 'reason1 reason2 ...'
  local label=$1 reasons=$2
  check "$label: exit status 2 (got $rc)" "$rc == 2"
  check "$label: exactly one line on stderr" "$(grep -c '^feastc' "$TMP/err") == 1 and $(grep -vc -e '^feastc' -e '^$' "$TMP/err") == 0"
  check "$label: strict JSON summary" "'''$(strict_json "$TMP/last.json")''' == ''"
  check "$label: converged false" "'$(json converged)' == 'false'"
  check "$label: reason '$(json reason)' in '$reasons'" "'$(json reason)' in '$reasons'.split()"
  check "$label: the message names the reason" "$(grep -c "$(json reason)" "$TMP/err") >= 1"
  check "$label: initial nonlinear residual finite" "$(json initial_residual) > 0"
  check "$label: last iterate written (last.pvtu)" "$([ -s "$TMP/last.pvtu" ] && echo 1 || echo 0) == 1"
}

# 1. Re = 1e5 on a coarse grid: no stationary solution is found (the direct attempt alone:
# continuation.method = off; case 3 runs with continuation's stages)
run 1 "Re=1e5 L=3" grid.level=3 problem.re=1e5 continuation.method=off
not_converged "Re=1e5 L=3" "diverged linear_diverged max_iterations"

# 2. the step limit
run 2 "nonlinear_max_iterations=2" grid.level=4 nonlinear.max_iterations=2 continuation.method=off
not_converged "max 2 steps" "max_iterations"
check "max 2 steps: 2 steps done" "$(json nonlinear_iterations) == 2"
check "max 2 steps: nonlinear residual below the initial one" "$(json nonlinear_residual) < $(json initial_residual)"

# 3. a NaN in the preconditioner, on each rank of 2 (the direct attempt alone:
# continuation.method = off)
for r in 0 1; do
  run 2 "nan on rank $r" grid.level=4 debug.inject=nan debug.inject_rank=$r continuation.method=off
  not_converged "nan rank $r" "nan"
done
# 3b. the same one-off NaN (debug.inject acts once) with continuation.method = auto: the direct
# attempt stops as nan, the stages start afresh from zero and converge at Re = 100, and the
# summary says so
run 2 "nan on rank 1, continuation" grid.level=4 debug.inject=nan debug.inject_rank=1
check "nan + continuation: exit 0 (got $rc), converged" "$rc == 0 and '$(json converged)' == 'true'"
check "nan + continuation: direct attempt nan, stages ending at Re 100" \
  "'$(json continuation_direct_reason)' == 'nan' and $(json continuation_stages) >= 1 and $(json continuation_re)[-1] == 100"

# 4. the converged run next to it (the checks above are not vacuous)
run 1 "converged" grid.level=3
check "converged run: exit 0 (got $rc)" "$rc == 0"
check "converged run: converged true, reason converged" "'$(json converged)' == 'true' and '$(json reason)' == 'converged'"
finish
