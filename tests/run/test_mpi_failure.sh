#!/usr/bin/env bash
# One failing rank must not leave the job hanging: a runtime failure on one rank
# (debug.inject = fail) ends the whole job quickly with a non-zero exit and one
# message naming that rank. mpirun runs under `timeout 60`: a hang fails the test.
. "$(dirname "$0")/lib.sh"
CFG=${FEAST_SRC:?}/config/poisson.ini

for spec in "2 1 mg" "2 0 mg" "2 1 cg" "4 3 bicgstab" "4 2 mg"; do
  set -- $spec
  np=$1 rank=$2 solver=$3
  label="np=$np fail on rank $rank ($solver)"
  t0=$(date +%s)
  (cd "$TMP" && timeout 60 "$MPIEXEC" --oversubscribe --bind-to none -np "$np" "$FEASTC" "$CFG" grid.level=4 solver.coarse_max_dofs=100 \
    solver.scarc_solver=$solver debug.inject=fail debug.inject_rank=$rank output.verbosity=0 \
    output.summary="$TMP/fail.json") </dev/null >"$TMP/out" 2>"$TMP/err"
  rc=$?
  secs=$(($(date +%s) - t0))
  echo "--- $label: exit $rc in $secs s; stderr:"
  sed 's/^/    /' "$TMP/err" | head -30
  check "$label: the job ends (no hang: exit $rc, $secs s)" "$rc != 124 and $rc != 137"
  check "$label: non-zero exit status" "$rc != 0"
  check "$label: exactly one feastc message" "$(grep -c '^feastc' "$TMP/err") == 1"
  check "$label: the message names rank $rank" "$(grep '^feastc' "$TMP/err" | grep -c "rank $rank")  == 1"
  claims=0
  [ -f "$TMP/fail.json" ] && grep -q '"converged": *true' "$TMP/fail.json" && claims=1
  check "$label: no summary claims success" "$claims == 0"
  rm -f "$TMP/fail.json"
done

# the same hook on 1 rank (no MPI_Abort path): runtime failure = exit 4, one line
(cd "$TMP" && timeout 60 "$FEASTC" "$CFG" grid.level=3 solver.coarse_max_dofs=100 debug.inject=fail debug.inject_rank=0 output.verbosity=0) \
  </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
echo "--- np=1 fail: exit $rc; stderr:"; sed 's/^/    /' "$TMP/err"
check "np=1 fail: exit status 4 runtime failure (got $rc)" "$rc == 4"
check "np=1 fail: one line on stderr" "$(grep -c '' "$TMP/err") == 1"
finish
