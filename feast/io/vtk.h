/* VTK XML output for ParaView: every rank writes its macros to <base>_r<rank>.vtu, rank 0
 * writes <base>.pvtu listing all pieces by relative file name. Each macro refined to
 * level L contributes its N x N nodes (N = 2^L+1; nodes on shared edges appear once per
 * macro) and (N-1)^2 quads; node (i,j) of local macro k is point k*N*N + j*N + i.
 * Cell data: "macro" (global macro id) and "rank" (Int32). Point data: the caller's
 * fields as Float64, 2-vectors padded with a zero third component. Arrays are stored as
 * raw binary appended data (UInt64 size headers, the machine's byte order). */
#ifndef FEAST_VTK_H
#define FEAST_VTK_H
#include <mpi.h>
#include <stddef.h>

typedef struct {
  const char *name;            /* letters, digits, '_', '-', '.' */
  int ncomp;                   /* 1 (scalar) or the dimension (vector) */
  const double *const *values; /* per local macro: N^dim ncomp values, node-major */
} FeastVtkField;

/* Collective over comm. coords: per local macro 2*N*N interleaved x,y. The directory of
 * base must exist. Returns the same nonzero status on every rank if any rank fails; the
 * message names the file that could not be written. */
/* the files of output prefix base: rank r's piece "base_r<r>.vtu" (rank = -1: the
 * ParaView index "base.pvtu"); the name in buf, FEAST_ERR_CONFIG when it does not fit */
int feast_vtk_file_name(const char *base, int rank, char *buf, size_t size);
/* the ParaView collection `path` (.pvd) of n snapshots: files[k] (names relative to the
 * folder of path) at times[k]; written atomically (feast/base/atomic.h) by the calling process
 * alone (rank 0) */
int feast_vtk_write_pvd(const char *path, int n, const char *const *files, const double *times);
int feast_vtk_write(const char *base, int level, int nlocal, const int *macro_ids,
                    const double *const *coords, int nfields, const FeastVtkField *fields,
                    MPI_Comm comm);
/* the same for hexahedral macros (issue #47): per local macro 3 N^3 interleaved x, y, z
 * (node (i, j, k) at (k N + j) N + i, feast/mesh/hex.h), fields of 1 or 3 components,
 * (N-1)^3 VTK hexahedra each (corners (i,j,k), (i+1,j,k), (i+1,j+1,k), (i,j+1,k), then the
 * same at k+1) */
int feast_vtk_write_hex(const char *base, int level, int nlocal, const int *macro_ids, const double *const *coords,
                        int nfields, const FeastVtkField *fields, MPI_Comm comm);
#endif
