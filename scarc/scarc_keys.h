/* The config keys ScaRC reads (scarc/scarc_keys.c), for the schema of a config that
 * ScaRC solvers are set up from: feast_config_add_keys(cfg, scarc_config_keys()). */
#ifndef SCARC_KEYS_H
#define SCARC_KEYS_H
#include "feast/config/config.h"
const FeastKeyTable *scarc_config_keys(void);
/* the values of a scarc_solver key: "mg" and the Krylov registry's methods for ScaRC */
const char *scarc_solver_choices(void);
#endif
