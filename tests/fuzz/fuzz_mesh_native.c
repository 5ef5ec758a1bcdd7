/* libFuzzer harness for the native mesh reader (feast_mesh_read_native). */
#include "fuzz_mesh.h"

static int read_native(const char *path, const FeastConfig *cfg, FeastMesh **mesh) {
  return feast_mesh_read_native(path, mesh);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_quiet();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_mesh_one(data, size, ".feast", read_native, NULL);
}
