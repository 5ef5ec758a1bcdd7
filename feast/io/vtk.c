#include "feast/io/vtk.h"
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include "feast/mesh/mesh.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VTK_QUAD = 9, VTK_HEXAHEDRON = 12 };
enum { FIELD, MACRO_ID, RANK_ID, POINTS, CONNECTIVITY, OFFSETS, TYPES, NFIXED = 6 };

/* one DataArray: what it holds and its size per macro in bytes */
typedef struct {
  int kind, field;
  const char *name, *type;
  int ncomp;
  int64_t per_macro;
} Array;

/* what one rank writes: macros of dimension dim (2: quadrilaterals, 3: hexahedra) */
typedef struct {
  int dim, n, nlocal, rank, nfields;
  const int *macro_ids;
  const double *const *coords;
  const FeastVtkField *fields;
} Piece;

static const char *byte_order(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one ? "LittleEndian" : "BigEndian";
}

static int valid_name(const char *s) {
  if (!s || !*s) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '-' || *s == '.'))
      return 0;
  return 1;
}

static int check_args(const char *base, int level, const Piece *p) {
  FEAST_CHECK(base && *base, FEAST_ERR_ARG, "VTK output: empty file name");
  FEAST_CHECK(level >= 0 && level <= FEAST_MAX_LEVEL, FEAST_ERR_ARG,
              "VTK output %s: level %d outside [0, %d]", base, level, FEAST_MAX_LEVEL);
  FEAST_CHECK(p->nlocal >= 0 && p->nfields >= 0 && (p->nfields == 0 || p->fields), FEAST_ERR_ARG,
              "VTK output %s: invalid macro or field count", base);
  FEAST_CHECK(p->nlocal == 0 || (p->macro_ids && p->coords), FEAST_ERR_ARG,
              "VTK output %s: missing macro ids or coordinates", base);
  for (int k = 0; k < p->nlocal; k++)
    FEAST_CHECK(p->macro_ids[k] >= 0 && p->coords[k], FEAST_ERR_ARG,
                "VTK output %s: local macro %d has id %d or no coordinates", base, k,
                p->macro_ids[k]);
  for (int f = 0; f < p->nfields; f++) {
    const FeastVtkField *fd = &p->fields[f];
    FEAST_CHECK(valid_name(fd->name), FEAST_ERR_ARG, "VTK output %s: invalid field name '%s'",
                base, fd->name ? fd->name : "(null)");
    FEAST_CHECK(fd->ncomp == 1 || fd->ncomp == p->dim, FEAST_ERR_ARG,
                "VTK output %s: field %s has %d components (1 or %d supported)", base, fd->name, fd->ncomp, p->dim);
    FEAST_CHECK(p->nlocal == 0 || fd->values, FEAST_ERR_ARG, "VTK output %s: field %s has no values",
                base, fd->name);
    for (int k = 0; k < p->nlocal; k++)
      FEAST_CHECK(fd->values[k], FEAST_ERR_ARG, "VTK output %s: field %s has no values on macro %d",
                  base, fd->name, p->macro_ids[k]);
  }
  return 0;
}

/* nodes and cells of one macro, corners of a cell */
static int64_t piece_nodes(const Piece *p) { return p->dim == 3 ? (int64_t)p->n * p->n * p->n : (int64_t)p->n * p->n; }
static int64_t piece_cells(const Piece *p) {
  const int64_t m = p->n - 1;
  return p->dim == 3 ? m * m * m : m * m;
}
static int cell_corners(const Piece *p) { return p->dim == 3 ? 8 : 4; }

