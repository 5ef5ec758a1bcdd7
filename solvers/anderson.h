/* Anderson acceleration of a fixed-point iteration on distributed vectors (solvers/anderson.c).
 *
 * The fixed point's step maps the iterate x_k to g(x_k) = x_k + c_k, c_k its correction.
 * Anderson (type II, Walker & Ni, SIAM J. Numer. Anal. 49, 2011) combines the last m
 * steps: with the differences dX_i = x_{i+1} - x_i and dF_i = c_{i+1} - c_i of the last m
 * steps,
 *   gamma = argmin || c_k - sum_i gamma_i dF_i ||_2,
 *   x_{k+1} = x_k + c_k - sum_i gamma_i (dX_i + dF_i),
 * i.e. the correction c_k is replaced by the mixed one (a line search then takes it as its
 * direction). The small least-squares problem is solved by its normal equations (m <=
 * FEAST_ANDERSON_MAX, Cholesky; a history whose Gram matrix is not positive definite is
 * dropped and the plain correction taken). All products are global reductions
 * (feast_vec_dots), so the mixing is the same on any number of ranks.
 *
 * The history's vectors are made at its first use (shaped like the vector given to
 * feast_anderson_create); every function takes a NULL object as "no acceleration". */
#ifndef FEAST_ANDERSON_H
#define FEAST_ANDERSON_H
#include "feast/la/vector.h"

enum { FEAST_ANDERSON_MAX = 10 }; /* the deepest history */

typedef struct FeastAnderson FeastAnderson;
/* the history of the last depth (1..FEAST_ANDERSON_MAX) steps, for vectors shaped like
 * `like` (its domain, level and blocks; like itself is not kept) */
int feast_anderson_create(const FeastVec *like, int depth, FeastAnderson **a);
void feast_anderson_destroy(FeastAnderson **a);
/* forget the history (a new iteration, or steps that are not to be mixed) */
void feast_anderson_reset(FeastAnderson *a);
/* c <- the mixed correction of the step at iterate x with correction c (the first step of
 * a history: c unchanged, the pair kept) */
int feast_anderson_mix(FeastAnderson *a, const FeastVec *x, FeastVec *c);
/* the history as vectors (checkpoints): x_prev, c_prev, then dx, dc of each held step,
 * oldest first; their number (0: no history yet) */
int feast_anderson_history(const FeastAnderson *a, FeastVec **x);
/* a history (started: x_prev and c_prev held) of `count` held steps about to be read into
 * the vectors feast_anderson_history then gives; *skip: the oldest steps of the stored
 * history beyond the depth, dropped (all of them without an object or when nothing is
 * started) */
int feast_anderson_restore(FeastAnderson *a, int started, int count, int *skip);
#endif
