#!/usr/bin/env bash
# solver.local_gpu_min_nodes measured on a lent device (docs/notes/gpu-and-amdahl.md, "GPU: the first
# device run"): bench_local_mg_gpu at L = 3..6 (small batches: launch latency against the
# host core), then cavity L7, DFG 2D-1 L6 and 2D-3 L5 (to t = 0.2) on the CPU and with
# target = gpu at min nodes 0, 17, 33, 65, then DFG 2D-1 L5 on the GPU at 1 and 2 ranks.
# From the repo root on the device with .devdebs and .devtools carried (bench/device_debs.sh);
# ~160 s on an H200. Results to /tmp/mn and $OUT/mn.tgz. SKIPBUILD=1 B=DIR: use the
# binaries in DIR (e.g. a rehearsal with the emulator build's names changed).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -n "${SKIPBUILD:-}" ] || rm -rf /tmp/bg; rm -rf /tmp/mn && mkdir -p /tmp/mn/json
[ -n "${SKIPBUILD:-}" ] || . bench/device_env.sh || exit 9
[ -n "${SKIPBUILD:-}" ] || (cmake -S . -B /tmp/bg -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/tmp/mn/cmake.log 2>&1 && cmake --build /tmp/bg -j16 --target feastc bench_local_mg_gpu >/tmp/mn/build.log 2>&1) || { tail -20 /tmp/mn/build.log; exit 8; }
B=${B:-/tmp/bg/bin}
timeout 60 $B/bench_local_mg_gpu 3 6 20 20 | tee /tmp/mn/bench_3_6.md
run() { # tag cfg L keys...
  local tag=$1 cfg=$2 L=$3; shift 3
  /usr/bin/time -f "$tag %e s" timeout 90 $B/feastc config/$cfg.ini grid.level=$L output.verbosity=0 output.summary=/tmp/mn/json/$tag.json "$@" 2>&1 | tail -1
}
for c in "cavity 7" "dfg 6" "dfg2d3 5 time.end=0.2 output.series_from=0"; do
  set -- $c; cfg=$1; L=$2; shift 2
  run ${cfg}_cpu $cfg $L "$@"
  for mn in 0 17 33 65; do run ${cfg}_gpu_mn$mn ${cfg}_gpu $L solver.local_gpu_min_nodes=$mn "$@"; done
done
for n in 1 2; do timeout 60 mpirun --oversubscribe -np $n $B/feastc config/dfg_gpu.ini grid.level=5 output.verbosity=0 output.summary=/tmp/mn/json/dfg_np$n.json >/tmp/mn/np$n.log 2>&1; done
grep -h '"drag_coefficient"' /tmp/mn/json/dfg_np*.json
python3 - <<'PY'
import json, glob, os
for f in sorted(glob.glob('/tmp/mn/json/*.json')):
    d = json.load(open(f)); a = d.get('amdahl', {})
    print(os.path.basename(f), d.get('nonlinear_iterations'), d.get('linear_iterations'), d.get('drag_coefficient', d.get('kinetic_energy')),
          'T_loc %.3f T_lin %.3f T_tot %.3f' % (a.get('T_loc', 0), a.get('T_lin', 0), a.get('T_tot', 0)))
PY
mkdir -p "${OUT:-/tmp/mn_out}"; tar czf "${OUT:-/tmp/mn_out}/mn.tgz" -C /tmp mn
