#include "feast/mesh/hex.h"

void feast_hex_macro_coords(int N, const double corner[8][3], double *xyz) {
  /* corner c's weight at reference point (s, t, u) is the product of s or 1 - s, t or
   * 1 - t, u or 1 - u as the corner lies at 1 or 0 along each axis */
  const signed char(*at)[3] = feast_macro_hex.at;
  const double h = 1.0 / (N - 1);
  for (int k = 0; k < N; k++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        const double ref[3] = {i * h, j * h, k * h};
        double *x = xyz + 3 * (((long)k * N + j) * N + i);
        x[0] = x[1] = x[2] = 0.0;
        for (int c = 0; c < 8; c++) {
          double w = 1.0;
          for (int d = 0; d < 3; d++) w *= at[c][d] ? ref[d] : 1.0 - ref[d];
          for (int d = 0; d < 3; d++) x[d] += w * corner[c][d];
        }
      }
}

void feast_hex_face_nodes(int N, unsigned faces, unsigned char *mask) {
  for (long k = 0; k < N; k++)
    for (long j = 0; j < N; j++)
      for (long i = 0; i < N; i++) {
        const long at[3] = {i, j, k};
        unsigned on = 0; /* the faces the node lies on */
        for (int d = 0; d < 3; d++) on |= (at[d] == 0 ? 1u : 0u) << (2 * d) | (at[d] == N - 1 ? 2u : 0u) << (2 * d);
        mask[(k * N + j) * N + i] = (on & faces) != 0;
      }
}
