#!/usr/bin/env bash
# MPI ranks that share a core yield instead of spinning (a busy machine, oversubscription)
export OMPI_MCA_mpi_yield_when_idle=1
# ScaRC (feastc, one core) against what a user would otherwise pick, on the very same
# Poisson system exported by feastc itself, in one run: UMFPACK (umfpack_dl) and, where
# bench_boomeramg was built (libhypre-dev installed), CG preconditioned by hypre's
# BoomerAMG with the settings an expert uses for 2D Poisson (HMIS, extended+i
# interpolation with at most 4 elements per row, l1-scaled symmetric Gauss-Seidel; see
# bench/amg/bench_boomeramg.c), all to the relative residual 1e-8 from zero.
# Setup and solve are reported separately and summed:
#   ScaRC    setup = solver_setup (local hierarchies, backend copies, coarse LU),
#            solve = linear_solve; the assembly is not counted on any side;
#   UMFPACK  setup = symbolic + numeric factorisation, solve = the triangular solves;
#   AMG-PCG  setup = BoomerAMG setup, solve = PCG iterations.
# The three run in turn on every repeat (alternating, so drifting load on the machine
# biases no side), best of REPEAT (default 3). One BLAS thread per process (one core).
# usage: bench/peers.sh [BUILD_DIR] [LEVELS...]   (run from the repo root)
#   GRIDS="unitsquare8 dfg24" (default), SCARC="solver.scarc_solver=cg" (ScaRC overrides),
#   UMFPACK=off leaves UMFPACK out (its factorisation at dfg24 L = 9, 6.3 M unknowns, runs
#   for many minutes on one core), CPU=1 runs every process on that CPU (taskset): in
#   this project's VMs memory freed by a process is still backed by the host only on the
#   CPU that freed it (the kernel's per-CPU free lists; free memory elsewhere is handed
#   back to the host and faults in at about 5 ms per 2 MiB), so pinned runs pay the page
#   faults bare metal would (see docs/notes/scarc-poisson.md, "First-touch stalls, explained")
set -euo pipefail
build=${1:-build}; shift || true
levels=${*:-7 8 9}
repeat=${REPEAT:-3}
grids=${GRIDS:-unitsquare8 dfg24}
umfpack=${UMFPACK:-on}
read -r -a scarc <<<"${SCARC:-solver.scarc_solver=cg}"
pin=()
[ -z "${CPU:-}" ] || pin=(taskset -c "$CPU")
export OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
amg=$build/bin/bench_boomeramg
[ -x "$amg" ] || amg=""
# field NAME LINE: the value of NAME=value in a bench_* output line
field() { sed -n "s/.* $1=\([0-9.e+-]*\).*/\1/p" <<<"$2"; }
echo "# $(date -u +%F) $(uname -n), feastc $(git rev-parse --short HEAD), ScaRC: ${scarc[*]}, best of $repeat, CPU ${CPU:-any}" >&2
echo "| grid | L | unknowns | ScaRC its | ScaRC setup | ScaRC solve | ScaRC total | UMFPACK setup | UMFPACK solve | UMFPACK total | AMG-PCG its | AMG-PCG setup | AMG-PCG solve | AMG-PCG total | UMFPACK / ScaRC | AMG-PCG / ScaRC |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for g in $grids; do
  for L in $levels; do
    run=(config/poisson.ini grid.file="grids/$g.feast" grid.level="$L" output.verbosity=0 "${scarc[@]}")
    "$build/bin/feastc" "${run[@]}" output.summary="$tmp/s.json" output.matrix_market="$tmp/A.mtx" >/dev/null
    : >"$tmp/runs"
    for r in $(seq "$repeat"); do
      echo "# $g L=$L run $r/$repeat" >&2
      "${pin[@]}" "$build/bin/feastc" "${run[@]}" output.summary="$tmp/s.json" >/dev/null
      $py -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["timings"]
print("scarc", d["dofs"], d["global_mg_iterations"], t["solver_setup"], t["linear_solve"])' "$tmp/s.json" >>"$tmp/runs"
      if [ "$umfpack" != off ]; then
        out=$("${pin[@]}" "$build/bin/bench_umfpack" "$tmp/A.mtx" "$tmp/A_rhs.mtx")
        echo "umfpack $(field symbolic "$out") $(field numeric "$out") $(field solve "$out")" >>"$tmp/runs"
      fi
      if [ -n "$amg" ]; then
        out=$("${pin[@]}" "$amg" "$tmp/A.mtx" "$tmp/A_rhs.mtx") || echo "# AMG-PCG did not converge: $out" >&2
        echo "amg $(field iterations "$out") $(field setup "$out") $(field solve "$out")" >>"$tmp/runs"
      fi
    done
    $py - "$tmp/runs" "$g" "$L" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
def best(kind, setup, solve):
    runs = [(float(setup(r)), float(solve(r))) for r in rows if r[0] == kind]
    return min(runs, key=sum) if runs else None
sc = best("scarc", lambda r: r[3], lambda r: r[4])
um = best("umfpack", lambda r: float(r[1]) + float(r[2]), lambda r: r[3])
am = best("amg", lambda r: r[2], lambda r: r[3])
n, its = [r for r in rows if r[0] == "scarc"][0][1:3]
amg_its = [r for r in rows if r[0] == "amg"][0][1] if am else "-"
cells = lambda t: [f"{t[0]:.3f}", f"{t[1]:.3f}", f"{sum(t):.3f}"] if t else ["-"] * 3
ratio = lambda t: f"{sum(t) / sum(sc):.2f}" if t else "-"
print("| " + " | ".join([sys.argv[2], sys.argv[3], f"{int(n):,}", its] + cells(sc) + cells(um) + [amg_its] +
                         cells(am) + [ratio(um), ratio(am)]) + " |")
EOF
  done
done
