#!/usr/bin/env bash
# What a session runs on a lent GPU machine, from the repo root, with .devdebs and .devtools
# carried (bench/device_debs.sh makes them): unpack the packages, then bench/gpu_check.sh
# with its arguments (build in /tmp/bg, report in /tmp/gc), then everything back to $OUT as
# two files (the device tool returns at most 8): gpu_check.md and gc.tgz (logs, JSON).
# The device's CMake cache is dropped first: pkg-config paths cached from another prefix
# break the configure step. E.g. (device tool `run`, carry [".devdebs", ".devtools"]):
#   bash bench/device_check.sh --test-lmax 8 --sanitize-lmax 3 --deadline 420
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf /tmp/bg /tmp/gc && mkdir -p /tmp/gc
. bench/device_env.sh || exit 9
nvidia-smi >/tmp/gc/smi.txt 2>&1
bash bench/gpu_check.sh --out /tmp/gc --build /tmp/bg "$@" 2>&1 | tee /tmp/gc/stderr.txt
rc=${PIPESTATUS[0]}
out=${OUT:-/tmp/gc_out}
mkdir -p "$out"
cp /tmp/gc/gpu_check.md "$out/" 2>/dev/null
tar czf "$out/gc.tgz" -C /tmp gc
exit "$rc"
