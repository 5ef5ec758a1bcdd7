#!/usr/bin/env bash
# A run that cannot converge says so at once: exit status 2, "converged": false with the
# reason in the summary, one line on stderr, the last iterate still written (VTK), and a
# valid summary JSON (non-finite numbers as null, never NaN/Infinity literals).
. "$(dirname "$0")/lib.sh"
CFG=${FEAST_SRC:?}/config/poisson.ini

# strict JSON: NaN/Infinity literals are not JSON
strict_json() {
  "$PY" -c 'import json,sys
def bad(c): raise ValueError("non-JSON constant " + c)
json.load(open(sys.argv[1]), parse_constant=bad)' "$1" 2>&1
}

# run NP LABEL [overrides...]: feastc under a 120 s timeout, rc in $rc, stderr in $TMP/err
run() {
  local np=$1 label=$2; shift 2
  rm -f "$TMP/last.json"
  local t0=$(date +%s.%N)
  if [ "$np" -gt 1 ]; then
    (cd "$TMP" && timeout 120 "$MPIEXEC" -q --oversubscribe --bind-to none -np "$np" "$FEASTC" "$CFG" solver.coarse_max_dofs=100 "$@" \
      output.summary="$TMP/last.json" output.verbosity=0) </dev/null >"$TMP/out" 2>"$TMP/err"
  else
    (cd "$TMP" && timeout 120 "$FEASTC" "$CFG" solver.coarse_max_dofs=100 "$@" output.summary="$TMP/last.json" output.verbosity=0) \
      </dev/null >"$TMP/out" 2>"$TMP/err"
  fi
  rc=$?
  secs=$("$PY" -c "import time; print(f'{time.time() - $t0:.1f}')")
  echo "--- $label: exit $rc in $secs s; stderr:"
  sed 's/^/    /' "$TMP/err"
}

# common checks for a run that must stop without converging
not_converged() {
  local label=$1 reason=$2 np=$3
  check "$label: exit status 2 (got $rc)" "$rc == 2"
  check "$label: exactly one line on stderr" "$(grep -c '^feastc' "$TMP/err") == 1 and $(grep -vc -e '^feastc' -e '^$' "$TMP/err") == 0"
  check "$label: the message gives the reason '$reason'" "$(grep -c "$reason" "$TMP/err") >= 1"
  check "$label: no sanitizer report" "$(grep -cE 'Sanitizer|runtime error:' "$TMP/err") == 0"
  if [ -f "$TMP/last.json" ]; then
    local j=$(strict_json "$TMP/last.json")
    check "$label: summary is strict JSON ($j)" "'''$j''' == ''"
    check "$label: converged false" "'$(json converged)' == 'false'"
    check "$label: reason '$reason' (got '$(json reason)')" "'$(json reason)' == '$reason'"
    check "$label: ranks $np in summary" "$(json ranks) == $np"
  else
    check "$label: summary written" "False"
  fi
}

# 1. iteration limit
run 1 "max_iterations=1" grid.level=4 solver.max_iterations=1
not_converged "max_iterations=1" max_iterations 1
check "max_iterations=1: 1 iteration done (got $(json global_mg_iterations))" "$(json global_mg_iterations) == 1"
check "max_iterations=1: final residual is a finite number" "$(json final_residual) > 0"

# 2. the last iterate is written when not converged
run 1 "max_iterations=2 + output.vtk" grid.level=3 solver.max_iterations=2 output.vtk="$TMP/last"
not_converged "max_iterations=2 + vtk" max_iterations 1
check "vtk written when not converged: last.pvtu" "$([ -s "$TMP/last.pvtu" ] && echo 1 || echo 0) == 1"
check "vtk written when not converged: last_r0.vtu" "$([ -s "$TMP/last_r0.vtu" ] && echo 1 || echo 0) == 1"

# 3. NaN in the preconditioner: stop at once with reason nan
for np in 1 2; do
  for solver in mg cg bicgstab; do
    run $np "nan np=$np $solver" grid.level=4 debug.inject=nan debug.inject_rank=$((np - 1)) solver.scarc_solver=$solver
    not_converged "nan np=$np $solver" nan $np
    it=$(json global_mg_iterations 2>/dev/null || echo 999)
    check "nan np=$np $solver: stops at once (iteration $it <= 3)" "$it <= 3"
    check "nan np=$np $solver: final_residual null or finite, not NaN" "'$(json final_residual)' in ('None',) or abs(float('$(json final_residual)')) < 1e300"
  done
done

# 4. divergence: the smallest allowed divergence factor (1: any growth of the residual
# stops the run) with a smoother damping that makes the iteration grow
run 1 "diverged" grid.level=4 solver.divergence_factor=1 solver.smoother_damping=1.9 solver.max_iterations=50
not_converged "diverged" diverged 1
check "diverged: stops at once (iteration $(json global_mg_iterations) <= 5)" "$(json global_mg_iterations) <= 5"

# 5. a converged run next to it stays exit 0 with converged true (the checks above are not vacuous)
run 1 "converged" grid.level=3
check "converged run: exit 0 (got $rc)" "$rc == 0"
check "converged run: converged true" "'$(json converged)' == 'true'"
check "converged run: reason converged" "'$(json reason)' == 'converged'"
check "converged run: no stderr" "$(grep -c '' "$TMP/err") == 0"
finish