/* the arrays in file order: point data, cell data, points, cells; returns the count */
static int array_table(const Piece *p, Array *a) {
  int64_t nodes = piece_nodes(p), cells = piece_cells(p), c = 0;
  for (int f = 0; f < p->nfields; f++)
    a[c++] = (Array){FIELD, f, p->fields[f].name, "Float64", p->fields[f].ncomp == 1 ? 1 : 3,
                     nodes * (p->fields[f].ncomp == 1 ? 1 : 3) * 8};
  a[c++] = (Array){MACRO_ID, 0, "macro", "Int32", 1, cells * 4};
  a[c++] = (Array){RANK_ID, 0, "rank", "Int32", 1, cells * 4};
  a[c++] = (Array){POINTS, 0, "Points", "Float64", 3, nodes * 3 * 8};
  a[c++] = (Array){CONNECTIVITY, 0, "connectivity", "Int64", 1, cells * cell_corners(p) * 8};
  a[c++] = (Array){OFFSETS, 0, "offsets", "Int64", 1, cells * 8};
  a[c++] = (Array){TYPES, 0, "types", "UInt8", 1, cells};
  return (int)c;
}

/* dst[0..2] <- the dim values of src, a zero third in 2D */
static void three(int dim, const double *src, double *dst) {
  dst[0] = src[0], dst[1] = src[1], dst[2] = dim == 3 ? src[2] : 0.0;
}

/* the bytes of array a for local macro k, into buf (a->per_macro bytes) */
static void fill(const Piece *p, const Array *a, int k, void *buf) {
  const int64_t n = p->n, nn = piece_nodes(p), nc = piece_cells(p), corners = cell_corners(p);
  const int dim = p->dim;
  double *d = buf;
  int32_t *i32 = buf;
  int64_t *i64 = buf, first = (int64_t)k * nn;
  switch (a->kind) {
  case FIELD: {
    const double *v = p->fields[a->field].values[k];
    const int vector = p->fields[a->field].ncomp > 1;
    for (int64_t q = 0; q < nn; q++) {
      if (!vector) d[q] = v[q];
      else three(dim, v + dim * q, d + 3 * q);
    }
    break;
  }
  case MACRO_ID:
  case RANK_ID:
    for (int64_t c = 0; c < nc; c++) i32[c] = a->kind == MACRO_ID ? p->macro_ids[k] : p->rank;
    break;
  case POINTS:
    for (int64_t q = 0; q < nn; q++) three(dim, p->coords[k] + dim * q, d + 3 * q);
    break;
  case CONNECTIVITY: /* (i,j), (i+1,j), (i+1,j+1), (i,j+1) counter-clockwise; in 3D those at k, then at k+1 */
    for (int64_t l = 0; l < (dim == 3 ? n - 1 : 1); l++)
      for (int64_t j = 0; j < n - 1; j++)
        for (int64_t i = 0; i < n - 1; i++, i64 += corners) {
          const int64_t q = first + (l * n + j) * n + i;
          i64[0] = q, i64[1] = q + 1, i64[2] = q + n + 1, i64[3] = q + n;
          for (int c = 0; c < 4 && dim == 3; c++) i64[4 + c] = i64[c] + n * n;
        }
    break;
  case OFFSETS:
    for (int64_t c = 0; c < nc; c++) i64[c] = corners * ((int64_t)k * nc + c + 1);
    break;
  case TYPES: memset(buf, dim == 3 ? VTK_HEXAHEDRON : VTK_QUAD, (size_t)nc); break;
  }
}

/* <DataArray .../> declarations; offsets != NULL: a .vtu piece, else .pvtu (PDataArray) */
static void declare(FILE *f, const Array *a, int first, int last, const int64_t *offsets) {
  for (int i = first; i < last; i++) {
    fprintf(f, "        <%sDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"",
            offsets ? "" : "P", a[i].type, a[i].name, a[i].ncomp);
    if (offsets) fprintf(f, " format=\"appended\" offset=\"%lld\"", (long long)offsets[i]);
    fputs("/>\n", f);
  }
}

