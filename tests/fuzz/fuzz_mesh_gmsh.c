/* libFuzzer harness for the Gmsh reader (feast_mesh_read_gmsh, ASCII 2.2 / 4.1), with
 * and without a config that makes a physical group a curved (circle) boundary part. */
#include "fuzz_mesh.h"

static FeastConfig *circle_cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_quiet();
  /* [boundary.cylinder] type = circle: the part name used in the seed corpus (DFG) */
  static const char ini[] = "[grid]\nfile = x.msh\n\n[boundary.cylinder]\ntype = circle\n"
                            "center = 0.2 0.2\nradius = 0.05\n";
  const char *path = "/tmp/feast_fuzz_gmsh_cfg.ini";
  char own[256];
  snprintf(own, sizeof own, "%s.%ld", path, (long)getpid());
  if (fuzz_write(own, (const uint8_t *)ini, sizeof ini - 1) == 0 && feast_config_create(&circle_cfg) == 0 &&
      feast_config_read(circle_cfg, own) != 0) {
    fprintf(stderr, "fuzz_mesh_gmsh: circle config rejected (%s); fuzzing without it\n", feast_error_message());
    feast_config_destroy(&circle_cfg);
  }
  unlink(own);
  feast_error_clear();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* the parity of the size picks the config (trailing bytes rarely matter to a reader),
   * so valid meshes are explored with and without the curved part */
  const FeastConfig *cfg = (size & 1) && circle_cfg ? circle_cfg : NULL;
  return fuzz_mesh_one(data, size, ".msh", feast_mesh_read_gmsh, cfg);
}
