/* The core's config keys: the ones feast/ itself reads or provides to every problem
 * (the grid, the shape of boundary parts and where parts meet, the run summary, VTK
 * output and verbosity, resources, test and benchmark hooks). Every layer above has its
 * own table in its own folder (scarc/scarc_keys.c, navier_stokes/ns_keys.c,
 * apps/app_keys.c); the application adds them to the schema (feast/config/config.h). Adding a
 * key is one row in the table of the layer that reads it. */
#include "feast/config/config_keys.h"
#include <stdio.h>
#include <string.h>

static const FeastKeySpec keys[] = {
    /* ---- the grid ---- */
    PATH_KEY("grid", "file", NULL,
             "coarse mesh: native .feast or Gmsh .msh file (required)"),
    INT_KEY("grid", "level", "4", 0, 16,
            "refinement level L: each macro becomes 2^L x 2^L cells, (2^L+1)^2 nodes", DISCRETE),
    STRING_KEY("grid", "dirichlet", "all",
               "boundary parts with Dirichlet conditions, names separated by spaces or "
               "commas; 'all' = every part, empty = none", DISCRETE),

    /* ---- boundary parts, one section [boundary.NAME] per mesh part NAME: the shape (the
     * field values, boundary.*.u etc., belong to the problem that has the fields) ---- */
    ENUM_KEY("boundary.*", "type", "line", "line|circle",
             "shape of boundary part NAME: straight edges, or an arc of a circle onto which "
             "refined boundary nodes are projected", DISCRETE),
    REAL2_KEY("boundary.*", "center", NULL, "circle centre \"x y\" (required for type = circle)", DISCRETE),
    REAL_KEY("boundary.*", "radius", NULL, 1e-300, 1e300,
             "circle radius, > 0 (required for type = circle)", DISCRETE),
    INT_KEY("boundary.*", "priority", "0", -1000000, 1000000,
            "where parts meet (a mesh vertex on two parts with Dirichlet values of one field), the "
            "part with the higher priority sets the value; equal priorities must agree", DISCRETE),

    /* ---- outputs every run has ---- */
    PATH_KEY("output", "summary", "",
             "JSON run summary (sizes, iterations, residuals, timings); empty = none"),
    PATH_KEY("output", "vtk", "",
             "VTK XML output prefix P: `P_rN.vtu` per rank N and `P.pvtu` for ParaView; "
             "empty = none"),
    INT_KEY("output", "verbosity", "1", 0, 2, "0 = errors and warnings only, 1 = normal, 2 = verbose"),

    /* ---- resources ---- */
    REAL_KEY("run", "max_memory", "0", 0, 1e9,
             "memory limit in GiB for the estimated need of the run (checked before "
             "allocating); 0 = the machine's physical memory"),
    REAL_KEY("run", "max_device_memory", "0", 0, 1e9,
             "device memory limit in GiB for the estimated need of the ranks on one device with "
             "solver.residency = device (checked before anything is solved); 0 = the device's free memory"),

    /* ---- test hooks ---- */
    ENUM_KEY("debug", "inject", "none", "none|nan|fail",
             "test hook: the second preconditioner application on rank debug.inject_rank "
             "returns a NaN (nan) or fails (fail), to test the failure paths"),
    INT_KEY("debug", "inject_rank", "0", 0, 1000000, "MPI rank on which debug.inject acts"),
    REAL_KEY("debug", "reduction_latency_us", "0", 0, 1e6,
             "benchmark knob: every global reduction completes no earlier than this many microseconds "
             "after it started (busy wait; a non-blocking reduction hides it behind the work done "
             "meanwhile), to emulate a high-latency network"),
};

const FeastKeyTable feast_core_keys = {"feast", keys, FEAST_NKEYS(keys), NULL, 0};

const char *feast_key_choices(const char *first, const char *(*name)(int), int n, char *buf, size_t size) {
  size_t len = (size_t)snprintf(buf, size, "%s", first ? first : "");
  for (int i = 0; i < n && len < size; i++) len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "|" : "", name(i));
  return buf;
}

void feast_key_set_choices(FeastKeySpec *table, int nkeys, const char *section, const char *key, const char *choices) {
  for (int k = 0; k < nkeys; k++)
    if (strcmp(table[k].section, section) == 0 && strcmp(table[k].key, key) == 0) table[k].choices = choices;
}
