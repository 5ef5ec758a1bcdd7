#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# Assembly and ScaRC setup against the memory bandwidth (issue #12): Poisson on
# grids/unitsquare8 at level L (one core, config/poisson.ini, flexible CG), next to a
# STREAM copy measured in the same run (bench_band9 copy, before every feastc run), and
# optionally the Navier-Stokes cavity, whose every nonlinear step refreshes the solver.
# Several feastc binaries (e.g. a kept copy of an old build and the new one) alternate
# run by run, so that they see the same load. One line per run:
#   ns/unknown  = phase time / unknowns
#   bytes       = bytes the phase's passes move, per unknown (the model below)
#   limit       = bytes / STREAM copy bandwidth: the phase at memory speed
#   first touch = the part of the phase the kernel spent backing fresh memory (the
#     run's "T.first_touch" timers, feast_prefault), with its MB. In this VM the host
#     takes back free memory a few seconds after it was freed (free page reporting), so
#     a run after a pause pays ~1.5 ms per MB there, a run right after another ~0.05;
#     "work" columns are the phase without it
# Byte model (72 B = one 9-band row in double, per node of one macro):
#   assembly: the raw matrix written and the coordinates read for it and for the
#     right-hand side (72 + 2 x 16 + 8 B per macro node). The assembly timer holds the
#     right-hand side too since 2026-11-25 (before, the matrix only: the right-hand side,
#     then 0.14 s at L = 8, was in no timer); its sines are compute, not in the model;
#   setup: the passes of the setup, each reading its input and writing its output once:
#     for every level above the global coarse one the Galerkin product of its raw matrix
#     (made consistent in place afterwards; the ring rows are negligible) and its local
#     hierarchy Ac_l -> ... -> level lc, whose levels compute only their frames (the
#     insides are the global levels'; modelled as 16 N nodes read and written per
#     product). The finest matrix is assembled into the solver's storage
#     (scarc_operator_storage), so no copy of it. The coarse LU, the page faults of
#     fresh memory and the interface sums are not in the model. (Older setups moved
#     more: full local Galerkin levels with copied insides until 2026-11-25 evening, a
#     copy of the finest matrix into the solver until 2026-11-25 morning, before that a
#     second full copy per level and backend copies.)
# usage: bench/setup.sh [L] [REPEAT] FEASTC... (from the repo root; bench_band9 from the
#   folder of the first FEASTC)   e.g. bench/setup.sh 8 4 /tmp/feastc_old build/bin/feastc
#   CAVITY_LEVEL=7 adds the cavity (Re 100) after each Poisson round: solver setup per
#   nonlinear step (the first setup included) against the same copy bandwidth.
#   CPU=1 runs everything on that CPU (taskset; why: bench/peers.sh).
#   COLD=30 sleeps that many seconds before every feastc run: every run cold (above).
set -euo pipefail
L=${1:-8}
repeat=${2:-3}
shift 2 || true
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/bin/feastc)
band9="$(dirname "${bins[0]}")/bench_band9"
pin=()
[ -z "${CPU:-}" ] || pin=(taskset -c "$CPU")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| run | binary | copy GB/s | assembly s | first touch s (MB) | ns/unknown | work ns/unknown | limit s | setup s | first touch s (MB) | ns/unknown | work ns/unknown | bytes/unknown | limit s | work / limit | solve s | first touch s (MB) | setup / solve | work / work | iterations |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in $(seq "$repeat"); do
  for b in "${bins[@]}"; do
    [ -z "${COLD:-}" ] || sleep "$COLD"
    gbs=$("${pin[@]}" "$band9" copy | sed 's/.*: \([0-9.]*\) GB\/s/\1/')
    "${pin[@]}" "$b" config/poisson.ini grid.level="$L" solver.scarc_solver=cg output.verbosity=0 \
      output.summary="$tmp/p.json" >/dev/null
    /usr/bin/python3 - "$tmp/p.json" "$r" "$b" "$gbs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["timings"]; gbs = float(sys.argv[4]) * 1e9
L, c, M, n = d["level"], d["coarse_level"], d["macros"], d["dofs"]
nodes = lambda l: M * ((1 << l) + 1) ** 2           # macro nodes of level l
lc = 3                                               # local coarse level (<= 200 nodes)
row = 72
frame = lambda l: M * 16 * ((1 << l) + 1)           # nodes a frame product moves on level l
def chain(top):                                      # frame products top -> lc: read + write
    return sum(frame(k) + frame(k - 1) for k in range(top, lc, -1))
setup = 0
for l in range(L, c, -1):
    setup += nodes(l) + nodes(l - 1) + chain(l)
setup *= row
ass = (row + 2 * 16 + 8) * nodes(L)
a, s, lin = t["assembly"], t["solver_setup"], t["linear_solve"]
ft, mb = d["amdahl"]["first_touch"], d["amdahl"]["first_touch_mb"]
fa, fs, fl = ft["T_ass"], ft["T_setup"], ft["T_lin"]
touch = lambda f, T: f"{f:.3f} ({mb[T]:.0f})"
print(f"| {sys.argv[2]} | {sys.argv[3]} | {gbs / 1e9:.1f} | {a:.3f} | {touch(fa, 'T_ass')} | {1e9 * a / n:.0f} | "
      f"{1e9 * (a - fa) / n:.0f} | {ass / gbs:.4f} | {s:.3f} | {touch(fs, 'T_setup')} | {1e9 * s / n:.0f} | "
      f"{1e9 * (s - fs) / n:.0f} | {setup / n:.0f} | {setup / gbs:.4f} | {(s - fs) / (setup / gbs):.0f} | "
      f"{lin:.3f} | {touch(fl, 'T_lin')} | {s / lin:.2f} | {(s - fs) / (lin - fl):.2f} | {d['global_mg_iterations']} |")
PY
    if [ -n "${CAVITY_LEVEL:-}" ]; then
      "${pin[@]}" "$b" config/cavity.ini grid.level="$CAVITY_LEVEL" output.verbosity=0 output.summary="$tmp/c.json" >/dev/null
      /usr/bin/python3 - "$tmp/c.json" "$b" "$gbs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); t = d["timings"]; steps = d["nonlinear_iterations"]  # one solver setup per step, the first builds
print(f"|  | cavity L{d['level']} {sys.argv[2]}: {steps} setups, solver setup {t['solver_setup']:.3f} s = "
      f"{1e3 * t['solver_setup'] / steps:.1f} ms per step, assembly {1e3 * t['assembly'] / steps:.1f} ms per step, "
      f"linear solve {t['linear_solve']:.3f} s, {d['linear_iterations']} linear its |||||||||||||")
PY
    fi
  done
done
