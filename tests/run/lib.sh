# Helpers for run tests: feastc runs with JSON summaries, numbers compared with tolerances.
# Environment from ctest: FEASTC, FEAST_SRC, FEAST_BIN, MPIEXEC.
set -u
PY=/usr/bin/python3
TMP=$(mktemp -d /tmp/feastc_test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail=0
checks=0
T0=$(date +%s)
stamp() { echo "[$(($(date +%s) - T0)) s] $*"; } # a line with the seconds since the start

# feastc_np NP CONFIG [overrides...]: run on NP ranks, summary in $TMP/last.json
feastc_np() {
  local np=$1; shift
  rm -f "$TMP/last.json"
  "$MPIEXEC" --oversubscribe --bind-to none -np "$np" "$FEASTC" "$@" output.summary="$TMP/last.json" output.verbosity=0
}

# json KEY [FILE]: print a value of the summary (nested keys with dots)
json() {
  "$PY" -c 'import json,sys
d=json.load(open(sys.argv[2]))
for k in sys.argv[1].split("."): d=d[k]
print(d if not isinstance(d,bool) else str(d).lower())' "$1" "${2:-$TMP/last.json}"
}

# extrema_errors PREFIX [RE]: the signed relative errors of u_min, v_max, v_min of the
# centre lines PREFIX_u.csv, PREFIX_v.csv (output.centerlines=PREFIX) against Botella &
# Peyret at RE (100, the default, or 1000), as tools/compare_ghia.py computes them
extrema_errors() {
  "$PY" - "$1" "$FEAST_SRC/tools" "${2:-100}" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import compare_ghia as c
prof = {k: c.read_profile(f"{sys.argv[1]}_{k}.csv") for k in "uv"}
ref = c.BOTELLA[int(sys.argv[3])]
print(" ".join("%.6e" % ((c.extremum(prof[line], sign)[0] - ref[name][0]) / abs(ref[name][0]))
               for name, line, sign in c.LINES))
PY
}

# check "description" PYTHON-EXPRESSION: the expression must be true
check() {
  checks=$((checks + 1))
  if "$PY" -c "import sys; sys.exit(0 if ($2) else 1)"; then
    echo "ok: $1"
  else
    echo "FAILED: $1   ($2)"
    fail=$((fail + 1))
  fi
}

finish() {
  echo "$((checks - fail)) passed, $fail failed"
  [ "$fail" -eq 0 ]
}

# run_bg NP ARGS...: feastc in the background on NP ranks (np 1: no mpirun), pid in $pid
run_bg() {
  local np=$1; shift
  if [ "$np" -gt 1 ]; then
    "$MPIEXEC" --oversubscribe --bind-to none -np "$np" "$FEASTC" "$@" </dev/null >"$TMP/bg.log" 2>&1 &
  else
    "$FEASTC" "$@" </dev/null >"$TMP/bg.log" 2>&1 &
  fi
  pid=$!
}
# wait_bg: wait for the background run, its status in rc, its output appended to runs.log
wait_bg() { wait "$pid" 2>/dev/null; rc=$?; cat "$TMP/bg.log" >>"$TMP/runs.log"; }
# the feastc processes of a background run (mpirun's children, or the process itself)
ranks_of() { pgrep -P "$1" -x feastc || echo "$1"; }
# wait_for FILE: until it exists (at most 60 s)
wait_for() { for _ in $(seq 600); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }
