/* Checkpoint files: a text header of "key value" lines, named arrays of doubles, and a
 * checksum, written atomically (feast/base/atomic.h), so a reader sees either the previous
 * complete file or the new complete one, never a half-written one; a damaged file (flipped
 * byte, truncated) fails the checksum. An array is held whole (rank 0's: counters, series);
 * a field is an array in the global node numbering of the mesh (feast_mesh_gid) of which
 * every rank holds only its part: each rank writes the values of the nodes it owns at
 * their place in the file, in one collective write, and reads those it needs, so no rank's
 * memory grows with the problem (the layout: feast/io/checkpoint_io.c). The file does
 * not depend on the rank count: written on N ranks, it is read on any M.
 * The run description (feast_checkpoint_describe) names problem, mesh (name and a
 * fingerprint of its geometry and parts), level, rank count and the config values that
 * define the problem and its solver; feast_checkpoint_match checks a restart against it. */
#ifndef FEAST_CHECKPOINT_H
#define FEAST_CHECKPOINT_H
#include "feast/config/config.h"
#include "feast/la/vector.h"
#include "feast/mesh/mesh.h"
#include <mpi.h>
#include <stdint.h>

typedef struct FeastCheckpoint FeastCheckpoint;

int feast_checkpoint_create(FeastCheckpoint **ck);
void feast_checkpoint_destroy(FeastCheckpoint **ck);
/* a header line "key value" (key without blanks, value one line) */
int feast_checkpoint_set(FeastCheckpoint *ck, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* an array (copied; written by rank 0, ignored on the other ranks) */
int feast_checkpoint_add_array(FeastCheckpoint *ck, const char *name, const double *x, int64_t n);
/* a field of nglobal values: this rank's part, count values x at the global ids gid
 * (copied; any order, each id once; over all ranks every id exactly once). Every rank adds
 * the same fields in the same order. */
int feast_checkpoint_add_field(FeastCheckpoint *ck, const char *name, int64_t nglobal, int64_t count,
                               const int64_t *gid, const double *x);
/* block b of the consistent vector x as the field name: the nodes this rank owns */
int feast_checkpoint_add_vec_block(FeastCheckpoint *ck, const char *name, const FeastVec *x, int b);
/* collective over comm: rank 0's header and arrays and every rank's part of every field,
 * atomically, with the checksum; every rank returns the same status (FEAST_ERR_FILE
 * naming path) */
int feast_checkpoint_write(const FeastCheckpoint *ck, MPI_Comm comm, const char *path);
/* collective over comm: rank 0 reads and verifies the whole file (format, checksum,
 * sizes) in pieces, then every rank holds its header and arrays; FEAST_ERR_FILE naming
 * `shown` (the option or key that gave the path) and path, on every rank */
int feast_checkpoint_read(const char *path, const char *shown, MPI_Comm comm, FeastCheckpoint **ck);
/* collective over comm (the ranks that hold the values, each asking for the same name):
 * the values of the field name (nglobal of them) at the count global ids gid (any,
 * repeated or not) into x */
int feast_checkpoint_field(const FeastCheckpoint *ck, MPI_Comm comm, const char *name, int64_t nglobal, int64_t count,
                           const int64_t *gid, double *x);
/* the same into every copy of every node of block b of x (collective over x's domain) */
int feast_checkpoint_vec_block(const FeastCheckpoint *ck, const char *name, FeastVec *x, int b);

/* the value of a header key, NULL if absent */
const char *feast_checkpoint_get(const FeastCheckpoint *ck, const char *key);
/* header values as numbers; FEAST_ERR_FILE naming the file when absent or malformed */
int feast_checkpoint_get_long(const FeastCheckpoint *ck, const char *key, long *value);
int feast_checkpoint_get_real(const FeastCheckpoint *ck, const char *key, double *value);
/* the array `name` (not a field), which must have n values; FEAST_ERR_FILE otherwise */
int feast_checkpoint_array(const FeastCheckpoint *ck, const char *name, int64_t n, const double **x);
const char *feast_checkpoint_path(const FeastCheckpoint *ck); /* "" for one not read */

/* header lines describing the run: the problem (the value of the schema's key flagged
 * FEAST_KEY_PROBLEM_TYPE), mesh, mesh_fingerprint, level, ranks, fields and "config KEY
 * VALUE" for every key with a role (FEAST_KEY_DISCRETE or FEAST_KEY_RECORDED, set in the
 * key tables: feast/config/config.h; a pattern section's keys in each such section present) */
int feast_checkpoint_describe(FeastCheckpoint *ck, const FeastConfig *cfg, const FeastMesh *mesh, int level,
                              int nranks, int fields);
/* a restart of the checkpoint with this config and mesh: FEAST_ERR_CONFIG when problem,
 * mesh, level, fields or the value of a FEAST_KEY_DISCRETE key differ (another problem,
 * naming the key and both values); a warning for each differing FEAST_KEY_RECORDED value
 * (the run goes on, but is no longer the same as the uninterrupted one). A key written
 * under a name it had before it moved is found under that name. Any rank count. */
int feast_checkpoint_match(const FeastCheckpoint *ck, const FeastConfig *cfg, const FeastMesh *mesh, int level,
                           int fields);
#endif