/* the XML of a .vtu (offsets given) or .pvtu (offsets NULL): everything but the data */
static void write_xml(FILE *f, const Piece *p, const Array *a, int na, const int64_t *offsets) {
  const char *grid = offsets ? "UnstructuredGrid" : "PUnstructuredGrid", *P = offsets ? "" : "P";
  int cell0 = p->nfields, points = cell0 + 2, cells = points + 1;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"%s\" version=\"1.0\" byte_order=\"%s\" "
             "header_type=\"UInt64\">\n  <%s%s>\n", grid, byte_order(), grid,
          offsets ? "" : " GhostLevel=\"0\"");
  if (offsets)
    fprintf(f, "    <Piece NumberOfPoints=\"%lld\" NumberOfCells=\"%lld\">\n", (long long)(p->nlocal * piece_nodes(p)),
            (long long)(p->nlocal * piece_cells(p)));
  fprintf(f, "      <%sPointData>\n", P);
  declare(f, a, 0, cell0, offsets);
  fprintf(f, "      </%sPointData>\n      <%sCellData>\n", P, P);
  declare(f, a, cell0, points, offsets);
  fprintf(f, "      </%sCellData>\n      <%sPoints>\n", P, P);
  declare(f, a, points, cells, offsets);
  fprintf(f, "      </%sPoints>\n", P);
  if (offsets) {
    fputs("      <Cells>\n", f);
    declare(f, a, cells, na, offsets);
    fputs("      </Cells>\n    </Piece>\n", f);
  }
}

/* close f; FEAST_ERR_FILE naming path (and removing it) if anything failed */
static int close_file(FILE *f, const char *path) {
  int bad = ferror(f), err = errno;
  if (fclose(f) != 0 && !bad) bad = 1, err = errno;
  if (bad) remove(path);
  FEAST_CHECK(!bad, FEAST_ERR_FILE, "cannot write VTK file %s: %s", path, strerror(err));
  return 0;
}

static int write_piece(const char *path, const Piece *p) {
  Array a[64 + NFIXED];
  int na = array_table(p, a);
  int64_t offsets[64 + NFIXED], off = 0, maxbytes = 1;
  for (int i = 0; i < na; i++) {
    int64_t bytes;
    offsets[i] = off;
    FEAST_CHECK(!feast_mul_i64(p->nlocal, a[i].per_macro, &bytes) &&
                    !feast_add_i64(off, bytes + 8, &off),
                FEAST_ERR_LIMIT, "VTK file %s would exceed 2^63 bytes", path);
    if (a[i].per_macro > maxbytes) maxbytes = a[i].per_macro;
  }
  unsigned char *buf = NULL;
  FEAST_CALL(FEAST_ALLOC(maxbytes, &buf));
  FILE *f = fopen(path, "wb");
  if (!f) {
    feast_free(&buf);
    FEAST_ERROR(FEAST_ERR_FILE, "cannot write VTK file %s: %s", path, strerror(errno));
  }
  write_xml(f, p, a, na, offsets);
  fputs("  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n_", f);
  for (int i = 0; i < na && !ferror(f); i++) {
    uint64_t bytes = (uint64_t)p->nlocal * (uint64_t)a[i].per_macro;
    fwrite(&bytes, sizeof bytes, 1, f);
    for (int k = 0; k < p->nlocal && !ferror(f); k++) {
      fill(p, &a[i], k, buf);
      fwrite(buf, 1, (size_t)a[i].per_macro, f);
    }
  }
  fputs("\n  </AppendedData>\n</VTKFile>\n", f);
  feast_free(&buf);
  return close_file(f, path);
}

static int write_pvtu(const char *path, const char *stem, int nranks, const Piece *p) {
  Array a[64 + NFIXED];
  int na = array_table(p, a);
  FILE *f = fopen(path, "w");
  FEAST_CHECK(f, FEAST_ERR_FILE, "cannot write VTK file %s: %s", path, strerror(errno));
  write_xml(f, p, a, na, NULL);
  for (int r = 0; r < nranks; r++) fprintf(f, "    <Piece Source=\"%s_r%d.vtu\"/>\n", stem, r);
  fputs("  </PUnstructuredGrid>\n</VTKFile>\n", f);
  return close_file(f, path);
}

