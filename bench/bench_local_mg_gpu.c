/* The local multigrid on the GPU (CUDA backend) against the CPU double backend, on a Q1
 * Laplace stencil (diag 8/3, neighbours -1/3, identity rows on the boundary), one macro
 * and a batch of 8, levels Lmin..Lmax. Prints a Markdown table per precision:
 *   T_gpu per V cycle of the batch with and without CUDA graphs (CUDA events), the bytes
 *   one cycle moves (counted per kernel), the bandwidth that gives, its fraction of a
 *   device-to-device cudaMemcpy measured in the same run, the CPU double time per cycle
 *   and S_loc = T_cpu / T_gpu (best GPU mode); and GPU full solves (upload, cycles,
 *   download: one host round trip after the warm-up solve) per cycle with S_loc against
 *   them. Small levels (L < 8) show the launch-latency regime where graphs matter. Then per precision the host side
 *   of a solve: kernel launches and memsets/copies per cycle, host round trips per solve,
 *   host -> device and device -> host bytes per solve (defects and corrections move as
 *   doubles, converted on the device), and of a matrix update (the backend's part: copies,
 *   bytes, host time; on the emulator counts, not times).
 * usage: bench_local_mg_gpu [Lmin [Lmax [gpu_cycles [cpu_cycles]]]]   (4 11 20 2) */
#include "coproc/coproc.h"
#include "feast/la/band9.h"
#include "feast/base/error.h"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef FEAST_HAVE_CUDA
#include "coproc/cuda/cuda_bench.h"
#endif

#ifndef FEAST_HAVE_CUDA
int main(void) {
  printf("bench_local_mg_gpu: no CUDA backend in this build\n");
  return 0;
}
#else

#define MAX_MACROS 8
#define MAX_LEVEL 13

typedef struct {
  int L;
  FeastBand9 A[MAX_LEVEL + 1];
  unsigned char *fixed[MAX_LEVEL + 1];
  FeastLocalProblem prob[MAX_MACROS]; /* every macro shares the one hierarchy */
} Problem;

static int build(int L, Problem *p) {
  p->L = L;
  for (int l = 0; l <= L; l++) {
    const int N = (1 << l) + 1;
    FEAST_CALL(feast_band9_create(N, &p->A[l]));
    FEAST_CALL(FEAST_ALLOC((size_t)N * N, &p->fixed[l]));
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++) {
        const long idx = (long)j * N + i;
        if (i == 0 || j == 0 || i == N - 1 || j == N - 1) {
          p->fixed[l][idx] = 1;
          p->A[l].band[FEAST_BAND_DIAG][idx] = 1;
          continue;
        }
        for (int k = 0; k < FEAST_NBANDS; k++)
          p->A[l].band[k][idx] = k == FEAST_BAND_DIAG ? 8.0 / 3.0 : -1.0 / 3.0;
      }
  }
  for (int m = 0; m < MAX_MACROS; m++) {
    p->prob[m].level = L;
    p->prob[m].A = &p->A[L];
    p->prob[m].fixed = (const unsigned char *const *)p->fixed;
    p->prob[m].inside = NULL;
  }
  return 0;
}

static void destroy(Problem *p) {
  for (int l = 0; l <= p->L; l++) {
    feast_band9_destroy(&p->A[l]);
    free(p->fixed[l]);
  }
}

/* CPU double: s per cycle over a solve of `cycles` cycles (rtol 1e-30: all cycles run) */
static int time_cpu(const Problem *p, int M, const FeastLocalMGParams *par, int cycles,
                    double *t_cycle) {
  const int N = (1 << p->L) + 1;
  const long n = (long)N * N;
  FeastLocalMGParams q = *par;
  q.rtol = 1e-30;
  q.max_cycles = cycles;
  double *d[MAX_MACROS] = {0}, *c[MAX_MACROS] = {0};
  FeastLocalSolver *ls = NULL;
  FeastLocalMGStats st;
  int rc = 0;
  for (int m = 0; m < M && !rc; m++) {
    rc = feast_grid_alloc(N, &d[m]);
    if (!rc) rc = feast_grid_alloc(N, &c[m]);
    for (long i = 0; !rc && i < n; i++) d[m][i] = p->fixed[p->L][i] ? 0 : (double)((i * 7919 + m) % 2001) / 1000 - 1;
  }
  if (!rc) rc = feast_local_create("cpu", "double", &ls);
  if (!rc) rc = feast_local_setup(ls, M, p->prob, &q);
  double t = 0;
  if (!rc) {
    const double t0 = MPI_Wtime();
    rc = feast_local_solve(ls, (const double *const *)d, c, &st);
    t = MPI_Wtime() - t0;
  }
  feast_local_destroy(&ls);
  for (int m = 0; m < M; m++) {
    feast_grid_free(N, &d[m]);
    feast_grid_free(N, &c[m]);
  }
  *t_cycle = t / cycles;
  return rc;
}

