#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# The DFG benchmark 2D-1 (config/dfg.ini) on levels L..: drag and lift coefficients,
# pressure difference with their errors against the reference values (Nabh 1998 /
# FEATFLOW: c_D = 5.57953523384, c_L = 0.010618948146, delta p = 0.11752016697), the
# recirculation length (Schaefer & Turek 1996 give the interval [0.0842, 0.0852]),
# nonlinear steps, BiCGStab iterations and the time per phase (the FEAST paper's Table 4
# quantities: assembly and linear solver with their shares R_ass, R_lin of the run), as a
# Markdown table (for docs/benchmarks.md and docs/notes/dfg-stationary.md).
#   bench/dfg.sh BUILD_DIR [NP] [LEVELS...] [-- extra overrides]   (default: 1 rank, 3 4 5 6 7)
# Example: bench/dfg.sh build 1 3 4 5 6 7
# DFG_CONFIG=config/dfg_re100.ini bench/dfg.sh build 1 3 4 5 runs another config (its
# quantities without the 2D-1 errors).
set -euo pipefail
build=${1:?usage: bench/dfg.sh BUILD_DIR [NP] [LEVELS...] [-- key=value ...]}
shift
np=${1:-1}
[ $# -gt 0 ] && shift
levels=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do levels+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#levels[@]} -gt 0 ] || levels=(3 4 5 6 7)
src=$(cd "$(dirname "$0")/.." && pwd)
config=${DFG_CONFIG:-$src/config/dfg.ini}
feastc=$(cd "$build" && pwd)/bin/feastc
out=$(mktemp -d /tmp/feastc_dfg.XXXXXX)
echo "# $(date -u +%F) $(uname -n) $(nproc) cores, feastc $(git -C "$src" rev-parse --short HEAD), np $np" >&2
for L in "${levels[@]}"; do
  echo "# L=$L ..." >&2
  if [ "$np" -gt 1 ]; then
    mpiexec --oversubscribe --bind-to none -np "$np" "$feastc" "$config" grid.level="$L" \
      output.summary="$out/L$L.json" output.verbosity=0 "$@" || true
  else
    "$feastc" "$config" grid.level="$L" output.summary="$out/L$L.json" output.verbosity=0 "$@" || true
  fi
done
echo "# $config" >&2
two_d_one=0
[ "$(cd "$(dirname "$config")" && pwd)/$(basename "$config")" = "$src/config/dfg.ini" ] && two_d_one=1
/usr/bin/python3 - "$out" "$two_d_one" "${levels[@]}" <<'EOF'
import json, sys
out, two_d_one, levels = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
ref = {"drag_coefficient": 5.57953523384, "lift_coefficient": 0.010618948146,
       "pressure_difference": 0.11752016697}
print("| L | nodes | dofs | c_D | err c_D | c_L | err c_L | delta p | err delta p | L_a "
      "| nonlinear steps | Krylov its | total (s) | assembly (s, R_ass) | solver setup (s) "
      "| linear solve (s, R_lin) | local MG (s) |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for L in levels:
    try:
        s = json.load(open("%s/L%s.json" % (out, L)))
    except OSError:
        print("| %s | (no summary) |" % L)
        continue
    row = ["%s" % L, "{:,}".format(int(s["nodes"])), "{:,}".format(int(s["dofs"]))]
    for k in ("drag_coefficient", "lift_coefficient", "pressure_difference"):
        v = s.get(k)
        err = "%+.4f %%" % (100 * (v - ref[k]) / ref[k]) if v is not None and two_d_one else "-"
        row += ["%.8f" % v if v is not None else "-", err]
    la = s.get("recirculation_length")
    row += ["%.5f" % la if la is not None else "-"]
    steps = "%d%s" % (s["nonlinear_iterations"], "" if s["converged"] else " (not converged: %s)" % s["reason"])
    t = s["timings"]
    share = lambda k: "%.1f (%.0f %%)" % (t.get(k, 0), 100 * t.get(k, 0) / t["total"])
    row += [steps, "%d" % s["linear_iterations"], "%.1f" % t["total"], share("assembly"),
            "%.1f" % t.get("solver_setup", 0), share("linear_solve"), "%.1f" % t.get("local_mg", 0)]
    print("| " + " | ".join(row) + " |")
EOF
rm -rf "$out"
