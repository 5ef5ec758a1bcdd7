#!/usr/bin/env bash
# The summary's "amdahl" object (feast/io/amdahl.h) recomputed from the raw timers of real
# runs at 2 ranks: T_* are the "timings" (maxima over ranks), R_acc = T_loc / T_lin for
# the linear problems (poisson, stokes) and T_loc / T_tot for navier-stokes, R_ass =
# T_ass / T_tot, R_lin = T_lin / T_tot, S_max = 1 / (1 - R_acc); every R in [0, 1];
# T_loc <= T_lin <= T_tot; the maximum over ranks is at least rank 0's value and the
# mean, imbalance = max / mean >= 1; the end-of-run block prints the same figures.
# Small global coarse grids, so that the local multigrids do work at small levels.
. "$(dirname "$0")/lib.sh"

# verify LABEL EXPECTED_BASE STDOUT_FILE: all checks on $TMP/last.json
verify() {
  local out
  out=$("$PY" - "$TMP/last.json" "$1" "$2" "$3" <<'EOF'
import json, math, re, sys
path, label, base, stdout = sys.argv[1:]
d = json.load(open(path))
a, t = d.get("amdahl"), d["timings"]
res = []
def check(what, cond):
    res.append(("ok: " if cond else "FAILED: ") + f"{label}: {what}")
check("summary has an amdahl object", isinstance(a, dict))
if not isinstance(a, dict):
    print("\n".join(res)); sys.exit(0)
close = lambda x, y: abs(x - y) <= 1e-12 * max(abs(y), 1e-300)
T = {k: a[k] for k in ("T_tot", "T_lin", "T_loc", "T_ass", "T_setup")}
raw = {"T_tot": "total", "T_lin": "linear_solve", "T_loc": "local_mg", "T_ass": "assembly",
       "T_setup": "solver_setup"}
for k, name in raw.items():
    check(f"{k} = timings.{name} ({T[k]} vs {t.get(name)})", T[k] == t.get(name))
check(f"ranks = 2 ({a['ranks']}, summary {d['ranks']})", a["ranks"] == 2 == d["ranks"])
check(f"R_acc is relative to {base} ({a['R_acc_of']})", a["R_acc_of"] == base)
check(f"R_acc = T_loc / {base}", close(a["R_acc"], T["T_loc"] / T[base]))
check("R_ass = T_ass / T_tot", close(a["R_ass"], T["T_ass"] / T["T_tot"]))
check("R_lin = T_lin / T_tot", close(a["R_lin"], T["T_lin"] / T["T_tot"]))
check("S_max = 1 / (1 - R_acc)", close(a["S_max"], 1 / (1 - a["R_acc"])))
for r in ("R_acc", "R_ass", "R_lin"):
    check(f"{r} = {a[r]:.4f} in [0, 1]", 0 <= a[r] <= 1)
check(f"0 < T_loc <= T_lin <= T_tot ({T['T_loc']:.4f} <= {T['T_lin']:.4f} <= {T['T_tot']:.4f})",
      0 < T["T_loc"] <= T["T_lin"] <= T["T_tot"])
# disjoint phases on every rank: so on rank 0 and in the mean over the ranks (the maxima
# may come from different ranks, and their sum can exceed the largest T_tot)
for kind in ("rank0", "mean"):
    v = a[kind]
    check(f"{kind}: T_ass + T_setup + T_lin <= T_tot ({v['T_ass']:.4f} + {v['T_setup']:.4f} + {v['T_lin']:.4f} "
          f"<= {v['T_tot']:.4f})", v["T_ass"] + v["T_setup"] + v["T_lin"] <= v["T_tot"] * (1 + 1e-12))
for k in T:
    mx, r0, mean, imb = T[k], a["rank0"][k], a["mean"][k], a["imbalance"][k]
    check(f"{k}: max {mx:.4f} >= rank 0 {r0:.4f}, >= mean {mean:.4f}", mx >= r0 and mx >= mean >= 0)
    check(f"{k}: imbalance {imb:.3f} = max / mean >= 1",
          imb >= 1 and (close(imb, mx / mean) if mean > 0 else imb == 1))
# first touch of fresh memory (feast_prefault): a part of each T, nested as the timers
ft, mb = a["first_touch"], a["first_touch_mb"]
for k in T:
    check(f"{k}: first touch 0 <= {ft[k]:.4f} <= {T[k]:.4f} s, {mb[k]:.2f} MB >= 0",
          0 <= ft[k] <= T[k] and mb[k] >= 0 and (mb[k] > 0 or ft[k] == 0))
    check(f"{k}: first touch within T_tot's ({mb[k]:.2f} <= {mb['T_tot']:.2f} MB)",
          ft[k] <= ft["T_tot"] and mb[k] <= mb["T_tot"])
check(f"the run touched fresh memory ({mb['T_tot']:.2f} MB)", mb["T_tot"] > 0)
# the printed block: the same figures, to the digits printed
text = open(stdout).read()
m = re.search(r"R_acc = T_loc/(T_\w+) ([0-9.]+)\s+S_max = 1/\(1-R_acc\) ([0-9.]+)", text)
check("the end-of-run block names R_acc and S_max", m is not None and "where the time goes" in text)
if m:
    check(f"printed R_acc {m.group(2)} relative to {m.group(1)}",
          m.group(1) == base and abs(float(m.group(2)) - a["R_acc"]) <= 6e-4)
    check(f"printed S_max {m.group(3)}", abs(float(m.group(3)) - a["S_max"]) <= 6e-3)
m = re.search(r"first touch of fresh memory: T_ass ([0-9.]+) \(([0-9]+) MB\)\s+T_setup ([0-9.]+) \(([0-9]+) MB\)"
              r"\s+T_lin ([0-9.]+) \(([0-9]+) MB\)", text)
check("the end-of-run block prints the first touch", m is not None)
if m:
    for i, k in enumerate(("T_ass", "T_setup", "T_lin")):
        check(f"printed first touch of {k}: {m.group(2 * i + 1)} s, {m.group(2 * i + 2)} MB",
              abs(float(m.group(2 * i + 1)) - ft[k]) <= 6e-4 and abs(float(m.group(2 * i + 2)) - mb[k]) <= 0.5)
print("\n".join(res))
EOF
)
  echo "$out"
  checks=$((checks + $(grep -c '^ok\|^FAILED' <<<"$out")))
  fail=$((fail + $(grep -c '^FAILED' <<<"$out")))
}

