#!/usr/bin/env bash
# Valgrind memcheck: a tree of its own (<build>/valgrind, Debug, no -march=native, feastc
# only) runs one small Poisson solve, one small cavity and one bad input under valgrind;
# zero errors allowed. Valgrind uses Open MPI's suppression file plus leak suppressions
# for everything allocated under MPI_Init / MPI_Finalize. ~1 min on 2 cores.
. "$(dirname "$0")/lib.sh"
src=${FEAST_SRC:?}
root=${FEAST_BIN:-$PWD/bin}/..
root=$(cd "$root" && pwd)
vg=$root/valgrind
jobs=${FEAST_SANITIZE_JOBS:-2}
CFG=$src/config/poisson.ini
# ---- valgrind memcheck on the plain (uninstrumented, no -march=native) build ----
if command -v valgrind >/dev/null; then
  stamp "configure + build $vg (Debug, feastc only)"
  { cmake -S "$src" -B "$vg" -DCMAKE_BUILD_TYPE=Debug -DFEAST_ENABLE_CUDA=OFF -DBUILD_TESTING=OFF &&
    cmake --build "$vg" -j"$jobs" --target feastc; } >"$TMP/vg_build.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || tail -30 "$TMP/vg_build.log"
  check "valgrind build (rc $rc)" "$rc == 0"
  cat >"$TMP/vg.supp" <<'SUPP'
{
   openmpi_init_leaks
   Memcheck:Leak
   ...
   fun:ompi_mpi_init
}
{
   openmpi_finalize_leaks
   Memcheck:Leak
   ...
   fun:ompi_mpi_finalize
}
SUPP
  vgopts=(--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite
          --track-origins=yes --num-callers=50 --suppressions=/usr/share/openmpi/openmpi-valgrind.supp
          --suppressions="$TMP/vg.supp")
  for spec in "ok|0|$CFG grid.level=4 solver.coarse_max_dofs=100 output.summary=$TMP/vg.json" \
              "ns|0|$src/config/cavity.ini grid.level=3 solver.coarse_max_dofs=100 nonlinear.rtol=1e-4" \
              "bad|1|$src/tests/data/bad/cfg_unknown_key.ini"; do
    IFS='|' read -r label want args <<<"$spec"
    # shellcheck disable=SC2086
    (cd "$TMP" && timeout 300 valgrind "${vgopts[@]}" "$vg/bin/feastc" $args) </dev/null >"$TMP/vg.log" 2>&1
    rc=$?
    errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$TMP/vg.log" | tail -1)
    stamp "valgrind $label: exit $rc, ${errs:-?} errors"
    [ "$rc" -eq "$want" ] || grep -E '==[0-9]+==' "$TMP/vg.log" | head -60
    check "valgrind memcheck $label run: exit $want (got $rc), 0 errors (got ${errs:-?})" "$rc == $want and '${errs:-x}' == '0'"
  done
else
  check "valgrind installed (tools/deps.sh)" "False"
fi
stamp "done"
finish
