#!/usr/bin/env bash
# ScaRC (feastc, one core) against what a user would otherwise pick, on the very same
# Poisson system exported by feastc itself (levels 7..9 of unitsquare8), in one run:
# UMFPACK (umfpack_dl: symbolic + numeric + solve) and, where bench_boomeramg was built
# (libhypre-dev installed), hypre BoomerAMG (setup + solve to the same relative residual
# 1e-8). ScaRC's time is solver_setup (local hierarchies, coarse LU) + linear_solve; the
# assembly is not counted on any side. Best of REPEAT runs of each (default 3), so other
# load on the machine biases no side.
# usage: bench/poisson_vs_umfpack.sh [BUILD_DIR] [LEVELS...]   (run from the repo root)
set -euo pipefail
build=${1:-build}; shift || true
levels=${*:-7 8 9}
repeat=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
min() { $py -c 'import sys; print(min(float(a) for a in sys.argv[1:]))' "$@"; }
amg=$build/bin/bench_boomeramg
[ -x "$amg" ] || amg=""
echo "| L | unknowns | ScaRC iterations | ScaRC setup (s) | ScaRC solve (s) | ScaRC total (s) | ns per unknown per iteration | UMFPACK (s) | BoomerAMG iterations | BoomerAMG (s) | UMFPACK / ScaRC | BoomerAMG / ScaRC |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for L in $levels; do
  "$build/bin/feastc" config/poisson.ini grid.level="$L" output.verbosity=0 \
    output.summary="$tmp/s.json" output.matrix_market="$tmp/A.mtx" >/dev/null
  tset=() tsol=() ttot=() tu=() ta=()
  ait="-"
  for _ in $(seq "$repeat"); do
    "$build/bin/feastc" config/poisson.ini grid.level="$L" output.verbosity=0 output.summary="$tmp/s.json" >/dev/null
    read -r n it s1 s2 < <($py -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["timings"]
print(d["dofs"], d["global_mg_iterations"], t["solver_setup"], t["linear_solve"])' "$tmp/s.json")
    tset+=("$s1") tsol+=("$s2") ttot+=("$($py -c "print($s1 + $s2)")")
    tu+=("$("$build/bin/bench_umfpack" "$tmp/A.mtx" "$tmp/A_rhs.mtx" | sed -n 's/.*total=\([0-9.]*\).*/\1/p')")
    if [ -n "$amg" ]; then
      out=$("$amg" "$tmp/A.mtx" "$tmp/A_rhs.mtx")
      ta+=("$(sed -n 's/.*total=\([0-9.]*\).*/\1/p' <<<"$out")")
      ait=$(sed -n 's/.*iterations=\([0-9]*\).*/\1/p' <<<"$out")
    fi
  done
  $py -c "import sys
L,n,it,tset,tsol,ttot,tu,ait,ta=sys.argv[1:]; n=int(n); it=int(it)
tset,tsol,ttot,tu=map(float,(tset,tsol,ttot,tu))
amg = f'{float(ta):.3f}' if ta != '-' else '-'
ratio = f'{float(ta)/ttot:.1f}' if ta != '-' else '-'
print(f'| {L} | {n:,} | {it} | {tset:.3f} | {tsol:.3f} | {ttot:.3f} | {tsol/n/it*1e9:.1f} | {tu:.3f} | {ait} | {amg} | {tu/ttot:.1f} | {ratio} |')" \
    "$L" "$n" "$it" "$(min "${tset[@]}")" "$(min "${tsol[@]}")" "$(min "${ttot[@]}")" "$(min "${tu[@]}")" "$ait" \
    "$([ -n "$amg" ] && min "${ta[@]}" || echo -)"
done
