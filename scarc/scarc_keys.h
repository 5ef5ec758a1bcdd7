/* The config keys ScaRC reads (scarc/scarc_keys.c), for the schema of a config that
 * ScaRC solvers are set up from: feast_config_add_keys(cfg, scarc_config_keys()). */
#ifndef SCARC_KEYS_H
#define SCARC_KEYS_H
#include "feast/config/config.h"
const FeastKeyTable *scarc_config_keys(void);
/* the values of a scarc_solver key: "mg" and the Krylov registry's methods for ScaRC */
const char *scarc_solver_choices(void);
/* rows[0 .. n-1] <- the ScaRC keys a config may set apart for some solves under prefix
 * "<section>." (scarc_params_from_config inherits each one unset from [solver]): every
 * [solver] key with a ScarcParams member but target (where the local multigrids run is the
 * run's one switch), in section, without default or member, help[k] their help ("solves:
 * solver.KEY for them alone ..."); n <= max */
enum { SCARC_HELP_LEN = 256, SCARC_PREFIX_KEYS = 24 };
int scarc_prefix_keys(const char *section, const char *solves, FeastKeySpec *rows, char (*help)[SCARC_HELP_LEN],
                      int max);
#endif
