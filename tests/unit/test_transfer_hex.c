/* The Galerkin product of 27-band operators (feast_band_galerkin, feast/fem/transfer_hex.h;
 * issue #47):
 *  - it is the triple product: v^T (P^T A P) u = (P v)^T A (P u) for random u, v on a
 *    twisted hexahedron, without fixed nodes, with the faces fixed and with fixed fine
 *    nodes at random (P restricted to free nodes), fixed coarse rows identity rows;
 *  - with nested spaces and exact quadrature it is the coarse grid's own assembly: the
 *    Laplace and mass matrices of a sheared (parallelepiped) macro at level 2 from level 3;
 *  - the whole-grid transfers are each other's transpose. */
#include "feast/base/error.h"
#include "feast/fem/q1_hex.h"
#include "feast/fem/transfer_hex.h"
#include "feast/mesh/hex.h"
#include "feast_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned rng = 2718u;

/* an operator of the macro at N nodes per side */
static int assemble(int N, const double corner[8][3], FeastQ1HexForm form, FeastBand *A) {
  double *xyz;
  FEAST_CALL(FEAST_ALLOC(3L * N * N * N, &xyz));
  feast_hex_macro_coords(N, corner, xyz);
  FEAST_CALL(feast_band_create(&feast_stencil_q1_3d, N, A));
  const int rc = feast_q1_hex_assemble(N, xyz, 0, form, NULL, 2, A);
  free(xyz);
  return rc;
}

/* the face nodes of an N^3 grid */
static unsigned char *faces(int N) {
  unsigned char *f = malloc((size_t)N * N * N);
  feast_hex_face_nodes(N, FEAST_HEX_FACES, f);
  return f;
}

static double dot(long n, const double *a, const double *b) {
  double s = 0.0;
  for (long r = 0; r < n; r++) s += a[r] * b[r];
  return s;
}

/* (P v)^T A (P u) against v^T Ac u; fixed coarse values of u, v and fixed fine values of
 * P u, P v zeroed (P restricted to free nodes); the identity rows of fixed coarse nodes
 * add u_I v_I */
static void check_triple(const FeastBand *Af, const unsigned char *ff, const unsigned char *fc) {
  const int Nf = Af->N, Nc = (Nf + 1) / 2;
  const long nf = (long)Nf * Nf * Nf, nc = (long)Nc * Nc * Nc;
  FeastBand Ac;
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, Nc, &Ac));
  CHECK_OK(feast_band_galerkin(Af, ff, fc, &Ac));
  double *u, *v, *Acu, *Pu, *Pv, *APu;
  CHECK_OK(feast_band_vec_alloc(&Ac, &u));
  CHECK_OK(feast_band_vec_alloc(&Ac, &v));
  CHECK_OK(feast_band_vec_alloc(&Ac, &Acu));
  CHECK_OK(feast_band_vec_alloc(Af, &Pu));
  CHECK_OK(feast_band_vec_alloc(Af, &Pv));
  CHECK_OK(feast_band_vec_alloc(Af, &APu));
  for (long r = 0; r < nc; r++) u[r] = feast_test_random(&rng), v[r] = feast_test_random(&rng);
  double fixed_part = 0.0, scale = 0.0; /* scale: the magnitudes of all terms summed */
  for (long r = 0; r < nc && fc; r++)
    if (fc[r]) fixed_part += u[r] * v[r], scale += fabs(u[r] * v[r]);
  double *uf = malloc(sizeof(double) * nc), *vf = malloc(sizeof(double) * nc);
  for (long r = 0; r < nc; r++) uf[r] = fc && fc[r] ? 0.0 : u[r], vf[r] = fc && fc[r] ? 0.0 : v[r];
  feast_hex_prolongate(Nc, uf, Pu);
  feast_hex_prolongate(Nc, vf, Pv);
  for (long r = 0; r < nf && ff; r++)
    if (ff[r]) Pu[r] = Pv[r] = 0.0;
  feast_band_apply(Af, Pu, APu);
  feast_band_apply(&Ac, u, Acu);
  for (long r = 0; r < nf; r++)
    for (int b = 0; b < 27; b++) scale += fabs(Pv[r] * Af->band[b][r] * Pu[r + feast_stencil_offset(Af->stencil, b, Nf)]);
  const double fine = dot(nf, Pv, APu) + fixed_part, coarse = dot(nc, v, Acu);
  CHECK(fabs(fine - coarse) <= 1e-14 * scale);
  if (!(fabs(fine - coarse) <= 1e-14 * scale)) fprintf(stderr, "triple %.17g vs %.17g\n", fine, coarse);
  free(uf), free(vf);
  feast_band_vec_free(&Ac, &u), feast_band_vec_free(&Ac, &v), feast_band_vec_free(&Ac, &Acu);
  feast_band_vec_free(Af, &Pu), feast_band_vec_free(Af, &Pv), feast_band_vec_free(Af, &APu);
  feast_band_destroy(&Ac);
}

