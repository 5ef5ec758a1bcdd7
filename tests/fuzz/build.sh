#!/usr/bin/env bash
# Build the libFuzzer harnesses: tests/fuzz/build.sh SRC_DIR OUT_DIR
# The library sources of feast/ are compiled with clang (-fsanitize=fuzzer-no-link,
# address,undefined) into OUT_DIR/libfeast_fuzz.a; each harness fuzz_*.c links against it.
# Exit 77 when clang or its libFuzzer runtime (libclang-rt-*-dev) is missing.
set -euo pipefail
src=$(cd "${1:?usage: build.sh SRC_DIR OUT_DIR}" && pwd)
out=${2:?usage: build.sh SRC_DIR OUT_DIR}
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
CC=${FEAST_FUZZ_CC:-clang}
command -v "$CC" >/dev/null || { echo "fuzz: $CC not found (install clang)"; exit 77; }
probe=$out/probe
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' >"$probe.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" 2>"$probe.log"; then
  echo "fuzz: $CC cannot link -fsanitize=fuzzer (install libclang-rt-14-dev):"; cat "$probe.log"
  exit 77
fi
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
mpi_cflags=$(mpicc --showme:compile 2>/dev/null || true)
mpi_libs=$(mpicc --showme:link 2>/dev/null || echo "-lmpi")
cjson_cflags=$(pkg-config --cflags libcjson 2>/dev/null || true)
# FEAST_FUZZ_CFLAGS: extra flags (e.g. -fno-sanitize=nonnull-attribute to fuzz past a known bug)
cflags="${FEAST_FUZZ_CFLAGS:-} -std=c11 -D_DEFAULT_SOURCE -DFEAST_VERSION=\"fuzz\" -O1 -gline-tables-only $san -I$src -I/usr/include/suitesparse $mpi_cflags $cjson_cflags"
# the config/mesh layer and what it may pull in (the layers' key tables take their
# allowed values from the registries of scarc/ and navier_stokes/, so those layers come
# along: the archive links only what a harness needs); a file that does not compile is
# only fatal if the harnesses need it (the link says so)
# FEAST_FUZZ_JOBS (2) compiles at a time
compile_one() {
  local c=$1 o
  o=$out/obj/$(basename "${c%.c}").o
  if ! "$CC" $cflags -fsanitize=fuzzer-no-link -c "$c" -o "$o" 2>"$o.log"; then
    { echo "fuzz: note: $(basename "$c") does not compile with $CC (skipped):"; head -5 "$o.log"; } >"$o.note"
    rm -f "$o"
  fi
}
rm -f "$out"/obj/*.o "$out"/obj/*.note
sources=("$src"/feast/*/*.c "$src"/solvers/*.c "$src"/coproc/*.c "$src"/scarc/*.c "$src"/navier_stokes/*.c)
for c in "${sources[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "${FEAST_FUZZ_JOBS:-2}" ]; do wait -n || true; done
  compile_one "$c" &
done
wait
objs=()
for c in "${sources[@]}"; do
  o=$out/obj/$(basename "${c%.c}").o
  if [ -e "$o.note" ]; then cat "$o.note"; fi
  if [ -e "$o" ]; then objs+=("$o"); fi
done
rm -f "$out/libfeast_fuzz.a"
ar rcs "$out/libfeast_fuzz.a" "${objs[@]}"
for h in "$src"/tests/fuzz/fuzz_*.c; do
  name=$(basename "${h%.c}")
  "$CC" $cflags -I"$src/tests/fuzz" -fsanitize=fuzzer "$h" "$out/libfeast_fuzz.a" \
    $mpi_libs -lcjson -lklu -lumfpack -lsuitesparseconfig -lmetis -lmuparser -lm -o "$out/$name"
  echo "fuzz: built $out/$name"
done
