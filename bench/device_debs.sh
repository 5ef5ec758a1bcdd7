#!/usr/bin/env bash
# The Debian packages feastc needs on a lent GPU machine (no package registry there), into
# .devdebs/ of the repo root, and unpack-debs.sh into .devtools/ (both ignored by git):
# ../shared/device/fetch-debs.sh's list, plus what it misses: KLU and BTF (the coarse grid),
# muparser (expressions), and Open MPI with its libraries by name (fetch-debs.sh asks apt
# what installing Open MPI would add, which is nothing where it is installed already).
# Then, on the device (bench/device_check.sh does it):
#   eval "$(bash .devtools/unpack-debs.sh .devdebs /tmp/deps)"; export PKG_CONFIG_SYSROOT_DIR=/tmp/deps
# usage: bench/device_debs.sh      (from the repo root; ~30 MB, about 65 packages)
set -euo pipefail
shared=$(cd "$(dirname "$0")/../../shared/device" && pwd)
cd "$(dirname "$0")/.."
for d in .devdebs .devtools; do
  grep -qx "/$d/" .git/info/exclude 2>/dev/null || echo "/$d/" >>.git/info/exclude
done
mkdir -p .devdebs .devtools
cp "$shared/unpack-debs.sh" .devtools/
"$shared/fetch-debs.sh" .devdebs
cd .devdebs
apt-get download libklu1 libbtf1 libmuparser-dev libmuparser2v5 \
  libopenmpi3 openmpi-common openmpi-bin libopenmpi-dev libpmix2 libpmix-dev libucx0 libmunge2 \
  libhwloc15 libhwloc-plugins libhwloc-dev libevent-2.1-7 libevent-core-2.1-7 \
  libevent-extra-2.1-7 libevent-pthreads-2.1-7 libevent-openssl-2.1-7 libevent-dev libfabric1 \
  libpsm2-2 libpsm-infinipath1 librdmacm1 libibverbs1 ibverbs-providers libnl-3-200 \
  libnl-route-3-200 libnuma1 libnuma-dev libltdl7 libltdl-dev libpciaccess0 libxnvctrl0 \
  ocl-icd-libopencl1 libxml2 libx11-6 libxext6 libxcb1 libxau6 libxdmcp6 libx11-data libbsd0 \
  libmd0 2>&1 | grep -v -e '^Get:' -e unsandboxed || true
echo "device_debs: $(ls -1 *.deb | wc -l) packages, $(du -sh . | cut -f1) in .devdebs"
