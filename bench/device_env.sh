# Sourced by the scripts that run on a lent GPU machine (device_check.sh, gpu_min_nodes.sh),
# from the repo root with .devdebs and .devtools carried (bench/device_debs.sh): Debian's
# packages unpacked into /tmp/deps and the environment that finds them. Debian's .pc files
# say /usr (PKG_CONFIG_SYSROOT_DIR: a CMake cache made without it keeps the wrong paths);
# Open MPI's PMIx cannot load the host's zlib plugin (harmless, silenced).
eval "$(bash .devtools/unpack-debs.sh .devdebs /tmp/deps)" || return 9
export PKG_CONFIG_SYSROOT_DIR=/tmp/deps PMIX_MCA_pcompress_base_silence_warning=1 \
  PMIX_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_mpi_yield_when_idle=1
