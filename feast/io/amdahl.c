#include "feast/io/amdahl.h"
#include "feast/base/error.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const names[FEAST_AMDAHL_NT] = {"T_tot", "T_lin", "T_loc", "T_ass", "T_setup"};
static const char *const timers[FEAST_AMDAHL_NT] = {FEAST_T_TOTAL, FEAST_T_LINEAR, FEAST_T_LOCAL_MG,
                                                    FEAST_T_ASSEMBLY, FEAST_T_SOLVER_SETUP};

const char *feast_amdahl_name(int i) { return i >= 0 && i < FEAST_AMDAHL_NT ? names[i] : ""; }

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

void feast_amdahl_compute(const FeastTimerStats *stats, int n, int nonlinear, int ranks, FeastAmdahl *a) {
  memset(a, 0, sizeof *a);
  a->nonlinear = nonlinear;
  a->ranks = ranks;
  for (int i = 0; i < FEAST_AMDAHL_NT; i++) {
    const FeastTimerStats *t = feast_timer_stats_find(stats, n, timers[i]);
    if (t) a->t[i] = *t;
    else a->t[i].imbalance = 1.0;
    snprintf(a->t[i].name, sizeof a->t[i].name, "%s", timers[i]);
    char touch[sizeof a->t[i].name];
    snprintf(touch, sizeof touch, "%s" FEAST_FIRST_TOUCH, timers[i]);
    const FeastTimerStats *f = feast_timer_stats_find(stats, n, touch);
    a->touch_s[i] = f ? f->max : 0.0;
    a->touch_mb[i] = f ? f->bytes_max / 1e6 : 0.0;
  }
  a->T_tot = a->t[0].max;
  a->T_lin = a->t[1].max;
  a->T_loc = a->t[2].max;
  a->T_ass = a->t[3].max;
  a->T_setup = a->t[4].max;
  const FeastTimerStats *c = feast_timer_stats_find(stats, n, FEAST_T_COARSE);
  a->T_coarse = c ? c->max : 0.0;
  a->R_acc = ratio(a->T_loc, nonlinear ? a->T_tot : a->T_lin);
  a->R_ass = ratio(a->T_ass, a->T_tot);
  a->R_lin = ratio(a->T_lin, a->T_tot);
  a->S_max = 1.0 / (1.0 - a->R_acc); /* R_acc = 1 gives inf, written as null */
}

#define SEC "amdahl"
int feast_amdahl_to_summary(const FeastAmdahl *a, FeastSummary *s) {
  FEAST_CALL(feast_summary_set_section_string(s, SEC, "R_acc_of", a->nonlinear ? "T_tot" : "T_lin"));
  FEAST_CALL(feast_summary_set_section_string(s, SEC, "reduction", "max over ranks"));
  FEAST_CALL(feast_summary_set_section_int(s, SEC, "ranks", a->ranks));
  const double T[FEAST_AMDAHL_NT] = {a->T_tot, a->T_lin, a->T_loc, a->T_ass, a->T_setup};
  for (int i = 0; i < FEAST_AMDAHL_NT; i++) FEAST_CALL(feast_summary_set_section_real(s, SEC, names[i], T[i]));
  FEAST_CALL(feast_summary_set_section_real(s, SEC, "R_acc", a->R_acc));
  FEAST_CALL(feast_summary_set_section_real(s, SEC, "R_ass", a->R_ass));
  FEAST_CALL(feast_summary_set_section_real(s, SEC, "R_lin", a->R_lin));
  FEAST_CALL(feast_summary_set_section_real(s, SEC, "S_max", a->S_max));
  for (int i = 0; i < FEAST_AMDAHL_NT; i++) {
    FEAST_CALL(feast_summary_set_section_real(s, SEC ".imbalance", names[i], a->t[i].imbalance));
    FEAST_CALL(feast_summary_set_section_real(s, SEC ".rank0", names[i], a->t[i].rank0));
    FEAST_CALL(feast_summary_set_section_real(s, SEC ".mean", names[i], a->t[i].mean));
    FEAST_CALL(feast_summary_set_section_real(s, SEC ".first_touch", names[i], a->touch_s[i]));
    FEAST_CALL(feast_summary_set_section_real(s, SEC ".first_touch_mb", names[i], a->touch_mb[i]));
  }
  return 0;
}

void feast_amdahl_print(const FeastAmdahl *a) {
  feast_log(1, "  where the time goes (s, max over %d rank%s; imbalance = max/mean):\n", a->ranks,
            a->ranks == 1 ? "" : "s");
  feast_log(1, "    T_tot %.3f  T_ass %.3f  T_setup %.3f  T_lin %.3f  T_loc %.3f  (coarse solve %.3f)\n",
            a->T_tot, a->T_ass, a->T_setup, a->T_lin, a->T_loc, a->T_coarse);
  feast_log(1, "    R_ass %.3f  R_lin %.3f  R_acc = T_loc/%s %.3f  S_max = 1/(1-R_acc) %.2f\n", a->R_ass, a->R_lin,
            a->nonlinear ? "T_tot" : "T_lin", a->R_acc, a->S_max);
  if (a->touch_mb[0] > 0)
    feast_log(1, "    of which first touch of fresh memory: T_ass %.3f (%.0f MB)  T_setup %.3f (%.0f MB)  T_lin %.3f "
                 "(%.0f MB)\n", a->touch_s[3], a->touch_mb[3], a->touch_s[4], a->touch_mb[4], a->touch_s[1],
              a->touch_mb[1]);
  if (a->ranks > 1)
    feast_log(1, "    imbalance: T_tot %.2f  T_ass %.2f  T_lin %.2f  T_loc %.2f\n", a->t[0].imbalance,
              a->t[3].imbalance, a->t[1].imbalance, a->t[2].imbalance);
}
