/* The config keys the Navier-Stokes library reads (navier_stokes/ns_keys.c), for the
 * schema of a config it is set up from: feast_config_add_keys(cfg, ns_config_keys()). */
#ifndef NS_KEYS_H
#define NS_KEYS_H
#include "feast/config/config.h"
const FeastKeyTable *ns_config_keys(void);
/* the [pressure] ScaRC keys (mg_pre_smooth, local_rtol, ...; not target): the A_p solves'
 * own settings, each unset one the [solver] key's; a schema that has them lets a config
 * set them (without, the A_p solves take [solver]'s) */
const FeastKeyTable *ns_pressure_scarc_keys(void);
#endif