static void row(int L, int M, const FeastCudaBench *g, double t_cpu, int gpu_cycles) {
  const double tg = g->t_cycle_graph < g->t_cycle_direct ? g->t_cycle_graph : g->t_cycle_direct;
  const double gbs = g->bytes_per_cycle / tg / 1e9;
  const double ts = g->t_solve / gpu_cycles;
  printf("| %2d | %d | %9.1f | %9.1f | %8.2f | %7.1f | %5.2f | %10.1f | %7.1f | %9.1f | %7.1f |\n",
         L, M, 1e6 * g->t_cycle_graph, 1e6 * g->t_cycle_direct, g->bytes_per_cycle / 1e6, gbs,
         gbs / g->copy_gbs, 1e6 * t_cpu, t_cpu / tg, 1e6 * ts, t_cpu / ts);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const int lmin = argc > 1 ? atoi(argv[1]) : 4, lmax = argc > 2 ? atoi(argv[2]) : 11;
  const int gpu_cycles = argc > 3 ? atoi(argv[3]) : 20, cpu_cycles = argc > 4 ? atoi(argv[4]) : 2;
  if (lmin < 1 || lmax > MAX_LEVEL || lmin > lmax || gpu_cycles < 1 || cpu_cycles < 1) {
    fprintf(stderr, "usage: bench_local_mg_gpu [Lmin [Lmax [gpu_cycles [cpu_cycles]]]]\n");
    MPI_Finalize();
    return 1;
  }
  if (!feast_local_available("gpu")) {
    printf("bench_local_mg_gpu: no CUDA device\n");
    MPI_Finalize();
    return 0;
  }
  const FeastLocalMGParams par = {.pre_smooth = 4, .post_smooth = 4, .jacobi_damping = 0.7,
                                  .rtol = 0.1, .max_cycles = 16, .coarse_max_dofs = 200};
  const char *prec[2] = {"single", "double"};
  const int macros[2] = {1, MAX_MACROS};
  FeastCudaBench g[2][MAX_LEVEL + 1][2];
  double tcpu[MAX_LEVEL + 1][2];
  int rc = 0;
  for (int L = lmin; L <= lmax && !rc; L++) {
    Problem p;
    rc = build(L, &p);
    for (int im = 0; im < 2 && !rc; im++) {
      rc = time_cpu(&p, macros[im], &par, cpu_cycles, &tcpu[L][im]);
      for (int k = 0; k < 2 && !rc; k++)
        rc = feast_cuda_bench_local_mg(prec[k], macros[im], p.prob, &par, gpu_cycles, &g[k][L][im]);
    }
    destroy(&p);
  }
  if (rc) {
    fprintf(stderr, "bench_local_mg_gpu: %s (%s)\n", feast_error_message(), feast_error_where());
    MPI_Finalize();
    return 1;
  }
  printf("# Local multigrid, GPU (%s) vs CPU double\n\n", g[0][lmin][0].device);
  printf("V cycle 4+4 damped Jacobi, exact coarse solve (dense inverse) on 9x9; a cycle = V cycle +\n"
         "defect + norm of every macro of the batch. GB/s from counted bytes and the faster GPU\n"
         "mode; copy = device-to-device cudaMemcpy (read + write) in the same run: %.0f GB/s.\n"
         "S_loc = T_cpu / T_gpu per cycle; GPU solve = (upload + %d cycles + download) / cycles.\n",
         g[0][lmin][0].copy_gbs, gpu_cycles);
  for (int k = 0; k < 2; k++) {
    printf("\n## GPU %s\n\n", prec[k]);
    printf("| L | macros | us/cycle graph | us/cycle direct | MB/cycle | GB/s | of copy | "
           "CPU us/cycle | S_loc | GPU solve us/cycle | S_loc solve |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int L = lmin; L <= lmax; L++)
      for (int im = 0; im < 2; im++) row(L, macros[im], &g[k][L][im], tcpu[L][im], gpu_cycles);
    printf("\n| L | macros | kernels/cycle | + memsets, copies | round trips/solve | H2D bytes/solve | "
           "D2H bytes/solve (%d cycles) | update: copies | update: bytes | update: host ms |\n",
           gpu_cycles);
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (int L = lmin; L <= lmax; L++)
      for (int im = 0; im < 2; im++) {
        const FeastCudaBench *b = &g[k][L][im];
        printf("| %2d | %d | %d | %d | %d | %.0f | %.0f | %d | %.0f | %.3f |\n", L, macros[im],
               b->launches_per_cycle, b->memops_per_cycle, b->round_trips, b->h2d_bytes,
               b->d2h_bytes, b->update_copies, b->update_bytes, 1e3 * b->update_host_s);
      }
  }
  MPI_Finalize();
  return 0;
}
#endif
