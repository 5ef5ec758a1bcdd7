/* Private to the mesh readers (feast/mesh/mesh_native.c, feast/mesh/gmsh_parse.c, feast/mesh/gmsh.c):
 * a bounded line reader for untrusted text files, number parsing whose errors name file:line and the
 * token (mesh_reader.c), the empty mesh they fill (mesh.c), and mesh validation that reports the
 * source line of the offending vertex, quad or part (mesh_validate.c). */
#ifndef FEAST_MESH_IO_H
#define FEAST_MESH_IO_H
#include "feast/mesh/mesh.h"
#include <stdio.h>

#define FEAST_MESH_MAX_ITEMS 10000000 /* vertices, quads, part edges, Gmsh nodes */
#define FEAST_MESH_MAX_PARTS 10000
#define FEAST_MESH_MAX_LINE 65536 /* bytes per line, newline excluded */
#define FEAST_MESH_MAX_TOKENS 64  /* tokens kept per line; more sets `overflow` */

typedef struct {
  FILE *f;
  const char *path;
  int line;          /* number of the current line (1-based) */
  long long size;    /* file size in bytes */
  long long offset;  /* bytes consumed so far */
  int hash_comments; /* '#' starts a comment (native format) */
  char *raw;         /* the current line as read (comment included) */
  char *buf;         /* tokenised copy */
  char *tok[FEAST_MESH_MAX_TOKENS];
  int ntok, overflow; /* tokens kept, 1 if the line had more */
} FeastMeshReader;

int feast_mesh_reader_open(FeastMeshReader *r, const char *path, int hash_comments);
void feast_mesh_reader_close(FeastMeshReader *r);
/* next line with at least one token; *eof = 1 (and no error) at the end of the file */
int feast_mesh_reader_next(FeastMeshReader *r, int *eof);
/* next line with at least one token; the end of the file is an error naming `what` */
int feast_mesh_reader_expect(FeastMeshReader *r, const char *what);
/* exactly n tokens on the current line */
int feast_mesh_reader_ntok(const FeastMeshReader *r, int n, const char *what);
/* token i as an integer in [min, max] / a finite real */
int feast_mesh_tok_int(const FeastMeshReader *r, int i, long long min, long long max, const char *what,
                       long long *value);
int feast_mesh_tok_real(const FeastMeshReader *r, int i, const char *what, double *value);
/* a count of items of at least min_bytes each must fit in the rest of the file */
int feast_mesh_reader_fits(const FeastMeshReader *r, long long count, int min_bytes, const char *what);
/* 1 if s is a valid part name: 1..63 characters of [A-Za-z0-9_-] */
int feast_mesh_name_ok(const char *s);

/* an empty mesh with arrays for nv vertices, nq quads and np parts (part edges not
 * allocated) and its source path */
int feast_mesh_alloc(const char *path, int dim, int nv, int nq, int np, FeastMesh **mesh);

/* source lines for messages (each array may be NULL): per vertex, per quad, per part
 * header, per part edge (all parts' edges in order) */
typedef struct {
  const int *vertex, *quad, *part, *part_edge;
} FeastMeshLines;
int feast_mesh_finish_lines(FeastMesh *mesh, const FeastMeshLines *lines);
#endif
