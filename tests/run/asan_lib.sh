# Shared by the sanitizer tests (sourced after lib.sh): the ASan/UBSan tree that
# test_asan_build.sh builds (<build>/asan: -DFEAST_SANITIZE=ON, -O2 -g1, no CUDA; feastc
# and the unit and MPI test programs that test_asan_units.sh runs) and the sanitizers'
# options.
#
# Leaks: LeakSanitizer stays on (detect_leaks=1) for every run, MPI runs included; the
# allocations Open MPI / hwloc / libevent make in MPI_Init/MPI_Finalize and never free
# are suppressed by library name (fast_unwind_on_malloc=0 so that stacks through Open
# MPI's frame-pointer-less code reach the library), so a leak from feastc's own code is
# still reported. Zero reports are allowed.
src=${FEAST_SRC:?}
root=${FEAST_BIN:-$PWD/bin}/..
root=$(cd "$root" && pwd)
asan=$root/asan
jobs=${FEAST_SANITIZE_JOBS:-2}
SFEASTC=$asan/bin/feastc
# the unit and MPI tests that test_asan_units.sh leaves out (why: its header), so that
# test_asan_build.sh does not build them either
ASAN_UNIT_SKIP=" test_ns_continuation test_ns_sequencing test_ns_nonlinear_options test_ns_schur test_ns_schur_spectrum test_ns_direct "
# the unit and MPI test programs of the tree (those of ASAN_UNIT_SKIP left out)
asan_test_programs() {
  local f n
  for f in "$src"/tests/unit/test_*.c "$src"/tests/mpi/test_*.c; do
    [ -e "$f" ] || continue
    n=$(basename "${f%.c}")
    [[ $ASAN_UNIT_SKIP == *" $n "* ]] || echo "$n"
  done
}

cat >"$TMP/lsan.supp" <<'SUPP'
# Open MPI and its runtime allocate at MPI_Init/MPI_Finalize and never free
leak:libmpi.so
leak:libopen-pal.so
leak:libopen-rte.so
leak:libpmix.so
leak:libhwloc.so
leak:libevent
leak:mca_
leak:libucp.so
leak:libucs.so
leak:libfabric.so
SUPP
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1
export LSAN_OPTIONS=suppressions=$TMP/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitizer_reports() { grep -cE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer' "$@" 2>/dev/null | awk -F: '{s+=$NF} END {print s+0}'; }

# the tree must be there (ctest runs test_asan_build first: the fixture asan_tree)
require_asan_tree() {
  [ -x "$SFEASTC" ] && return 0
  echo "no ASan/UBSan build at $asan: run test_asan_build first (ctest -R test_asan_ adds it)"
  exit 1
}
