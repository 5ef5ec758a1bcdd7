#include "navier_stokes/series.h"
#include <math.h>

/* the vertex of the parabola through (t[i-1], y[i-1]), (t[i], y[i]), (t[i+1], y[i+1])
 * (nonuniform steps), clamped to [t[i-1], t[i+1]]; the sample where the three are
 * collinear */
static NsSeriesPoint vertex(const double *t, const double *y, long i) {
  const double h0 = t[i] - t[i - 1], h1 = t[i + 1] - t[i];
  const double d0 = (y[i] - y[i - 1]) / h0, d1 = (y[i + 1] - y[i]) / h1;
  const double c2 = (d1 - d0) / (h0 + h1); /* y ~ y[i] + c1 (s - t[i]) + c2 (s - t[i])^2 */
  const double c1 = d0 + c2 * h0;
  if (c2 == 0.0 || !isfinite(c2)) return (NsSeriesPoint){y[i], t[i]};
  double ds = -c1 / (2.0 * c2);
  if (ds < -h0) ds = -h0;
  if (ds > h1) ds = h1;
  return (NsSeriesPoint){y[i] + c1 * ds + c2 * ds * ds, t[i] + ds};
}

NsSeriesPoint ns_series_extremum(const double *t, const double *y, long n, int sign) {
  long best = 0;
  for (long k = 1; k < n; k++)
    if (sign * y[k] > sign * y[best]) best = k;
  if (best == 0 || best == n - 1) return (NsSeriesPoint){y[best], t[best]};
  return vertex(t, y, best);
}

/* the index of the first local maximum after sample k (y[i] > y[i-1], y[i] >= y[i+1]), -1 if none */
static long next_maximum(const double *y, long n, long k) {
  for (long i = k + 1; i + 1 < n; i++)
    if (i >= 1 && y[i] > y[i - 1] && y[i] >= y[i + 1]) return i;
  return -1;
}

int ns_series_last_maximum(const double *t, const double *y, long n, double lag, NsSeriesPoint *out) {
  int found = 0;
  for (long k = next_maximum(y, n, 0); k >= 0; k = next_maximum(y, n, k)) {
    const NsSeriesPoint p = vertex(t, y, k);
    if (p.time + lag <= t[n - 1]) *out = p, found = 1;
  }
  return found;
}

double ns_series_frequency(const double *t, const double *y, long n, long *periods) {
  *periods = 0;
  if (n < 5) return 0.0;
  const double half = 0.5 * (t[0] + t[n - 1]);
  long count = 0;
  double t_first = 0.0, t_last = 0.0;
  for (long k = next_maximum(y, n, 0); k >= 0; k = next_maximum(y, n, k)) {
    const NsSeriesPoint p = vertex(t, y, k);
    if (p.time <= half) continue;
    if (count++ == 0) t_first = p.time;
    t_last = p.time;
  }
  if (count < 3) return 0.0;
  *periods = count - 1;
  return (double)(count - 1) / (t_last - t_first);
}

double ns_series_at(const double *t, const double *y, long n, double s) {
  if (n <= 0) return NAN;
  if (s <= t[0] || n == 1) return y[0];
  if (s >= t[n - 1]) return y[n - 1];
  long lo = 0, hi = n - 1; /* t[lo] <= s < t[hi] */
  while (hi - lo > 1) {
    const long mid = (lo + hi) / 2;
    if (t[mid] <= s) lo = mid;
    else hi = mid;
  }
  const double w = (s - t[lo]) / (t[hi] - t[lo]);
  return (1.0 - w) * y[lo] + w * y[hi];
}
