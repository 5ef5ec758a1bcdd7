/* Files that readers never see half-written: the text goes to PATH.tmp in the same
 * folder, then is renamed to PATH. */
#ifndef FEAST_ATOMIC_H
#define FEAST_ATOMIC_H
#include <stddef.h>
/* what names the file's kind in messages ("JSON summary"); FEAST_ERR_FILE naming path */
int feast_write_atomic(const char *path, const char *what, const char *text, size_t len);
#endif
