#!/usr/bin/env bash
# The comparison runner bench/compare.py on the CPU double vs CPU single local multigrid
# pair (no GPU needed), small levels, one run per setting: Poisson (the Stokes table,
# Table 2, with the multi-core table at 2 ranks) and the cavity (the Navier-Stokes
# table, Table 3); then the DFG table (Table 4) re-rendered from the cavity's summaries
# with drag and lift coefficients added (--reuse). Checks the table columns, the derived
# figures against the raw timers in the CSV, the agreement line, the PNG.
. "$(dirname "$0")/lib.sh"
cmp="$FEAST_SRC/bench/compare.py"
pair=(-C solver.local_precision=double -G solver.local_precision=single)
small=(solver.coarse_max_dofs=100 solver.local_coarse_max_dofs=4)
export FEASTC MPIEXEC

# has FILE LINE: the file has this exact line
has() { grep -qxF -- "$2" "$1"; }

# csv_checks OUT BASE: derived columns of compare.csv recomputed from its raw times
csv_checks() {
  local r
  r=$("$PY" - "$1/compare.csv" "$2" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
base = sys.argv[2]
f = lambda r, k: float(r[k])
close = lambda a, b: abs(a - b) <= 1e-9 * max(abs(b), 1e-300)
ok = bool(rows)
for r in rows:
    ok &= close(f(r, "R_acc"), f(r, "T_loc_C") / f(r, f"{base}_C"))
    ok &= close(f(r, "S_max"), 1 / (1 - f(r, "R_acc")))
    ok &= close(f(r, "S_loc"), f(r, "T_loc_C") / f(r, "T_loc_G"))
    ok &= close(f(r, "S_tot"), f(r, f"{base}_C") / f(r, f"{base}_G"))
    ok &= close(f(r, "R_ass_G"), f(r, "T_ass_G") / f(r, "T_tot_G"))
    ok &= close(f(r, "R_lin_C"), f(r, "T_lin_C") / f(r, "T_tot_C"))
    ok &= 0 <= f(r, "R_acc") <= 1 and f(r, "T_loc_C") <= f(r, "T_lin_C") <= f(r, "T_tot_C")
print(len(rows) if ok else 0)
EOF
)
  echo "$r"
}

png_check() {
  if "$PY" -c 'import matplotlib' 2>/dev/null; then
    check "$1: compare.png is a PNG" "open('$2/compare.png','rb').read(8) == b'\x89PNG\r\n\x1a\n'"
  else
    check "$1: no matplotlib: the plot is skipped with a message" "'matplotlib not found' in open('$2/stderr').read()"
  fi
}

# --- Poisson: Table 2 (top and bottom) ---------------------------------------------
out="$TMP/poisson"
"$PY" "$cmp" "$FEAST_SRC/config/poisson.ini" "${pair[@]}" --levels 3 4 --repeat 1 --cores 2 \
  --mpi-flags="--oversubscribe --bind-to none" \
  --out "$out" "${small[@]}" >"$TMP/poisson.md" 2>"$TMP/stderr"
check "poisson: the runner succeeded" "$? == 0"
mkdir -p "$out" && cp "$TMP/stderr" "$out/stderr"
cat "$TMP/poisson.md"
md="$out/compare.md"
check "poisson: compare.md is what was printed" "open('$md').read() == open('$TMP/poisson.md').read()"
has "$md" "| L | T_lin^C | T_loc^C | T_lin^G | T_loc^G | R_acc | S_max | S_loc | S_tot |"
check "poisson: Table 2 columns" "$? == 0"
check "poisson: one row per level" "$(grep -cE '^\| [34] \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$' "$md") == 2"
has "$md" "| L | T_lin^C | T_lin^Cn | T_lin^G | S_n | S_tot |"
check "poisson: multi-core table columns (C on 2 ranks)" "$? == 0"
check "poisson: agreement line: same result, l2_error compared" \
  "$(grep -c '^agreement: both settings computed the same result: largest relative difference .* (l2_error, L=[34]) <= 1e-06; iterations differ by at most' "$md") == 1"
