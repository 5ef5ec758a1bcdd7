#!/usr/bin/env bash
# 3D Poisson on one hexahedral macro (issue #47): feastc's hexahedral multigrid
# (bench_poisson3d: CG with one V(2,2) cycle of coproc/hex_mg, in PRECISION: single as
# the default local_precision auto, or double) against CG preconditioned
# by hypre's BoomerAMG (bench/amg/bench_boomeramg.c: HMIS, extended+i interpolation with
# at most 4 elements per row, l1-scaled symmetric Gauss-Seidel) on the very same system,
# exported by bench_poisson3d, all to the relative residual 1e-8 from zero, one core.
# BoomerAMG runs with every setting in AMG (strength threshold and levels of aggressive
# coarsening; default the 2D threshold 0.25 and the 3D ones 0.5 and 0.7 of the hypre
# manual and its users, each with 0 and 1 aggressive levels) and the fastest counts, as
# an expert would tune it. Setup and solve are reported and summed; the assembly of
# feastc is printed beside them and not counted on either side (bench/peers.sh does the
# same in 2D). Best of REPEAT (default 2), the two in turn.
# MESH=FILE: a mesh of hexahedral macros instead (tools/make_box_mesh.py), solved by
# two-layer ScaRC (bench_scarc3d: CG with a V(1,1) cycle, local multigrids in PRECISION).
# usage: bench/peers3d.sh [BUILD_DIR] [LEVELS...]   (run from the repo root; CPU=1 pins)
set -euo pipefail
build=${1:-build}; shift || true
levels=${*:-6 7}
repeat=${REPEAT:-2}
precision=${PRECISION:-single}
read -r -a amg_settings <<<"${AMG:-0.25:0 0.25:1 0.5:0 0.5:1 0.7:0 0.7:1}"
pin=(taskset -c "${CPU:-1}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
amg=$build/bin/bench_boomeramg
[ -x "$amg" ] || { echo "peers3d: $amg not built (libhypre-dev)" >&2; exit 1; }
field() { sed -n "s/.* $1=\([0-9.e+-]*\).*/\1/p" <<<"$2"; }
best() { sort -g | head -1; }
echo "# $(date -u +%F\ %H:%M) UTC $(uname -n), feastc $(git rev-parse --short HEAD), local multigrids in $precision, best of $repeat, CPU ${CPU:-1}"
echo "| L | unknowns | feastc assembly s | feastc its | feastc setup s | feastc solve s | feastc setup+solve s | AMG-PCG setting | AMG-PCG its | AMG-PCG setup s | AMG-PCG solve s | AMG-PCG setup+solve s | AMG-PCG / feastc |"
echo "|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
if [ -n "${MESH:-}" ]; then
  feastc=("$build/bin/bench_scarc3d" "$MESH"); opts=(--precision "$precision"); row="ScaRC-CG"
else
  feastc=("$build/bin/bench_poisson3d"); opts=(); row="MG-PCG, V(2,2), $precision"
fi
echo "# mesh: ${MESH:-one macro, the unit cube}"
for L in $levels; do
  "${feastc[@]}" "$L" "${opts[@]}" --mtx "$tmp/A" >/dev/null
  : >"$tmp/f"; : >"$tmp/a"
  for r in $(seq "$repeat"); do
    # the MG-PCG row: | L | n | solver | assembly | setup | solve | sum | its | relres | l2 |
    "${pin[@]}" "${feastc[@]}" "$L" "${opts[@]}" | grep "$row" | awk -F'|' '{print $8, $2, $3, $5, $6, $7, $9}' >>"$tmp/f"
    for s in "${amg_settings[@]}"; do
      out=$("${pin[@]}" "$amg" "$tmp/A.mtx" "$tmp/A_rhs.mtx" "${s%:*}" "${s#*:}") || { echo "# AMG $s: $out" >&2; continue; }
      echo "$(field total "$out") $s $(field iterations "$out") $(field setup "$out") $(field solve "$out")" >>"$tmp/a"
    done
  done
  read -r ft fL fn fa fs fv fi <<<"$(sort -g "$tmp/f" | head -1)"
  read -r at as ai asu asv <<<"$(sort -g "$tmp/a" | head -1)"
  ratio=$(awk -v a="$at" -v f="$ft" 'BEGIN{printf "%.2f", a / f}')
  echo "| $L | $fn | $fa | $fi | $fs | $fv | $ft | threshold ${as%:*}, aggressive ${as#*:} | $ai | $asu | $asv | $at | **$ratio** |"
done
