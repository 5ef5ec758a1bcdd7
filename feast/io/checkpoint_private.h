/* The checkpoint object shared by feast/io/checkpoint.c (building it, its header values
 * and arrays, the run description) and feast/io/checkpoint_io.c (the file: writing by
 * every rank, reading and verifying). */
#ifndef FEAST_CHECKPOINT_PRIVATE_H
#define FEAST_CHECKPOINT_PRIVATE_H
#include "feast/io/checkpoint.h"
#include <mpi.h>
#include <stdint.h>

enum {
  CK_MAX_LINE = 4096, /* of a header line */
  CK_MAX_NAME = 64    /* of an array name */
};

/* an array of the file: n doubles. A plain array is held whole (x: n values). A field
 * being written holds the rank's part, count values x at the ascending global ids gid;
 * a field read from a version 2 file stays in the file at byte `offset` until
 * feast_checkpoint_field reads the values a rank needs (x NULL). */
typedef struct {
  char name[CK_MAX_NAME];
  int64_t n;
  int field;
  double *x;
  int64_t *gid, count;
  int64_t offset;
} CkArray;

struct FeastCheckpoint {
  char *header; /* "key value\n" lines */
  size_t header_len, header_cap;
  CkArray *arrays;
  int narrays;
  char *path; /* the file read */
};

/* append "key value\n" to the header */
int ck_append_line(FeastCheckpoint *ck, const char *key, const char *value);
/* a new array or field named name of n values (x of n values allocated for an array) */
int ck_push_array(FeastCheckpoint *ck, const char *name, int64_t n, int field, CkArray **a);
#endif
