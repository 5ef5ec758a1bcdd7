/* The application's config keys: which problem is solved (problem.type, its choices
 * from the problem registry), the Poisson problem's own keys, and what the framework
 * (apps/app.c) reads besides the core's keys. feast_app_config_create composes the
 * schema feastc reads: the core's keys, these, ScaRC's and the Navier-Stokes library's. */
#include "apps/app.h"
#include "apps/problem.h"
#include "feast/config/config_keys.h"
#include "feast/base/error.h"
#include "navier_stokes/ns_keys.h"
#include "scarc/scarc_keys.h"
#include <stdio.h>
#include <string.h>

static FeastKeySpec keys[] = {
    ENUM_KEY("problem", "type", "poisson", NULL /* feast_problem_names() */,
             "the PDE: Poisson model problem (-Laplace u = f), Stokes, or incompressible "
             "Navier-Stokes (Q1/Q1 SUPG/PSPG)", .flags = FEAST_KEY_DISCRETE | FEAST_KEY_PROBLEM_TYPE),
    REAL2_KEY("problem", "convection", "0 0",
              "poisson: constant convection field \"bx by\": solves -Laplace u + b.grad u = f (Galerkin Q1, "
              "nonsymmetric) for the same exact solution u = sin(pi x) sin(pi y)", DISCRETE),
    ENUM_KEY("solver", "gpu_fallback", "none", "none|cpu",
             "target = gpu without a usable GPU: none = stop with an error, cpu = warn and "
             "run the local multigrid on the CPU", RECORDED),
    ENUM_KEY("solver", "residency", "host", "host|device",
             "with target = gpu, where the vectors of the solve live: host = host memory (the "
             "local multigrids copy to and from the GPU, the FEAST paper's mode); device = device "
             "memory for the whole run, the la floor's vector operations there and every other "
             "use staged through the host, the bytes that crossed in the summary (issue #46, first "
             "stage: 2D meshes)", RECORDED),
    PATH_KEY("output", "matrix_market", "",
             "Matrix Market file for the assembled global matrix (`A.mtx` also writes "
             "`A_rhs.mtx`, the right-hand side); empty = none"),
};

const FeastKeyTable *feast_app_keys(void) {
  static char choices[256];
  static const FeastKeyTable table = {"apps", keys, FEAST_NKEYS(keys), NULL, 0};
  if (!choices[0]) { /* "poisson stokes navier-stokes" -> "poisson|stokes|navier-stokes" */
    snprintf(choices, sizeof choices, "%s", feast_problem_names());
    for (char *c = choices; *c; c++)
      if (*c == ' ') *c = '|';
    keys[0].choices = choices;
  }
  return &table;
}

int feast_app_config_create(FeastConfig **cfg) {
  FEAST_CALL(feast_config_create(cfg));
  /* this order puts problem.type first in --help-config (sections are listed in order of
   * first appearance, each with its keys in the order the tables were added) */
  const FeastKeyTable *tables[] = {feast_app_keys(), scarc_config_keys(), ns_config_keys(), ns_pressure_scarc_keys()};
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    int st = feast_config_add_keys(*cfg, tables[t]);
    if (st) {
      feast_config_destroy(cfg);
      return st;
    }
  }
  return 0;
}