check "poisson: agreement table has both iteration counts" "$(grep -cE '^\| [34] \| l2_error \| .* \| [0-9]+ \| [0-9]+ \| [+-][0-9.]+ % \|$' "$md") == 2"
check "poisson: CSV derived figures = raw timers (2 rows)" "$(csv_checks "$out" T_lin) == 2"
check "poisson: one progress line per run (6)" "$(grep -cE '^\[ *[0-9]+/6\] L=[34] (C|G|Cn) run 1/1' "$TMP/stderr") == 6"
check "poisson: summaries kept" "$(ls "$out/runs" | grep -c json) == 6"
png_check poisson "$out"

# --- cavity: Table 3 ---------------------------------------------------------------
out="$TMP/cavity"
"$PY" "$cmp" "$FEAST_SRC/config/cavity.ini" "${pair[@]}" --levels 3 4 --repeat 1 --out "$out" "${small[@]}" \
  >"$TMP/cavity.md" 2>"$TMP/stderr"
check "cavity: the runner succeeded" "$? == 0"
cat "$TMP/cavity.md"
md="$out/compare.md"
has "$md" "| Re | L | R_ass^C | R_lin^C | R_ass^G | R_lin^G | R_acc | S_tot | S_max |"
check "cavity: Table 3 columns" "$? == 0"
check "cavity: rows at Re 100" "$(grep -cE '^\| 100 \| [34] \| [0-9.]+ \|' "$md") == 2"
check "cavity: agreement line: same kinetic energy" \
  "$(grep -c '^agreement: both settings computed the same result: .* (kinetic_energy, L=[34], Re 100) <= 1e-06' "$md") == 1"
check "cavity: linear iterations of both settings" "$(grep -c 'iterations: linear_iterations' "$md") == 1"
check "cavity: CSV derived figures = raw timers (T_tot based)" "$(csv_checks "$out" T_tot) == 2"

# --- DFG: Table 4 from the cavity's summaries with drag and lift added --------------
dfg="$TMP/dfg"
mkdir -p "$dfg/runs"
"$PY" - "$out/runs" "$dfg/runs" <<'EOF'
import json, os, sys
for name in os.listdir(sys.argv[1]):
    d = json.load(open(os.path.join(sys.argv[1], name)))
    g = name.split("_")[1] == "G"
    d["drag_coefficient"] = 5.57953523 * (1 + (2e-9 if g else 0))
    d["lift_coefficient"] = 0.0106189 * (1 - (3e-8 if g else 0))
    json.dump(d, open(os.path.join(sys.argv[2], name), "w"))
EOF
"$PY" "$cmp" "$FEAST_SRC/config/cavity.ini" "${pair[@]}" --levels 3 4 --repeat 1 --out "$dfg" "${small[@]}" \
  --reuse --no-plot >"$TMP/dfg.md" 2>"$TMP/stderr"
check "dfg: the runner re-rendered the saved runs" "$? == 0 and open('$TMP/stderr').read().count('(reused)') == 4"
cat "$TMP/dfg.md"
has "$dfg/compare.md" "| L | R_ass^C | R_lin^C | R_ass^G | R_lin^G | R_acc | S_loc | S_tot | S_max |"
check "dfg: Table 4 chosen by the drag coefficient in the summary" "$? == 0"
check "dfg: drag and lift compared" "$(grep -cE '^\| [34] \| (drag|lift)_coefficient \|' "$dfg/compare.md") == 4"
check "dfg: largest difference is the lift's 3e-8" "$(grep -c '3.0e-08 (lift_coefficient, L=[34])' "$dfg/compare.md") == 1"
"$PY" "$cmp" "$FEAST_SRC/config/cavity.ini" "${pair[@]}" --levels 3 4 --repeat 1 --out "$dfg" "${small[@]}" \
  --reuse --no-plot --table stokes --agree-rtol 1e-9 >"$TMP/dfg2.md" 2>/dev/null
has "$TMP/dfg2.md" "| L | T_lin^C | T_loc^C | T_lin^G | T_loc^G | R_acc | S_max | S_loc | S_tot |"
check "--table stokes overrides the choice" "$? == 0"
check "a difference above --agree-rtol is reported" "$(grep -c '^agreement: the settings DIFFER' "$TMP/dfg2.md") == 1"

