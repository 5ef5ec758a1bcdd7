/* Scalar expressions f(x, y, z) given as text, e.g. boundary values, body forces and
 * exact solutions in the config: the DFG inflow "4*0.3*y*(0.41-y)/0.41^2" or
 * "sin(pi*x)*cos(pi*y)", in 3D "16*x*(1-x)*z*(1-z)". Syntax: muparser's (Debian's libmuparser, C API):
 * + - * / ^ (right-associative, above unary minus: -2^2 = -4), functions sin cos tan asin
 * acos atan atan2 sinh cosh tanh exp log (= ln) log2 log10 sqrt abs sign rint min max sum
 * avg, comparisons < <= > >= == != with && ||, and `c ? a : b`; the constant pi; the
 * variables x, y, z (the point: feast_expr_eval3; feast_expr_eval is the plane z = 0, so
 * a 2D run gives a z-free expression's values bitwise as before z existed) and t (the
 * time: 0 until feast_expr_set_time, e.g. the time level of a time step). Refused: other names, assignments (`x = 1`), several comma-separated
 * results (`1, 2`), an empty text, texts over FEAST_EXPR_MAX_LEN characters.
 *
 * Errors are FEAST_ERR_CONFIG, one line: what, the text, the reason and where in the text
 * ("cavity.ini:12: boundary.lid.u = 'sin(x': missing parenthesis ')' at position 6");
 * positions count characters from 1, a missing closing bracket is reported one past the
 * end. An object is not thread-safe (x, y, z and t are bound to it): one per thread. */
#ifndef FEAST_EXPR_H
#define FEAST_EXPR_H
#include "feast/config/config.h"

/* longest expression text; muparser's C API formats its messages, which quote the rest of
 * the text, into a 2048-byte static buffer with sprintf (overflow aborts the program) */
#define FEAST_EXPR_MAX_LEN 1000

typedef struct FeastExpr FeastExpr;

/* compile text; `what` names where it came from, for messages
 * (e.g. "cavity.ini:12: boundary.lid.u") */
int feast_expr_create(const char *text, const char *what, FeastExpr **e);
/* value at (x, y) (and z = 0); FEAST_ERR_CONFIG if it is not finite, naming what, the
 * text and the point (x, y). No allocation: cheap enough per quadrature point. */
int feast_expr_eval(FeastExpr *e, double x, double y, double *value);
/* the same at (x, y, z); a message on a non-finite value names the point (x, y, z) */
int feast_expr_eval3(FeastExpr *e, double x, double y, double z, double *value);
/* 1 if the expression names none of x, y, z, t (its value is then computed once at create,
 * where a non-finite value is already an error); muparser's used-variable query decides,
 * so "0*x" counts as using x */
int feast_expr_is_constant(const FeastExpr *e);
/* 1 if the expression names t */
int feast_expr_uses_time(const FeastExpr *e);
/* 1 if the expression names z (a 2D problem refuses it: z is 0 there) */
int feast_expr_uses_z(const FeastExpr *e);
/* the value of t in later evaluations (NULL-safe) */
void feast_expr_set_time(FeastExpr *e, double t);
const char *feast_expr_text(const FeastExpr *e);
void feast_expr_destroy(FeastExpr **e); /* NULL-safe, nulls the pointer */
/* compile the value of config key `name` (its text, e.g. a FEAST_KEY_STRING key);
 * messages name the config file:line it came from (feast_config_origin) and the key */
int feast_expr_from_config(const FeastConfig *cfg, const char *name, FeastExpr **e);
#endif
