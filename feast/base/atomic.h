/* Files that readers never see half-written: the text goes to PATH.tmp in the same
 * folder, is flushed to the disk (fsync), then is renamed to PATH, and the folder is
 * synced, so PATH is the old or the new complete file also after a crash. */
#ifndef FEAST_ATOMIC_H
#define FEAST_ATOMIC_H
#include <stddef.h>
#define FEAST_ATOMIC_SUFFIX ".tmp" /* of the temporary file */
/* what names the file's kind in messages ("JSON summary"); FEAST_ERR_FILE naming path */
int feast_write_atomic(const char *path, const char *what, const char *text, size_t len);
/* the complete file tmp (flushed by its writer, e.g. every rank of a parallel write)
 * renamed to path, the folder synced; tmp removed on failure */
int feast_commit_atomic(const char *tmp, const char *path, const char *what);
#endif
