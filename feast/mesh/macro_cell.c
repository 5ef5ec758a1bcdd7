/* The reference cells of macros (feast/mesh/mesh.h, FeastMacroCell): data that the mesh's
 * allocation, topology and the domain read, in a file of its own below them all. */
#include "feast/mesh/mesh.h"

const FeastMacroCell feast_macro_quad = {2, 4, 4, 0, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
