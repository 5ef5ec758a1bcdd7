#!/usr/bin/env bash
# ScaRC (feastc, one core) against UMFPACK (umfpack_dl) on the very same Poisson system,
# exported by feastc itself, levels 7..9 of unitsquare8, in one run; best of REPEAT runs
# of each (default 3), so other load on the machine biases neither side.
# usage: bench/poisson_vs_umfpack.sh [BUILD_DIR] [LEVELS...]   (run from the repo root)
set -euo pipefail
build=${1:-build}; shift || true
levels=${*:-7 8 9}
repeat=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
min() { /usr/bin/python3 -c 'import sys; print(min(float(a) for a in sys.argv[1:]))' "$@"; }
printf "%-3s %9s %6s %10s %12s %14s %11s %8s\n" L unknowns iters scarc_s umfpack_s time/unk/it_ns l2_error speedup
for L in $levels; do
  "$build/bin/feastc" config/poisson.ini grid.level="$L" output.verbosity=0 \
    output.summary="$tmp/s.json" output.matrix_market="$tmp/A.mtx" >/dev/null
  ts=() tu=()
  for _ in $(seq "$repeat"); do
    "$build/bin/feastc" config/poisson.ini grid.level="$L" output.verbosity=0 output.summary="$tmp/s.json" >/dev/null
    read -r n it t err < <(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["dofs"], d["global_mg_iterations"], d["timings"]["linear_solve"], d["l2_error"])' "$tmp/s.json")
    ts+=("$t")
    tu+=("$("$build/bin/bench_umfpack" "$tmp/A.mtx" "$tmp/A_rhs.mtx" | sed -n 's/.*total=\([0-9.]*\).*/\1/p')")
  done
  /usr/bin/python3 -c "import sys
L,n,it,ts,tu,err=sys.argv[1:]; n=int(n); it=int(it); ts=float(ts); tu=float(tu)
print('%-3s %9d %6d %10.3f %12.3f %14.1f %11.3e %8.1f' % (L, n, it, ts, tu, ts/n/it*1e9, float(err), tu/ts))" \
    "$L" "$n" "$it" "$(min "${ts[@]}")" "$(min "${tu[@]}")" "$err"
done
