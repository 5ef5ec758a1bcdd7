/* The problem registry: one line per problem, each defined in its own file. */
#include "apps/problem.h"
#include <stdio.h>
#include <string.h>

extern const FeastProblem feast_problem_poisson, feast_problem_stokes, feast_problem_navier_stokes;

static const FeastProblem *const registry[] = {&feast_problem_poisson, &feast_problem_stokes,
                                               &feast_problem_navier_stokes};
enum { NPROBLEMS = sizeof registry / sizeof registry[0] };

const FeastProblem *feast_problem_find(const char *name) {
  for (int i = 0; i < NPROBLEMS; i++)
    if (strcmp(registry[i]->name, name) == 0) return registry[i];
  return NULL;
}

const char *feast_problem_names(void) {
  static char list[256];
  list[0] = 0;
  for (int i = 0; i < NPROBLEMS; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "", registry[i]->name);
  return list;
}
