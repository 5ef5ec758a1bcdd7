#!/usr/bin/env bash
# The GPU switch is one config line: config/*_gpu.ini differ from their CPU twins only in
# "target = gpu"; the application layer includes nothing from coproc/; and target = gpu
# where no GPU can run is one clear error (exit 5), or with gpu_fallback = cpu a warning
# and a CPU run whose summary says what ran.
. "$(dirname "$0")/lib.sh"
for gpu in "$FEAST_SRC"/config/*_gpu.ini; do
  cpu=${gpu%_gpu.ini}.ini
  d=$(diff "$cpu" "$gpu" | grep '^[<>]' | tr '\n' '|')
  check "$(basename "$gpu") differs from its twin only in the target line ($d)" "'$d' == '< target = cpu|> target = gpu|'"
done
n=$(grep -rlE '#include *"coproc/' "$FEAST_SRC"/navier_stokes "$FEAST_SRC"/apps/poisson.c 2>/dev/null | wc -l)
check "navier_stokes/ and the poisson problem include nothing from coproc/ ($n files do)" "$n == 0"

if "$FEASTC" --version | grep -q 'gpu('; then
  echo "CUDA backend compiled; no-device checks need a machine without a GPU"
fi
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  feastc_np 1 "$FEAST_SRC/config/poisson_gpu.ini" grid.level=4 2>"$TMP/err"
  rc=$?
  check "target = gpu without a GPU: exit 5 (got $rc)" "$rc == 5"
  check "one feastc line on stderr" "$(grep -c '^feastc:' "$TMP/err") == 1"
  check "message names both remedies" "'solver.target = cpu' in open('$TMP/err').read() and 'gpu_fallback' in open('$TMP/err').read()"
  cat "$TMP/err"
  feastc_np 1 "$FEAST_SRC/config/poisson_gpu.ini" grid.level=4 solver.gpu_fallback=cpu 2>"$TMP/err"
  rc=$?
  check "gpu_fallback = cpu runs (exit $rc)" "$rc == 0"
  check "a warning says so" "'warning' in open('$TMP/err').read()"
  check "summary: target cpu" "'$(json target)' == 'cpu'"
  check "summary: target_requested gpu" "'$(json target_requested)' == 'gpu'"
fi
finish
