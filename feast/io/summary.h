/* JSON run summary: an object the application fills as it goes (problem, target,
 * ranks, macros, level, dofs, converged, reason, solver figures, timings) and rank 0
 * writes once at the end. Setting a key again replaces its value in place. Reals that
 * are not finite (NaN, Inf) are written as null, so the file is always valid JSON.
 * Integers are stored as doubles (exact up to 2^53). */
#ifndef FEAST_SUMMARY_H
#define FEAST_SUMMARY_H

typedef struct FeastSummary FeastSummary;

int feast_summary_create(FeastSummary **s);
void feast_summary_destroy(FeastSummary **s); /* sets *s to NULL */

/* top-level keys */
int feast_summary_set_string(FeastSummary *s, const char *key, const char *value);
int feast_summary_set_int(FeastSummary *s, const char *key, long value);
int feast_summary_set_real(FeastSummary *s, const char *key, double value);
int feast_summary_set_bool(FeastSummary *s, const char *key, int value);
/* key: [v0, v1, ...] (non-finite values as null) */
int feast_summary_set_real_array(FeastSummary *s, const char *key, const double *values, int n);
/* "timings": {name: seconds} */
int feast_summary_set_timing(FeastSummary *s, const char *name, double seconds);
/* nested objects, e.g. "solver": {"iterations": 12}; created on first use. A section
 * "a.b" is the object "b" inside "a" (e.g. "amdahl.imbalance"). A section name that is
 * already a non-object key is an error (FEAST_ERR_ARG). */
int feast_summary_set_section_string(FeastSummary *s, const char *section, const char *key,
                                     const char *value);
int feast_summary_set_section_int(FeastSummary *s, const char *section, const char *key,
                                  long value);
int feast_summary_set_section_real(FeastSummary *s, const char *section, const char *key,
                                   double value);
int feast_summary_set_section_bool(FeastSummary *s, const char *section, const char *key,
                                   int value);

/* Write pretty-printed JSON to path.tmp, then rename it to path (readers never see a
 * half-written file). Not collective: call it on one rank. FEAST_ERR_FILE naming the
 * path if it cannot be written. */
int feast_summary_write(const FeastSummary *s, const char *path);
/* 1 and *value <- the number at top-level key if there is one (an int or a real), else 0 */
int feast_summary_get_number(const FeastSummary *s, const char *key, double *value);
#endif
