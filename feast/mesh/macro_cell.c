/* The reference cells of macros (feast/mesh/mesh.h, FeastMacroCell): data that the mesh's
 * allocation, topology and the domain read, in a file of its own below them all. */
#include "feast/mesh/mesh.h"

const FeastMacroCell feast_macro_quad = {
    2, 4, 4, 0, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0}}};
/* edges: the bottom square's 4, the top's 4, then the 4 verticals; faces x = 0, x = 1,
 * y = 0, y = 1, z = 0, z = 1, each counter-clockwise seen from outside */
const FeastMacroCell feast_macro_hex = {
    3, 8, 12, 6, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}},
    {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
    {{0, 4, 7, 3}, {1, 2, 6, 5}, {0, 1, 5, 4}, {3, 7, 6, 2}, {0, 3, 2, 1}, {4, 5, 6, 7}}};
