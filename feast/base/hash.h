/* FNV-1a 64: checksums of checkpoints, fingerprints of meshes (not cryptographic: it
 * detects damage, not tampering). Chain calls by passing the last result as h. */
#ifndef FEAST_HASH_H
#define FEAST_HASH_H
#include <stddef.h>
#include <stdint.h>
#define FEAST_FNV_OFFSET 0xcbf29ce484222325ULL
static inline uint64_t feast_fnv1a64(uint64_t h, const void *data, size_t len) {
  const unsigned char *p = data;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}
#endif
