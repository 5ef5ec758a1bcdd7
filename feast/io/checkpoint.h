/* Checkpoint files: a text header of "key value" lines, named arrays of doubles, and a
 * checksum of every byte before it, written atomically (feast/base/atomic.h), so a reader
 * sees either the previous complete file or the new complete one, never a half-written
 * one; a damaged file (flipped byte, truncated) fails the checksum. Layout:
 *   feastc-checkpoint 1
 *   byte_order little
 *   KEY VALUE                (any number; the value runs to the end of the line)
 *   array NAME COUNT         (in the order of the data)
 *   data
 *   <COUNT doubles of each array, native byte order>
 *   checksum HHHHHHHHHHHHHHHH (FNV-1a 64 of all bytes before this line, 16 hex digits)
 * The run description (feast_checkpoint_describe) names problem, mesh (name and a
 * fingerprint of its geometry and parts), level, rank count and the config values that
 * define the problem and its solver; feast_checkpoint_match checks a restart against it. */
#ifndef FEAST_CHECKPOINT_H
#define FEAST_CHECKPOINT_H
#include "feast/config/config.h"
#include "feast/mesh/mesh.h"
#include <stdint.h>

typedef struct FeastCheckpoint FeastCheckpoint;

int feast_checkpoint_create(FeastCheckpoint **ck);
void feast_checkpoint_destroy(FeastCheckpoint **ck);
/* a header line "key value" (key without blanks, value one line) */
int feast_checkpoint_set(FeastCheckpoint *ck, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* an array (copied) */
int feast_checkpoint_add_array(FeastCheckpoint *ck, const char *name, const double *x, int64_t n);
/* atomically, with the checksum; FEAST_ERR_FILE naming path */
int feast_checkpoint_write(const FeastCheckpoint *ck, const char *path);
/* read and verify (format, checksum, sizes); FEAST_ERR_FILE naming `shown` (the option
 * or key that gave the path) and path */
int feast_checkpoint_read(const char *path, const char *shown, FeastCheckpoint **ck);

/* the value of a header key, NULL if absent */
const char *feast_checkpoint_get(const FeastCheckpoint *ck, const char *key);
/* header values as numbers; FEAST_ERR_FILE naming the file when absent or malformed */
int feast_checkpoint_get_long(const FeastCheckpoint *ck, const char *key, long *value);
int feast_checkpoint_get_real(const FeastCheckpoint *ck, const char *key, double *value);
/* the array `name`, which must have n values; FEAST_ERR_FILE otherwise */
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