static void check_products(void) {
  for (int Nf = 3; Nf <= 17; Nf = 2 * Nf - 1) {
    FeastBand A, M;
    CHECK_OK(assemble(Nf, feast_test_twisted_hex, feast_q1_hex_form_laplace, &A));
    CHECK_OK(assemble(Nf, feast_test_twisted_hex, feast_q1_hex_form_mass, &M));
    unsigned char *ff = faces(Nf), *fc = faces((Nf + 1) / 2);
    check_triple(&A, NULL, NULL);
    check_triple(&A, ff, fc);
    check_triple(&M, ff, fc);
    for (long r = 0; r < (long)Nf * Nf * Nf; r++) ff[r] = feast_test_random(&rng) > 0.3; /* any masks */
    check_triple(&A, ff, fc);
    free(ff), free(fc);
    feast_band_destroy(&A);
    feast_band_destroy(&M);
  }
}

/* Galerkin from level 3 against level 2's assembly; fixed: the faces (fixed columns of
 * the assembly zeroed, its fixed rows identity) */
static void check_rediscretisation(FeastQ1HexForm form, int with_faces) {
  const int Nf = 9, Nc = 5;
  FeastBand Af, Ac, Ag;
  CHECK_OK(assemble(Nf, feast_test_sheared_hex, form, &Af));
  CHECK_OK(assemble(Nc, feast_test_sheared_hex, form, &Ac));
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, Nc, &Ag));
  unsigned char *ff = faces(Nf), *fc = faces(Nc);
  CHECK_OK(feast_band_galerkin(&Af, with_faces ? ff : NULL, with_faces ? fc : NULL, &Ag));
  if (with_faces) {
    feast_band_fix_rows(&Ac, fc);
    for (long r = 0; r < (long)Nc * Nc * Nc; r++)
      for (int b = 0; b < 27; b++) {
        const long p[3] = {r % Nc, r / Nc % Nc, r / (Nc * Nc)};
        long q[3];
        if (feast_stencil_neighbour(Ac.stencil, b, Nc, p, q) && fc[(q[2] * Nc + q[1]) * Nc + q[0]] && !fc[r])
          Ac.band[b][r] = 0.0;
      }
  }
  double diff = 0.0, big = 0.0;
  for (int b = 0; b < 27; b++)
    for (long r = 0; r < (long)Nc * Nc * Nc; r++)
      diff = fmax(diff, fabs(Ag.band[b][r] - Ac.band[b][r])), big = fmax(big, fabs(Ac.band[b][r]));
  CHECK(diff <= 1e-14 * big);
  if (!(diff <= 1e-14 * big)) fprintf(stderr, "Galerkin vs assembly: %g of %g\n", diff, big);
  free(ff), free(fc);
  feast_band_destroy(&Af), feast_band_destroy(&Ac), feast_band_destroy(&Ag);
}

static void check_transfers(void) {
  const int Nc = 5, Nf = 9;
  const long nc = Nc * Nc * Nc, nf = Nf * Nf * Nf;
  double c[125], f[729], Pc[729], Rf[125];
  for (long r = 0; r < nc; r++) c[r] = feast_test_random(&rng);
  for (long r = 0; r < nf; r++) f[r] = feast_test_random(&rng);
  feast_hex_prolongate(Nc, c, Pc);
  feast_hex_restrict(Nf, f, Rf);
  CHECK(fabs(dot(nf, f, Pc) - dot(nc, Rf, c)) <= 1e-14 * nf);
  CHECK(Pc[(2 * Nf + 4) * Nf + 6] == c[(1 * Nc + 2) * Nc + 3]); /* fine (6,4,2) is coarse (3,2,1) */
}

static void check_bad_input(void) {
  FeastBand A, B;
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, 9, &A));
  CHECK_OK(feast_band_create(&feast_stencil_q1_3d, 4, &B));
  CHECK(feast_band_galerkin(&A, NULL, NULL, &B) == FEAST_ERR_ARG);
  CHECK(strstr(feast_error_message(), "N = 9 and (N + 1) / 2") != NULL);
  feast_error_clear();
  feast_band_destroy(&A), feast_band_destroy(&B);
}

static int run(void) {
  check_products();
  check_rediscretisation(feast_q1_hex_form_laplace, 0);
  check_rediscretisation(feast_q1_hex_form_laplace, 1);
  check_rediscretisation(feast_q1_hex_form_mass, 1);
  check_transfers();
  check_bad_input();
  return 0;
}

FEAST_TEST_MAIN(run)