int feast_vtk_file_name(const char *base, int rank, char *buf, size_t size) {
  int n = rank >= 0 ? snprintf(buf, size, "%s_r%d.vtu", base, rank) : snprintf(buf, size, "%s.pvtu", base);
  FEAST_CHECK(n >= 0 && (size_t)n < size, FEAST_ERR_CONFIG, "output.vtk = %s: path too long", base);
  return 0;
}

/* this rank's part: its piece, and on rank 0 the .pvtu */
static int write_local(const char *base, int level, const Piece *p, int nranks) {
  FEAST_CALL(check_args(base, level, p));
  FEAST_CHECK(p->nfields <= 64, FEAST_ERR_LIMIT, "VTK output %s: more than 64 fields", base);
  size_t len = strlen(base) + 32;
  char *path = NULL;
  FEAST_CALL(FEAST_ALLOC(len, &path));
  FEAST_CALL(feast_vtk_file_name(base, p->rank, path, len));
  int status = write_piece(path, p);
  if (!status && p->rank == 0) {
    const char *slash = strrchr(base, '/');
    status = feast_vtk_file_name(base, -1, path, len);
    if (!status) status = write_pvtu(path, slash ? slash + 1 : base, nranks, p);
  }
  feast_free(&path);
  return status;
}

static int write_dim(int dim, const char *base, int level, int nlocal, const int *macro_ids,
                     const double *const *coords, int nfields, const FeastVtkField *fields, MPI_Comm comm) {
  int rank, nranks;
  FEAST_MPI_CALL(MPI_Comm_rank(comm, &rank));
  FEAST_MPI_CALL(MPI_Comm_size(comm, &nranks));
  Piece p = {dim, level >= 0 && level <= FEAST_MAX_LEVEL ? feast_level_n(level) : 2,
             nlocal, rank, nfields, macro_ids, coords, fields};
  int status = write_local(base, level, &p, nranks);
  /* agree: every rank fails if one did, naming the first failing rank */
  int mine = status ? rank : nranks, first_bad;
  FEAST_MPI_CALL(MPI_Allreduce(&mine, &first_bad, 1, MPI_INT, MPI_MIN, comm));
  if (status) return status;
  FEAST_CHECK(first_bad == nranks, FEAST_ERR_FILE, "VTK output %s failed on rank %d",
              base ? base : "", first_bad);
  return 0;
}

int feast_vtk_write(const char *base, int level, int nlocal, const int *macro_ids, const double *const *coords,
                    int nfields, const FeastVtkField *fields, MPI_Comm comm) {
  return write_dim(2, base, level, nlocal, macro_ids, coords, nfields, fields, comm);
}

int feast_vtk_write_hex(const char *base, int level, int nlocal, const int *macro_ids, const double *const *coords,
                        int nfields, const FeastVtkField *fields, MPI_Comm comm) {
  return write_dim(3, base, level, nlocal, macro_ids, coords, nfields, fields, comm);
}

int feast_vtk_write_pvd(const char *path, int n, const char *const *files, const double *times) {
  FEAST_CHECK(path && *path && n >= 0 && (n == 0 || (files && times)), FEAST_ERR_ARG, "PVD output: invalid arguments");
  size_t cap = 256, len = 0;
  for (int k = 0; k < n; k++) cap += strlen(files[k]) + 96;
  char *text;
  FEAST_CALL(FEAST_ALLOC(cap, &text));
  len += (size_t)snprintf(text + len, cap - len,
                          "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"%s\">\n"
                          "  <Collection>\n",
                          byte_order());
  for (int k = 0; k < n; k++)
    len += (size_t)snprintf(text + len, cap - len, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n",
                            times[k], files[k]);
  len += (size_t)snprintf(text + len, cap - len, "  </Collection>\n</VTKFile>\n");
  const int st = feast_write_atomic(path, "output.vtk (collection)", text, len);
  free(text);
  return st;
}
