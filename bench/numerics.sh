#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# Solver numerics by time to solution (issue #12, item 3): one problem solved with
# several solver settings, the settings alternating run by run so that they share the
# load, REPEAT rounds; per setting the median over the rounds of solver setup, linear
# solve and their sum (assembly is the same for every setting and left out), with the
# iterations and the final residual (every setting solves to the config's tolerance).
# usage: bench/numerics.sh CONFIG REPEAT 'NAME:KEY=VALUE ...' ... [-- KEY=VALUE ...]
#   the keys after -- apply to every run, e.g.
#   bench/numerics.sh config/poisson.ini 3 'default:' 'V(2,2):solver.local_pre_smooth=2 solver.local_post_smooth=2' \
#     -- grid.level=8 solver.scarc_solver=cg
#   FEASTC (default build/bin/feastc) names the binary.
set -euo pipefail
config=$1
repeat=$2
shift 2
settings=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  settings+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
common=("$@")
feastc=${FEASTC:-build/bin/feastc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$repeat"); do
  for k in "${!settings[@]}"; do
    name=${settings[$k]%%:*}
    read -r -a keys <<<"${settings[$k]#*:}"
    "$feastc" "$config" "${common[@]}" "${keys[@]}" output.verbosity=0 output.summary="$tmp/s.json" >/dev/null
    /usr/bin/python3 - "$tmp/s.json" "$name" >>"$tmp/runs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["timings"]
its = d.get("linear_iterations", d.get("global_mg_iterations", ""))   # Krylov its (NS), else ScaRC's
res = d.get("nonlinear_residual", d.get("final_residual", ""))
print(sys.argv[2], t["solver_setup"], t["linear_solve"], its, res, d.get("nonlinear_iterations", ""), sep="\t")
PY
  done
done
/usr/bin/python3 - "$tmp/runs" "${settings[@]}" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
names = [s.split(":", 1)[0] for s in sys.argv[2:]]
print("| setting | setup s | solve s | setup + solve s | setup / solve | iterations | final residual | steps |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for n in names:
    r = [x for x in rows if x[0] == n]
    med = lambda i: statistics.median(float(x[i]) for x in r)
    tot = statistics.median(float(x[1]) + float(x[2]) for x in r)
    s, l = med(1), med(2)
    res = r[0][4]
    res = f"{float(res):.2e}" if res else ""
    print(f"| {n} | {s:.3f} | {l:.3f} | {tot:.3f} | {s / l:.2f} | {r[0][3]} | {res} | {r[0][5]} |")
PY
