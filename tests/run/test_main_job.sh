#!/usr/bin/env bash
# The README's main job (the run part of its first command, tools/cavity.sh: the cavity,
# its centre-line extrema against the reference values, a picture) at level 4 instead of
# 6: exit 0, the three extrema lines against Botella & Peyret at Re = 100 (measured
# 0.04-0.46 % at L = 4, checked within 1 %), their positions near Botella's (0.4581,
# 0.2370, 0.8104), and a PNG that matplotlib reads (three panels side by side: wider than
# tall). At Re = 400 (L = 4, PCD) the reference is the extremum of Ghia's table.
# Skips (77) without python3-vtk or matplotlib. ~15 s.
. "$(dirname "$0")/lib.sh"
if ! "$PY" -c "import vtk, matplotlib" 2>/dev/null; then
  echo "skipped: python3-vtk9 or python3-matplotlib missing (tools/deps.sh installs them)"
  exit 77
fi
# the run part of the README's first command: what follows its build (the last "&& ")
run=$(grep -m1 '^    tools/deps.sh' "$FEAST_SRC/README.md" | sed 's/.*&& //')
check "the README's first command runs tools/cavity.sh (it says: $run)" "'$run' == 'tools/cavity.sh'"
main_job() { (cd "$FEAST_SRC" && FEASTC="$FEASTC" OUT="$TMP/cavity" $run output.verbosity=0 "$@") >"$TMP/out" 2>&1; }

main_job grid.level=4
rc=$?
cat "$TMP/out"
check "the main job exits 0" "$rc == 0"
check "it converged" "'$(json converged "$TMP/cavity.json")' == 'true'"
check "three extrema lines against Botella & Peyret" "$(grep -c 'Botella-Peyret' "$TMP/out") == 3"
"$PY" - "$TMP/out" <<'EOF'
import re, sys
want = {"u_min": 0.4581, "v_max": 0.2370, "v_min": 0.8104}
got = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+): feastc ([-+.\d]+) at [xy] = ([.\d]+), Botella-Peyret ([-+.\d]+) at [xy] = ([.\d]+): "
                 r"relative error ([-+.\d]+) %", line)
    if m:
        got[m.group(1)] = (float(m.group(3)), float(m.group(5)), float(m.group(6)))
ok = set(got) == set(want) and all(abs(e) < 1 and abs(at - want[k]) < 0.01 and ref == want[k]
                                   for k, (at, ref, e) in got.items())
sys.exit(0 if ok else 1)
EOF
check "u_min, v_max, v_min within 1 % of Botella & Peyret, at their positions within 0.01" "$? == 0"
"$PY" - "$TMP/cavity.png" <<'EOF'
import sys
import matplotlib.image
assert open(sys.argv[1], "rb").read(8) == b"\x89PNG\r\n\x1a\n"
a = matplotlib.image.imread(sys.argv[1])
assert a.ndim == 3 and a.shape[1] > 2 * a.shape[0] > 400, a.shape
assert a[..., :3].std() > 0.05  # not blank
EOF
check "out/cavity.png is a valid picture, three panels side by side" "$? == 0"

main_job grid.level=4 problem.re=400 linear.schur=pcd
rc=$?
tail -4 "$TMP/out"
check "Re = 400: exit 0 and three extrema lines against Ghia's table" \
  "$rc == 0 and $(grep -c 'Ghia (table)' "$TMP/out") == 3"
finish
