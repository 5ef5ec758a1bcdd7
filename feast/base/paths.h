/* Outputs never clobber inputs: every file a run reads (config, mesh, restart checkpoint)
 * and every file it will write (summary, VTK pieces, Matrix Market pair, centre lines,
 * checkpoint) is registered under the config key or option that names it, and checked
 * before anything is written. Two names denote the same file when
 *   - both exist and have the same device and inode (so symlinks, hard links and
 *     ./ ../ spellings are caught), or
 *   - neither exists and their canonical parent folders (realpath) and last components
 *     are equal.
 * A clash (an output on an input, or two outputs on one file) is FEAST_ERR_CONFIG naming
 * both keys and paths. */
#ifndef FEAST_PATHS_H
#define FEAST_PATHS_H
#include <stddef.h>

typedef struct FeastPaths FeastPaths;

int feast_paths_create(FeastPaths **paths);
void feast_paths_destroy(FeastPaths **paths);
/* a file the run reads, named by `key` ("config file", "grid.file", "--restart");
 * replaceable_by: the key of the one output that may replace it (the checkpoint that
 * continues the restart file, written atomically after the input was read), or NULL */
int feast_paths_add_input(FeastPaths *paths, const char *key, const char *path, const char *replaceable_by);
/* a file the run writes, named by `key` ("output.summary") */
int feast_paths_add_output(FeastPaths *paths, const char *key, const char *path);
/* a file written by feast_write_atomic: path and its temporary file path.tmp */
int feast_paths_add_atomic_output(FeastPaths *paths, const char *key, const char *path);
/* every output against every input and against every other output */
int feast_paths_check(const FeastPaths *paths);
#endif
