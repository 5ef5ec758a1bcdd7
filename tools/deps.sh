#!/usr/bin/env bash
# Install the Debian packages feastc needs (only those missing). Debian 12 / Ubuntu.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libsuitesparse-dev libopenmpi-dev openmpi-bin
      libopenblas-dev libmetis-dev libcjson-dev libmuparser-dev python3 python3-vtk9
      python3-matplotlib clang libclang-rt-14-dev valgrind) # plots (bench/compare.py); fuzzing, sanitizer and memcheck tests
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
