#!/usr/bin/env bash
# The block preconditioner's choices (issue #26 item 2): nonlinear steps, outer Krylov
# iterations, global V cycles and times for every linear.factorisation x linear.schur x
# nonlinear.method on the cavity (Re 100, 400 at L5) and the DFG channel (Re 100 at L4),
# one rank. Prints a Markdown table.
# usage: bench/blockprec.sh [build dir]   (from the repository root); the lists can be set:
#   FACTORISATIONS="lower upper full diagonal" SCHURS="auto" NONLINEAR="fixed-point"
#   CASES="cavity:100:5 cavity:400:5 dfg:100:4" INNERS="scarc:scarc" (velocity.solver:pressure.solver)
#   FEASTC=path (default: BUILD/bin/feastc)
set -euo pipefail
BUILD=${1:-build}
FEASTC=${FEASTC:-$BUILD/bin/feastc}
FACTORISATIONS=${FACTORISATIONS:-"lower upper full diagonal"}
SCHURS=${SCHURS:-auto}
NONLINEAR=${NONLINEAR:-fixed-point}
CASES=${CASES:-"cavity:100:5 cavity:400:5 dfg:100:4"}
INNERS=${INNERS:-scarc:scarc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| problem | Re | L | nonlinear | schur | factorisation | inner (velocity:pressure) | result | nonlinear steps | Krylov its | its/step | V cycles | linear solve (s) | total (s) | kinetic energy / drag |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for case in $CASES; do
  IFS=: read -r name re level <<<"$case"
  cfg=config/cavity.ini
  [ "$name" = dfg ] && cfg=config/dfg_re100.ini
  for nl in $NONLINEAR; do
    for schur in $SCHURS; do
      for f in $FACTORISATIONS; do
       for inner in $INNERS; do
        rm -f "$tmp/s.json"
        $FEASTC $cfg problem.re=$re grid.level=$level nonlinear.method=$nl linear.schur=$schur \
          linear.factorisation=$f velocity.solver=${inner%%:*} pressure.solver=${inner##*:} linear.preconditioner=block \
          output.summary=$tmp/s.json output.verbosity=1 >"$tmp/log" 2>&1 || true
        resolved=$(sed -n 's/.*linear.schur = auto: \([a-z]*\).*/auto: \1/p' "$tmp/log")
        python3 - "$tmp/s.json" "$name" "$re" "$level" "$nl" "${resolved:-$schur}" "$f" "$inner" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("| " + " | ".join(sys.argv[2:]) + " | no summary |" + " |" * 7); sys.exit(0)
t = d["timings"]; n = d["nonlinear_iterations"]; its = d["linear_iterations"]
q = d.get("drag_coefficient", d.get("kinetic_energy"))
print(f"| {' | '.join(sys.argv[2:])} | {d['reason']} | {n} | {its} | {its / max(n, 1):.1f} | "
      f"{d['global_mg_iterations']} | {t['linear_solve']:.2f} | {t['total']:.2f} | {q:.10g} |")
PY
       done
      done
    done
  done
done
