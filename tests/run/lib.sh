# Helpers for run tests: feastc runs with JSON summaries, numbers compared with tolerances.
# Environment from ctest: FEASTC, FEAST_SRC, FEAST_BIN, MPIEXEC.
set -u
PY=/usr/bin/python3
TMP=$(mktemp -d /tmp/feastc_test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fail=0
checks=0

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
