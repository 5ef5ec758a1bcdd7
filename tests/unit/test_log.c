/* Named timers and first-touch accounting (feast/base/log.h): nested brackets count once;
 * fresh memory from feast_calloc (and the coloured blocks) is charged to every running
 * timer T as "T.first_touch", with its bytes, and to no timer that is not running;
 * blocks below 128 KiB are not prefaulted, so not charged. */
#include "feast/la/band9.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include "feast_test.h"
#include <stdlib.h>

enum { MB = 1 << 20 };

static int run(void) {
  feast_timers_reset();
  feast_timer_start("outer");
  feast_timer_start("inner");
  feast_timer_start("inner"); /* re-entrant: one call when the outer bracket closes */
  double *a;
  CHECK_OK(FEAST_ALLOC(8 * MB / sizeof(double), &a));
  feast_timer_stop("inner");
  feast_timer_stop("inner");
  CHECK(feast_timer_calls("inner") == 1);
  const double charged = feast_timer_bytes("inner" FEAST_FIRST_TOUCH);
  CHECK(charged >= 8.0 * MB - 8192 && charged <= 8.0 * MB);
  CHECK(feast_timer_bytes("outer" FEAST_FIRST_TOUCH) == charged);
  CHECK(feast_timer_total("inner" FEAST_FIRST_TOUCH) > 0);
  CHECK(feast_timer_total("inner" FEAST_FIRST_TOUCH) <= feast_timer_total("inner"));
  for (long i = 0; i < 8L * MB / (long)sizeof(double); i += 4096) CHECK(a[i] == 0.0); /* still zero */

  /* after "inner" stopped: only "outer" is charged, also for a coloured block */
  FeastBand9 A;
  CHECK_OK(feast_band9_create(257, &A));
  const double band9 = 9.0 * 257 * 257 * sizeof(double);
  const double outer = feast_timer_bytes("outer" FEAST_FIRST_TOUCH);
  CHECK(outer - charged >= band9 && outer - charged <= band9 + 2.0 * MB);
  CHECK(feast_timer_bytes("inner" FEAST_FIRST_TOUCH) == charged);

  /* a small block is not prefaulted; with no timer running nothing is charged */
  double *small;
  CHECK_OK(FEAST_ALLOC(1000, &small));
  CHECK(feast_timer_bytes("outer" FEAST_FIRST_TOUCH) == outer);
  feast_timer_stop("outer");
  double *after;
  CHECK_OK(FEAST_ALLOC(4 * MB / sizeof(double), &after));
  CHECK(feast_timer_bytes("outer" FEAST_FIRST_TOUCH) == outer);
  CHECK(feast_timer_calls("outer" FEAST_FIRST_TOUCH) == 2);
  CHECK(feast_timer_calls("never" FEAST_FIRST_TOUCH) == 0);

  feast_band9_destroy(&A);
  free(a);
  free(small);
  free(after);
  return 0;
}

FEAST_TEST_MAIN(run)
