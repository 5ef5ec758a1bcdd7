#!/usr/bin/env bash
# tools/summary_diff.py, the comparison of bench/bitwise.sh (issue #45, bit for bit): two
# runs of the same case agree; a value one ulp off (the kinetic energy), a step's count of
# linear iterations changed, or a missing summary each fail naming the key or the file;
# a changed timing (timings.*, amdahl.*, *seconds*) does not count.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/old" "$TMP/new"
for side in old new; do
  feastc_np 1 "$FEAST_SRC/config/cavity.ini" grid.level=3 >/dev/null 2>&1
  cp "$TMP/last.json" "$TMP/$side/cavity.json"
done
diff_cases() { "$PY" "$FEAST_SRC/tools/summary_diff.py" "$TMP/old" "$TMP/new" "$@" >"$TMP/out.txt" 2>&1; rc=$?; cat "$TMP/out.txt"; }
edit() { # edit FILE PYTHON-STATEMENT-ON-d
  "$PY" -c "import json,sys,math; d=json.load(open(sys.argv[1])); $2; json.dump(d, open(sys.argv[1],'w'))" "$1"
}

diff_cases cavity
check "two runs of one case: exit 0 (got $rc), 'same'" "$rc == 0 and $(grep -c '^cavity  *same' "$TMP/out.txt") == 1"

cp "$TMP/old/cavity.json" "$TMP/new/cavity.json"
edit "$TMP/new/cavity.json" "d['timings']['total'] *= 3; d['amdahl']['R_acc'] = 0.5"
diff_cases cavity
check "timings changed only: exit 0 (got $rc)" "$rc == 0"

cp "$TMP/old/cavity.json" "$TMP/new/cavity.json"
edit "$TMP/new/cavity.json" "d['kinetic_energy'] = math.nextafter(d['kinetic_energy'], 1.0)"
diff_cases cavity
check "the kinetic energy one ulp off: exit 1 (got $rc), the key named" \
  "$rc == 1 and $(grep -c 'DIFFERS in 1 of .*kinetic_energy' "$TMP/out.txt") == 1"

cp "$TMP/old/cavity.json" "$TMP/new/cavity.json"
edit "$TMP/new/cavity.json" "d['linear_iterations_per_step'][2] += 1"
diff_cases cavity
check "one step's linear iterations changed: exit 1 (got $rc), the entry named" \
  "$rc == 1 and $(grep -c 'linear_iterations_per_step\[2\]' "$TMP/out.txt") == 1"

diff_cases cavity absent
check "a missing summary: exit 1 (got $rc), the file named" \
  "$rc == 1 and $(grep -c 'absent  *MISSING .*new/absent.json\|absent  *MISSING .*old/absent.json' "$TMP/out.txt") == 1"
finish