# run LABEL BASE CONFIG OVERRIDES...: 2 ranks, stdout kept for the block
run() {
  local label=$1 base=$2; shift 2
  rm -f "$TMP/last.json"
  "$MPIEXEC" --oversubscribe --bind-to none -np 2 "$FEASTC" "$@" output.summary="$TMP/last.json" \
    output.verbosity=1 >"$TMP/stdout" || { echo "FAILED: $label: feastc exit $?"; fail=$((fail + 1)); }
  [ -f "$TMP/last.json" ] && verify "$label" "$base" "$TMP/stdout"
}

small="solver.coarse_max_dofs=100 solver.local_coarse_max_dofs=4"
run poisson T_lin "$FEAST_SRC/config/poisson.ini" grid.level=5 $small
run stokes T_lin "$FEAST_SRC/config/stokes.ini" grid.level=4 $small
run cavity T_tot "$FEAST_SRC/config/cavity.ini" grid.level=3 solver.coarse_max_dofs=300 solver.local_coarse_max_dofs=4

# a dry run solves nothing: timings, but no Amdahl figures
feastc_np 2 "$FEAST_SRC/config/poisson.ini" --dry-run >/dev/null
check "dry run: no amdahl object" "'amdahl' not in __import__('json').load(open('$TMP/last.json'))"
finish
