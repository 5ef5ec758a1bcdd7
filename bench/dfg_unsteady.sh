#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# The time-dependent DFG benchmark 2D-3 (config/dfg2d3.ini: Re(t) up to 100 and back,
# t in [0, 8]) at given levels and time steps: one run per (level, dt), and a Markdown
# table (for docs/benchmarks.md and docs/notes/time-dependent.md) with the time steps, wall time (s and s per step), nonlinear steps
# and Krylov iterations per time step, and c_D,max, c_L,max (with their times) and
# delta p(8) = pressure_difference_final with the relative errors against John's (2004)
# reference values: c_D,max 2.950921575 at t = 3.93625, c_L,max 0.47795 at t = 5.693125,
# delta p(8) = -0.1116.
#   bench/dfg_unsteady.sh BUILD_DIR [NP] LEVELS... -- DTS... [-- key=value ...]
# Example: bench/dfg_unsteady.sh build 1 3 4 -- 0.01 0.005
# A short smoke run (not the benchmark: the extrema are then those of the window):
#   bench/dfg_unsteady.sh build 1 2 -- 0.05 -- time.end=1
# DFG_CONFIG=config/other.ini runs another config with the same outputs.
set -euo pipefail
usage="usage: bench/dfg_unsteady.sh BUILD_DIR [NP] LEVELS... -- DTS... [-- key=value ...]"
build=${1:?$usage}
shift
np=${1:?$usage}
shift
levels=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do levels+=("$1"); shift; done
[ $# -gt 0 ] && shift
dts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do dts+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#levels[@]} -gt 0 ] && [ ${#dts[@]} -gt 0 ] || { echo "$usage" >&2; exit 1; }
src=$(cd "$(dirname "$0")/.." && pwd)
config=${DFG_CONFIG:-$src/config/dfg2d3.ini}
feastc=$(cd "$build" && pwd)/bin/feastc
out=$(mktemp -d /tmp/feastc_dfg_unsteady.XXXXXX)
echo "# $(date -u +%F) $(uname -n) $(nproc) cores, feastc $(git -C "$src" rev-parse --short HEAD), np $np, $config $*" >&2
runs=()
for L in "${levels[@]}"; do
  for dt in "${dts[@]}"; do
    name="L${L}_dt$dt"
    echo "# L=$L dt=$dt ... (time series in $out/$name.csv)" >&2
    start=$(date +%s.%N)
    launch=("$feastc")
    [ "$np" -gt 1 ] && launch=(mpiexec --oversubscribe --bind-to none -np "$np" "$feastc")
    "${launch[@]}" "$config" grid.level="$L" time.dt="$dt" output.summary="$out/$name.json" \
      output.timeseries="$out/$name.csv" output.verbosity=0 "$@" || echo "# L=$L dt=$dt: exit $?" >&2
    awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { print a - b }' >"$out/$name.wall"
    runs+=("$name")
  done
done
/usr/bin/python3 - "$out" "${runs[@]}" <<'EOF'
import json, sys
out, runs = sys.argv[1], sys.argv[2:]
ref = {"drag_coefficient_max": 2.950921575, "lift_coefficient_max": 0.47795,
       "pressure_difference_final": -0.1116}
print("| L | dofs | dt | steps | wall (s) | s/step | nonlinear/step | Krylov/step "
      "| c_D,max (t) | err | c_L,max (t) | err | delta p(end) | err |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name in runs:
    L, dt = name[1:].split("_dt")
    try:
        s = json.load(open(f"{out}/{name}.json"))
    except (OSError, ValueError):
        print(f"| {L} | (no summary) | {dt} |")
        continue
    wall = float(open(f"{out}/{name}.wall").read())
    n = max(int(s.get("time_steps", 0)), 1)
    row = [L, "{:,}".format(int(s["dofs"])), dt, str(s.get("time_steps", 0)), f"{wall:.1f}", f"{wall / n:.3f}",
           f"{s['nonlinear_iterations'] / n:.2f}", f"{s['linear_iterations'] / n:.1f}"]
    for k in ("drag_coefficient_max", "lift_coefficient_max", "pressure_difference_final"):
        v = s.get(k)
        if v is None:
            row += ["-", "-"]
            continue
        t = s.get(k + "_time")
        row += [f"{v:.6f}" + (f" ({t:.4f})" if t is not None else ""), f"{100 * (v - ref[k]) / abs(ref[k]):+.3f} %"]
    if not s.get("converged", False):
        row[3] += f" ({s.get('reason', '?')} at t = {s.get('time', '?')})"
    print("| " + " | ".join(row) + " |")
EOF
echo "# outputs (summaries, time series) in $out" >&2
