/* The config keys the Navier-Stokes library reads (navier_stokes/ns_keys.c), for the
 * schema of a config it is set up from: feast_config_add_keys(cfg, ns_config_keys()). */
#ifndef NS_KEYS_H
#define NS_KEYS_H
#include "feast/config/config.h"
const FeastKeyTable *ns_config_keys(void);
#endif