# --- repeated runs: each time is the minimum (best) or median over the runs, timer by timer
pk="$TMP/pick"
mkdir -p "$pk/runs"
"$PY" - "$out/runs" "$pk/runs" <<'EOF2'
import json, os, sys
for name in os.listdir(sys.argv[1]):
    d = json.load(open(os.path.join(sys.argv[1], name)))
    json.dump(d, open(os.path.join(sys.argv[2], name), "w"))
    a = d["amdahl"]   # a second run: slower overall, faster local multigrids
    a["T_tot"] += 2; a["T_lin"] += 1; a["T_loc"] *= 0.5
    json.dump(d, open(os.path.join(sys.argv[2], name.replace("_1.json", "_2.json")), "w"))
EOF2
for how in best median; do
  "$PY" "$cmp" "$FEAST_SRC/config/cavity.ini" "${pair[@]}" --levels 3 4 --repeat 2 --pick $how --out "$pk" \
    "${small[@]}" --reuse --no-plot >/dev/null 2>&1
  check "--pick $how: per-timer $how of 2 runs, derived figures consistent" "$("$PY" - "$out/runs" "$pk/compare.csv" $how <<'EOF2'
import csv, json, os, sys
rows = list(csv.DictReader(open(sys.argv[2])))
ok = len(rows) == 2
for r in rows:
    for s in ("C", "G"):
        a = json.load(open(os.path.join(sys.argv[1], f"L{r['L']}_{s}_1.json")))["amdahl"]
        if sys.argv[3] == "best":
            want = {"T_tot": a["T_tot"], "T_lin": a["T_lin"], "T_loc": 0.5 * a["T_loc"]}
        else:
            want = {"T_tot": a["T_tot"] + 1, "T_lin": a["T_lin"] + 0.5, "T_loc": 0.75 * a["T_loc"]}
        ok &= all(abs(float(r[f"{k}_{s}"]) - v) <= 1e-12 * v for k, v in want.items())
    ok &= abs(float(r["R_acc"]) - float(r["T_loc_C"]) / float(r["T_tot_C"])) <= 1e-12
print(ok)
EOF2
)"
done

# --- the default pair (cpu vs gpu) where no GPU can run: a clear error and the remedy --
"$FEASTC" "$FEAST_SRC/config/poisson.ini" grid.level=2 solver.target=gpu output.verbosity=0 >/dev/null 2>&1
if [ $? -eq 5 ]; then
  "$PY" "$cmp" "$FEAST_SRC/config/poisson.ini" --levels 2 --repeat 1 --out "$TMP/gpu" >/dev/null 2>"$TMP/stderr"
  check "no GPU: the runner stops (exit 1)" "$? == 1"
  check "no GPU: the message names the CPU pair" "'solver.local_precision=single' in open('$TMP/stderr').read()"
fi
# --- the default pair on the emulated GPU (feastc_emu: the CUDA backend's code on the
# host, a functional model, not a fast one): the runner's cpu vs gpu path end to end
if [ -x "$FEAST_BIN/feastc_emu" ]; then
  "$PY" "$cmp" "$FEAST_SRC/config/poisson.ini" --feastc "$FEAST_BIN/feastc_emu" --levels 3 --repeat 1 \
    --no-plot --out "$TMP/emu" solver.coarse_max_dofs=100 solver.local_gpu_min_nodes=0 >"$TMP/emu.md" 2>"$TMP/stderr"
  check "emulated gpu: the runner succeeded" "$? == 0"
  check "emulated gpu: G is solver.target=gpu" "$(grep -c '^- C: `solver.target=cpu`, 1 rank; G: `solver.target=gpu`, 1 rank' "$TMP/emu.md") == 1"
  check "emulated gpu: G ran on the gpu target" "'$(json target "$TMP/emu/runs/L3_G_1.json")' == 'gpu'"
  check "emulated gpu: same result" "$(grep -c '^agreement: both settings computed the same result' "$TMP/emu.md") == 1"
fi
finish
