/* Benchmark quantities of a time series y(t_k) (the drag and lift coefficients and the
 * pressure difference of a time-dependent run, DFG 2D-2 / 2D-3): extrema and their times,
 * the frequency of a periodic signal and values between the steps, all interpolated
 * between the time levels rather than rounded to them. Pure functions of the arrays:
 * rank-independent by construction. */
#ifndef FEAST_NS_SERIES_H
#define FEAST_NS_SERIES_H

typedef struct {
  double value, time; /* the extremum of the parabola through the extreme sample and its neighbours */
} NsSeriesPoint;

/* the largest (sign = +1) or smallest (sign = -1) value of y over t[0..n) (n >= 1): at an
 * interior sample the vertex of the parabola through it and its two neighbours (clamped
 * to their interval); at an end the sample itself */
NsSeriesPoint ns_series_extremum(const double *t, const double *y, long n, int sign);
/* the last local maximum of y (a sample above the one before and not below the one after,
 * interpolated as above) whose time + lag still lies in the series (<= t[n-1]); 0 if there
 * is none */
int ns_series_last_maximum(const double *t, const double *y, long n, double lag, NsSeriesPoint *out);
/* the frequency of a periodic y from its local maxima in the second half of the series
 * (after the transient): (number of periods) / (time from the first to the last maximum
 * there); 0 if fewer than 3 maxima were found */
double ns_series_frequency(const double *t, const double *y, long n, long *periods);
/* y at time s by linear interpolation between the samples (s clamped to [t_0, t_n-1]) */
double ns_series_at(const double *t, const double *y, long n, double s);
#endif
